// A small table file written by tsread's writer for the DuckDB tests that need rows of their own:
// table "t", one TAG column and one INT64 FIELD `v`, one device.
#ifndef TSREAD_TEST_DUCKDB_ONE_DEVICE_FILE_H_
#define TSREAD_TEST_DUCKDB_ONE_DEVICE_FILE_H_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {

// Writes `path`: TAG column `tag` = "d1", FIELD v = values[i] at times[i]. Returns the path ("" after
// a test failure when it cannot be written).
inline std::string WriteOneDeviceFile(const std::filesystem::path& path, const std::string& tag,
                                      const std::vector<int64_t>& times, const std::vector<int64_t>& values) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{tag, DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"v", DataType::kInt64, 0, 0, {}, ColumnCategory::kField});
  absl::StatusOr<std::unique_ptr<TsFileWriter>> writer = TsFileWriter::Create(path.string(), schema);
  EXPECT_TRUE(writer.ok()) << writer.status();
  if (!writer.ok()) return "";
  ColumnValues v;
  v.type = DataType::kInt64;
  v.int64s = values;
  const absl::Status written = (*writer)->WriteRows((*writer)->MakeDeviceId({"d1"}), times, {v});
  EXPECT_TRUE(written.ok()) << written;
  const absl::Status closed = (*writer)->Close();
  EXPECT_TRUE(closed.ok()) << closed;
  return written.ok() && closed.ok() ? path.string() : "";
}

}  // namespace tsread::testing

#endif  // TSREAD_TEST_DUCKDB_ONE_DEVICE_FILE_H_

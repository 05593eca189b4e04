// Test helper (header-only): table t(tag1 TAG, s1, s2) written by tsread's writer with the field
// types the values carry — files of one table whose columns changed type (IoTDB's ALTER COLUMN ...
// SET DATA TYPE) for the IoTDB, CLI and SQL tests.
#ifndef TSREAD_TESTING_TWO_FIELD_TABLE_H_
#define TSREAD_TESTING_TWO_FIELD_TABLE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {

// Writes `path`: device "a" (tag1), one row per value slot of `s1` and `s2`, at times first,
// first + 1, ...; s1 and s2 of the types `s1.type` and `s2.type`.
inline void WriteTwoFieldTable(const std::string& path, int64_t first, ColumnValues s1, ColumnValues s2) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{.name = "tag1", .data_type = DataType::kString, .category = ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{.name = "s1", .data_type = s1.type});
  schema.columns.push_back(ColumnSchema{.name = "s2", .data_type = s2.type});
  auto writer = TsFileWriter::Create(path, schema, {});
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::vector<int64_t> times;
  for (size_t r = 0; r < s1.value_slots(); ++r) times.push_back(first + static_cast<int64_t>(r));
  std::vector<ColumnValues> fields = {std::move(s1), std::move(s2)};
  absl::Status written = (*writer)->WriteRows((*writer)->MakeDeviceId({"a"}), times, fields);
  ASSERT_TRUE(written.ok()) << written;
  absl::Status closed = (*writer)->Close();
  ASSERT_TRUE(closed.ok()) << closed;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_TWO_FIELD_TABLE_H_

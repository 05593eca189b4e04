// Test helper (header-only): small tree-model files written on the fly — device root.sg1.d1 with one
// aligned series s1 of any type, a chunk group per flush — for the IoTDB tests of the library and CLI.
#ifndef TSREAD_TESTING_TREE_FILE_H_
#define TSREAD_TESTING_TREE_FILE_H_

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/output_sink.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {

// Writes `path` (folders made): tree-model aligned device root.sg1.d1 with one series s1, one chunk
// group per flush of (times, values) — written as table "root.sg1" and sealed again without its
// schema (a table named root.* is the tree model's, check/sealed_copy.h).
inline void WriteTreeFile(const std::string& path, const std::vector<std::pair<std::vector<int64_t>, ColumnValues>>& flushes) {
  TableSchema schema;
  schema.name = "root.sg1";
  schema.columns.push_back(ColumnSchema{.name = "dev", .data_type = DataType::kString, .category = ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{.name = "s1", .data_type = flushes.at(0).second.type});
  TableWriterOptions options;
  options.chunk_groups_in_any_order = true;
  std::string table_file;
  auto writer = TsFileWriter::CreateInMemory(&table_file, schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const auto& [times, values] : flushes) {
    ASSERT_TRUE((*writer)->WriteRows((*writer)->MakeDeviceId({"d1"}), times, {values}).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto table_reader = TsFileReader::Open(MemoryFileView(table_file));
  ASSERT_TRUE(table_reader.ok()) << table_reader.status();
  const std::string data_section = table_file.substr(0, (*table_reader)->metadata().meta_offset + 1);
  std::string tree_file;
  auto sealed = WriteSealedCopy(*MemoryFileView(data_section), *StringOutputSink(&tree_file));
  ASSERT_TRUE(sealed.ok()) << sealed.status();
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << tree_file;
}

inline ColumnValues Int32s(std::vector<int32_t> values) {
  ColumnValues c;
  c.type = DataType::kInt32;
  c.int32s = std::move(values);
  return c;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_TREE_FILE_H_

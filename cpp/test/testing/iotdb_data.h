// Test helper (header-only) for the IoTDB tests: small IoTDB data directories written on the fly —
// table-model files of table t(tag1 TAG, tag2 TAG, s1 INT32 FIELD, s2 INT32 FIELD) placed where
// IoTDB puts them, deletion files built byte by byte from the layouts of iotdb-deletion-files.md,
// and the merged rows a scan returns, as sorted text.
#ifndef TSREAD_TESTING_IOTDB_DATA_H_
#define TSREAD_TESTING_IOTDB_DATA_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/temp_path.h"
#include "tsread/iotdb/iotdb_dataset.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread::testing {

// A test with a data directory of its own: root_, empty at the start, removed at the end (named
// after the test suite and test).
class DataDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = (std::filesystem::temp_directory_path() /
             absl::StrCat("tsread_", test->test_suite_name(), "_", test->name()))
                .string();
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
    cleanup_ = std::make_unique<ScopedTempPath>(root_);
  }

  std::string root_;
  std::unique_ptr<ScopedTempPath> cleanup_;
};

// One row of table t: its time, tag1 (tag2 is null) and the two fields (nullopt: null).
struct TRow {
  int64_t time;
  std::string tag1;
  std::optional<int32_t> s1, s2;
};

// `{root}/{sequence|unsequence}/{db}/1/{partition}/{time}-{version}-0-0.tsfile`, folders made.
inline std::string LayoutPath(const std::string& root, bool sequence, int64_t version, int64_t name_time = 1000,
                              const std::string& db = "db1", int64_t partition = 0) {
  const std::filesystem::path dir = std::filesystem::path(root) / (sequence ? "sequence" : "unsequence") / db / "1" /
                                    std::to_string(partition);
  std::filesystem::create_directories(dir);
  return (dir / absl::StrCat(name_time, "-", version, "-0-0.tsfile")).string();
}

// Writes table t to `path`: each element of `flushes` is one flush — a chunk group per device of
// its rows, in the order the devices first appear. Chunk groups of later flushes may repeat or
// precede earlier times (an unsequence file).
inline void WriteTableFile(const std::string& path, const std::vector<std::vector<TRow>>& flushes) {
  TableSchema schema;
  schema.name = "t";
  for (const char* tag : {"tag1", "tag2"}) {
    ColumnSchema& c = schema.columns.emplace_back();
    c.name = tag;
    c.data_type = DataType::kString;
    c.category = ColumnCategory::kTag;
  }
  for (const char* field : {"s1", "s2"}) {
    ColumnSchema& c = schema.columns.emplace_back();
    c.name = field;
    c.data_type = DataType::kInt32;
  }
  TableWriterOptions options;
  options.chunk_groups_in_any_order = true;
  auto writer = TsFileWriter::Create(path, schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const std::vector<TRow>& flush : flushes) {
    std::vector<std::string> devices;
    for (const TRow& row : flush) {
      if (std::find(devices.begin(), devices.end(), row.tag1) == devices.end()) devices.push_back(row.tag1);
    }
    for (const std::string& device : devices) {
      std::vector<int64_t> times;
      std::vector<ColumnValues> fields(2);
      for (ColumnValues& f : fields) f.type = DataType::kInt32;
      for (const TRow& row : flush) {
        if (row.tag1 != device) continue;
        times.push_back(row.time);
        fields[0].int32s.push_back(row.s1.value_or(0));
        fields[0].valid.push_back(row.s1.has_value());
        fields[1].int32s.push_back(row.s2.value_or(0));
        fields[1].valid.push_back(row.s2.has_value());
      }
      absl::Status s = (*writer)->WriteRows((*writer)->MakeDeviceId({device}), times, fields);
      ASSERT_TRUE(s.ok()) << s;
    }
  }
  absl::Status closed = (*writer)->Close();
  ASSERT_TRUE(closed.ok()) << closed;
}

// .mods2 bytes (iotdb-deletion-files.md, "2.x format"), built field by field.
class Mods2 {
 public:
  // A TREE entry: path pattern, [start, end].
  Mods2& Tree(const std::string& pattern, int64_t start, int64_t end) {
    bytes_ += '\x01';
    Long(start);
    Long(end);
    VarString(pattern);
    return *this;
  }
  // A TABLE entry of table `table`, device condition bytes `condition` (Nop(), Segment(...)),
  // columns (none: whole rows).
  Mods2& Table(const std::string& table, const std::string& condition, const std::vector<std::string>& columns,
               int64_t start, int64_t end) {
    bytes_ += '\x00';
    Long(start);
    Long(end);
    VarString(table);
    bytes_ += condition;
    ZigZag(static_cast<int32_t>(columns.size()), bytes_);
    for (const std::string& c : columns) VarString(c);
    return *this;
  }
  static std::string Nop() { return std::string(1, '\x00'); }
  // SEGMENT_EXACT_MATCH: segment `index` (1 = the first tag) equals `value` (nullopt: IS NULL).
  static std::string Segment(std::optional<std::string> value, int32_t index) {
    std::string out(1, '\x02');
    if (value) {
      ZigZag(static_cast<int32_t>(value->size()), out);
      out += *value;
    } else {
      ZigZag(-1, out);
    }
    ZigZag(index, out);
    return out;
  }
  const std::string& bytes() const { return bytes_; }
  void WriteTo(const std::string& path) const { std::ofstream(path, std::ios::binary) << bytes_; }

 private:
  static void ZigZag(int32_t v, std::string& out) {
    uint32_t u = (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
    while (u >= 0x80) {
      out += static_cast<char>((u & 0x7F) | 0x80);
      u >>= 7;
    }
    out += static_cast<char>(u);
  }
  void Long(int64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8) bytes_ += static_cast<char>((static_cast<uint64_t>(v) >> shift) & 0xFF);
  }
  void VarString(const std::string& s) {
    ZigZag(static_cast<int32_t>(s.size()), bytes_);
    bytes_ += s;
  }
  std::string bytes_;
};

// Row `r` of a batch of table t's merged scan as "time,tag1,s1,s2" ("" for null), the columns as
// `projection` orders them.
inline std::string TRowText(const TableBatch& b, size_t r, const std::vector<ProjectedColumn>& projection) {
  std::string row = absl::StrCat(b.times[r]);
  for (size_t j = 0; j < projection.size(); ++j) {
    row += ",";
    if (projection[j].category == ColumnCategory::kTag) {
      row += std::string(b.tag(j).value_or(""));
    } else if (b.columns[j].IsValid(r)) {
      row += absl::StrCat(b.columns[j].int32s[r]);
    }
  }
  return row;
}

// The rows of table t the merged scan of `inputs` returns, as "time,tag1,s1,s2" ("" for null), sorted.
inline std::vector<std::string> MergedRows(const std::vector<std::string>& inputs, DatasetScanOptions options = {}) {
  std::vector<std::string> rows;
  auto dataset = iotdb::IotdbDataset::Open(inputs);
  EXPECT_TRUE(dataset.ok()) << dataset.status();
  if (!dataset.ok()) return rows;
  if (options.columns.empty()) options.columns = {"tag1", "s1", "s2"};
  auto scanner = (*dataset)->ScanTable(options);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  if (!scanner.ok()) return rows;
  absl::Status s = (*scanner)->Scan([&](const TableBatch& b) {
    for (size_t r = 0; r < b.num_rows(); ++r) rows.push_back(TRowText(b, r, (*scanner)->projection()));
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_IOTDB_DATA_H_

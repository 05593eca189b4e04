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

// Two time partitions (db1, partitions 0 and 1; partition p's times from p * 1000) of seven devices
// a..g, as IoTDB's flushes leave them. In each: a sequence file (version 1) of every device at times
// 0..19, s1 = 100 d + t (device d = 0 for a), s2 null; a later one (version 2) of a, c, e, g at
// 20..39, s1 = 100 d + t, s2 = 1; an unsequence file (version 3) of a, d and g at times 10, 14, 18,
// 22 and 26, s1 = 8 - t, s2 null. Partition 0's first file deletes c's rows 5..8.
inline void WriteOverlappingPartitions(const std::string& root) {
  for (int64_t partition : {0, 1}) {
    const int64_t base = partition * 1000;
    std::vector<TRow> first, second, late;
    for (int d = 0; d < 7; ++d) {
      const std::string tag(1, static_cast<char>('a' + d));
      for (int64_t t = 0; t < 20; ++t) {
        first.push_back({base + t, tag, static_cast<int32_t>(100 * d + t), {}});
        if (d % 2 == 0) second.push_back({base + 20 + t, tag, static_cast<int32_t>(100 * d + 20 + t), 1});
        if (d % 3 == 0 && t % 4 == 2) late.push_back({base + t + 8, tag, static_cast<int32_t>(-t), {}});
      }
    }
    WriteTableFile(LayoutPath(root, true, 1, 1000, "db1", partition), {first});
    WriteTableFile(LayoutPath(root, true, 2, 2000, "db1", partition), {second});
    WriteTableFile(LayoutPath(root, false, 3, 3000, "db1", partition), {late});
  }
  Mods2().Table("t", Mods2::Segment("c", 1), {}, 5, 8).WriteTo(LayoutPath(root, true, 1, 1000, "db1", 0) + ".mods2");
}

// The rows IoTDB answers for WriteOverlappingPartitions, "time,tag1,s1,s2" sorted, from its
// description: the unsequence value replaces s1 and leaves an older s2 (a null never hides a
// value); d has no times 22 and 26 before it, so they are rows of their own. 2 x (140 + 80 + 2) - 4 = 440.
inline std::vector<std::string> OverlappingPartitionsRows() {
  std::vector<std::string> rows;
  for (int64_t partition : {0, 1}) {
    for (int d = 0; d < 7; ++d) {
      const std::string tag(1, static_cast<char>('a' + d));
      for (int64_t t = 0; t < 40; ++t) {
        const bool first = t < 20, second = t >= 20 && d % 2 == 0;
        const bool late = d % 3 == 0 && t >= 10 && t <= 26 && (t - 10) % 4 == 0;
        if (!first && !second && !late) continue;
        if (partition == 0 && d == 2 && t >= 5 && t <= 8) continue;
        const int64_t s1 = late ? 8 - t : 100 * d + t;
        rows.push_back(absl::StrCat(partition * 1000 + t, ",", tag, ",", s1, ",", second ? "1" : ""));
      }
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

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

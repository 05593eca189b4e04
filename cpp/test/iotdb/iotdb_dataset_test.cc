// IotdbDataset: the rules of iotdb-data-directories.md §6, each on a small data directory written
// here, and the visible fixture. Expected rows are written out by hand from the rules.
#include "tsread/iotdb/iotdb_dataset.h"

#include <filesystem>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixtures.h"
#include "testing/iotdb_data.h"
#include "testing/chunk_group_layout.h"
#include "testing/temp_path.h"
#include "testing/tree_file.h"
#include "testing/two_field_table.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/write/output_sink.h"

namespace tsread::iotdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::LayoutPath;
using testing::MergedRows;
using testing::Mods2;
using testing::TRow;
using testing::Int32s;
using testing::WriteTableFile;
using testing::WriteTreeFile;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

class IotdbDatasetTest : public testing::DataDirectoryTest {
 protected:
  std::vector<std::string> Rows(DatasetScanOptions options = {}) { return MergedRows({root_}, std::move(options)); }
};

TEST_F(IotdbDatasetTest, UnsequenceOverSequence) {  // case 1
  WriteTableFile(LayoutPath(root_, true, 1), {{{2, "a", 2, {}}, {3, "a", 3, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2), {{{2, "a", 20, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("2,a,20,", "3,a,3,"));
}

TEST_F(IotdbDatasetTest, UnsequenceBeatsASequenceFileOfHigherVersion) {  // case 2
  WriteTableFile(LayoutPath(root_, true, 3), {{{5, "a", 5, {}}, {6, "a", 6, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2), {{{5, "a", 50, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("5,a,50,", "6,a,6,"));
}

TEST_F(IotdbDatasetTest, TheHigherVersionWinsAmongUnsequenceFiles) {  // case 3
  WriteTableFile(LayoutPath(root_, false, 4), {{{1, "a", 40, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2), {{{1, "a", 10, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("1,a,40,"));
  WriteTableFile(LayoutPath(root_, true, 1), {{{1, "a", 7, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("1,a,40,"));
}

TEST_F(IotdbDatasetTest, SameVersionTheLaterNameTimeWins) {
  WriteTableFile(LayoutPath(root_, false, 2, /*name_time=*/2000), {{{1, "a", 2, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2, /*name_time=*/1000), {{{1, "a", 1, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("1,a,2,"));
}

TEST_F(IotdbDatasetTest, InOneFileTheLaterChunkWins) {  // case 4
  WriteTableFile(LayoutPath(root_, false, 2), {{{1, "a", 1, 1}, {3, "a", 3, {}}}, {{1, "a", 2, {}}, {2, "a", 22, {}}}});
  // t=1: s1 from the later chunk, s2 (null there) from the earlier one.
  EXPECT_THAT(Rows(), ElementsAre("1,a,2,1", "2,a,22,", "3,a,3,"));
}

TEST_F(IotdbDatasetTest, ANullNeverHidesAnOlderValue) {  // cases 5 and 6
  WriteTableFile(LayoutPath(root_, true, 1), {{{0, "a", 1, 2}, {0, "d1", {}, {}}, {1, "d1", 1, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2), {{{0, "a", {}, 3}, {0, "d1", 0, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("0,a,1,3", "0,d1,0,", "1,d1,1,"));
}

TEST_F(IotdbDatasetTest, AnAllNullTableRowIsKept) {  // case 7, table
  WriteTableFile(LayoutPath(root_, true, 1), {{{5, "a", {}, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("5,a,,"));
}

TEST_F(IotdbDatasetTest, ATimeRangeDeletionRemovesRowsBothEndsIncluded) {  // case 8
  std::vector<TRow> rows;
  for (int64_t t = 9; t <= 21; ++t) {
    rows.push_back({t, "a", static_cast<int32_t>(t), {}});
    rows.push_back({t, "b", static_cast<int32_t>(t), {}});
  }
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {rows});
  Mods2().Table("t", Mods2::Nop(), {}, 10, 20).WriteTo(file + ".mods2");
  EXPECT_THAT(Rows(), ElementsAre("21,a,21,", "21,b,21,", "9,a,9,", "9,b,9,"));
}

TEST_F(IotdbDatasetTest, ADeletionByTagDeletesThatDeviceOnly) {  // case 9
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}, {1, "b", 2, {}}}});
  Mods2().Table("t", Mods2::Segment("a", 1), {}, kMin, kMax).WriteTo(file + ".mods2");
  EXPECT_THAT(Rows(), ElementsAre("1,b,2,"));
  // tag2 IS NULL: both devices' ids were trimmed to ["t", tag1], so both match.
  Mods2().Table("t", Mods2::Segment(std::nullopt, 2), {}, kMin, kMax).WriteTo(file + ".mods2");
  EXPECT_THAT(Rows(), IsEmpty());
  // Another table's deletion deletes nothing of t.
  Mods2().Table("t2", Mods2::Nop(), {}, kMin, kMax).WriteTo(file + ".mods2");
  EXPECT_THAT(Rows(), ElementsAre("1,a,1,", "1,b,2,"));
}

TEST_F(IotdbDatasetTest, ADroppedColumnReadsNullAndRowsStay) {  // case 10
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, 10}, {2, "a", 2, 20}}});
  Mods2().Table("t", Mods2::Nop(), {"s1"}, kMin, kMax).WriteTo(file + ".mods2");
  EXPECT_THAT(Rows(), ElementsAre("1,a,,10", "2,a,,20"));
}

TEST_F(IotdbDatasetTest, DeletionsApplyToTheirOwnFileOnly) {  // case 12
  const std::string seq = LayoutPath(root_, true, 1);
  WriteTableFile(seq, {{{5, "a", 1, {}}}});
  Mods2().Table("t", Mods2::Nop(), {}, 0, 10).WriteTo(seq + ".mods2");
  WriteTableFile(LayoutPath(root_, false, 2), {{{5, "a", 2, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("5,a,2,"));
  std::filesystem::remove_all(std::filesystem::path(root_) / "unsequence");
  EXPECT_THAT(Rows(), IsEmpty());
}

TEST_F(IotdbDatasetTest, ADeletedValueIsNotFilledFromTheDeletedFile) {  // case 13
  const std::string seq = LayoutPath(root_, true, 1);
  WriteTableFile(seq, {{{5, "a", 1, 1}}});
  Mods2().Table("t", Mods2::Nop(), {}, 5, 5).WriteTo(seq + ".mods2");
  WriteTableFile(LayoutPath(root_, false, 2), {{{5, "a", {}, 3}}});
  EXPECT_THAT(Rows(), ElementsAre("5,a,,3"));
}

TEST_F(IotdbDatasetTest, ValuePredicatesApplyToTheMergedRows) {
  WriteTableFile(LayoutPath(root_, true, 1), {{{1, "a", 5, {}}, {2, "a", 6, {}}}});
  WriteTableFile(LayoutPath(root_, false, 2), {{{1, "a", 50, {}}}});
  DatasetScanOptions below;
  below.value_predicates = {ValuePredicate{"s1", CompareOp::kLt, {PredicateValue(int64_t{10})}}};
  EXPECT_THAT(Rows(below), ElementsAre("2,a,6,"));  // the file's 5 at t=1 was replaced by 50
  DatasetScanOptions above;
  above.value_predicates = {ValuePredicate{"s1", CompareOp::kGt, {PredicateValue(int64_t{10})}}};
  EXPECT_THAT(Rows(above), ElementsAre("1,a,50,"));
  DatasetScanOptions range;
  range.time_range = TimeRange{2, 2};
  EXPECT_THAT(Rows(range), ElementsAre("2,a,6,"));
}

TEST_F(IotdbDatasetTest, CompactionDeletionFilesAreIgnored) {  // case 19
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}}});
  Mods2().Table("t", Mods2::Nop(), {}, kMin, kMax).WriteTo(file + ".compaction.mods2");
  EXPECT_THAT(Rows(), ElementsAre("1,a,1,"));
}

TEST_F(IotdbDatasetTest, TimePartitionsAreNeverMergedWithEachOther) {  // case 20
  WriteTableFile(LayoutPath(root_, true, 5, 1000, "db1", 0), {{{1, "a", 1, {}}}});
  WriteTableFile(LayoutPath(root_, true, 1, 1000, "db1", 1), {{{1, "a", 2, {}}}});
  EXPECT_THAT(Rows(), ElementsAre("1,a,1,", "1,a,2,"));
}

TEST_F(IotdbDatasetTest, ATableInSeveralDatabasesNeedsOneNamed) {
  WriteTableFile(LayoutPath(root_, true, 1, 1000, "db1"), {{{1, "a", 1, {}}}});
  WriteTableFile(LayoutPath(root_, true, 1, 1000, "db2"), {{{1, "a", 2, {}}}});
  auto dataset = IotdbDataset::Open({root_});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  auto scanner = (*dataset)->ScanTable({});
  ASSERT_FALSE(scanner.ok());
  EXPECT_THAT(scanner.status().message(), ::testing::HasSubstr("several databases (db1, db2)"));
  IotdbOptions options;
  options.database = "db2";
  auto db2 = IotdbDataset::Open({root_}, options);
  ASSERT_TRUE(db2.ok()) << db2.status();
  auto rows = (*db2)->ScanTable({});
  ASSERT_TRUE(rows.ok()) << rows.status();
  std::vector<int32_t> values;
  ASSERT_TRUE((*rows)->Scan([&](const TableBatch& b) {
    for (size_t r = 0; r < b.num_rows(); ++r) values.push_back(b.columns[2].int32s[r]);  // s1
    return absl::OkStatus();
  }).ok());
  EXPECT_THAT(values, ElementsAre(2));
}

TEST_F(IotdbDatasetTest, APlainFileGetsItsOwnDeletionsAndChunkPriority) {
  const std::string file = root_ + "/plain.tsfile";
  WriteTableFile(file, {{{1, "a", 1, {}}, {2, "a", 2, {}}}, {{1, "a", 10, {}}}});
  Mods2().Table("t", Mods2::Nop(), {}, 2, 2).WriteTo(file + ".mods2");
  EXPECT_THAT(MergedRows({file}), ElementsAre("1,a,10,"));
}

TEST_F(IotdbDatasetTest, AnUnknownDeletionKindIsAnErrorUnlessIgnored) {
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}, {2, "a", 2, {}}}});
  std::string bytes = Mods2().Table("t", Mods2::Nop(), {}, 1, 1).bytes();
  bytes += "\x07";  // no such entry type
  std::ofstream(file + ".mods2", std::ios::binary) << bytes;
  auto failed = IotdbDataset::Open({root_});
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), ::testing::HasSubstr(file + ".mods2"));
  IotdbOptions options;
  options.ignore_errors = true;
  auto dataset = IotdbDataset::Open({root_}, options);
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  EXPECT_THAT((*dataset)->Warnings(), ElementsAre(::testing::HasSubstr(file + ".mods2")));
}

TEST_F(IotdbDatasetTest, ATruncatedDeletionFileAppliesTheEntriesBeforeTheDamage) {
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}, {2, "a", 2, {}}}});
  const std::string bytes = Mods2().Table("t", Mods2::Nop(), {}, 1, 1).Table("t", Mods2::Nop(), {}, 2, 2).bytes();
  std::ofstream(file + ".mods2", std::ios::binary) << bytes.substr(0, bytes.size() - 3);
  auto dataset = IotdbDataset::Open({root_});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  EXPECT_THAT((*dataset)->Warnings(), ElementsAre(::testing::HasSubstr(file + ".mods2")));
  EXPECT_THAT(Rows(), ElementsAre("2,a,2,"));
}

// The visible fixture: tables and tree points as IoTDB answers them.
std::vector<std::string> CsvLines(const std::string& path, bool skip_header = true) {
  std::vector<std::string> lines;
  std::istringstream in(testing::ReadWholeFile(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  if (skip_header && !lines.empty()) lines.erase(lines.begin());
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(IotdbFixtureTest, TheVisibleDataDirectoryReadsAsIotdbAnswers) {
  const std::string dir = testing::FixturesDir() + "/iotdb_datadir";
  auto dataset = IotdbDataset::Open({dir + "/data"});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  EXPECT_TRUE((*dataset)->layout().recognized);
  EXPECT_EQ((*dataset)->layout().sequence_files(), 2u);
  EXPECT_EQ((*dataset)->layout().unsequence_files(), 2u);
  EXPECT_EQ((*dataset)->layout().deletion_files(), 2u);
  EXPECT_THAT((*dataset)->layout().databases(), ElementsAre("db1", "root.sg1"));
  // Table t: every cell as the CSV writes it (tag2 null, s2 DOUBLE).
  auto scanner = (*dataset)->ScanTable({});
  ASSERT_TRUE(scanner.ok()) << scanner.status();
  std::vector<std::string> rows;
  ASSERT_TRUE((*scanner)->Scan([&](const TableBatch& b) {
    for (size_t r = 0; r < b.num_rows(); ++r) {
      std::string row = absl::StrCat(b.times[r], ",\"", std::string(b.tag(0).value_or("?")), "\",", b.tag(1) ? "?" : "", ",");
      row += b.columns[2].IsValid(r) ? absl::StrCat(b.columns[2].int32s[r]) : "";
      row += ",";
      row += b.columns[3].IsValid(r) ? absl::StrCat(b.columns[3].doubles[r]) : "";
      rows.push_back(row);
    }
    return absl::OkStatus();
  }).ok());
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, CsvLines(dir + "/expected/t.csv"));
  // Tree points, one line per non-null value.
  std::vector<std::string> points;
  ASSERT_TRUE((*dataset)->ScanTree({}, [&](std::string_view device, std::string_view measurement,
                                           const std::vector<int64_t>& times, const ColumnVector& values,
                                           size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      if (!values.IsValid(r)) continue;
      std::string value = values.type == DataType::kInt32 ? absl::StrCat(values.int32s[r]) : absl::StrCat(values.doubles[r]);
      points.push_back(absl::StrCat(std::string(device), ",", std::string(measurement), ",", times[r], ",", value));
    }
    return absl::OkStatus();
  }).ok());
  std::sort(points.begin(), points.end());
  EXPECT_EQ(points, CsvLines(dir + "/expected/tree.csv"));
}

// Tree deletions (case 11) on the fixture's sequence tree file, with deletion files written here.
class TreeDeletionTest : public IotdbDatasetTest {
 protected:
  // The fixture's sequence tree file alone at {root}/sequence/root.sg1/2/2810/, with `mods2` (if
  // any) and `mods` (1.x text, if any) beside it; its points as "device,measurement,time,value".
  std::vector<std::string> Points(const std::optional<std::string>& mods2, const std::optional<std::string>& mods = {}) {
    const std::string name = "1700000000000-1-0-0.tsfile";
    const std::filesystem::path dir = std::filesystem::path(root_) / "sequence/root.sg1/2/2810";
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(testing::FixturesDir() + "/iotdb_datadir/data/sequence/root.sg1/2/2810/" + name,
                               dir / name);
    if (mods2) std::ofstream(dir / (name + ".mods2"), std::ios::binary) << *mods2;
    if (mods) std::ofstream(dir / (name + ".mods"), std::ios::binary) << *mods;
    std::vector<std::string> points;
    auto dataset = IotdbDataset::Open({root_});
    EXPECT_TRUE(dataset.ok()) << dataset.status();
    if (!dataset.ok()) return points;
    absl::Status s = (*dataset)->ScanTree({}, [&](std::string_view device, std::string_view measurement,
                                                  const std::vector<int64_t>& times, const ColumnVector& values,
                                                  size_t begin, size_t end) {
      for (size_t r = begin; r < end; ++r) {
        if (values.IsValid(r)) points.push_back(absl::StrCat(std::string(device), ",", std::string(measurement), ",", times[r] - kT0));
      }
      return absl::OkStatus();
    });
    EXPECT_TRUE(s.ok()) << s;
    std::sort(points.begin(), points.end());
    return points;
  }
  static constexpr int64_t kT0 = 1700000000000;
};

TEST_F(TreeDeletionTest, PatternsDeleteWhatTheyMatch) {
  // Without deletions: d1.s1 at T0..T0+2; aligned d2 (s1, s2) at T0 and T0+1.
  const std::vector<std::string> all = {"root.sg1.d1,s1,0", "root.sg1.d1,s1,1", "root.sg1.d1,s1,2",
                                        "root.sg1.d2,s1,0", "root.sg1.d2,s1,1", "root.sg1.d2,s2,0",
                                        "root.sg1.d2,s2,1"};
  EXPECT_EQ(Points(std::nullopt), all);
  EXPECT_THAT(Points(Mods2().Tree("root.sg1.d1.s1", kMin, kT0).bytes()),
              ElementsAre("root.sg1.d1,s1,1", "root.sg1.d1,s1,2", "root.sg1.d2,s1,0", "root.sg1.d2,s1,1",
                          "root.sg1.d2,s2,0", "root.sg1.d2,s2,1"));
  // One column of an aligned device: only its value goes.
  EXPECT_THAT(Points(Mods2().Tree("root.sg1.d2.s1", kT0, kT0).bytes()),
              ElementsAre("root.sg1.d1,s1,0", "root.sg1.d1,s1,1", "root.sg1.d1,s1,2", "root.sg1.d2,s1,1",
                          "root.sg1.d2,s2,0", "root.sg1.d2,s2,1"));
  // d2.* matches the time column too: the whole row goes.
  EXPECT_THAT(Points(Mods2().Tree("root.sg1.d2.*", kT0, kT0).bytes()),
              ElementsAre("root.sg1.d1,s1,0", "root.sg1.d1,s1,1", "root.sg1.d1,s1,2", "root.sg1.d2,s1,1",
                          "root.sg1.d2,s2,1"));
  EXPECT_THAT(Points(Mods2().Tree("root.sg1.**", kMin, kMax).bytes()), IsEmpty());
  EXPECT_EQ(Points(Mods2().Tree("root.sg1.d1", kMin, kMax).bytes()), all);  // a device path deletes nothing
  EXPECT_THAT(Points(Mods2().Tree("root.sg1.d*.s1", kMin, kMax).bytes()),
              ElementsAre("root.sg1.d2,s2,0", "root.sg1.d2,s2,1"));
}

TEST_F(TreeDeletionTest, OneXDeletionFilesFollowTheirOffsetsAndPatterns) {
  const std::vector<std::string> all = {"root.sg1.d1,s1,0", "root.sg1.d1,s1,1", "root.sg1.d1,s1,2",
                                        "root.sg1.d2,s1,0", "root.sg1.d2,s1,1", "root.sg1.d2,s2,0",
                                        "root.sg1.d2,s2,1"};
  // The offset is past every chunk: the entry applies.
  EXPECT_THAT(Points(std::nullopt, "DELETION,root.sg1.d1.s1,100000,-9223372036854775808,1700000000001\n"),
              ElementsAre("root.sg1.d1,s1,2", "root.sg1.d2,s1,0", "root.sg1.d2,s1,1", "root.sg1.d2,s2,0",
                          "root.sg1.d2,s2,1"));
  // An offset before every chunk: the deletion was recorded before they were written.
  EXPECT_EQ(Points(std::nullopt, "DELETION,root.sg1.d1.s1,1,-9223372036854775808,1700000000001\n"), all);
  // 1.x never matched partial wildcards at query time.
  EXPECT_EQ(Points(std::nullopt, "DELETION,root.sg1.d*.s1,100000,-9223372036854775808,9223372036854775807\n"), all);
  // A .mods2 beside it: the .mods is not read.
  EXPECT_EQ(Points(Mods2().Tree("root.sg1.d9.s1", kMin, kMax).bytes(),
                   "DELETION,root.sg1.d1.s1,100000,-9223372036854775808,1700000000001\n"),
            all);
}

// ALTER COLUMN ... SET DATA TYPE (iotdb-data-directories.md, case 16): files keep the type a
// column had when written; a read casts them to the type every file's casts to.
class AlteredColumnTest : public IotdbDatasetTest {
 protected:
  static void Write(const std::string& path, int64_t first, ColumnValues s1, ColumnValues s2) {
    testing::WriteTwoFieldTable(path, first, std::move(s1), std::move(s2));
  }

  // The merged rows as "time,s1,s2" with s1 a DOUBLE and s2 a STRING column.
  std::vector<std::string> DoubleAndStringRows() {
    std::vector<std::string> rows;
    auto data = IotdbDataset::Open({root_});
    EXPECT_TRUE(data.ok()) << data.status();
    if (!data.ok()) return rows;
    DatasetScanOptions options;
    options.columns = {"s1", "s2"};
    auto scanner = (*data)->ScanTable(options);
    EXPECT_TRUE(scanner.ok()) << scanner.status();
    if (!scanner.ok()) return rows;
    EXPECT_EQ((*scanner)->projection()[0].data_type, DataType::kDouble);
    EXPECT_EQ((*scanner)->projection()[1].data_type, DataType::kString);
    absl::Status s = (*scanner)->Scan([&](const TableBatch& b) {
      for (size_t r = 0; r < b.num_rows(); ++r) {
        EXPECT_EQ(b.columns[0].type, DataType::kDouble);
        EXPECT_EQ(b.columns[1].type, DataType::kString);
        rows.push_back(absl::StrCat(b.times[r], ",", b.columns[0].IsValid(r) ? absl::StrCat(b.columns[0].doubles[r]) : "",
                                    ",", b.columns[1].IsValid(r) ? std::string(b.columns[1].binary(r)) : ""));
      }
      return absl::OkStatus();
    });
    EXPECT_TRUE(s.ok()) << s;
    return rows;
  }
};

TEST_F(AlteredColumnTest, OldFilesAreCastToTheTypeEveryFileCastsTo) {
  ColumnValues old_s1{.type = DataType::kInt32, .int32s = {1, 2}};
  ColumnValues old_s2{.type = DataType::kFloat, .floats = {1.5f, 1e10f}};
  Write(LayoutPath(root_, true, 1, 1000), 1, old_s1, old_s2);
  ColumnValues new_s1{.type = DataType::kDouble, .doubles = {3.5, 4.25}};
  const std::string x = "x";
  ColumnValues new_s2{.type = DataType::kString, .binaries = {x, x}};
  Write(LayoutPath(root_, true, 2, 2000), 2, new_s1, new_s2);  // time 2 again: the newer file wins
  EXPECT_THAT(DoubleAndStringRows(), ElementsAre("1,1,1.5", "2,3.5,x", "3,4.25,x"));
  // The same read of an unsequence file's older types.
  std::filesystem::remove_all(root_);
  Write(LayoutPath(root_, false, 3, 3000), 1, old_s1, old_s2);
  Write(LayoutPath(root_, true, 2, 2000), 5, new_s1, new_s2);
  EXPECT_THAT(DoubleAndStringRows(), ElementsAre("1,1,1.5", "2,2,1.0E10", "5,3.5,x", "6,4.25,x"));
}

TEST_F(AlteredColumnTest, TypesNoAlterationMakesStayAnErrorNamingBothFiles) {
  const std::string older = LayoutPath(root_, true, 1, 1000);
  Write(older, 1, ColumnValues{.type = DataType::kBoolean, .bools = {1}}, ColumnValues{.type = DataType::kInt32, .int32s = {1}});
  const std::string newer = LayoutPath(root_, true, 2, 2000);
  Write(newer, 2, ColumnValues{.type = DataType::kInt64, .int64s = {2}}, ColumnValues{.type = DataType::kInt32, .int32s = {2}});
  auto data = IotdbDataset::Open({root_});
  ASSERT_TRUE(data.ok()) << data.status();
  auto scanner = (*data)->ScanTable({});
  ASSERT_FALSE(scanner.ok());
  EXPECT_THAT(scanner.status().message(), AllOf(HasSubstr("\"s1\""), HasSubstr(older), HasSubstr(newer)));
}

// A 1.x entry recorded between two flushes into one file deletes from the chunks written before it
// only (iotdb-deletion-files.md: a chunk is affected when its header offset is below the entry's),
// even where a later chunk holds other points in the same time span. The file: tree-model aligned
// device root.sg1.d1 (s1 INT32) in two chunk groups whose times meet, [1..5] then {3, 5, 8}.
class TreeChunkDeletionTest : public IotdbDatasetTest {
 protected:
  // Writes the file and returns where its second group starts.
  uint64_t WriteTwoFlushes() {
    path_ = (std::filesystem::path(root_) / "sequence/root.sg1/2/2810/1-1-0-0.tsfile").string();
    WriteTreeFile(path_, {{{1, 2, 3, 4, 5}, Int32s({10, 20, 30, 40, 50})}, {{3, 5, 8}, Int32s({31, 51, 81})}});
    auto reader = TsFileReader::Open(path_);
    EXPECT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ((*reader)->TreeIndexNames().size(), 1u);
    auto groups = testing::LayoutOf(**reader);
    EXPECT_TRUE(groups.ok() && groups->groups.size() == 2);
    return groups->groups[1].offset;
  }

  // The points ScanTree gives, as "time=value", with `mods` (1.x text) beside the file.
  std::vector<std::string> Points(const std::string& mods) {
    std::filesystem::remove(path_ + ".mods");
    if (!mods.empty()) std::ofstream(path_ + ".mods", std::ios::binary) << mods;
    std::vector<std::string> points;
    auto dataset = IotdbDataset::Open({root_});
    EXPECT_TRUE(dataset.ok()) << dataset.status();
    if (!dataset.ok()) return points;
    absl::Status s = (*dataset)->ScanTree({}, [&](std::string_view device, std::string_view, const std::vector<int64_t>& times,
                                                  const ColumnVector& values, size_t begin, size_t end) {
      EXPECT_EQ(device, "root.sg1.d1");
      for (size_t r = begin; r < end; ++r) {
        if (values.IsValid(r)) points.push_back(absl::StrCat(times[r], "=", values.int32s[r]));
      }
      return absl::OkStatus();
    });
    EXPECT_TRUE(s.ok()) << s;
    return points;
  }

  std::string path_;
};

TEST_F(TreeChunkDeletionTest, AnEntryBetweenTwoFlushesDeletesFromTheFirstOnly) {
  const uint64_t second_group = WriteTwoFlushes();
  // The later chunk wins where both have a time (3 and 5).
  EXPECT_THAT(Points(""), ElementsAre("1=10", "2=20", "3=31", "4=40", "5=51", "8=81"));
  // Recorded after the first flush: its [0, 100] takes 1..5 of the first chunk (4 too, which the
  // second chunk does not have) and nothing of the second.
  EXPECT_THAT(Points(absl::StrCat("DELETION,root.sg1.d1.s1,", second_group, ",0,100\n")),
              ElementsAre("3=31", "5=51", "8=81"));
  // Only part of the range: [4, 100] of the first chunk.
  EXPECT_THAT(Points(absl::StrCat("DELETION,root.sg1.d1.s1,", second_group, ",4,100\n")),
              ElementsAre("1=10", "2=20", "3=31", "5=51", "8=81"));
  // Recorded after both, or before both.
  EXPECT_THAT(Points("DELETION,root.sg1.d1.s1,100000,0,100\n"), IsEmpty());
  EXPECT_THAT(Points("DELETION,root.sg1.d1.s1,1,0,100\n"), ElementsAre("1=10", "2=20", "3=31", "4=40", "5=51", "8=81"));
}

// ALTER TIMESERIES ... SET DATA TYPE: the series' older files keep INT32, the newer DOUBLE; it reads
// as DOUBLE, an unsequence DOUBLE point replacing a sequence INT32 one at the same time.
TEST_F(IotdbDatasetTest, ATreeSeriesOfAlteredTypeReadsAsTheTypeItsFilesCastTo) {
  const std::string dir = root_ + "/sequence/root.sg1/2/2810/";
  ColumnValues doubles;
  doubles.type = DataType::kDouble;
  doubles.doubles = {2.5, 4.5};
  WriteTreeFile(dir + "1-1-0-0.tsfile", {{{1, 2, 3}, Int32s({10, 20, 30})}});
  WriteTreeFile(root_ + "/unsequence/root.sg1/2/2810/2-2-0-0.tsfile", {{{2, 4}, doubles}});
  auto dataset = IotdbDataset::Open({root_});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  auto devices = (*dataset)->TreeDevices({});
  ASSERT_TRUE(devices.ok()) << devices.status();
  auto series = (*dataset)->TreeSeries(*devices, {});
  ASSERT_TRUE(series.ok()) << series.status();
  ASSERT_EQ(series->size(), 1u);
  EXPECT_EQ((*series)[0].measurement, "s1");
  EXPECT_EQ((*series)[0].type, DataType::kDouble);
  std::vector<std::string> points;
  absl::Status s = (*dataset)->ScanTree({}, [&](std::string_view, std::string_view measurement,
                                                const std::vector<int64_t>& times, const ColumnVector& values,
                                                size_t begin, size_t end) {
    EXPECT_EQ(measurement, "s1");
    EXPECT_EQ(values.type, DataType::kDouble);
    for (size_t r = begin; r < end; ++r) points.push_back(absl::StrCat(times[r], "=", values.doubles[r]));
    return absl::OkStatus();
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(points, ElementsAre("1=10", "2=2.5", "3=30", "4=4.5"));

  // The older file alone in its time partition (the newer type in another one): its points cast too.
  std::filesystem::remove(root_ + "/unsequence/root.sg1/2/2810/2-2-0-0.tsfile");
  doubles.doubles = {9.5};
  WriteTreeFile(root_ + "/sequence/root.sg1/2/5000/9-9-0-0.tsfile", {{{900}, doubles}});
  dataset = IotdbDataset::Open({root_});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  points.clear();
  s = (*dataset)->ScanTree({}, [&](std::string_view, std::string_view, const std::vector<int64_t>& times,
                                   const ColumnVector& values, size_t begin, size_t end) {
    EXPECT_EQ(values.type, DataType::kDouble);
    for (size_t r = begin; r < end; ++r) points.push_back(absl::StrCat(times[r], "=", values.doubles[r]));
    return absl::OkStatus();
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(points, ElementsAre("1=10", "2=20", "3=30", "900=9.5"));
}

TEST_F(IotdbDatasetTest, ATreeSeriesOfTypesNoAlterationJoinsIsAnErrorNamingTwoFiles) {
  const std::string older = root_ + "/sequence/root.sg1/2/2810/1-1-0-0.tsfile";
  const std::string newer = root_ + "/sequence/root.sg1/2/2810/2-2-0-0.tsfile";
  ColumnValues bools;
  bools.type = DataType::kBoolean;
  bools.bools = {1};
  WriteTreeFile(older, {{{1}, Int32s({10})}});
  WriteTreeFile(newer, {{{2}, bools}});
  auto dataset = IotdbDataset::Open({root_});
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  absl::Status s = (*dataset)->ScanTree({}, [](std::string_view, std::string_view, const std::vector<int64_t>&,
                                               const ColumnVector&, size_t, size_t) { return absl::OkStatus(); });
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), AllOf(HasSubstr("root.sg1.d1.s1"), HasSubstr("INT32"), HasSubstr("BOOLEAN"),
                                 HasSubstr(older), HasSubstr(newer)));
}

}  // namespace
}  // namespace tsread::iotdb

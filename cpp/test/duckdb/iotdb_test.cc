// The SQL functions on IoTDB data: the visible data directory read as IoTDB answers (its expected
// CSVs, loaded with DuckDB's read_csv), as written with raw := true, and database := checks.
#include <filesystem>
#include <fstream>
#include <string>

#include "duckdb/duckdb_test_base.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "testing/iotdb_data.h"
#include "testing/two_field_table.h"

namespace tsread::testing {
namespace {

std::string Dir() { return FixturesDir() + "/iotdb_datadir"; }
std::string Data() { return "'" + Dir() + "/data'"; }

// Rows in `a` and not in `b`, plus rows in `b` and not in `a`.
std::string SymmetricDifference(const std::string& a, const std::string& b) {
  return "SELECT count(*) FROM ((" + a + " EXCEPT ALL " + b + ") UNION ALL (" + b + " EXCEPT ALL " + a + "))";
}

TEST_P(DuckDbTest, ReadTsfileOnIotdbDataEqualsWhatIotdbAnswers) {
  const std::string expected = "SELECT time, tag1, tag2, s1, s2 FROM read_csv('" + Dir() + "/expected/t.csv', "
                               "columns = {'time': 'BIGINT', 'tag1': 'VARCHAR', 'tag2': 'VARCHAR', 's1': 'INTEGER', 's2': 'DOUBLE'})";
  const std::string got = "SELECT epoch_ms(time), tag1, tag2, s1, s2 FROM read_tsfile(" + Data() + ")";
  EXPECT_EQ(Int(SymmetricDifference(got, expected)), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + Data() + ")"), 5);
  const std::string raw = "SELECT time, tag1, tag2, s1, s2 FROM read_csv('" + Dir() + "/raw/t.csv', "
                          "columns = {'time': 'BIGINT', 'tag1': 'VARCHAR', 'tag2': 'VARCHAR', 's1': 'INTEGER', 's2': 'DOUBLE'})";
  EXPECT_EQ(Int(SymmetricDifference("SELECT epoch_ms(time), tag1, tag2, s1, s2 FROM read_tsfile(" + Data() +
                                        ", raw := true)",
                                    raw)),
            0);
  // The filter decides on the merged rows: the file's s1 = 3 at T0+2 was replaced by 30.
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + Data() + ", filter := 's1 = 3')"), 0);
  EXPECT_EQ(Int("SELECT s1 FROM read_tsfile(" + Data() + ", filter := 's1 > 20')"), 30);
}

// Threads take a share of a time partition's devices each (read_tsfile_plan.cc): two partitions of
// seven devices with overlaps and a deletion read as the rows written out from their description.
TEST_P(DuckDbTest, ReadTsfileReadsIotdbDataInSharesOfEachPartitionsDevices) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("tsread_duckdb_shares_" + std::to_string(GetParam()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  WriteOverlappingPartitions(dir.string());
  std::string values;
  for (const std::string& row : OverlappingPartitionsRows()) {
    const std::vector<std::string> cells = absl::StrSplit(row, ',');
    absl::StrAppend(&values, values.empty() ? "" : ", ", "(", cells[0], "::BIGINT, '", cells[1], "', ", cells[2],
                    "::INTEGER, ", cells[3].empty() ? "NULL" : cells[3], "::INTEGER)");
  }
  const std::string data = "'" + dir.string() + "'";
  EXPECT_EQ(Int(SymmetricDifference("SELECT epoch_ms(time), tag1, s1, s2 FROM read_tsfile(" + data + ")",
                                    "SELECT * FROM (VALUES " + values + ")")),
            0);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + data + ")"), 440);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + data + ", filter := 's1 < 0')"), 30);  // the unsequence rows: 5 times x 3 devices x 2 partitions
  std::filesystem::remove_all(dir);
}

TEST_P(DuckDbTest, ReadTsfileTreeOnIotdbDataEqualsWhatIotdbAnswers) {
  const std::string expected = "SELECT device, measurement, time, value FROM read_csv('" + Dir() + "/expected/tree.csv', "
                               "columns = {'device': 'VARCHAR', 'measurement': 'VARCHAR', 'time': 'BIGINT', 'value': 'VARCHAR'})";
  const std::string got = "SELECT device, measurement, epoch_ms(time), value FROM read_tsfile_tree(" + Data() + ")";
  EXPECT_EQ(Int(SymmetricDifference(got, expected)), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree(" + Data() + ")"), 4);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree(" + Data() + ", raw := true)"), 9);
}

TEST_P(DuckDbTest, AggregatesOnIotdbDataAnswerFromTheMergedRows) {
  EXPECT_EQ(Int("SELECT s1_sum FROM tsfile_aggregate(" + Data() + ") WHERE tag1 = 'a'"), 37);
  EXPECT_EQ(Int("SELECT rows FROM tsfile_aggregate(" + Data() + ") WHERE tag1 = 'b'"), 1);
  EXPECT_EQ(Int("SELECT rows FROM tsfile_aggregate(" + Data() + ", raw := true) WHERE tag1 = 'b'"), 2);
  EXPECT_EQ(Int("SELECT s1 FROM tsfile_last(" + Data() + ") WHERE tag1 = 'a'"), 4);
  // filter := decides on the merged rows: the file's s1 = 3 was replaced by 30.
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate(" + Data() + ", filter := 's1 = 3')"), 0);
  EXPECT_EQ(Int("SELECT s1_sum FROM tsfile_aggregate(" + Data() + ", filter := 's1 > 20')"), 30);
  EXPECT_EQ(Int("SELECT s1 FROM tsfile_last(" + Data() + ", filter := 's1 > 20')"), 30);
  EXPECT_EQ(Text("SELECT value FROM tsfile_last_tree(" + Data() + ") WHERE device = 'root.sg1.d1'"), "30");
  EXPECT_EQ(Int("SELECT count FROM tsfile_aggregate_tree(" + Data() + ") WHERE device = 'root.sg1.d1'"), 2);
}

TEST_P(DuckDbTest, TsfileMetadataSaysWhatIotdbsLayoutSays) {
  EXPECT_EQ(Int("SELECT count(DISTINCT file) FROM tsfile_metadata(" + Data() + ") WHERE space = 'unsequence' AND version = 2"), 2);
  EXPECT_EQ(Int("SELECT count(DISTINCT file) FROM tsfile_metadata(" + Data() + ") WHERE space = 'sequence' AND version = 1"), 2);
  EXPECT_EQ(Int("SELECT sum(DISTINCT deletion_entries) FROM tsfile_metadata(" + Data() + ")"), 3);  // 1 and 2
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_metadata(" + Data() + ", raw := true) WHERE space IS NOT NULL"), 0);
}

// A crashed server's files (no tail): the fixture's unsequence files cut just after their data
// sections (their SEPARATOR bytes, at the offsets `tsread sketch` shows, kept) read as IoTDB
// answers; tsfile_metadata says what of them is read (SQL has no warnings).
TEST_P(DuckDbTest, UnsealedIotdbFilesAreReadInPlace) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tsread_duckdb_unsealed_" + std::to_string(GetParam()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy(Dir() + "/data", dir / "data", std::filesystem::copy_options::recursive);
  for (const auto& [database, separator] : {std::pair{"db1/1", 113}, std::pair{"root.sg1/2", 156}}) {
    const std::filesystem::path file = dir / "data/unsequence" / database / "2810/1700000003600-2-0-0.tsfile";
    std::ifstream in(file, std::ios::binary);
    in.seekg(separator);
    ASSERT_EQ(in.get(), 0x02) << file;
    in.close();
    std::filesystem::resize_file(file, separator + 1);
  }
  const std::string data = "'" + (dir / "data").string() + "'";
  const std::string expected = "SELECT time, tag1, tag2, s1, s2 FROM read_csv('" + Dir() + "/expected/t.csv', "
                               "columns = {'time': 'BIGINT', 'tag1': 'VARCHAR', 'tag2': 'VARCHAR', 's1': 'INTEGER', 's2': 'DOUBLE'})";
  EXPECT_EQ(Int(SymmetricDifference("SELECT epoch_ms(time), tag1, tag2, s1, s2 FROM read_tsfile(" + data + ")", expected)), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree(" + data + ")"), 4);
  EXPECT_EQ(Int("SELECT s1_sum FROM tsfile_aggregate(" + data + ") WHERE tag1 = 'a'"), 37);
  EXPECT_EQ(Int("SELECT count(DISTINCT file) FROM tsfile_metadata(" + data + ") WHERE unsealed LIKE "
                "'% complete chunk groups read in place (bytes 0 to %'"),
            2);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_metadata(" + data + ") WHERE space = 'sequence' AND unsealed IS NOT NULL"), 0);
  std::filesystem::remove_all(dir);
}

// ALTER COLUMN ... SET DATA TYPE: the old file's INT32 and FLOAT read as DOUBLE and VARCHAR.
TEST_P(DuckDbTest, AlteredColumnsReadAsTheirNewType) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("tsread_duckdb_altered_" + std::to_string(GetParam()));
  std::filesystem::remove_all(dir);
  const std::filesystem::path partition = dir / "data/sequence/db1/1/0";
  std::filesystem::create_directories(partition);
  WriteTwoFieldTable((partition / "1000-1-0-0.tsfile").string(), 1, ColumnValues{.type = DataType::kInt32, .int32s = {1, 2}},
                     ColumnValues{.type = DataType::kFloat, .floats = {1.5f, 2.5f}});
  const std::string x = "x";
  WriteTwoFieldTable((partition / "2000-2-0-0.tsfile").string(), 3, ColumnValues{.type = DataType::kDouble, .doubles = {3.5, 4.25}},
                     ColumnValues{.type = DataType::kString, .binaries = {x, x}});
  const std::string data = "'" + (dir / "data").string() + "'";
  EXPECT_EQ(Text("SELECT typeof(s1) || ' ' || typeof(s2) FROM read_tsfile(" + data + ") LIMIT 1"), "DOUBLE VARCHAR");
  EXPECT_EQ(Text("SELECT string_agg(s1::VARCHAR || '/' || s2, ' ' ORDER BY time) FROM read_tsfile(" + data + ")"),
            "1.0/1.5 2.0/2.5 3.5/x 4.25/x");
  EXPECT_EQ(Text("SELECT s1_sum::VARCHAR FROM tsfile_aggregate(" + data + ")"), "10.75");
  std::filesystem::remove_all(dir);
}

TEST_P(DuckDbTest, DatabaseParameter) {
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile_tree(" + Data() + ", database := 'root.sg1')"), 4);
  EXPECT_NE(Error("SELECT * FROM read_tsfile(" + Data() + ", database := 'nope')").find("no such database"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM read_tsfile(" + Data() + ", database := 'root.sg1')").find("has no table"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM read_tsfile(" + Data() + ", raw := true, database := 'db1')").find("raw"),
            std::string::npos);
}

}  // namespace
}  // namespace tsread::testing

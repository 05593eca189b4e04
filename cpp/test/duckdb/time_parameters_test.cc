// Times through SQL: `time` and TIMESTAMP fields are instants (TIMESTAMPTZ), so every spelling of
// one bound — a TIMESTAMPTZ, to_timestamp(), a string with an offset, a BIGINT in the file's unit —
// selects the same rows in every session time zone, in WHERE and in start_time/end_time alike.
// Before, `time` was a TIMESTAMP of UTC clock time and such bounds selected nothing outside UTC.
// Also: time_as := 'bigint', end_time_exclusive, and tags with one value per column.
#include <cstdint>
#include <string>
#include <vector>

#include "duckdb/duckdb_test_base.h"

namespace tsread::testing {
namespace {

std::string AllTypes() { return FixturePath("table_alltypes.tsfile"); }

// Rows of the expected CSV whose time lies in [start, end] (ms).
int64_t CsvRowsBetween(int64_t start, int64_t end) {
  std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath("table_alltypes.t_all.csv")));
  int64_t n = 0;
  for (size_t r = 1; r < csv.size(); ++r) {
    const int64_t t = std::stoll(csv[r][0].text);
    n += t >= start && t <= end;
  }
  return n;
}

int64_t CsvRowsOfDevice(const std::string& id) {
  std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath("table_alltypes.t_all.csv")));
  int64_t n = 0;
  for (size_t r = 1; r < csv.size(); ++r) n += csv[r][2].text == id;
  return n;
}

class SqlTimeTest : public DuckDbTest {};

constexpr int64_t kMax = INT64_MAX;
// 1700000600000 ms = 2023-11-14 22:23:20 UTC = 2023-11-15 06:23:20 +08 = 2023-11-14 17:23:20 -05.
constexpr int64_t kBound = 1700000600000;

TEST_P(SqlTimeTest, TimeIsAnInstant) {
  EXPECT_EQ(Text("SELECT typeof(time) FROM read_tsfile('" + AllTypes() + "') LIMIT 1"), "TIMESTAMP WITH TIME ZONE");
  EXPECT_EQ(Text("SELECT typeof(f_timestamp) FROM read_tsfile('" + AllTypes() + "') LIMIT 1"),
            "TIMESTAMP WITH TIME ZONE");
  EXPECT_EQ(Text("SELECT typeof(time) FROM read_tsfile('" + AllTypes() + "', time_unit := 'ns') LIMIT 1"),
            "TIMESTAMP_NS");
}

TEST_P(SqlTimeTest, EverySpellingOfABoundSelectsTheSameRowsInEveryTimeZone) {
  const int64_t expected = CsvRowsBetween(kBound, kMax);
  ASSERT_GT(expected, 0);
  const std::string scan = "SELECT count(*) FROM read_tsfile('" + AllTypes() + "'";
  const std::vector<std::string> queries = {
      scan + ") WHERE time >= TIMESTAMPTZ '2023-11-15 06:23:20+08'",
      scan + ") WHERE time >= to_timestamp(1700000600)",
      scan + ") WHERE time >= '2023-11-14 17:23:20-05'",
      scan + ") WHERE epoch_ms(time) >= 1700000600000",
      scan + ", start_time := '2023-11-15 06:23:20+08')",
      scan + ", start_time := '2023-11-15T06:23:20+08:00')",
      scan + ", start_time := '2023-11-14T22:23:20Z')",
      scan + ", start_time := '2023-11-14 22:23:20')",  // no offset: UTC, TsFile's clock
      scan + ", start_time := TIMESTAMPTZ '2023-11-14 17:23:20-05')",
      scan + ", start_time := to_timestamp(1700000600))",
      scan + ", start_time := TIMESTAMP '2023-11-14 22:23:20')",
      scan + ", start_time := 1700000600000)",
      scan + ", start_time := 1700000599999 + 1)",
  };
  for (const char* zone : {"UTC", "Asia/Shanghai", "America/New_York"}) {
    ASSERT_EQ(Error(std::string("SET TimeZone = '") + zone + "'"), "");
    for (const std::string& q : queries) EXPECT_EQ(Int(q), expected) << zone << ": " << q;
  }
}

TEST_P(SqlTimeTest, EndTimeIsInclusiveUnlessExclusive) {
  const int64_t end = kBound + 100000;
  const std::string scan = "SELECT count(*) FROM read_tsfile('" + AllTypes() + "', start_time := " +
                           std::to_string(kBound) + ", end_time := ";
  EXPECT_EQ(Int(scan + std::to_string(end) + ")"), CsvRowsBetween(kBound, end));
  EXPECT_EQ(Int(scan + std::to_string(end) + ", end_time_exclusive := true)"), CsvRowsBetween(kBound, end - 1));
  EXPECT_EQ(Int(scan + "to_timestamp(1700000700), end_time_exclusive := true)"), CsvRowsBetween(kBound, end - 1));
  EXPECT_EQ(Int(scan + "'2023-11-14 22:25:00Z', end_time_exclusive := false)"), CsvRowsBetween(kBound, end));
  // An instant between two stored units: the start rounds up, the end down (exclusive: up, minus one).
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + AllTypes() +
                "', start_time := '2023-11-14 22:23:19.9995Z', end_time := '2023-11-14 22:25:00.0005Z')"),
            CsvRowsBetween(kBound, end));
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + AllTypes() +
                "', start_time := '2023-11-14 22:23:19.9995Z', end_time := '2023-11-14 22:25:00.0005Z', "
                "end_time_exclusive := true)"),
            CsvRowsBetween(kBound, end));
}

TEST_P(SqlTimeTest, TimeAsBigintGivesTheStoredNumbers) {
  const std::string file = AllTypes();
  EXPECT_EQ(Text("SELECT typeof(time) || ' ' || typeof(f_timestamp) FROM read_tsfile('" + file +
                 "', time_as := 'bigint') LIMIT 1"),
            "BIGINT BIGINT");
  EXPECT_EQ(Int("SELECT min(time) FROM read_tsfile('" + file + "', time_as := 'bigint')"), 1699999999851);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file +
                "', time_as := 'bigint') WHERE time >= 1700000600000"),
            CsvRowsBetween(kBound, kMax));
  EXPECT_EQ(Int("SELECT min(start_time) FROM tsfile_metadata('" + file + "', time_as := 'bigint')"), 1699999999851);
  EXPECT_EQ(Text("SELECT typeof(start_time) FROM tsfile_devices('" + file + "', time_as := 'bigint') LIMIT 1"),
            "BIGINT");
  const std::string tree = FixturePath("tree_aligned.tsfile");
  EXPECT_EQ(Text("SELECT typeof(time) FROM read_tsfile_tree('" + tree + "', time_as := 'bigint') LIMIT 1"), "BIGINT");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + file + "', time_as := 'int')").find("time_as"), std::string::npos);
}

TEST_P(SqlTimeTest, BadBoundsNameTheParameter) {
  const std::string scan = "SELECT count(*) FROM read_tsfile('" + AllTypes() + "', ";
  for (const std::string& bad : {std::string("start_time := 'yesterday')"), std::string("end_time := 'x')"),
                                 std::string("start_time := '2023-02-30 00:00:00')"),
                                 std::string("end_time := 1.5::DOUBLE)"), std::string("start_time := [1])")}) {
    const std::string error = Error(scan + bad);
    EXPECT_NE(error, "") << bad;
    EXPECT_NE(error.find(bad.substr(0, bad.find(' '))), std::string::npos) << bad << ": " << error;
  }
}

// One rule in every front end: a start after the end is a mistake (the CLI's usage error), not an
// empty result; an empty half-open range is not one.
TEST_P(SqlTimeTest, AStartAfterTheEndIsAnError) {
  const std::string file = AllTypes();
  for (const char* function : {"read_tsfile", "tsfile_aggregate"}) {
    const std::string error = Error(std::string("SELECT count(*) FROM ") + function + "('" + file +
                                    "', start_time := 1700000600001, end_time := 1700000600000)");
    EXPECT_NE(error.find("start_time is after end_time"), std::string::npos) << function << ": " << error;
  }
  EXPECT_NE(Error("SELECT count(*) FROM read_tsfile('" + file +
                  "', start_time := '2023-11-14 22:23:20.001Z', end_time := '2023-11-14 22:23:20Z')")
                .find("after"),
            std::string::npos);
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file +
                "', start_time := 1700000600000, end_time := 1700000600000, end_time_exclusive := true)"),
            0);
}

// tsfile_last takes a window: each device's last time in it is read_tsfile's max(time) there.
TEST_P(SqlTimeTest, LastTakesAWindow) {
  const std::string file = AllTypes();
  const std::string window = ", start_time := 1700000500000, end_time := 1700003000000";
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT region, id, time FROM tsfile_last('" + file + "'" + window +
                ") EXCEPT SELECT region, id, max(time) FROM read_tsfile('" + file + "'" + window +
                ") GROUP BY region, id)"),
            0);
  EXPECT_GT(Int("SELECT count(*) FROM tsfile_last('" + file + "'" + window + ")"), 0);
  EXPECT_GT(Int("SELECT count(*) FROM (SELECT region, id, time FROM tsfile_last('" + file +
                "') EXCEPT SELECT region, id, time FROM tsfile_last('" + file + "'" + window + "))"),
            0);  // the window changes the answer
}

// tsfile_aggregate and tsfile_last on a file that cannot be read give its error, as read_tsfile
// does (they said "no table-model table").
TEST_P(SqlTimeTest, AggregatesOfUnreadableFilesSayWhy) {
  const std::string missing = ::testing::TempDir() + "/tsread_no_such_file.tsfile";
  for (const char* function : {"read_tsfile", "tsfile_aggregate", "tsfile_last"}) {
    const std::string error = Error(std::string("SELECT * FROM ") + function + "('" + missing + "')");
    EXPECT_NE(error.find("No such file"), std::string::npos) << function << ": " << error;
  }
}

TEST_P(SqlTimeTest, TagsTakeOneValueOrAList) {
  const std::string scan = "SELECT count(*) FROM read_tsfile('" + AllTypes() + "', tags := ";
  const int64_t expected = CsvRowsOfDevice("dev_03");
  ASSERT_GT(expected, 0);
  EXPECT_EQ(Int(scan + "MAP {'id': 'dev_03'})"), expected);
  EXPECT_EQ(Int(scan + "MAP {'id': ['dev_03']})"), expected);
  EXPECT_EQ(Int(scan + "{'id': 'dev_03'})"), expected);
  EXPECT_EQ(Int(scan + "{'id': ['dev_03', 'dev_17']})"), expected + CsvRowsOfDevice("dev_17"));
  EXPECT_NE(Error(scan + "'dev_03')").find("tags"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Threads, SqlTimeTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

}  // namespace
}  // namespace tsread::testing

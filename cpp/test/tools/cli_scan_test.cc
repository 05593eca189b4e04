// `tsread scan` end to end: `scan --json` statistics against every fixture's summary.json (and the
// benchmark file's, when present), tag filters with --where, and `cat` and `scan` within a memory
// budget.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"
#include "testing/fixtures.h"
#include "testing/table_schemas.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Fixture;
using testing::RunResult;
using testing::RunTsread;

class CliFixtureTest : public ::testing::TestWithParam<std::string> {};

// `tsread scan --json` of `file` against the per-table statistics of its summary.json.
void ExpectScanMatchesSummary(const std::string& file, const nlohmann::json& expected) {
  for (const nlohmann::json& table : expected["tables"]) {
    const std::string name = table["name"].get<std::string>();
    RunResult r = RunTsread("scan '" + file + "' --table " + name + " --json --threads 2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json actual = nlohmann::json::parse(r.out);
    EXPECT_EQ(actual["rows"], table["rows"]) << name;
    for (const auto& [column, stats] : table["columns_stats"].items()) {
      ASSERT_TRUE(actual["columns"].contains(column)) << column;
      EXPECT_EQ(actual["columns"][column]["non_null"], stats["non_null"]) << name << "." << column;
      for (const char* key : {"min", "max"}) {
        if (!stats.contains(key)) continue;
        ASSERT_TRUE(actual["columns"][column].contains(key)) << column << " " << key;
        const nlohmann::json& a = actual["columns"][column][key];
        const nlohmann::json& e = stats[key];
        if (e.is_number_float() || a.is_number_float()) {
          EXPECT_EQ(a.get<double>(), e.get<double>()) << name << "." << column << " " << key;
        } else {
          EXPECT_EQ(a, e) << name << "." << column << " " << key;
        }
      }
    }
  }
}

TEST_P(CliFixtureTest, ScanJsonMatchesSummaryStatistics) {
  const std::string stem = GetParam();
  std::ifstream in(testing::FixturePath(stem + ".summary.json"));
  ExpectScanMatchesSummary(testing::FixturePath(stem + ".tsfile"), nlohmann::json::parse(in));
}

// The 3.2M-row benchmark file (issue 4's acceptance check), when ../shared/bench is present.
TEST(CliTest, ScanJsonOfTheBenchmarkFileMatchesItsSummary) {
  const std::string file = testing::BenchDir() + "/table_large.tsfile";
  std::ifstream in(testing::BenchDir() + "/table_large.summary.json");
  if (!in.good()) GTEST_SKIP() << "no benchmark file at " << file;
  ExpectScanMatchesSummary(file, nlohmann::json::parse(in));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CliFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(CliTest, ScanWhereFiltersDevicesByTag) {
  RunResult all = RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --json --columns region");
  RunResult some = RunTsread("scan " + Fixture("table_alltypes.tsfile") +
                             " --table t_all --json --columns region --where region=north,south --where id=dev_00,dev_01");
  RunResult null_tag = RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --json --where region=");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(some.exit_code, 0) << some.err;
  ASSERT_EQ(null_tag.exit_code, 0) << null_tag.err;
  EXPECT_EQ(nlohmann::json::parse(all.out)["rows"], 100000);
  EXPECT_EQ(nlohmann::json::parse(some.out)["rows"], 10000);  // dev_00 (north) and dev_01 (south)
  EXPECT_EQ(nlohmann::json::parse(null_tag.out)["rows"], 5000);  // dev_17
  // --where takes FIELD columns too (value predicates); an unknown column or a value of the wrong
  // type is a usage error.
  EXPECT_EQ(RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --where nope=1").exit_code, 1);
  EXPECT_EQ(RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --where f_int64=abc").exit_code, 1);
  EXPECT_EQ(RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --threads 0").exit_code, 1);
}

TEST(CliTest, CatAndScanWithinAMemoryBudget) {
  // A budget the file fits in: the CSV is unchanged, with 1 thread (cat) and 2 (scan).
  RunResult r = RunTsread("cat " + Fixture("table_alltypes.tsfile") + " --table t_all --memory-budget 16M");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out == testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv")));
  r = RunTsread("scan " + Fixture("table_many_devices.tsfile") + " --threads 2 --memory-budget 4M --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rows"], 100000);
  // A chunk group needs more than 1 KiB by itself: exit 2 saying so.
  r = RunTsread("scan " + Fixture("table_many_devices.tsfile") + " --memory-budget 1K");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("more than the scan's memory budget of 1024 bytes"));
  for (const char* bad : {"0", "12X", "-5", "M", "99999999999G"}) {
    r = RunTsread("scan " + Fixture("table_many_devices.tsfile") + " --memory-budget " + bad);
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_THAT(r.err, HasSubstr("--memory-budget needs a positive size")) << bad;
  }
}

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

// 0.0 and -0.0 are equal: `scan --json` keeps, as one pass over the rows would, the zero seen
// first, also when its min/max loop runs in lanes (40 rows without nulls: lanes plus a tail).
// Column z0: 0.0 at row 5, -0.0 at row 6; z1 the other way round; n0/n1 the same among negative
// values, for the max.
TEST(CliTest, ScanJsonKeepsTheZeroSeenFirst) {
  const TableSchema schema = testing::TagAndFields("t", "id", {{"z0", DataType::kDouble}, {"z1", DataType::kDouble},
                                                              {"n0", DataType::kFloat}, {"n1", DataType::kFloat}});
  const std::string path = ::testing::TempDir() + "/tsread_scan_zeros_" + std::to_string(::getpid()) + ".tsfile";
  auto writer = TsFileWriter::Create(path, schema, TableWriterOptions{}).value();
  std::vector<int64_t> times;
  std::vector<ColumnValues> fields(4);
  fields[0].type = fields[1].type = DataType::kDouble;
  fields[2].type = fields[3].type = DataType::kFloat;
  for (int i = 0; i < 40; ++i) {
    times.push_back(i);
    const double first = i == 5 ? 0.0 : (i == 6 ? -0.0 : 1.0 + i);
    const double second = i == 5 ? -0.0 : (i == 6 ? 0.0 : 1.0 + i);
    fields[0].doubles.push_back(first);
    fields[1].doubles.push_back(second);
    fields[2].floats.push_back(static_cast<float>(i == 5 || i == 6 ? first : -first));
    fields[3].floats.push_back(static_cast<float>(i == 5 || i == 6 ? second : -second));
  }
  ASSERT_TRUE(writer->WriteRows(writer->MakeDeviceId({"d0"}), times, fields).ok());
  ASSERT_TRUE(writer->Close().ok());
  RunResult r = RunTsread("scan '" + path + "' --json --threads 1");
  std::remove(path.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json columns = nlohmann::json::parse(r.out)["columns"];
  EXPECT_EQ(columns["z0"]["min"].get<double>(), 0.0);
  EXPECT_FALSE(std::signbit(columns["z0"]["min"].get<double>())) << r.out;
  EXPECT_TRUE(std::signbit(columns["z1"]["min"].get<double>())) << r.out;
  EXPECT_EQ(columns["n0"]["max"].get<double>(), 0.0);
  EXPECT_FALSE(std::signbit(columns["n0"]["max"].get<double>())) << r.out;
  EXPECT_TRUE(std::signbit(columns["n1"]["max"].get<double>())) << r.out;
  EXPECT_EQ(columns["z0"]["max"].get<double>(), 40.0);
  EXPECT_EQ(columns["n1"]["min"].get<double>(), -40.0);
}

}  // namespace
}  // namespace tsread

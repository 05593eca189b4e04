// The tsread CLI end to end (cli-contract.md): `info --json` against every summary.json, `cat`
// against every fixture CSV byte for byte, and the exit codes.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

RunResult RunTsread(const std::string& args) {
  // ctest runs test cases as parallel processes: keep each process's files apart.
  const std::string err_path = ::testing::TempDir() + "/tsread_cli_err_" + std::to_string(getpid()) + ".txt";
  const std::string command = std::string(TSREAD_CLI_PATH) + " " + args + " 2>" + err_path;
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) result.out.append(buf, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = testing::ReadWholeFile(err_path);
  return result;
}

std::string Fixture(const std::string& name) { return "'" + testing::FixturePath(name) + "'"; }

class CliFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CliFixtureTest, InfoJsonMatchesSummary) {
  const std::string stem = GetParam();
  RunResult r = RunTsread("info " + Fixture(stem + ".tsfile") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json actual = nlohmann::json::parse(r.out);
  std::ifstream in(testing::FixturePath(stem + ".summary.json"));
  const nlohmann::json expected = nlohmann::json::parse(in);
  EXPECT_EQ(actual["version"], expected["version"]);
  ASSERT_EQ(actual["tables"].size(), expected["tables"].size());
  for (size_t t = 0; t < expected["tables"].size(); ++t) {
    for (const char* key : {"name", "columns", "devices", "rows"}) {
      EXPECT_EQ(actual["tables"][t][key], expected["tables"][t][key]) << key;
    }
  }
  EXPECT_EQ(actual.contains("tree"), expected.contains("tree"));
  if (expected.contains("tree")) {
    EXPECT_EQ(actual["tree"], expected["tree"]);
  }
}

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

TEST(CliTest, CatTableReproducesTheFixtureCsvExactly) {
  for (const char* name : {"table_multi.tbl_b", "table_alltypes.t_all", "table_enc_SPRINTZ.t_enc"}) {
    const std::string base(name);
    const std::string stem = base.substr(0, base.find('.'));
    const std::string table = base.substr(base.find('.') + 1);
    RunResult r = RunTsread("cat " + Fixture(stem + ".tsfile") + " --table " + table);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == testing::ReadWholeFile(testing::FixturePath(base + ".csv"))) << name;
  }
}

TEST(CliTest, CatTreeReproducesTheFixtureCsvExactly) {
  for (const char* stem : {"tree_aligned", "tree_nonaligned", "v3_sample"}) {
    RunResult r = RunTsread("cat " + Fixture(std::string(stem) + ".tsfile") + " --tree");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == testing::ReadWholeFile(testing::FixturePath(std::string(stem) + ".tree.csv"))) << stem;
  }
}

TEST(CliTest, CatProjectionAndRange) {
  RunResult r = RunTsread("cat " + Fixture("table_multi.tsfile") +
                    " --table tbl_a --columns status,site --start 1700000000573 --end 1700000001573");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "time,status,site");
  EXPECT_THAT(r.out, HasSubstr("1700000000573,"));
}

TEST(CliTest, DevicesListsOneIdPerLine) {
  RunResult r = RunTsread("devices " + Fixture("table_alltypes.tsfile"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 20);
  EXPECT_THAT(r.out, HasSubstr("t_all.null.dev_17\n"));
  EXPECT_THAT(r.out, HasSubstr("t_all.east\n"));  // trailing null tag trimmed
}

TEST(CliTest, SketchWalksTheWholeFile) {
  RunResult r = RunTsread("sketch " + Fixture("table_multi.tsfile"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("[Chunk Header] marker=129, measurementID=, dataSize=402"));
  EXPECT_THAT(r.out, HasSubstr("[Separator]"));
  EXPECT_THAT(r.out, HasSubstr("END of TsFile"));
}

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
  EXPECT_EQ(RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --where f_int64=1").exit_code, 1);
  EXPECT_EQ(RunTsread("scan " + Fixture("table_alltypes.tsfile") + " --table t_all --threads 0").exit_code, 1);
}

TEST(CliTest, VerifyExitCodes) {
  RunResult clean = RunTsread("verify " + Fixture("table_multi.tsfile"));
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_THAT(clean.out, HasSubstr("OK: 132 chunks"));
  RunResult sprintz = RunTsread("verify " + Fixture("table_enc_SPRINTZ.tsfile"));
  EXPECT_EQ(sprintz.exit_code, 2);
  EXPECT_THAT(sprintz.out, HasSubstr("device t_enc.south.dev_2, column f_double"));
}

TEST(CliTest, ExitCodes) {
  EXPECT_EQ(RunTsread("").exit_code, 1);
  EXPECT_EQ(RunTsread("frobnicate x").exit_code, 1);
  EXPECT_EQ(RunTsread("info " + Fixture("table_multi.tsfile") + " --bogus").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + Fixture("table_multi.tsfile") + " --table nope").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + Fixture("table_multi.tsfile") + " --table tbl_a --columns nope").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + Fixture("table_multi.tsfile") + " --table tbl_a --start abc").exit_code, 1);
  RunResult missing = RunTsread("info /nonexistent/file.tsfile");
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/file.tsfile"));
  // A file that is not a TsFile: corrupt, with the offset in the message.
  const std::string junk = ::testing::TempDir() + "/junk_" + std::to_string(getpid()) + ".tsfile";
  std::ofstream(junk) << "this is definitely not a tsfile at all";
  RunResult corrupt = RunTsread("info '" + junk + "'");
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_THAT(corrupt.err, HasSubstr("offset"));
}

}  // namespace
}  // namespace tsread

// The tsread commands that describe or check a file's structure, end to end: `info --json` against
// every fixture's summary.json, `info --columns` and `devices` (text and JSON), `sketch` against
// the Apache sketch tool's output, and `verify`'s verdicts and exit codes.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Fixture;
using testing::RunResult;
using testing::RunTsread;

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

INSTANTIATE_TEST_SUITE_P(Fixtures, CliFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

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

// Expected values from table_multi.sketch.txt, written by the Apache sketch tool (whose page
// offsets are sometimes off; ours are the exact ones).
TEST(CliTest, SketchShowsChunkAndPageStatistics) {
  RunResult r = RunTsread("sketch " + Fixture("table_multi.tsfile"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("                   7|\t\t[marker] 0\n"
                               "                   8|\t\t[deviceID] tbl_a size=7\n"));
  EXPECT_THAT(r.out, HasSubstr("                 424|\t[Chunk] of tbl_a.temperature, startTime: 1700000000573 "
                               "endTime: 1700000599403 count: 545 [minValue:-98.27,maxValue:-79.92,"
                               "firstValue:-92.6,lastValue:-79.92,sumValue:-49408.169914245605]\n"));
  EXPECT_THAT(r.out, HasSubstr("                 442|\t\t\t[PageHeader-1]  HeaderSize:46, UncompressedSize:406, "
                               "CompressedSize:407, startTime: 1700000000573 endTime: 1700000255403 count: 233 "
                               "[minValue:-98.27,maxValue:-91.59,firstValue:-92.6,lastValue:-97.26,"
                               "sumValue:-21988.40998840332]\n"));
  EXPECT_THAT(r.out, HasSubstr("[Chunk] of tbl_a.status, startTime: 1700000000573 endTime: 1700000599403 "
                               "count: 549 [firstValue:OK,lastValue:ERROR: overheat]\n"));
  EXPECT_THAT(r.out, HasSubstr("[Chunk] of tbl_a., startTime: 1700000000573 endTime: 1700000599403 count: 600\n"));
  EXPECT_THAT(r.out, HasSubstr("||||||||||||||||||||| [ChunkGroup] of tbl_a ends\n"));
  // Each metadata field at its own offset (checked against the bytes; the Apache tool says 199142).
  EXPECT_THAT(r.out, HasSubstr("              198742|\tTableSchemaCnt=3\n"));
  EXPECT_THAT(r.out, HasSubstr("              199118|\t[Meta Offset] 187987\n"));
  // Every metadata field at its own offset (checked against the file's bytes: 198409 holds the
  // name length of "tbl_a", 198743 that of the first schema's name, 199233 the property count).
  EXPECT_THAT(r.out, HasSubstr("              198409|\t\t[table \"tbl_a\"] LEAF_DEVICE entries=4"));
  EXPECT_THAT(r.out, HasSubstr("              198743|\t\t[TableSchema] tbl_a {[site,STRING,TAG]"));
  EXPECT_THAT(r.out, HasSubstr("              199233|\tPropertyCnt=3\n"));
  EXPECT_THAT(r.out, HasSubstr("              199234|\t\t[Property] encryptLevel=0\n"));
}

TEST(CliMetadataTest, InfoColumnsAndDevicesJson) {
  RunResult info = RunTsread("info " + Fixture("table_multi.tsfile") + " --json --columns");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const nlohmann::json summary = nlohmann::json::parse(info.out);
  EXPECT_EQ(summary["tables"].size(), 3u);  // the usual keys stay
  const nlohmann::json& tbl_a = summary["columns_detail"]["tbl_a"];
  ASSERT_EQ(tbl_a.size(), 4u);  // time + 3 fields (the TAG is in the device id, not a series)
  EXPECT_EQ(tbl_a[0]["name"], "time");
  EXPECT_EQ(tbl_a[0]["count"], 3822);  // the table's rows
  for (const nlohmann::json& c : tbl_a) {
    EXPECT_EQ(c["compressions"], nlohmann::json::array({"LZ4"})) << c;
    EXPECT_EQ(c["chunks"], 8) << c;
    EXPECT_GE(c["pages"].get<int>(), 8) << c;
    EXPECT_GT(c["uncompressed_bytes"].get<int>(), 0) << c;
  }
  const auto temperature = std::find_if(tbl_a.begin(), tbl_a.end(), [](const nlohmann::json& c) { return c["name"] == "temperature"; });
  ASSERT_NE(temperature, tbl_a.end());
  EXPECT_EQ((*temperature)["type"], "FLOAT");
  EXPECT_TRUE(temperature->contains("min") && temperature->contains("max"));
  RunResult text = RunTsread("info " + Fixture("table_multi.tsfile") + " --columns");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("table tbl_a columns:"));
  EXPECT_THAT(text.out, HasSubstr("\ttype\tencoding\tcompression\tchunks\tpages\tcompressed\tuncompressed\t"));

  RunResult devices = RunTsread("devices " + Fixture("table_alltypes.tsfile") + " --json");
  ASSERT_EQ(devices.exit_code, 0) << devices.err;
  const nlohmann::json listed = nlohmann::json::parse(devices.out)["devices"];
  ASSERT_EQ(listed.size(), 20u);
  bool null_region = false, trimmed = false;
  int64_t rows = 0;
  for (const nlohmann::json& d : listed) {
    rows += d["rows"].get<int64_t>();
    EXPECT_LE(d["start_time"].get<int64_t>(), d["end_time"].get<int64_t>());
    if (d["id"] == "t_all.null.dev_17") {
      null_region = true;
      EXPECT_TRUE(d["tags"]["region"].is_null());  // null, not the string "null"
      EXPECT_EQ(d["segments"], nlohmann::json::parse(R"(["t_all", null, "dev_17"])"));
    }
    if (d["id"] == "t_all.east") {
      trimmed = true;
      EXPECT_TRUE(d["tags"]["id"].is_null());
    }
  }
  EXPECT_TRUE(null_region && trimmed);
  EXPECT_EQ(rows, 100000);
  RunResult tree = RunTsread("devices " + Fixture("tree_nonaligned.tsfile") + " --json");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  const nlohmann::json first = nlohmann::json::parse(tree.out)["devices"][0];
  EXPECT_TRUE(first["table"].is_null());
  EXPECT_GT(first["points"].get<int64_t>(), 0);
}

TEST(CliTest, VerifyExitCodes) {
  RunResult clean = RunTsread("verify " + Fixture("table_multi.tsfile"));
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  EXPECT_THAT(clean.out, HasSubstr("OK: 132 chunks"));
  // Page statistics of a lossy encoding (written from the values before encoding): a notice, OK.
  RunResult sprintz = RunTsread("verify " + Fixture("table_enc_SPRINTZ.tsfile"));
  EXPECT_EQ(sprintz.exit_code, 0) << sprintz.out;
  EXPECT_THAT(sprintz.out, HasSubstr("NOTICE: offset 163193, device t_enc.south.dev_2, column f_double"));
  EXPECT_THAT(sprintz.out, HasSubstr("OK: 56 chunks"));
  EXPECT_THAT(sprintz.out, HasSubstr("1 notices"));
  // A real problem is still CORRUPT, exit 2: a time column's page statistics off by one (see
  // FileVerifierTest.ReportsPageStatisticsThatDisagreeWithTheData).
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  bytes[35] = static_cast<char>(bytes[35] ^ 0x01);
  const std::string damaged = ::testing::TempDir() + "/tsread_cli_damaged_" + std::to_string(getpid()) + ".tsfile";
  std::ofstream(damaged, std::ios::binary) << bytes;
  RunResult corrupt = RunTsread("verify '" + damaged + "'");
  EXPECT_EQ(corrupt.exit_code, 2) << corrupt.out;
  EXPECT_THAT(corrupt.out, HasSubstr("CORRUPT: "));
  std::remove(damaged.c_str());
}

}  // namespace
}  // namespace tsread

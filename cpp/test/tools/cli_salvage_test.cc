// `tsread salvage` end to end: unsealed files (a crashed writer's) point to it, its report (text
// and JSON), the sealed copy it writes (with and without --schema-from) read back by the other
// commands, version-3 copies, and its usage errors and exit codes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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
using testing::TempPath;

// A copy of the first `length` bytes of a fixture: an unsealed file, as a crashed writer leaves it.
std::string CutFixture(const std::string& name, size_t length, const std::string& tag) {
  const std::string path = TempPath("salvage_" + tag) + ".tsfile";
  std::ofstream(path, std::ios::binary) << testing::ReadWholeFile(testing::FixturePath(name)).substr(0, length);
  return path;
}

TEST(CliSalvageTest, UnsealedFilesPointToSalvage) {
  const std::string cut = CutFixture("table_comp_LZ4.tsfile", 80000, "hint");
  for (const std::string command : {"info", "scan", "cat"}) {
    RunResult r = RunTsread(command + " '" + cut + "'");
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("unsealed (no valid tail)")) << command;
    EXPECT_THAT(r.err, HasSubstr("tsread salvage")) << command;
  }
  // A file that is not a TsFile at all is not called unsealed.
  const std::string other = TempPath("salvage_not_tsfile") + ".tsfile";
  std::ofstream(other, std::ios::binary) << std::string(100, 'x');
  RunResult r = RunTsread("info '" + other + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("unsealed")));
  std::remove(cut.c_str());
  std::remove(other.c_str());
}

TEST(CliSalvageTest, ReportsAndWritesASealedCopy) {
  // table_comp_LZ4 holds 8 chunk groups (4 devices x 2); 80000 bytes end inside the fifth.
  const std::string cut = CutFixture("table_comp_LZ4.tsfile", 80000, "copy");
  RunResult report = RunTsread("salvage '" + cut + "' --json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const nlohmann::json json = nlohmann::json::parse(report.out);
  EXPECT_EQ(json["sealed"], false);
  EXPECT_EQ(json["groups_kept"], 4);
  EXPECT_EQ(json["devices"], 4);
  EXPECT_EQ(json["rows"], 6000);  // the first 1500 rows of each device
  EXPECT_LT(json["bytes_kept"].get<uint64_t>(), 80000u);
  EXPECT_EQ(json["stop_offset"], json["bytes_kept"]);
  EXPECT_THAT(json["stop_reason"].get<std::string>(), HasSubstr("is not kept"));
  RunResult text = RunTsread("salvage '" + cut + "'");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, HasSubstr("unsealed (no valid tail)"));
  EXPECT_THAT(text.out, HasSubstr("kept: 4 chunk groups, 4 devices, 6000 rows"));

  // With the schema from the sealed original, the copy's table is the original's first rows.
  const std::string out = TempPath("salvage_copy_out") + ".tsfile";
  std::remove(out.c_str());
  RunResult copy = RunTsread("salvage '" + cut + "' '" + out + "' --schema-from " + Fixture("table_comp_LZ4.tsfile"));
  ASSERT_EQ(copy.exit_code, 0) << copy.err;
  EXPECT_TRUE(copy.err.empty()) << copy.err;
  EXPECT_EQ(RunTsread("verify '" + out + "'").exit_code, 0);
  RunResult cat = RunTsread("cat '" + out + "'");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.t_comp.csv"));
  // Expected: the header and each device's first 1500 rows (the CSV lists devices in order).
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < csv.size();) {
    const size_t end = csv.find('\n', pos);
    lines.push_back(csv.substr(pos, end - pos + 1));
    pos = end + 1;
  }
  std::string expected = lines[0];
  for (size_t d = 0; d < 4; ++d) {
    for (size_t r = 0; r < 1500; ++r) expected += lines[1 + d * 3000 + r];
  }
  EXPECT_EQ(cat.out, expected);

  // Without a schema: a warning, positional TAG names, the same rows.
  RunResult again = RunTsread("salvage '" + cut + "' '" + out + "'");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr("exists (--force overwrites it)"));
  RunResult forced = RunTsread("salvage '" + cut + "' '" + out + "' --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(forced.err, HasSubstr("warning: table t_comp"));
  RunResult positional = RunTsread("cat '" + out + "' --limit 1");
  EXPECT_THAT(positional.out, ::testing::StartsWith("time,tag0,tag1,f_int64,"));
  EXPECT_EQ(nlohmann::json::parse(RunTsread("scan '" + out + "' --json").out)["rows"], 6000);

  // Usage: IN itself as OUT, too many arguments, --schema-from without OUT.
  EXPECT_EQ(RunTsread("salvage '" + cut + "' '" + cut + "' --force").exit_code, 1);
  EXPECT_EQ(RunTsread("salvage a b c").exit_code, 1);
  EXPECT_EQ(RunTsread("salvage '" + cut + "' --schema-from x").exit_code, 1);
  // Not a TsFile: 2; missing: 3.
  const std::string junk = TempPath("salvage_junk") + ".tsfile";
  std::ofstream(junk, std::ios::binary) << "junkjunkjunk";
  EXPECT_EQ(RunTsread("salvage '" + junk + "'").exit_code, 2);
  EXPECT_EQ(RunTsread("salvage /nonexistent/x.tsfile").exit_code, 3);
  // Nothing to keep: no copy is written.
  const std::string early = CutFixture("table_comp_LZ4.tsfile", 100, "early");
  std::remove(out.c_str());
  EXPECT_EQ(RunTsread("salvage '" + early + "' '" + out + "'").exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(out));
  for (const std::string& path : {cut, out, junk, early}) std::remove(path.c_str());
}

// A version-3 file keeps its version and gets a V3 index that reads back.
TEST(CliSalvageTest, Version3CopiesReadBack) {
  const std::string cut = CutFixture("v3_sample.tsfile", 89, "v3");  // one byte into the second group
  const std::string out = TempPath("salvage_v3_out") + ".tsfile";
  std::remove(out.c_str());
  ASSERT_EQ(RunTsread("salvage '" + cut + "' '" + out + "'").exit_code, 0);
  EXPECT_EQ(RunTsread("verify '" + out + "'").exit_code, 0);
  RunResult info = RunTsread("info '" + out + "' --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(nlohmann::json::parse(info.out)["version"], 3);
  RunResult tree = RunTsread("cat '" + out + "' --tree");
  EXPECT_EQ(tree.out, "device,measurement,time,value\nd1,s1,10000,5.0\nd1,s2,10000,5\n");
  std::remove(cut.c_str());
  std::remove(out.c_str());
}

}  // namespace
}  // namespace tsread

// The tsread CLI on datasets (a directory, a glob, a list of files) end to end: `cat` of every
// file's CSV in path order with one header, `scan`, `info` and `devices` merged over the files, and
// `gen`, which writes time slices of every device and refuses to overwrite without --force.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
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
using testing::TempPath;

// A directory holding two copies of a fixture (and a file that is not a TsFile).
std::string CopiesDir(const std::string& stem) {
  const std::string dir = ::testing::TempDir() + "/tsread_cli_dataset_" + stem + "_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/sub");
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile"));
  std::ofstream(dir + "/a.tsfile", std::ios::binary) << bytes;
  std::ofstream(dir + "/sub/b.tsfile", std::ios::binary) << bytes;
  std::ofstream(dir + "/readme.txt") << "not a tsfile";
  return dir;
}

TEST(CliDatasetTest, CatOfADirectoryIsEachFilesCsvInPathOrderWithOneHeader) {
  const std::string dir = CopiesDir("table_comp_LZ4");
  const testing::ScopedTempPath cleanup(dir);
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.t_comp.csv"));
  const std::string body = csv.substr(csv.find('\n') + 1);
  for (const std::string& input : {"'" + dir + "'", "'" + dir + "/**/*.tsfile'", "'" + dir + "/a.tsfile' '" + dir + "/sub/b.tsfile'"}) {
    RunResult r = RunTsread("cat " + input);  // --table left out: one table
    ASSERT_EQ(r.exit_code, 0) << input << r.err;
    EXPECT_TRUE(r.out == csv + body) << input;
  }
  RunResult where = RunTsread("cat '" + dir + "' --where id=dev_0 --columns id,f_int64");
  ASSERT_EQ(where.exit_code, 0) << where.err;
  EXPECT_EQ(std::count(where.out.begin(), where.out.end(), '\n'), 1 + 2 * 3000);
  EXPECT_EQ(RunTsread("cat '" + dir + "' --table nope").exit_code, 1);
  EXPECT_EQ(RunTsread("cat '" + dir + "/*.nothing'").exit_code, 3);
}

TEST(CliDatasetTest, ScanInfoAndDevicesOfADataset) {
  const std::string dir = CopiesDir("table_alltypes");
  const testing::ScopedTempPath cleanup(dir);
  RunResult scan = RunTsread("scan '" + dir + "' --json --threads 2");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  const nlohmann::json stats = nlohmann::json::parse(scan.out);
  EXPECT_EQ(stats["rows"], 200000);
  for (const char* key : {"seconds", "rows_per_second", "columns"}) EXPECT_TRUE(stats.contains(key)) << key;
  std::ifstream in(testing::FixturePath("table_alltypes.summary.json"));
  const nlohmann::json summary = nlohmann::json::parse(in);
  for (const auto& column : summary["tables"][0]["columns"]) {
    const std::string name = column["name"];
    if (!column.contains("non_null")) continue;
    EXPECT_EQ(stats["columns"][name]["non_null"], 2 * column["non_null"].get<int64_t>()) << name;
  }
  RunResult info = RunTsread("info '" + dir + "' --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const nlohmann::json merged = nlohmann::json::parse(info.out);
  ASSERT_EQ(merged["files"].size(), 2u);
  EXPECT_EQ(merged["files"][1]["path"], dir + "/sub/b.tsfile");
  EXPECT_EQ(merged["files"][0]["tables"][0]["rows"], summary["tables"][0]["rows"]);
  EXPECT_EQ(merged["tables"][0]["rows"], 2 * summary["tables"][0]["rows"].get<int64_t>());
  EXPECT_EQ(merged["tables"][0]["columns"], summary["tables"][0]["columns"]);
  RunResult text = RunTsread("info '" + dir + "'");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("dataset: 2 files"));
  // The same 20 devices in both files: counted once (was "40 devices (per file)").
  EXPECT_EQ(merged["tables"][0]["devices"], 20);
  EXPECT_THAT(text.out, HasSubstr("t_all: 2 files, 20 devices, "));
  RunResult devices = RunTsread("devices '" + dir + "'");
  ASSERT_EQ(devices.exit_code, 0) << devices.err;
  EXPECT_EQ(std::count(devices.out.begin(), devices.out.end(), '\n'), 20);  // each device once
}

TEST(CliDatasetTest, GenWritesTimeSlicesOfEveryDevice) {
  const std::string dir = ::testing::TempDir() + "/tsread_cli_gen_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  const testing::ScopedTempPath cleanup(dir);
  RunResult gen = RunTsread("gen '" + dir + "' --files 3 --devices 5 --rows 100");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  RunResult info = RunTsread("info '" + dir + "' --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const nlohmann::json merged = nlohmann::json::parse(info.out);
  ASSERT_EQ(merged["files"].size(), 3u);
  EXPECT_EQ(merged["tables"][0]["rows"], 500);
  EXPECT_EQ(merged["tables"][0]["devices"], 5);  // each of the 5 devices in every file, counted once
  int64_t previous_end = 0;
  for (const auto& file : merged["files"]) {
    EXPECT_EQ(file["tables"][0]["devices"], 5);
    EXPECT_GT(file["tables"][0]["start_time"].get<int64_t>(), previous_end);  // consecutive slices
    previous_end = file["tables"][0]["end_time"];
  }
  EXPECT_EQ(RunTsread("gen '" + dir + "' --files 0").exit_code, 1);
}

TEST(CliGenTest, RefusesToOverwriteWithoutForce) {
  const std::string path = TempPath("gen_force") + ".tsfile";
  std::remove(path.c_str());
  const testing::ScopedTempPath cleanup(path);
  EXPECT_EQ(RunTsread("gen '" + path + "' --devices 1 --rows 10 --compression zstd").exit_code, 0);
  RunResult again = RunTsread("gen '" + path + "' --devices 1 --rows 10");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr(path + ": exists"));
  EXPECT_EQ(RunTsread("gen '" + path + "' --devices 1 --rows 10 --force --compression Lz4").exit_code, 0);
  std::remove(path.c_str());
  const std::string dir = TempPath("gen_force_dir");
  std::filesystem::remove_all(dir);
  const testing::ScopedTempPath cleanup_dir(dir);
  std::filesystem::create_directories(dir);  // empty: fine
  EXPECT_EQ(RunTsread("gen '" + dir + "' --files 2 --devices 1 --rows 10").exit_code, 0);
  RunResult full_dir = RunTsread("gen '" + dir + "' --files 2 --devices 1 --rows 10");
  EXPECT_EQ(full_dir.exit_code, 1);
  EXPECT_THAT(full_dir.err, HasSubstr("not empty"));
  EXPECT_EQ(RunTsread("gen '" + dir + "' --files 2 --devices 1 --rows 10 --force").exit_code, 0);
  std::filesystem::remove_all(dir);
  // Codec names in any case, SNAPPY and GZIP included: the file reads back whole.
  for (const char* codec : {"SNAPPY", "gzip", "Zstd"}) {
    RunResult r = RunTsread("gen '" + path + "' --force --devices 3 --rows 500 --compression " + codec);
    ASSERT_EQ(r.exit_code, 0) << codec << r.err;
    RunResult scan = RunTsread("scan '" + path + "' --json");
    ASSERT_EQ(scan.exit_code, 0) << codec << scan.err;
    EXPECT_EQ(nlohmann::json::parse(scan.out)["rows"], 1500) << codec;
    EXPECT_EQ(RunTsread("verify '" + path + "'").exit_code, 0) << codec;
  }
  RunResult lzo = RunTsread("gen '" + path + "' --force --compression lzo");
  EXPECT_EQ(lzo.exit_code, 1);
  EXPECT_THAT(lzo.err, HasSubstr("supported: UNCOMPRESSED, LZ4, ZSTD, SNAPPY, GZIP"));
}

TEST(CliDatasetTest, AnIoTDBDeletionFileBesideAReadFileIsAppliedOrWithRawWarnedOf) {
  const std::string dir = CopiesDir("table_alltypes");
  const testing::ScopedTempPath cleanup(dir);
  const std::string mods = dir + "/a.tsfile.mods";
  // A 1.x tree deletion: it matches no table device, so every row stays.
  std::ofstream(mods, std::ios::binary) << "DELETION,root.sg.d1.s1,100,0,1700000000000\n";
  std::ofstream(dir + "/sub/b.tsfile.mods", std::ios::binary);  // empty: nothing deleted, no warning
  for (const std::string& command : {"scan '" + dir + "'", "cat '" + dir + "' --columns id", "info '" + dir + "'",
                                     "info '" + dir + "/a.tsfile'", "devices '" + dir + "'"}) {
    RunResult applied = RunTsread(command);
    ASSERT_EQ(applied.exit_code, 0) << command << applied.err;
    EXPECT_EQ(applied.err, "") << command;
    RunResult raw = RunTsread(command + " --raw");
    ASSERT_EQ(raw.exit_code, 0) << command << raw.err;
    EXPECT_THAT(raw.err, HasSubstr("tsread: warning: " + mods)) << command;
    EXPECT_THAT(raw.err, HasSubstr("does not apply them")) << command;
    EXPECT_THAT(raw.err, ::testing::Not(HasSubstr("b.tsfile.mods"))) << command;
  }
  EXPECT_THAT(RunTsread("info '" + dir + "'").out, HasSubstr("deletions applied: " + mods + " (1 entries)"));
  std::filesystem::remove(mods);
  EXPECT_THAT(RunTsread("scan '" + dir + "' --raw").err, ::testing::Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace tsread

// The tsread CLI end to end (cli-contract.md): `info --json` against every summary.json, `cat`
// against every fixture CSV byte for byte, and the exit codes.
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

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

// `prefix` goes before the binary in the shell command (e.g. "timeout -s KILL 60").
RunResult RunTsread(const std::string& args, const std::string& prefix = "") {
  // ctest runs test cases as parallel processes: keep each process's files apart.
  const std::string err_path = ::testing::TempDir() + "/tsread_cli_err_" + std::to_string(getpid()) + ".txt";
  const std::string command = prefix + " " + std::string(TSREAD_CLI_PATH) + " " + args + " 2>" + err_path;
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
  RunResult devices = RunTsread("devices '" + dir + "'");
  ASSERT_EQ(devices.exit_code, 0) << devices.err;
  EXPECT_EQ(std::count(devices.out.begin(), devices.out.end(), '\n'), 20);  // each device once
}

TEST(CliDatasetTest, GenWritesTimeSlicesOfEveryDevice) {
  const std::string dir = ::testing::TempDir() + "/tsread_cli_gen_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  RunResult gen = RunTsread("gen '" + dir + "' --files 3 --devices 5 --rows 100");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  RunResult info = RunTsread("info '" + dir + "' --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const nlohmann::json merged = nlohmann::json::parse(info.out);
  ASSERT_EQ(merged["files"].size(), 3u);
  EXPECT_EQ(merged["tables"][0]["rows"], 500);
  int64_t previous_end = 0;
  for (const auto& file : merged["files"]) {
    EXPECT_EQ(file["tables"][0]["devices"], 5);
    EXPECT_GT(file["tables"][0]["start_time"].get<int64_t>(), previous_end);  // consecutive slices
    previous_end = file["tables"][0]["end_time"];
  }
  EXPECT_EQ(RunTsread("gen '" + dir + "' --files 0").exit_code, 1);
}

// ---- Files that change under the CLI, and special files (issue 13) ----

std::string TempPath(const std::string& stem) {
  return ::testing::TempDir() + "/tsread_cli_" + stem + "_" + std::to_string(getpid());
}

// A running `tsread` with stdout on a pipe the test reads (or leaves full, to hold the child at
// its next write) and stderr in a file.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args) : err_path_(TempPath("child_err")) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      const int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(err, STDERR_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(TSREAD_CLI_PATH));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(TSREAD_CLI_PATH, argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = out[0];
  }
  ~Child() {
    if (out_ >= 0) close(out_);
    std::remove(err_path_.c_str());
  }
  bool started() const { return pid_ > 0 && out_ >= 0; }

  // Reads stdout until at least `n` bytes arrived (or it ended); returns what was read.
  std::string ReadAtLeast(size_t n) {
    std::string got;
    char buf[1 << 16];
    while (got.size() < n) {
      const ssize_t k = read(out_, buf, sizeof(buf));
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;
      got.append(buf, static_cast<size_t>(k));
    }
    return got;
  }
  // Drains stdout to the end and waits for the child: its wait status.
  int Finish(std::string* out = nullptr) {
    std::string rest = ReadAtLeast(SIZE_MAX);
    if (out != nullptr) *out += rest;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
  }
  std::string err() const { return testing::ReadWholeFile(err_path_); }
  // Closes the read end of stdout, as `| head` does when it has read enough.
  void CloseOut() {
    if (out_ >= 0) close(out_);
    out_ = -1;
  }

 private:
  std::string err_path_;
  pid_t pid_ = -1;
  int out_ = -1;
};

// A benchmark-shaped file written by `tsread gen`.
std::string GenerateFile(const std::string& stem, int devices) {
  const std::string path = TempPath(stem) + ".tsfile";
  RunResult gen = RunTsread("gen '" + path + "' --devices " + std::to_string(devices));
  EXPECT_EQ(gen.exit_code, 0) << gen.err;
  return path;
}

// The child ended with exit code 2 (corrupt: the reader saw a shorter file) or 3 (I/O: a read
// came back short) and a message — not by a signal.
void ExpectCleanFailure(int status, const std::string& err) {
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status) << "; stderr: " << err;
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_THAT(WEXITSTATUS(status), ::testing::AnyOf(2, 3)) << err;
  EXPECT_THAT(err, HasSubstr("tsread: "));
}

// `cat` is held at a full stdout pipe after it has opened the file and printed its first rows;
// the file is truncated then, deterministically mid-read; the rest of the output is drained.
TEST(CliTest, CatOfAFileTruncatedWhileItRunsFailsCleanly) {
  const std::string path = GenerateFile("cat_truncated", 200);  // 640,000 rows, 7 MB
  for (uint64_t size : {uint64_t{0}, uint64_t{1} << 20}) {
    Child child({"cat", path, "--table", "sensors"});
    ASSERT_TRUE(child.started());
    const std::string head = child.ReadAtLeast(1);  // the file is open, rows are coming
    ASSERT_FALSE(head.empty()) << child.err();
    ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(size)), 0);
    std::string out;
    const int status = child.Finish(&out);
    ExpectCleanFailure(status, child.err());
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_THAT(child.err(), HasSubstr(path));
    EXPECT_THAT(child.err(), HasSubstr("shrank while being read"));
    // Regenerate for the next size.
    std::remove(path.c_str());
    GenerateFile("cat_truncated", 200);
  }
  std::remove(path.c_str());
}

// Kills the test process if a step it guards blocks (a child that never touches the file), so
// that a regression fails the test instead of hanging it. Not an assertion on time.
class HangGuard {
 public:
  HangGuard() { alarm(300); }
  ~HangGuard() { alarm(0); }
};

// `scan` prints nothing until it is done, so the test truncates the file as soon as inotify
// reports the child's first read of it (after Open took its size). Usually the scan is then still
// running and must fail cleanly; if it finished first, its result must be the complete one. Never
// a signal. (A reader that maps the file makes no read events: the close event at its exit ends
// the wait instead. `cat` above is the deterministic check against mapping.)
TEST(CliTest, ScanOfAFileTruncatedWhileItRunsFailsCleanly) {
  const std::string path = GenerateFile("scan_truncated", 1000);  // 3.2M rows, 33 MB
  HangGuard guard;
  for (const char* threads : {"1", "2"}) {
    const int watch_fd = inotify_init1(IN_CLOEXEC);
    ASSERT_GE(watch_fd, 0);
    ASSERT_GE(inotify_add_watch(watch_fd, path.c_str(), IN_ACCESS | IN_CLOSE_NOWRITE), 0);
    Child child({"scan", path, "--table", "sensors", "--threads", threads, "--json"});
    ASSERT_TRUE(child.started());
    char event[sizeof(inotify_event) + 256];
    ASSERT_GT(read(watch_fd, event, sizeof(event)), 0);
    ASSERT_EQ(truncate(path.c_str(), 4096), 0);
    close(watch_fd);
    std::string out;
    const int status = child.Finish(&out);
    ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status) << "; stderr: " << child.err();
    // Which way it went, for the log: mid-scan (exit 2/3) or after the scan (exit 0).
    std::cout << threads << " thread(s): exit " << WEXITSTATUS(status) << ": " << child.err();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      EXPECT_EQ(nlohmann::json::parse(out)["rows"], 3200000) << "finished before the truncation";
    } else {
      ExpectCleanFailure(status, child.err());
    }
    std::remove(path.c_str());
    GenerateFile("scan_truncated", 1000);
  }
  std::remove(path.c_str());
}

// Special files fail at once with exit 3 and say what they are; `timeout` turns a hang (a FIFO
// open waiting for a writer) into a failure instead of a stuck test. A directory is a dataset for
// the commands that read several files, so only the one-file commands refuse it.
void ExpectNotARegularFile(const std::string& path, const std::string& type,
                           const std::vector<std::string>& commands = {"info", "cat", "scan", "sketch", "verify"}) {
  for (const std::string& command : commands) {
    const std::string args = command + " '" + path + "'" + (command == "cat" || command == "scan" ? " --table sensors" : "");
    RunResult r = RunTsread(args, "timeout -s KILL 60");
    EXPECT_EQ(r.exit_code, 3) << command << " " << path << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(path + ": not a regular file (" + type + ")"));
  }
}

TEST(CliTest, SpecialFilesFailAtOnce) {
  const std::string fifo = TempPath("fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  ExpectNotARegularFile(fifo, "FIFO");
  std::remove(fifo.c_str());

  ExpectNotARegularFile("/dev/null", "character device");
  ExpectNotARegularFile("/dev/zero", "character device");
  const std::string dir = TempPath("dir");
  std::filesystem::create_directories(dir);
  ExpectNotARegularFile(dir, "directory", {"sketch", "verify"});
  // A FIFO inside a dataset directory is not listed: the empty dataset is reported, no hang.
  ASSERT_EQ(mkfifo((dir + "/x.tsfile").c_str(), 0600), 0) << std::strerror(errno);
  RunResult listed = RunTsread("scan '" + dir + "'", "timeout -s KILL 60");
  EXPECT_EQ(listed.exit_code, 3) << listed.err;
  EXPECT_THAT(listed.err, HasSubstr("no file ending in .tsfile"));
  std::filesystem::remove_all(dir);

  const std::string socket_path = TempPath("sock");
  std::remove(socket_path.c_str());
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << std::strerror(errno);
  ASSERT_EQ(listen(fd, 1), 0);
  ExpectNotARegularFile(socket_path, "socket");
  close(fd);
  std::remove(socket_path.c_str());
}


// ---- Issue 14: output errors, flags, help, times, output formats, gen safety ----

// Every command that writes fails with exit 3 and a message when stdout cannot take the output.
TEST(CliOutputTest, WriteErrorsExitThree) {
  const std::string gen_path = TempPath("gen_full") + ".tsfile";
  std::remove(gen_path.c_str());
  const std::vector<std::string> commands = {
      "info " + Fixture("table_multi.tsfile"),
      "info " + Fixture("table_multi.tsfile") + " --json",
      "devices " + Fixture("table_alltypes.tsfile"),
      "sketch " + Fixture("table_multi.tsfile"),
      "cat " + Fixture("table_alltypes.tsfile"),
      "cat " + Fixture("tree_aligned.tsfile") + " --tree",
      "cat " + Fixture("table_alltypes.tsfile") + " --format ndjson",
      "scan " + Fixture("table_alltypes.tsfile") + " --json",
      "verify " + Fixture("table_multi.tsfile"),
      "gen '" + gen_path + "' --devices 2 --rows 10",
  };
  for (const std::string& command : commands) {
    RunResult full = RunTsread(command + " >/dev/full");
    EXPECT_EQ(full.exit_code, 3) << command << ": " << full.err;
    EXPECT_THAT(full.err, HasSubstr("tsread: error writing output")) << command;
  }
  std::remove(gen_path.c_str());
  RunResult closed = RunTsread("cat " + Fixture("table_alltypes.tsfile") + " >&-");
  EXPECT_EQ(closed.exit_code, 3) << closed.err;
  EXPECT_THAT(closed.err, HasSubstr("tsread: error writing output"));
  RunResult closed_info = RunTsread("info " + Fixture("table_multi.tsfile") + " >&-");
  EXPECT_EQ(closed_info.exit_code, 3) << closed_info.err;
}

// A reader that stops early (`| head`) ends `cat` by SIGPIPE, the default, without a message.
TEST(CliOutputTest, ClosedPipeEndsBySigpipe) {
  Child child({"cat", testing::FixturePath("table_alltypes.tsfile")});
  ASSERT_TRUE(child.started());
  ASSERT_FALSE(child.ReadAtLeast(100).empty()) << child.err();
  child.CloseOut();
  const int status = child.Finish();
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status) << ": " << child.err();
  EXPECT_EQ(WTERMSIG(status), SIGPIPE);
}

TEST(CliFlagsTest, FlagsACommandDoesNotTakeAreUsageErrors) {
  for (const std::string& args :
       {"info " + Fixture("table_multi.tsfile") + " --table tbl_a", "sketch " + Fixture("table_multi.tsfile") + " --json",
        "verify " + Fixture("table_multi.tsfile") + " --start 1", "devices " + Fixture("table_multi.tsfile") + " --limit 1",
        "scan " + Fixture("table_multi.tsfile") + " --format ndjson", "cat " + Fixture("tree_aligned.tsfile") + " --tree --columns b",
        "cat " + Fixture("tree_aligned.tsfile") + " --tree --where a=b", "cat " + Fixture("table_multi.tsfile") + " --table tbl_a --devices x",
        "cat " + Fixture("table_multi.tsfile") + " --table tbl_a --measurements x", std::string("gen /tmp/x.tsfile --json")}) {
    RunResult r = RunTsread(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_THAT(r.err, HasSubstr("tsread: ")) << args;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

// The fixture's tree CSV lines (header dropped) that pass `keep(device, measurement, time)`.
std::string FilterTreeCsv(const std::string& stem, const std::function<bool(const std::string&, const std::string&, int64_t)>& keep) {
  const std::string csv = testing::ReadWholeFile(testing::FixturePath(stem + ".tree.csv"));
  std::string out;
  size_t pos = csv.find('\n') + 1;
  while (pos < csv.size()) {
    const size_t end = csv.find('\n', pos);
    const std::string line = csv.substr(pos, end - pos + 1);
    const size_t c1 = line.find(','), c2 = line.find(',', c1 + 1), c3 = line.find(',', c2 + 1);
    if (keep(line.substr(0, c1), line.substr(c1 + 1, c2 - c1 - 1), std::stoll(line.substr(c2 + 1, c3 - c2 - 1)))) {
      out += line;
    }
    pos = end + 1;
  }
  return out;
}

TEST(CliFlagsTest, CatTreeFiltersByDeviceMeasurementAndTime) {
  const std::string header = "device,measurement,time,value\n";
  RunResult sg2 = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --devices root.sg2");
  ASSERT_EQ(sg2.exit_code, 0) << sg2.err;
  EXPECT_TRUE(sg2.out == header + FilterTreeCsv("tree_aligned", [](const std::string& d, const std::string&, int64_t) {
                return d.rfind("root.sg2.", 0) == 0;
              }));
  // A prefix matches whole segments only; an exact id matches itself.
  RunResult partial = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --devices root.sg");
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_EQ(partial.out, header);
  RunResult mixed = RunTsread("cat " + Fixture("tree_aligned.tsfile") +
                              " --tree --devices 'root.sg2.a1, root.sg3' --measurements b,i64 --start 1700000001000 --end 1700000050000");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  const std::string expected = FilterTreeCsv("tree_aligned", [](const std::string& d, const std::string& m, int64_t t) {
    return (d == "root.sg2.a1" || d.rfind("root.sg3.", 0) == 0) && (m == "b" || m == "i64") && t >= 1700000001000 &&
           t <= 1700000050000;
  });
  EXPECT_GT(expected.size(), 0u);
  EXPECT_TRUE(mixed.out == header + expected);
  // --start as ISO-8601 selects the same points.
  RunResult iso = RunTsread("cat " + Fixture("tree_aligned.tsfile") +
                            " --tree --devices 'root.sg2.a1, root.sg3' --measurements b,i64 --start 2023-11-14T22:13:21Z --end 1700000050000");
  EXPECT_TRUE(iso.out == mixed.out);
}

TEST(CliFlagsTest, ErrorsAboutAFileNameIt) {
  const std::string junk = TempPath("junk_named") + ".tsfile";
  std::ofstream(junk) << std::string(100, 'x');
  for (const char* command : {"info", "sketch", "verify", "cat", "scan", "devices"}) {
    RunResult r = RunTsread(std::string(command) + " '" + junk + "'");
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr(junk + ": bad head magic at offset 0")) << command;
  }
  std::remove(junk.c_str());
}

TEST(CliHelpTest, HelpAndVersionGoToStdout) {
  for (const char* args : {"--help", "-h", "help"}) {
    RunResult r = RunTsread(args);
    EXPECT_EQ(r.exit_code, 0) << args;
    EXPECT_THAT(r.out, HasSubstr("usage: tsread <command>")) << args;
    EXPECT_TRUE(r.err.empty()) << args;
  }
  for (const char* command : {"info", "devices", "sketch", "cat", "scan", "verify", "salvage", "gen"}) {
    for (const std::string& args : {std::string("help ") + command, std::string(command) + " --help",
                                    std::string(command) + " somefile -h"}) {
      RunResult r = RunTsread(args);
      EXPECT_EQ(r.exit_code, 0) << args;
      EXPECT_THAT(r.out, HasSubstr(std::string("usage: tsread ") + command)) << args;
      EXPECT_THAT(r.out, HasSubstr("exit codes: 0 success, 1 usage error")) << args;
    }
  }
  RunResult cat = RunTsread("help cat");
  EXPECT_THAT(cat.out, HasSubstr("milliseconds"));
  EXPECT_THAT(cat.out, HasSubstr("--where tag=v1[,v2]"));
  EXPECT_EQ(RunTsread("help frobnicate").exit_code, 1);
  RunResult version = RunTsread("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(version.out, ::testing::MatchesRegex("tsread [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}

TEST(CliFlagsTest, ColumnsAndIsoTimes) {
  const std::string base = "cat " + Fixture("table_multi.tsfile") + " --table tbl_a ";
  RunResult ints = RunTsread(base + "--columns status,site --start 1700000000573 --end 1700000001573");
  ASSERT_EQ(ints.exit_code, 0) << ints.err;
  for (const std::string& args :
       {std::string("--columns 'time, status,  site' --start 2023-11-14T22:13:20.573Z --end 2023-11-14T22:13:21.573"),
        std::string("--columns status,site --start '2023-11-14 23:13:20.573+01:00' --end 2023-11-14T22:13:21.5730Z")}) {
    RunResult iso = RunTsread(base + args);
    ASSERT_EQ(iso.exit_code, 0) << args << iso.err;
    EXPECT_TRUE(iso.out == ints.out) << args;
  }
  // A date alone is its midnight UTC: 2023-11-15 is 1700006400000, after every row of the file.
  RunResult date = RunTsread(base + "--start 2023-11-15");
  ASSERT_EQ(date.exit_code, 0) << date.err;
  EXPECT_EQ(std::count(date.out.begin(), date.out.end(), '\n'), 1);
  EXPECT_EQ(RunTsread(base + "--start 1700000001573 --end 1700000000573").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--start 2023-02-30").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--start 2023-11-14T25:00").exit_code, 1);
  EXPECT_EQ(RunTsread(base + "--columns time").exit_code, 1);
  RunResult scan = RunTsread("scan " + Fixture("table_multi.tsfile") + " --table tbl_a --json --columns 'time, status'");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(nlohmann::json::parse(scan.out)["columns"].size(), 1u);
}

TEST(CliCatOutputTest, LimitFormatAndTimeFormat) {
  const std::string file = Fixture("table_alltypes.tsfile");
  const std::string csv = testing::ReadWholeFile(testing::FixturePath("table_alltypes.t_all.csv"));
  RunResult limited = RunTsread("cat " + file + " --limit 5");
  ASSERT_EQ(limited.exit_code, 0) << limited.err;
  size_t end = 0;
  for (int i = 0; i < 6; ++i) end = csv.find('\n', end) + 1;
  EXPECT_TRUE(limited.out == csv.substr(0, end));
  RunResult none = RunTsread("cat " + file + " --limit 0");
  EXPECT_EQ(none.out, csv.substr(0, csv.find('\n') + 1));
  EXPECT_EQ(RunTsread("cat " + file + " --limit -1").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + file + " --format xml").exit_code, 1);
  EXPECT_EQ(RunTsread("cat " + file + " --time-format local").exit_code, 1);

  RunResult ndjson = RunTsread("cat " + file + " --format ndjson --limit 1000");
  ASSERT_EQ(ndjson.exit_code, 0) << ndjson.err;
  std::vector<nlohmann::json> rows;
  size_t pos = 0;
  while (pos < ndjson.out.size()) {
    const size_t nl = ndjson.out.find('\n', pos);
    rows.push_back(nlohmann::json::parse(ndjson.out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(rows.size(), 1000u);
  // First CSV row: 1700000000095,,"dev_17",false,102,1000000566189,18.65,-57.52610492861863,"","mode_5",0x75,20240705,1699999999668
  const nlohmann::json& first = rows[0];
  EXPECT_EQ(first["time"], 1700000000095);
  EXPECT_TRUE(first["region"].is_null());
  EXPECT_EQ(first["id"], "dev_17");
  EXPECT_EQ(first["f_boolean"], false);
  EXPECT_EQ(first["f_int32"], 102);
  EXPECT_EQ(first["f_int64"], 1000000566189);
  EXPECT_EQ(static_cast<float>(first["f_float"].get<double>()), 18.65f);
  EXPECT_EQ(first["f_double"], -57.52610492861863);
  EXPECT_EQ(first["f_text"], "");
  EXPECT_EQ(first["f_blob"], "0x75");
  EXPECT_EQ(first["f_date"], 20240705);
  EXPECT_EQ(first["f_timestamp"], 1699999999668);
  // Every row has every column as a key, null where the CSV field is empty.
  for (const nlohmann::json& row : rows) EXPECT_EQ(row.size(), 13u);

  RunResult iso = RunTsread("cat " + file + " --limit 1 --time-format iso --columns id");
  ASSERT_EQ(iso.exit_code, 0) << iso.err;
  EXPECT_EQ(iso.out, "time,id\n2023-11-14T22:13:20.095Z,\"dev_17\"\n");
  RunResult iso_json = RunTsread("cat " + file + " --limit 1 --time-format iso --format ndjson --columns id");
  EXPECT_EQ(iso_json.out, "{\"time\":\"2023-11-14T22:13:20.095Z\",\"id\":\"dev_17\"}\n");
  RunResult tree = RunTsread("cat " + Fixture("tree_aligned.tsfile") + " --tree --format ndjson --limit 1");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, "{\"device\":\"root.sg2.a1\",\"measurement\":\"b\",\"time\":1700000000000,\"value\":true}\n");
}

TEST(CliGenTest, RefusesToOverwriteWithoutForce) {
  const std::string path = TempPath("gen_force") + ".tsfile";
  std::remove(path.c_str());
  EXPECT_EQ(RunTsread("gen '" + path + "' --devices 1 --rows 10 --compression zstd").exit_code, 0);
  RunResult again = RunTsread("gen '" + path + "' --devices 1 --rows 10");
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_THAT(again.err, HasSubstr(path + ": exists"));
  EXPECT_EQ(RunTsread("gen '" + path + "' --devices 1 --rows 10 --force --compression Lz4").exit_code, 0);
  std::remove(path.c_str());
  const std::string dir = TempPath("gen_force_dir");
  std::filesystem::remove_all(dir);
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


// A table request on a tree-only file points to --tree and the other way round; one wording for an
// unknown table in every command.
TEST(CliTest, TableAndTreeRequestsPointToEachOther) {
  RunResult tree_on_tables = RunTsread("cat " + Fixture("table_multi.tsfile") + " --tree");
  EXPECT_EQ(tree_on_tables.exit_code, 1);
  EXPECT_THAT(tree_on_tables.err, HasSubstr("with --table"));
  EXPECT_THAT(tree_on_tables.err, HasSubstr("tbl_a, tbl_b, tbl_c"));
  RunResult table_on_tree = RunTsread("cat " + Fixture("tree_aligned.tsfile"));
  EXPECT_EQ(table_on_tree.exit_code, 1);
  EXPECT_THAT(table_on_tree.err, HasSubstr("use --tree"));
  for (const char* command : {"cat", "scan", "devices"}) {
    RunResult r = RunTsread(std::string(command) + " " + Fixture("table_multi.tsfile") + " --table nope");
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_THAT(r.err, HasSubstr("no table named \"nope\" (tables: tbl_a, tbl_b, tbl_c)")) << command;
  }
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

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

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

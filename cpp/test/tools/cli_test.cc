// The tsread CLI end to end (cli-contract.md), what every command shares: usage errors and the
// exit codes, help and version, flags a command does not take, errors naming the file, a table
// request on a tree-only file and the other way round, and output errors (a full or closed stdout,
// SIGPIPE). The commands themselves: cli_info_test.cc (info, devices, sketch, verify),
// cli_cat_test.cc, cli_scan_test.cc, cli_dataset_test.cc (datasets and gen),
// cli_changing_files_test.cc (files that change while read, special files), cli_salvage_test.cc.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/cli_runner.h"
#include "testing/fixtures.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Child;
using testing::Fixture;
using testing::RunResult;
using testing::RunTsread;
using testing::TempPath;

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
  const testing::ScopedTempPath cleanup(junk);
  std::ofstream(junk) << "this is definitely not a tsfile at all";
  RunResult corrupt = RunTsread("info '" + junk + "'");
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_THAT(corrupt.err, HasSubstr("offset"));
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
  EXPECT_THAT(cat.out, HasSubstr("--where COND"));
  EXPECT_EQ(RunTsread("help frobnicate").exit_code, 1);
  RunResult version = RunTsread("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(version.out, ::testing::MatchesRegex("tsread [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}

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

}  // namespace
}  // namespace tsread

// The CLI on IoTDB data: the visible data directory read as IoTDB answers (its expected CSVs), the
// files as written with --raw (its raw CSVs), the flags that choose a database, and a crashed
// server's unsealed files read in place.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"
#include "testing/fixtures.h"
#include "testing/tree_file.h"
#include "testing/two_field_table.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::RunResult;
using testing::RunTsread;

std::string FixtureDir() { return testing::FixturesDir() + "/iotdb_datadir"; }

// The lines of `text` after its header, sorted (the fixture's rows are in any order).
std::vector<std::string> SortedBody(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  if (!lines.empty()) lines.erase(lines.begin());
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(CliIotdbTest, CatPrintsWhatIotdbAnswers) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult table = RunTsread("cat " + data);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.err, "");  // deletions applied: nothing to warn of
  EXPECT_EQ(SortedBody(table.out), SortedBody(testing::ReadWholeFile(FixtureDir() + "/expected/t.csv")));
  RunResult tree = RunTsread("cat " + data + " --tree");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, testing::ReadWholeFile(FixtureDir() + "/expected/tree.csv"));  // in device, measurement, time order
  // The database folders given one by one read the same.
  RunResult folders = RunTsread("cat '" + FixtureDir() + "/data/sequence/db1' '" + FixtureDir() + "/data/unsequence/db1'");
  ASSERT_EQ(folders.exit_code, 0) << folders.err;
  EXPECT_EQ(SortedBody(folders.out), SortedBody(table.out));
}

TEST(CliIotdbTest, RawReadsTheFilesAsWritten) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult table = RunTsread("cat " + data + " --raw");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.err, HasSubstr("records IoTDB deletions"));
  EXPECT_EQ(SortedBody(table.out), SortedBody(testing::ReadWholeFile(FixtureDir() + "/raw/t.csv")));
  RunResult tree = RunTsread("cat " + data + " --raw --tree");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(SortedBody(tree.out), SortedBody(testing::ReadWholeFile(FixtureDir() + "/raw/tree.csv")));
}

TEST(CliIotdbTest, ScanCountsTheMergedRowsAndFiltersAfterTheMerge) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult scan = RunTsread("scan " + data + " --json");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(nlohmann::json::parse(scan.out)["rows"], 5);
  RunResult raw = RunTsread("scan " + data + " --json --raw");
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(nlohmann::json::parse(raw.out)["rows"], 8);
  // s1 = 3 was replaced by the unsequence file's 30 at T0+2: no row has it any more.
  RunResult where = RunTsread("cat " + data + " --where 's1 = 3 OR s1 = 30' --columns s1");
  ASSERT_EQ(where.exit_code, 0) << where.err;
  EXPECT_EQ(where.out, "time,s1\n1700000000002,30\n");
}

TEST(CliIotdbTest, DatabaseFlags) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult tree = RunTsread("cat " + data + " --tree --database root.sg1 --measurements s2");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, "device,measurement,time,value\nroot.sg1.d2,s2,1700000000000,9.5\n");
  RunResult unknown = RunTsread("cat " + data + " --database nope");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("--database nope: no such database"));
  RunResult wrong = RunTsread("cat " + data + " --database root.sg1");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.err, HasSubstr("database \"root.sg1\" has no table"));
  RunResult raw = RunTsread("cat " + data + " --raw --database db1");
  EXPECT_EQ(raw.exit_code, 1);
  EXPECT_THAT(raw.err, HasSubstr("--database does not go with --raw"));
}

// agg and last answer from the merged rows: expected/t.csv has a: s1 1, 2, 30, 4 and s2 1.5, 2.25,
// 3.5, 4.5; b: s1 10, s2 10.5 (its T0+1 row deleted). expected/tree.csv: d1.s1 2 and 30, d2.s1 1,
// d2.s2 9.5.
TEST(CliIotdbTest, AggAndLastAnswerFromTheMergedRows) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult agg = RunTsread("agg " + data + " --columns s1 --json");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  nlohmann::json groups = nlohmann::json::parse(agg.out)["groups"];
  ASSERT_EQ(groups.size(), 2u) << agg.out;
  EXPECT_EQ(groups[0]["rows"], 4);
  EXPECT_EQ(groups[0]["columns"]["s1"]["sum"], 37);
  EXPECT_EQ(groups[0]["columns"]["s1"]["max"], 30);
  EXPECT_EQ(groups[1]["rows"], 1);
  EXPECT_EQ(groups[1]["columns"]["s1"]["sum"], 10);
  RunResult last = RunTsread("last " + data);
  ASSERT_EQ(last.exit_code, 0) << last.err;
  EXPECT_EQ(last.out, "device,tag1,tag2,time,s1,s1_time,s2,s2_time\n"
                      "\"t.a\",\"a\",,1700000000003,4,1700000000003,4.5,1700000000003\n"
                      "\"t.b\",\"b\",,1700000000000,10,1700000000000,10.5,1700000000000\n");
  RunResult tree = RunTsread("last " + data + " --tree");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, "device,measurement,time,value\nroot.sg1.d1,s1,1700000000002,30\n"
                      "root.sg1.d2,s1,1700000000000,1\nroot.sg1.d2,s2,1700000000000,9.5\n");
  RunResult count = RunTsread("agg " + data + " --tree --measurements s1");
  ASSERT_EQ(count.exit_code, 0) << count.err;
  EXPECT_THAT(count.out, HasSubstr("root.sg1.d1,s1,2,2,30,2,30,32,"));
}

TEST(CliIotdbTest, InfoAndDevicesDescribeTheDataDirectory) {
  const std::string data = "'" + FixtureDir() + "/data'";
  RunResult info = RunTsread("info " + data + " --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  nlohmann::json j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["iotdb"]["databases"], nlohmann::json({"db1", "root.sg1"}));
  EXPECT_EQ(j["iotdb"]["sequence_files"], 2);
  EXPECT_EQ(j["iotdb"]["unsequence_files"], 2);
  EXPECT_EQ(j["iotdb"]["deletion_files"], 2);
  size_t with_deletions = 0;
  for (const nlohmann::json& f : j["files"]) {
    EXPECT_TRUE(f["iotdb"]["space"] == "sequence" || f["iotdb"]["space"] == "unsequence");
    if (!f["iotdb"]["deletions"].is_null()) {
      ++with_deletions;
      EXPECT_EQ(f["iotdb"]["space"], "sequence");
      EXPECT_EQ(f["iotdb"]["deletions"]["format"], "mods2");
    }
  }
  EXPECT_EQ(with_deletions, 2u);
  RunResult devices = RunTsread("devices " + data + " --json");
  ASSERT_EQ(devices.exit_code, 0) << devices.err;
  nlohmann::json listed = nlohmann::json::parse(devices.out)["devices"];
  ASSERT_EQ(listed.size(), 4u);
  EXPECT_EQ(listed[1]["id"], "t.b");
  EXPECT_EQ(listed[1]["rows"], 1);  // as stored: 2
  EXPECT_EQ(listed[3]["id"], "root.sg1.d2");
  EXPECT_EQ(listed[3]["rows"], 1);
  EXPECT_EQ(listed[3]["points"], 2);
}

// A crashed server's files (no tail, no .resource): the fixture's two unsequence files cut just
// after their data sections (the separator byte kept, so every chunk group is complete) read as
// IoTDB answers, with a warning naming each; db1's sequence file gives the table's schema.
TEST(CliIotdbTest, UnsealedFilesAreReadInPlaceUpToTheirLastCompleteChunkGroup) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "tsread_cli_unsealed";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy(FixtureDir() + "/data", dir / "data", std::filesystem::copy_options::recursive);
  std::vector<std::string> cut;
  for (const char* database : {"db1/1", "root.sg1/2"}) {
    const std::filesystem::path file = dir / "data/unsequence" / database / "2810/1700000003600-2-0-0.tsfile";
    uint64_t separator = 0;
    {
      absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(file.string());
      ASSERT_TRUE(reader.ok()) << reader.status();
      separator = (*reader)->metadata().meta_offset;
    }
    std::filesystem::resize_file(file, separator + 1);
    std::filesystem::remove(absl::StrCat(file.string(), ".resource"));
    cut.push_back(file.string());
  }
  const std::string data = "'" + (dir / "data").string() + "'";
  RunResult table = RunTsread("cat " + data);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(SortedBody(table.out), SortedBody(testing::ReadWholeFile(FixtureDir() + "/expected/t.csv")));
  for (const std::string& path : cut) EXPECT_THAT(table.err, HasSubstr(absl::StrCat(path, ": no valid tail")));
  RunResult tree = RunTsread("cat " + data + " --tree");
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out, testing::ReadWholeFile(FixtureDir() + "/expected/tree.csv"));
  RunResult info = RunTsread("info " + data + " --json");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  size_t unsealed = 0;
  const nlohmann::json described = nlohmann::json::parse(info.out);
  for (const nlohmann::json& f : described["files"]) {
    if (f["iotdb"]["unsealed"].is_null()) continue;
    ++unsealed;
    EXPECT_EQ(f["iotdb"]["space"], "unsequence");
    EXPECT_EQ(f["iotdb"]["unsealed"]["bytes_read"].get<uint64_t>() + 1, f["iotdb"]["unsealed"]["file_bytes"].get<uint64_t>());
  }
  EXPECT_EQ(unsealed, 2u);
  // As written, the cut files are refused (exit 2, named unsealed).
  RunResult raw = RunTsread("cat " + data + " --raw");
  EXPECT_EQ(raw.exit_code, 2);
  EXPECT_THAT(raw.err, HasSubstr("unsealed"));
  std::filesystem::remove_all(dir);
}

// ALTER COLUMN ... SET DATA TYPE: an old file's INT32 s1 and FLOAT s2 read as the newer file's DOUBLE
// and STRING, in cat and in agg (decoded: statistics of the stored type describe other values).
TEST(CliIotdbTest, AlteredColumnsReadAsTheirNewType) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "tsread_cli_altered";
  std::filesystem::remove_all(dir);
  const std::filesystem::path partition = dir / "data/sequence/db1/1/0";
  std::filesystem::create_directories(partition);
  auto write = [](const std::filesystem::path& path, int64_t first, ColumnValues s1, ColumnValues s2) {
    testing::WriteTwoFieldTable(path.string(), first, std::move(s1), std::move(s2));
  };
  write(partition / "1000-1-0-0.tsfile", 1, ColumnValues{.type = DataType::kInt32, .int32s = {1, 2}},
        ColumnValues{.type = DataType::kFloat, .floats = {1.5f, 2.5f}});
  const std::string x = "x";
  write(partition / "2000-2-0-0.tsfile", 3, ColumnValues{.type = DataType::kDouble, .doubles = {3.5, 4.25}},
        ColumnValues{.type = DataType::kString, .binaries = {x, x}});
  const std::string data = "'" + (dir / "data").string() + "'";
  RunResult cat = RunTsread("cat " + data + " --columns s1,s2");
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "time,s1,s2\n1,1.0,\"1.5\"\n2,2.0,\"2.5\"\n3,3.5,\"x\"\n4,4.25,\"x\"\n");
  RunResult agg = RunTsread("agg " + data + " --columns s1 --json");
  ASSERT_EQ(agg.exit_code, 0) << agg.err;
  const nlohmann::json s1 = nlohmann::json::parse(agg.out)["groups"][0]["columns"]["s1"];
  EXPECT_EQ(s1["count"], 4);
  EXPECT_EQ(s1["sum"], 10.75);
  EXPECT_EQ(s1["min"], 1.0);
  std::filesystem::remove_all(dir);
}

// gen --iotdb: 2 devices x 100 rows (one per second from T0) in 4 sequence files; unsequence
// files rewrite half the rows (times the sequence files hold: no row is added); the deletion takes
// 10 % of the 100 s from the middle, [T0 + 50 s, T0 + 60 s), 10 rows of each device.
TEST(CliIotdbTest, GenWritesAnIotdbDirectoryThatReadsAsItsRulesSay) {
  const std::string dir = ::testing::TempDir() + "/tsread_gen_iotdb";
  std::filesystem::remove_all(dir);
  RunResult gen = RunTsread("gen '" + dir + "' --iotdb --devices 2 --rows 100 --files 4 --unsequence 0.5 --deleted 0.1");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/sequence/db/1/2810/1700000000001-1-0-0.tsfile"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/unsequence/db/1/2810/1700000000005-5-0-0.tsfile"));
  RunResult scan = RunTsread("scan '" + dir + "' --json");
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  EXPECT_EQ(nlohmann::json::parse(scan.out)["rows"], 180);
  // On two threads (one device each): the same rows, counts and extremes.
  RunResult threads = RunTsread("scan '" + dir + "' --json --threads 2");
  ASSERT_EQ(threads.exit_code, 0) << threads.err;
  EXPECT_EQ(nlohmann::json::parse(threads.out)["rows"], 180);
  EXPECT_EQ(nlohmann::json::parse(threads.out)["columns"], nlohmann::json::parse(scan.out)["columns"]);
  // A budget of about one chunk group (a few KB here): every source of a merged device held its
  // next device's chunk group while another waited for the budget, which never came: a hang
  // before session 32's fix. Now a source the merge leaves lets go of its share.
  for (const char* threads_flag : {"1", "2"}) {
    RunResult budget = RunTsread("scan '" + dir + "' --json --memory-budget 4K --threads " + threads_flag,
                                 "timeout -s KILL 60");
    ASSERT_EQ(budget.exit_code, 0) << budget.err;
    EXPECT_EQ(nlohmann::json::parse(budget.out)["columns"], nlohmann::json::parse(scan.out)["columns"]);
  }
  RunResult raw = RunTsread("scan '" + dir + "' --json --raw");
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_GT(nlohmann::json::parse(raw.out)["rows"], 200);  // the rewritten rows twice, the deleted ones too
  RunResult deleted = RunTsread("cat '" + dir + "' --start 1700000050000 --end 1700000059999 --columns device");
  ASSERT_EQ(deleted.exit_code, 0) << deleted.err;
  EXPECT_EQ(deleted.out, "time,device\n");
  EXPECT_EQ(RunTsread("gen '" + dir + "x' --deleted 0.1").exit_code, 1);  // --deleted needs --iotdb
  std::filesystem::remove_all(dir);
}

// A tree series altered INT32 -> DOUBLE (ALTER TIMESERIES ... SET DATA TYPE): one DOUBLE series, the
// unsequence point at time 2 replacing the sequence one; --raw reads each file's type as written.
TEST(CliIotdbTest, ATreeSeriesOfAlteredTypeReadsAsOneSeries) {
  const std::string dir = (std::filesystem::temp_directory_path() / "tsread_cli_iotdb_altered_tree").string();
  std::filesystem::remove_all(dir);
  ColumnValues doubles;
  doubles.type = DataType::kDouble;
  doubles.doubles = {2.5, 4.5};
  testing::WriteTreeFile(dir + "/sequence/root.sg1/2/2810/1-1-0-0.tsfile", {{{1, 2, 3}, testing::Int32s({10, 20, 30})}});
  testing::WriteTreeFile(dir + "/unsequence/root.sg1/2/2810/2-2-0-0.tsfile", {{{2, 4}, doubles}});
  // The output of `tsread COMMAND 'dir' --tree FLAGS`, which must succeed.
  auto output = [&](const std::string& command, const std::string& flags = "") {
    RunResult run = RunTsread(command + " '" + dir + "' --tree" + flags);
    EXPECT_EQ(run.exit_code, 0) << command << flags << ": " << run.err;
    return run.out;
  };
  EXPECT_EQ(output("cat"), "device,measurement,time,value\nroot.sg1.d1,s1,1,10.0\nroot.sg1.d1,s1,2,2.5\n"
                           "root.sg1.d1,s1,3,30.0\nroot.sg1.d1,s1,4,4.5\n");
  EXPECT_EQ(output("last"), "device,measurement,time,value\nroot.sg1.d1,s1,4,4.5\n");
  EXPECT_THAT(output("cat", " --raw"), HasSubstr("root.sg1.d1,s1,2,20\n"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tsread

// The CLI on a crashed server's IoTDB data directory: unsealed files read in place up to their
// last complete chunk group (tsread/iotdb/unsealed_files.h), against the visible fixture's CSVs.
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
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::RunResult;
using testing::RunTsread;

std::string FixtureDir() { return absl::StrCat(testing::FixturesDir(), "/iotdb_datadir"); }

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

// A crashed server's files (no tail, no .resource): the fixture's two unsequence files cut just
// after their data sections (the separator byte kept, so every chunk group is complete) read as
// IoTDB answers, with a warning naming each; db1's sequence file gives the table's schema.
TEST(CliIotdbUnsealedTest, UnsealedFilesAreReadInPlaceUpToTheirLastCompleteChunkGroup) {
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

}  // namespace
}  // namespace tsread

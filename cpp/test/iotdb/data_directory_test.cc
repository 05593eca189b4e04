// FindLayout and ParseTsFileName: which files an input names and what IoTDB's layout says of them
// (iotdb-data-directories.md §1).
#include "tsread/iotdb/data_directory.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/iotdb_data.h"
#include "testing/temp_path.h"

namespace tsread::iotdb {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LayoutPath;
using testing::TRow;
using testing::WriteTableFile;

TEST(TsFileNameTest, ParsesIotdbNamesOnly) {
  std::optional<TsFileName> name = ParseTsFileName("1700000000000-12-3-4.tsfile");
  ASSERT_TRUE(name.has_value());
  EXPECT_EQ(name->time, 1700000000000);
  EXPECT_EQ(name->version, 12);
  EXPECT_EQ(name->inner_compactions, 3);
  EXPECT_EQ(name->cross_compactions, 4);
  for (const char* bad : {"a.tsfile", "1-2-3.tsfile", "1-2-3-4.tsfile.mods2", "1-2-3-4.inner", "-1-2-3-4.tsfile",
                          "1-2-3-x.tsfile", "1-2-3-4-5.tsfile", "99999999999999999999-1-0-0.tsfile", ".tsfile"}) {
    EXPECT_FALSE(ParseTsFileName(bad).has_value()) << bad;
  }
}

TEST(FilePriorityTest, UnsequenceThenVersionThenNameTime) {
  EXPECT_LT((FilePriority{false, 9, 9}), (FilePriority{true, 1, 1}));
  EXPECT_LT((FilePriority{true, 1, 9}), (FilePriority{true, 2, 1}));
  EXPECT_LT((FilePriority{true, 2, 1}), (FilePriority{true, 2, 2}));
}

class DataDirectoryTest : public testing::DataDirectoryTest {
 protected:
  std::vector<std::string> Names(const IotdbLayout& layout) {
    std::vector<std::string> names;
    for (const IotdbFile& f : layout.files) names.push_back(fs::path(f.path).filename().string());
    return names;
  }
};

TEST_F(DataDirectoryTest, RecognizesTheDataDirectoryAnythingBelowItAndFoldersAboveIt) {
  const std::string data = root_ + "/datanode/data";
  const std::string seq = LayoutPath(data, true, 1, 1000, "db1", 7);
  const std::string unseq = LayoutPath(data, false, 2, 2000, "db1", 7);
  WriteTableFile(seq, {{{1, "a", 1, {}}}});
  WriteTableFile(unseq, {{{1, "a", 2, {}}}});
  for (const std::vector<std::string>& inputs :
       std::vector<std::vector<std::string>>{{data}, {root_}, {data + "/sequence", data + "/unsequence"},
                                             {data + "/sequence/db1", data + "/unsequence/db1/1/7"}}) {
    absl::StatusOr<IotdbLayout> layout = FindLayout(inputs);
    ASSERT_TRUE(layout.ok()) << layout.status();
    EXPECT_TRUE(layout->recognized) << inputs[0];
    ASSERT_EQ(layout->files.size(), 2u) << inputs[0];
    // One group, lowest priority first.
    ASSERT_EQ(layout->groups.size(), 1u);
    const IotdbFile& first = layout->files[layout->groups[0].files[0]];
    const IotdbFile& second = layout->files[layout->groups[0].files[1]];
    EXPECT_TRUE(first.sequence);
    EXPECT_FALSE(second.sequence);
    EXPECT_EQ(second.database, "db1");
    EXPECT_EQ(second.region, "1");
    EXPECT_EQ(second.partition, 7);
    EXPECT_EQ(second.name.version, 2);
    EXPECT_TRUE(second.table_model());
  }
  absl::StatusOr<IotdbLayout> one = FindLayout({seq});
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->recognized);
  EXPECT_THAT(Names(*one), ElementsAre("1000-1-0-0.tsfile"));
}

TEST_F(DataDirectoryTest, AGlobOverADataDirectorysFilesReadsThemAsOne) {
  const std::string data = root_ + "/data";
  WriteTableFile(LayoutPath(data, true, 1), {{{1, "a", 1, {}}}});
  WriteTableFile(LayoutPath(data, false, 2), {{{1, "a", 2, {}}}});
  absl::StatusOr<IotdbLayout> layout = FindLayout({data + "/*/db1/1/0/*.tsfile"});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_TRUE(layout->recognized);
  ASSERT_EQ(layout->groups.size(), 1u);  // both files in one group: merged, not a union
  EXPECT_EQ(layout->groups[0].files.size(), 2u);
}

TEST_F(DataDirectoryTest, APlainFolderIsNotALayout) {
  WriteTableFile(root_ + "/b.tsfile", {{{1, "a", 1, {}}}});
  WriteTableFile(root_ + "/a.tsfile", {{{1, "a", 1, {}}}});
  absl::StatusOr<IotdbLayout> layout = FindLayout({root_ + "/b.tsfile", root_ + "/a.tsfile"});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_FALSE(layout->recognized);
  EXPECT_EQ(layout->groups.size(), 2u);  // each plain file alone, in input order
  EXPECT_THAT(Names(*layout), ElementsAre("b.tsfile", "a.tsfile"));
  EXPECT_EQ(layout->deletion_files(), 0u);
}

TEST_F(DataDirectoryTest, LeavesOutWhatIotdbDoesNotRead) {
  const std::string data = root_ + "/data";
  const std::string file = LayoutPath(data, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}}});
  const fs::path partition = fs::path(file).parent_path();
  for (const char* name : {"1000-2-1-0.inner", "1000-3-0-1.cross", "1000-4-0-0.tsfile.broken", "x.tsfile"}) {
    std::ofstream(partition / name) << "not read";
  }
  fs::create_directories(fs::path(data) / "snapshot/db1/1/0");
  WriteTableFile((fs::path(data) / "snapshot/db1/1/0/1000-9-0-0.tsfile").string(), {{{1, "a", 1, {}}}});
  absl::StatusOr<IotdbLayout> layout = FindLayout({data});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1000-1-0-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("x.tsfile is left out: not an IoTDB TsFile name")));
}

TEST_F(DataDirectoryTest, TheSameFileInTwoDataDirectoriesIsReadOnce) {
  WriteTableFile(LayoutPath(root_ + "/d1", true, 1), {{{1, "a", 1, {}}}});
  WriteTableFile(LayoutPath(root_ + "/d2", true, 1), {{{1, "a", 1, {}}}});
  WriteTableFile(LayoutPath(root_ + "/d2", true, 2, 3000), {{{2, "a", 2, {}}}});
  absl::StatusOr<IotdbLayout> layout = FindLayout({root_ + "/d1", root_ + "/d2"});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1000-1-0-0.tsfile", "3000-2-0-0.tsfile"));
  EXPECT_EQ(layout->data_dirs.size(), 2u);
}

TEST_F(DataDirectoryTest, Mods2WinsOverModsAndEmptyOnesCountAsAbsent) {
  const std::string file = LayoutPath(root_, true, 1);
  WriteTableFile(file, {{{1, "a", 1, {}}}});
  EXPECT_FALSE(DeletionFileOf(file).has_value());
  std::ofstream(file + ".mods") << "DELETION,root.a.b,1,0,1\n";
  ASSERT_TRUE(DeletionFileOf(file).has_value());
  EXPECT_EQ(DeletionFileOf(file)->format, DeletionFormat::kMods);
  std::ofstream(file + ".mods2", std::ios::binary) << testing::Mods2().Tree("root.a.b", 0, 1).bytes();
  EXPECT_EQ(DeletionFileOf(file)->format, DeletionFormat::kMods2);
  // An empty .mods2: nothing deleted, and the .mods is still not read (2.x has converted it).
  std::ofstream(file + ".mods2", std::ios::binary | std::ios::trunc);
  EXPECT_FALSE(DeletionFileOf(file).has_value());
}

// Case 18: a compaction log decides between sources and targets. The partition: sources
// 1-1-0-0 and 2-2-0-0 merged by an inner compaction into 1-1-1-0 (complete), its log beside them.
class CompactionLogTest : public DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    a_ = LayoutPath(root_, true, 1, 1);
    b_ = LayoutPath(root_, true, 2, 2);
    WriteTableFile(a_, {{{1, "a", 1, {}}}});
    WriteTableFile(b_, {{{2, "a", 2, {}}}});
    partition_ = fs::path(a_).parent_path();
    target_ = (partition_ / "1-1-1-0.tsfile").string();
    WriteTableFile(target_, {{{1, "a", 1, {}}, {2, "a", 2, {}}}});
    std::ofstream(partition_ / "1-1-1-0.inner-compaction.log")
        << "source sequence db1 1 0 1-1-0-0.tsfile\nsource sequence db1 1 0 2-2-0-0.tsfile\n"
        << "target sequence db1 1 0 1-1-1-0.inner\n";
  }

  std::string a_, b_, target_;
  fs::path partition_;
};

TEST_F(CompactionLogTest, KeepsTheSourcesWhileTheyAllExist) {
  absl::StatusOr<IotdbLayout> layout = FindLayout({root_});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-0-0.tsfile", "2-2-0-0.tsfile"));
  // A source gone and the target complete: the target only.
  fs::remove(b_);
  layout = FindLayout({root_});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-1-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("its targets are read")));
}

// The same for inputs that name files (a glob, or files one by one): the compaction logs of their
// partitions are read, and what the log names is looked for on disk.
TEST_F(CompactionLogTest, AppliesToFilesNamedByAGlob) {
  const std::string glob = (partition_ / "*.tsfile").string();
  absl::StatusOr<IotdbLayout> layout = FindLayout({glob});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-0-0.tsfile", "2-2-0-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("its sources are read, not its targets")));
  // The glob and the folder together, in either order: the log is read once.
  layout = FindLayout({glob, root_});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-0-0.tsfile", "2-2-0-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("its sources are read, not its targets")));
  layout = FindLayout({root_, glob});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-0-0.tsfile", "2-2-0-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("its sources are read, not its targets")));
  // Named alone, the target is still a leftover while the sources exist.
  layout = FindLayout({a_, target_});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-0-0.tsfile"));
  // A source gone and the target complete: the target only.
  fs::remove(b_);
  layout = FindLayout({glob});
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_THAT(Names(*layout), ElementsAre("1-1-1-0.tsfile"));
  EXPECT_THAT(layout->notes, ElementsAre(HasSubstr("its targets are read")));
}

TEST_F(DataDirectoryTest, NoTsFileIsNotFound) {
  absl::StatusOr<IotdbLayout> layout = FindLayout({root_});
  EXPECT_TRUE(absl::IsNotFound(layout.status())) << layout.status();
}

}  // namespace
}  // namespace tsread::iotdb

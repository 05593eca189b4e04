// ListFiles: paths, globs (with **) and directories expanded to files in path order.
#include "tsread/io/file_list.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

class FileListTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (fs::temp_directory_path() / absl::StrCat("tsread_file_list_", ::getpid())).string();
    fs::remove_all(root_);
    for (const char* path : {"a.tsfile", "b.tsfile", "c.txt", ".hidden.tsfile", "d1/x.tsfile", "d1/d2/y.tsfile",
                             "d1/d2/z.csv", "a-b/w.tsfile"}) {
      fs::create_directories(fs::path(root_ + "/" + path).parent_path());
      std::ofstream(root_ + "/" + path) << "x";
    }
    fs::create_directories(root_ + "/empty");
    fs::create_directory_symlink(root_ + "/d1", root_ + "/d1/loop");  // a link cycle, never followed
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string P(const std::string& rel) const { return root_ + "/" + rel; }
  std::string root_;
};

TEST_F(FileListTest, DirectoriesListEveryFileWithTheExtensionBelowThemInPathOrder) {
  absl::StatusOr<std::vector<std::string>> files = ListFiles({root_}, ".tsfile");
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre(P(".hidden.tsfile"), P("a-b/w.tsfile"), P("a.tsfile"), P("b.tsfile"),
                                  P("d1/d2/y.tsfile"), P("d1/x.tsfile")));
  EXPECT_THAT(ListFiles({P("empty")}, ".tsfile").value(), ElementsAre());
}

TEST_F(FileListTest, GlobsMatchPerComponentAndDoubleStarAnyDepth) {
  EXPECT_THAT(ListFiles({P("*.tsfile")}, ".tsfile").value(), ElementsAre(P("a.tsfile"), P("b.tsfile")));
  EXPECT_THAT(ListFiles({P("**/*.tsfile")}, ".tsfile").value(),
              ElementsAre(P("a-b/w.tsfile"), P("a.tsfile"), P("b.tsfile"), P("d1/d2/y.tsfile"), P("d1/x.tsfile")));
  EXPECT_THAT(ListFiles({P("d1/**/*.csv")}, ".tsfile").value(), ElementsAre(P("d1/d2/z.csv")));
  EXPECT_THAT(ListFiles({P("[ab].*")}, ".tsfile").value(), ElementsAre(P("a.tsfile"), P("b.tsfile")));
  EXPECT_THAT(ListFiles({P("?.tsfile")}, ".tsfile").value(), ElementsAre(P("a.tsfile"), P("b.tsfile")));
  EXPECT_EQ(ListFiles({P("*.parquet")}, ".tsfile").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(FileListTest, ATrailingDoubleStarMatchesWhatTheDirectoryWould) {
  // As read_parquet('dir/**'): every file below, here those with the dataset's extension.
  EXPECT_THAT(ListFiles({P("d1/**")}, ".tsfile").value(), ElementsAre(P("d1/d2/y.tsfile"), P("d1/x.tsfile")));
  EXPECT_EQ(ListFiles({P("**")}, ".tsfile").value(), ListFiles({root_}, ".tsfile").value());
  EXPECT_THAT(ListFiles({P("d*/**")}, ".tsfile").value(), ElementsAre(P("d1/d2/y.tsfile"), P("d1/x.tsfile")));
  EXPECT_EQ(ListFiles({P("empty/**")}, ".tsfile").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(FileListTest, AFileSpelledTwoWaysIsListedOnce) {
  const fs::path cwd = fs::current_path();
  fs::current_path(root_);
  absl::StatusOr<std::vector<std::string>> files =
      ListFiles({"a.tsfile", P("a.tsfile"), "./a.tsfile", "d1/../a.tsfile", root_ + "//b.tsfile", "b.tsfile"}, ".tsfile");
  fs::current_path(cwd);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_THAT(*files, ElementsAre("a.tsfile", root_ + "//b.tsfile"));
  // Two links to one file are two inputs (a dataset may repeat a file on purpose).
  fs::create_symlink(P("a.tsfile"), P("link.tsfile"));
  EXPECT_THAT(ListFiles({P("a.tsfile"), P("link.tsfile")}, ".tsfile").value(),
              ElementsAre(P("a.tsfile"), P("link.tsfile")));
}

TEST_F(FileListTest, PathsAreKeptAsGivenOnceEachInTheOrderGiven) {
  EXPECT_THAT(ListFiles({P("b.tsfile"), P("c.txt"), P("missing.tsfile"), P("b.tsfile"), P("*.tsfile")}, ".tsfile").value(),
              ElementsAre(P("b.tsfile"), P("c.txt"), P("missing.tsfile"), P("a.tsfile")));
  EXPECT_EQ(ListFiles({}, ".tsfile").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(IsGlob("a/*.tsfile"));
  EXPECT_FALSE(IsGlob("a/b.tsfile"));
}

}  // namespace
}  // namespace tsread

// A crashed server's unsealed files in an IoTDB data directory (unsealed_files.h): their complete
// chunk groups are read in place and merged like any file's. Where a file is cut comes from its
// sealed original's own index and data-section walk (testing/chunk_group_layout.h), and the
// expected rows are written out by hand.
#include "tsread/iotdb/unsealed_files.h"

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/chunk_group_layout.h"
#include "testing/iotdb_data.h"
#include "testing/temp_path.h"
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread::iotdb {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::LayoutPath;
using testing::MergedRows;
using testing::TRow;
using testing::WriteTableFile;

class UnsealedFilesTest : public testing::DataDirectoryTest {
 protected:
  // Writes table t's devices a, b, c, d at `path` (a chunk group each: a and b in one flush, c and
  // d in two more) and returns its chunk groups as the sealed file describes them.
  testing::ChunkGroupLayout WriteFourGroups(const std::string& path) {
    WriteTableFile(path, {{{1, "a", 1, {}}, {2, "a", 2, {}}, {1, "b", 1, {}}, {2, "b", 2, {}}},
                          {{5, "c", 5, {}}},
                          {{6, "d", 6, {}}}});
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status();
    absl::StatusOr<testing::ChunkGroupLayout> layout = testing::LayoutOf(**reader);
    EXPECT_TRUE(layout.ok()) << layout.status();
    EXPECT_EQ(layout->groups.size(), 4u);
    return *layout;
  }

  static void Cut(const std::string& path, uint64_t length) { std::filesystem::resize_file(path, length); }
};

TEST_F(UnsealedFilesTest, ACrashedFileIsReadUpToItsLastCompleteChunkGroupAndMerged) {
  const std::string crashed = LayoutPath(root_, true, 2, 2000);
  const testing::ChunkGroupLayout groups = WriteFourGroups(crashed);
  WriteTableFile(LayoutPath(root_, true, 1, 1000), {{{0, "a", 0, {}}}});   // sealed: the schema's source
  WriteTableFile(LayoutPath(root_, false, 3, 3000), {{{2, "b", 20, 7}}});  // overlaps the crashed file
  // Cut inside c's first chunk: a and b are complete (c's marker follows them), c and d are lost.
  Cut(crashed, groups.groups[2].first_chunk + 3);

  // TAG values under their names: the schema came from the sealed file of the same database.
  EXPECT_THAT(MergedRows({root_}), ElementsAre("0,a,0,", "1,a,1,", "1,b,1,", "2,a,2,", "2,b,20,7"));
  absl::StatusOr<std::unique_ptr<IotdbDataset>> data = IotdbDataset::Open({root_});
  ASSERT_TRUE(data.ok()) << data.status();
  ASSERT_EQ((*data)->unsealed_files().size(), 1u);
  const auto& [index, file] = *(*data)->unsealed_files().begin();
  EXPECT_EQ((*data)->layout().files[index].path, crashed);
  EXPECT_EQ(file.groups, 2u);
  EXPECT_EQ(file.data_end, groups.groups[2].offset);
  EXPECT_EQ(file.size, groups.groups[2].first_chunk + 3);
  EXPECT_THAT((*data)->Warnings(),
              Contains(AllOf(HasSubstr(crashed), HasSubstr("no valid tail"), HasSubstr("2 complete chunk groups read in place"),
                             HasSubstr("write-ahead log"))));
  EXPECT_TRUE((*data)->dataset().files()[index].status.ok());
}

TEST_F(UnsealedFilesTest, AFileCutJustBeforeItsIndexKeepsEveryGroup) {
  const std::string crashed = LayoutPath(root_, true, 1);
  const testing::ChunkGroupLayout groups = WriteFourGroups(crashed);
  Cut(crashed, groups.separator + 1);  // the separator is there: d is complete
  DatasetScanOptions positional;
  positional.columns = {"tag0", "s1", "s2"};
  EXPECT_THAT(MergedRows({root_}, positional),
              ElementsAre("1,a,1,", "1,b,1,", "2,a,2,", "2,b,2,", "5,c,5,", "6,d,6,"));
  absl::StatusOr<std::unique_ptr<IotdbDataset>> data = IotdbDataset::Open({root_});
  ASSERT_TRUE(data.ok()) << data.status();
  // No other file of the database gives the schema: TAG columns are named by position.
  EXPECT_THAT((*data)->Warnings(), Contains(AllOf(HasSubstr(crashed), HasSubstr("named by position"))));
}

TEST_F(UnsealedFilesTest, GivenAloneAFileTakesItsSchemaFromItsDatabasesOtherPartitions) {
  // As a Dask partition reads it: the crashed file's own partition folder holds nothing else.
  const std::string crashed = LayoutPath(root_, false, 2, 2000, "db1", 1);
  const testing::ChunkGroupLayout groups = WriteFourGroups(crashed);
  WriteTableFile(LayoutPath(root_, true, 1, 1000, "db1", 0), {{{0, "a", 0, {}}}});  // partition 0
  Cut(crashed, groups.separator + 1);
  EXPECT_THAT(MergedRows({crashed}), ElementsAre("1,a,1,", "1,b,1,", "2,a,2,", "2,b,2,", "5,c,5,", "6,d,6,"));
  absl::StatusOr<std::unique_ptr<IotdbDataset>> data = IotdbDataset::Open({crashed});
  ASSERT_TRUE(data.ok()) << data.status();
  for (const std::string& warning : (*data)->Warnings()) EXPECT_THAT(warning, Not(HasSubstr("named by position")));
}

TEST_F(UnsealedFilesTest, AFileWithoutACompleteChunkGroupIsLeftOutWithANote) {
  const std::string crashed = LayoutPath(root_, true, 2, 2000);
  const testing::ChunkGroupLayout groups = WriteFourGroups(crashed);
  WriteTableFile(LayoutPath(root_, true, 1, 1000), {{{0, "a", 0, {}}}});
  Cut(crashed, groups.groups[0].first_chunk + 3);
  EXPECT_THAT(MergedRows({root_}), ElementsAre("0,a,0,"));
  absl::StatusOr<std::unique_ptr<IotdbDataset>> data = IotdbDataset::Open({root_});
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ((*data)->layout().files.size(), 1u);
  EXPECT_THAT((*data)->unsealed_files(), IsEmpty());
  EXPECT_THAT((*data)->layout().notes, Contains(AllOf(HasSubstr(crashed), HasSubstr("left out"))));
}

TEST_F(UnsealedFilesTest, AFileThatIsNotATsFileKeepsItsOwnError) {
  WriteTableFile(LayoutPath(root_, true, 1, 1000), {{{0, "a", 0, {}}}});
  const std::string junk = LayoutPath(root_, true, 2, 2000);
  std::ofstream(junk, std::ios::binary) << std::string(100, 'x');
  absl::StatusOr<std::unique_ptr<IotdbDataset>> data = IotdbDataset::Open({root_});
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_THAT((*data)->unsealed_files(), IsEmpty());
  EXPECT_EQ((*data)->dataset().files().size(), 2u);
  EXPECT_FALSE((*data)->dataset().files()[1].status.ok());
}

}  // namespace
}  // namespace tsread::iotdb

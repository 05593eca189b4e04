// ParseModsText: the 1.x text deletion file (iotdb-deletion-files.md, "1.x format";
// iotdb-data-directories.md §3.2), decoded as dev/1.3's LocalTextModificationAccessor does.
#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kPath[] = "root.db/1/0/1-1-0-0.tsfile.mods";
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// The entries of `text`, which must parse cleanly.
std::vector<DeletionEntry> Entries(const std::string& text) {
  DeletionFileContents contents = ParseModsText(text, kPath);
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
  return contents.entries;
}

TEST(ModsFileTest, ReadsARangeDeletion) {
  const std::vector<DeletionEntry> entries = Entries("DELETION,root.db.d1.s1,1000,0,100\n");
  ASSERT_EQ(entries.size(), 1u);
  const DeletionEntry& entry = entries[0];
  EXPECT_EQ(entry.model, DeletionEntry::Model::kTree);
  EXPECT_THAT(entry.pattern, ElementsAre("root", "db", "d1", "s1"));
  EXPECT_EQ(entry.file_offset, std::optional<int64_t>(1000));
  EXPECT_EQ(entry.start, 0);
  EXPECT_EQ(entry.end, 100);
  EXPECT_FALSE(entry.partial_wildcards_match);
}

TEST(ModsFileTest, ReadsOpenEndsAndNegativeTimes) {
  const std::vector<DeletionEntry> entries =
      Entries("DELETION,root.db.**,9223372036854775807,-9223372036854775808,9223372036854775807\n"
              "DELETION,root.db.d1.*,+5,-20,-10\n");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "**"));
  EXPECT_EQ(entries[0].file_offset, std::optional<int64_t>(kMax));
  EXPECT_EQ(entries[0].start, kMin);
  EXPECT_EQ(entries[0].end, kMax);
  EXPECT_THAT(entries[1].pattern, ElementsAre("root", "db", "d1", "*"));
  EXPECT_EQ(entries[1].file_offset, std::optional<int64_t>(5));  // Long.parseLong takes a '+'
  EXPECT_EQ(entries[1].start, -20);
  EXPECT_EQ(entries[1].end, -10);
}

TEST(ModsFileTest, ReadsTheLegacyPointDeletion) {
  // DELETION,<path>,<version>,<endTime>: start is Long.MIN_VALUE, the version stands as the offset.
  const std::vector<DeletionEntry> entries = Entries("DELETION,root.db.d1.s1,7,300\n");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "d1", "s1"));
  EXPECT_EQ(entries[0].file_offset, std::optional<int64_t>(7));
  EXPECT_EQ(entries[0].start, kMin);
  EXPECT_EQ(entries[0].end, 300);
  EXPECT_FALSE(entries[0].partial_wildcards_match);
}

TEST(ModsFileTest, ReadsCrlfLoneCrAndAnUnterminatedLastLine) {
  const std::vector<DeletionEntry> entries =
      Entries("DELETION,root.db.d1.s1,10,1,2\r\nDELETION,root.db.d1.s2,20,3,4\rDELETION,root.db.d1.s3,30,5,6");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "d1", "s1"));
  EXPECT_EQ(entries[0].end, 2);
  EXPECT_THAT(entries[1].pattern, ElementsAre("root", "db", "d1", "s2"));
  EXPECT_EQ(entries[1].file_offset, std::optional<int64_t>(20));
  EXPECT_THAT(entries[2].pattern, ElementsAre("root", "db", "d1", "s3"));
  EXPECT_EQ(entries[2].start, 5);
  EXPECT_EQ(entries[2].end, 6);
}

TEST(ModsFileTest, CommasInBackQuotedNodesSurvive) {
  const std::vector<DeletionEntry> entries =
      Entries("DELETION,root.db.`a,b`.`s,,1`,10,1,2\nDELETION,root.db.`x,y`.s,8,9\n");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "a,b", "s,,1"));
  EXPECT_EQ(entries[0].file_offset, std::optional<int64_t>(10));
  EXPECT_EQ(entries[0].start, 1);
  EXPECT_EQ(entries[0].end, 2);
  // Legacy form: field n-3 ("y`.s") is no number.
  EXPECT_THAT(entries[1].pattern, ElementsAre("root", "db", "x,y", "s"));
  EXPECT_EQ(entries[1].file_offset, std::optional<int64_t>(8));
  EXPECT_EQ(entries[1].start, kMin);
  EXPECT_EQ(entries[1].end, 9);
}

TEST(ModsFileTest, EmptyFileHasNoEntries) {
  DeletionFileContents contents = ParseModsText("", kPath);
  EXPECT_THAT(contents.entries, IsEmpty());
  EXPECT_TRUE(contents.damage.ok());
  EXPECT_TRUE(contents.unknown.ok());
}

// Java's split(",") drops trailing empty fields: the line reads as the legacy form
// DELETION,root.db.d1.s1,5,0 (version 5, end 0).
TEST(ModsFileTest, TrailingCommasAreDroppedAsJavaSplitDoes) {
  const std::vector<DeletionEntry> entries = Entries("DELETION,root.db.d1.s1,5,0,\n");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "d1", "s1"));
  EXPECT_EQ(entries[0].file_offset, std::optional<int64_t>(5));
  EXPECT_EQ(entries[0].start, kMin);
  EXPECT_EQ(entries[0].end, 0);
}

TEST(ModsFileTest, PartialWildcardEntriesMatchNothing) {
  const std::vector<DeletionEntry> entries = Entries("DELETION,root.db.d*.s1,100,0,10\n");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_THAT(entries[0].pattern, ElementsAre("root", "db", "d*", "s1"));
  EXPECT_FALSE(entries[0].Affects(DeviceId::Plain("root.db.d1"), "s1"));
}

// A bad line stops the read: the lines before it count, the ones after do not. The first line is
// 24 bytes, so the bad one starts at offset 24.
TEST(ModsFileTest, ABadLineStopsTheRead) {
  const std::string good = "DELETION,root.a.s,1,2,3\n";
  ASSERT_EQ(good.size(), 24u);
  struct Case {
    std::string line;
    std::string why;
  };
  const Case cases[] = {
      {"INSERT,root.a.s,1,2,3\n", "unknown modification type \"INSERT\""},
      {"deletion,root.a.s,1,2,3\n", "unknown modification type \"deletion\""},
      {"DELETION,root.a.s,3\n", "3 comma-separated fields"},
      {"DELETION\n", "1 comma-separated fields"},
      {"DELETION,root.a.s,1,x,3\n", "the start time \"x\" is not a decimal long"},
      {"DELETION,root.a.s,1,2,3x\n", "the end time \"3x\" is not a decimal long"},
      {"DELETION,root.a.s,1,2,9223372036854775808\n", "the end time \"9223372036854775808\""},
      {"DELETION,root.a.s,1, 2,3\n", "the start time \" 2\""},
      {"DELETION,root.a.s,v1,3x\n", "the end time \"3x\""},  // legacy form
      {"DELETION,root.a.s,v1,3\n", "the version \"v1\""},     // legacy form, n-3 = path
      {"DELETION,1,2,3\n", "the path is empty"},
      {"DELETION,root.`a.s,1,2,3\n", "unterminated back quote"},
      {"\n", "the line is empty"},
      {",,,\n", "only commas"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.line);
    DeletionFileContents contents = ParseModsText(good + c.line + good, kPath);
    ASSERT_EQ(contents.entries.size(), 1u);
    EXPECT_THAT(contents.entries[0].pattern, ElementsAre("root", "a", "s"));
    EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
    EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(contents.damage), HasSubstr(absl::StrCat(kPath, ": line at offset 24: ")));
    EXPECT_THAT(Message(contents.damage), HasSubstr(c.why));
  }
}

TEST(ModsFileTest, ABadFirstLineLeavesNoEntries) {
  DeletionFileContents contents = ParseModsText("garbage\nDELETION,root.a.s,1,2,3\n", kPath);
  EXPECT_THAT(contents.entries, IsEmpty());
  EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(Message(contents.damage),
            "root.db/1/0/1-1-0-0.tsfile.mods: line at offset 0: unknown modification type \"garbage\" "
            "(a deletion line starts with DELETION,)");
}

}  // namespace
}  // namespace tsread::iotdb

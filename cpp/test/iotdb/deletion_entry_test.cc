// DeletionEntry::Affects, DeviceCondition::Matches and PathNodes: which series an entry deletes
// (iotdb-data-directories.md §3.4 and §6 cases 8-11; iotdb-deletion-files.md "Which data an entry
// deletes"). Entries are built by hand, as the parsers would fill them.
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

using ::testing::ElementsAre;

// A tree deletion with the given pattern nodes; `from_mods` marks a 1.x (.mods) entry.
DeletionEntry Tree(std::vector<std::string> pattern, bool from_mods = false) {
  DeletionEntry entry;
  entry.model = DeletionEntry::Model::kTree;
  entry.pattern = std::move(pattern);
  entry.partial_wildcards_match = !from_mods;
  if (from_mods) entry.file_offset = 1000;
  return entry;
}

// A table deletion of table "t".
DeletionEntry Table(DeviceCondition devices, std::vector<std::string> columns = {}) {
  DeletionEntry entry;
  entry.model = DeletionEntry::Model::kTable;
  entry.table = "t";
  entry.devices = std::move(devices);
  entry.columns = std::move(columns);
  return entry;
}

DeviceCondition All() { return DeviceCondition(); }

DeviceCondition SegmentEquals(std::optional<std::string> value, int32_t segment) {
  DeviceCondition c;
  c.kind = DeviceCondition::Kind::kSegmentEquals;
  c.value = std::move(value);
  c.segment = segment;
  return c;
}

// Tree devices as a V4 TsFile stores them (the database, then the rest) and as a V3 plain path.
const DeviceId kD1({"root.db", "d1"});
const DeviceId kD2({"root.db", "d2"});
const DeviceId kPlainD1 = DeviceId::Plain("root.db.d1");

TEST(PathNodesTest, SplitsOnDotsOutsideBackQuotes) {
  EXPECT_THAT(PathNodes("root.sg1.d1.s1"), ElementsAre("root", "sg1", "d1", "s1"));
  EXPECT_THAT(PathNodes("root.sg.`d.1`.s"), ElementsAre("root", "sg", "d.1", "s"));
  EXPECT_THAT(PathNodes("root.`a``b`.`111`"), ElementsAre("root", "a`b", "111"));
  EXPECT_THAT(PathNodes("root.`a,b`.s 1"), ElementsAre("root", "a,b", "s 1"));
  EXPECT_THAT(PathNodes("root.db.**"), ElementsAre("root", "db", "**"));
  EXPECT_THAT(PathNodes("root.db.d*.*s*"), ElementsAre("root", "db", "d*", "*s*"));
  EXPECT_THAT(PathNodes("root"), ElementsAre("root"));
}

// §6 case 11: `root.db.d1.s1` deletes s1 of d1 only; not the time column.
TEST(TreeDeletionTest, FullSeriesPathDeletesThatSeries) {
  const DeletionEntry entry = Tree({"root", "db", "d1", "s1"});
  EXPECT_TRUE(entry.Affects(kD1, "s1"));
  EXPECT_TRUE(entry.Affects(kPlainD1, "s1"));
  EXPECT_FALSE(entry.Affects(kD1, "s2"));
  EXPECT_FALSE(entry.Affects(kD1, ""));  // `root.db.d2.s1` on aligned d2 keeps the rows
  EXPECT_FALSE(entry.Affects(kD2, "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"root.db", "d1", "x"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"root.db1", "d1"}), "s1"));
}

// §6 case 11: `root.db.d2.*` deletes every series of d2 and its time column (whole rows).
TEST(TreeDeletionTest, TrailingStarDeletesTheTimeColumn) {
  const DeletionEntry entry = Tree({"root", "db", "d2", "*"});
  EXPECT_TRUE(entry.Affects(kD2, ""));
  EXPECT_TRUE(entry.Affects(kD2, "s1"));
  EXPECT_FALSE(entry.Affects(kD1, ""));
  EXPECT_FALSE(entry.Affects(kD1, "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"root.db", "d2", "x"}), "s1"));  // `*` is one node
}

// §6 case 11: `root.db.**` deletes everything below root.db.
TEST(TreeDeletionTest, DoubleStarDeletesEverythingBelow) {
  const DeletionEntry entry = Tree({"root", "db", "**"});
  EXPECT_TRUE(entry.Affects(kD1, "s1"));
  EXPECT_TRUE(entry.Affects(kD2, ""));
  EXPECT_TRUE(entry.Affects(kPlainD1, "s9"));
  EXPECT_TRUE(entry.Affects(DeviceId({"root.db", "a", "b", "c"}), "s"));
  EXPECT_FALSE(entry.Affects(DeviceId({"root.db2", "d1"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"root.other", "d1"}), "s1"));
}

TEST(TreeDeletionTest, DoubleStarIsOneOrMoreNodes) {
  const DeletionEntry middle = Tree({"root", "**", "s1"});
  EXPECT_TRUE(middle.Affects(kD1, "s1"));
  EXPECT_TRUE(middle.Affects(DeviceId::Plain("root.x"), "s1"));
  EXPECT_FALSE(middle.Affects(kD1, "s2"));
  EXPECT_FALSE(middle.Affects(DeviceId::Plain("root"), "s1"));  // ** needs at least one node
  const DeletionEntry two = Tree({"root", "db", "**", "**"});
  EXPECT_TRUE(two.Affects(kD1, "s1"));                       // d1, s1
  EXPECT_FALSE(two.Affects(DeviceId::Plain("root.db"), "s1"));  // one node only
}

// §6 case 11: a pattern without the measurement matches no series of the device.
TEST(TreeDeletionTest, DevicePatternDeletesNothing) {
  const DeletionEntry entry = Tree({"root", "db", "d1"});
  EXPECT_FALSE(entry.Affects(kD1, "s1"));
  EXPECT_FALSE(entry.Affects(kD1, ""));
  EXPECT_FALSE(entry.Affects(kPlainD1, "s1"));
}

TEST(TreeDeletionTest, PartialWildcardsMatchInsideANode) {
  const DeletionEntry devices = Tree({"root", "db", "d*", "s1"});
  EXPECT_TRUE(devices.Affects(kD1, "s1"));
  EXPECT_TRUE(devices.Affects(kD2, "s1"));
  EXPECT_TRUE(devices.Affects(DeviceId({"root.db", "d"}), "s1"));  // `*` may match nothing
  EXPECT_FALSE(devices.Affects(DeviceId({"root.db", "e1"}), "s1"));
  EXPECT_FALSE(devices.Affects(DeviceId({"root.db", "xd1"}), "s1"));
  EXPECT_FALSE(devices.Affects(kD1, "s2"));
  const DeletionEntry measurements = Tree({"root", "db", "d1", "s*"});
  EXPECT_TRUE(measurements.Affects(kD1, "s1"));
  EXPECT_TRUE(measurements.Affects(kD1, "speed"));
  EXPECT_FALSE(measurements.Affects(kD1, "t1"));
  EXPECT_FALSE(measurements.Affects(kD1, ""));  // the time column has no 's'
  const DeletionEntry inner = Tree({"root", "db", "d1", "*a*b"});
  EXPECT_TRUE(inner.Affects(kD1, "ab"));
  EXPECT_TRUE(inner.Affects(kD1, "xaybab"));
  EXPECT_FALSE(inner.Affects(kD1, "xabx"));
  EXPECT_FALSE(inner.Affects(kD1, "ba"));
}

// 1.x (.mods) entries: the pattern tree of dev/1.3 follows only exact, `*` and `**` children.
TEST(TreeDeletionTest, OneXEntriesNeverMatchPartialWildcards) {
  EXPECT_FALSE(Tree({"root", "db", "d*", "s1"}, true).Affects(kD1, "s1"));
  EXPECT_FALSE(Tree({"root", "db", "d1", "s*"}, true).Affects(kD1, "s1"));
  EXPECT_TRUE(Tree({"root", "db", "*", "s1"}, true).Affects(kD1, "s1"));
  EXPECT_TRUE(Tree({"root", "db", "**"}, true).Affects(kD1, "s1"));
  EXPECT_TRUE(Tree({"root", "db", "d1", "s1"}, true).Affects(kD1, "s1"));
}

TEST(TreeDeletionTest, BackQuotedDeviceNodesCompareWithoutQuotes) {
  const DeletionEntry entry = Tree({"root", "db", "d.1", "s1"});
  EXPECT_TRUE(entry.Affects(DeviceId::Plain("root.db.`d.1`"), "s1"));
  EXPECT_TRUE(entry.Affects(DeviceId({"root.db", "`d.1`"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId::Plain("root.db.d.1"), "s1"));  // four nodes
}

TEST(TreeDeletionTest, ManyDoubleStarsDoNotBlowUp) {
  std::vector<std::string> pattern(40, "**");
  pattern.push_back("zz");
  std::string device = "root";
  for (int i = 0; i < 200; ++i) device += ".n";
  EXPECT_FALSE(Tree(pattern).Affects(DeviceId::Plain(device), "s"));
  EXPECT_TRUE(Tree(pattern).Affects(DeviceId::Plain(device), "zz"));
}

// §6 case 8: NOP with no columns deletes whole rows of every device of the table.
TEST(TableDeletionTest, NopWithoutColumnsDeletesWholeRowsOfTheTable) {
  const DeletionEntry entry = Table(All());
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), "s1"));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "b"}), "s2"));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), ""));  // the time column: the rows go
  EXPECT_FALSE(entry.Affects(DeviceId({"t2", "a"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"T", "a"}), "s1"));  // table names are case-sensitive
}

// §6 case 9: tag1 = 'a'.
TEST(TableDeletionTest, SegmentEqualsSelectsTheTaggedDevice) {
  const DeletionEntry entry = Table(SegmentEquals("a", 1));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), "s1"));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), ""));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a", "x"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "b"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "A"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", std::nullopt, "a"}), "s1"));
}

// §6 case 9: tag2 IS NULL matches a device whose trailing null tag was trimmed.
TEST(TableDeletionTest, SegmentEqualsNullMatchesTrimmedDevices) {
  const DeletionEntry entry = Table(SegmentEquals(std::nullopt, 2));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), "s1"));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a", std::nullopt}), "s1"));
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a", std::nullopt, "y"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "a", "x"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "a", ""}), "s1"));  // "" is not null
}

// §6 case 10: DROP COLUMN s1 nulls s1 only; rows and s2 stay.
TEST(TableDeletionTest, ColumnListDeletesOnlyThoseColumns) {
  const DeletionEntry entry = Table(All(), {"s1"});
  EXPECT_TRUE(entry.Affects(DeviceId({"t", "a"}), "s1"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "a"}), "s2"));
  EXPECT_FALSE(entry.Affects(DeviceId({"t", "a"}), ""));
  EXPECT_FALSE(entry.Affects(DeviceId({"t2", "a"}), "s1"));
}

TEST(DeviceConditionTest, FullExactMatchComparesWholeIds) {
  DeviceCondition c;
  c.kind = DeviceCondition::Kind::kDevice;
  c.devices.push_back(DeviceId({"t", "a"}));
  EXPECT_TRUE(c.Matches(DeviceId({"t", "a"})));
  EXPECT_TRUE(c.Matches(DeviceId({"t", "a", std::nullopt})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "a", "x"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "b"})));
}

TEST(DeviceConditionTest, AndNeedsEveryOperand) {
  DeviceCondition c;
  c.kind = DeviceCondition::Kind::kAnd;
  c.operands.push_back(SegmentEquals("a", 1));
  c.operands.push_back(SegmentEquals(std::nullopt, 2));
  EXPECT_TRUE(c.Matches(DeviceId({"t", "a"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "a", "x"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "b"})));
  DeviceCondition none;
  none.kind = DeviceCondition::Kind::kAnd;
  EXPECT_TRUE(none.Matches(DeviceId({"t", "b"})));  // allMatch of nothing
}

TEST(DeviceConditionTest, DeviceInMatchesAnyListedDevice) {
  DeviceCondition c;
  c.kind = DeviceCondition::Kind::kDeviceIn;
  c.devices = {DeviceId({"t", "a"}), DeviceId({"t", "b", "x"})};
  EXPECT_TRUE(c.Matches(DeviceId({"t", "a"})));
  EXPECT_TRUE(c.Matches(DeviceId({"t", "b", "x"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "b"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "a", "x"})));
  DeviceCondition empty;
  empty.kind = DeviceCondition::Kind::kDeviceIn;
  EXPECT_FALSE(empty.Matches(DeviceId({"t", "a"})));
}

TEST(DeviceConditionTest, SegmentNotNull) {
  DeviceCondition c;
  c.kind = DeviceCondition::Kind::kSegmentNotNull;
  c.segment = 2;
  EXPECT_TRUE(c.Matches(DeviceId({"t", "a", "x"})));
  EXPECT_TRUE(c.Matches(DeviceId({"t", std::nullopt, ""})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "a"})));
  EXPECT_FALSE(c.Matches(DeviceId({"t", "a", std::nullopt, "y"})));
}

TEST(DeviceConditionTest, NegativeSegmentReadsAsNull) {
  EXPECT_FALSE(SegmentEquals("t", -1).Matches(DeviceId({"t", "a"})));
  EXPECT_TRUE(SegmentEquals(std::nullopt, -1).Matches(DeviceId({"t", "a"})));
  DeviceCondition not_null;
  not_null.kind = DeviceCondition::Kind::kSegmentNotNull;
  not_null.segment = -1;
  EXPECT_FALSE(not_null.Matches(DeviceId({"t", "a"})));
}

TEST(DeviceConditionTest, SegmentZeroIsTheTableName) {
  EXPECT_TRUE(SegmentEquals("t", 0).Matches(DeviceId({"t", "a"})));
  EXPECT_FALSE(SegmentEquals("u", 0).Matches(DeviceId({"t", "a"})));
}

}  // namespace
}  // namespace tsread::iotdb

// ParseMods2: the 2.x binary deletion file (iotdb-deletion-files.md, "2.x format"). Inputs are the
// doc's example bytes, the reference data directory's files and hand-written variations of them.
#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kPath[] = "db/1/2810/1-1-0-0.tsfile.mods2";

// Bytes from pairs of hex digits; spaces only group them for reading ("01 0000000000000001").
std::string Hex(std::string_view hex) {
  std::string out;
  int high = -1;
  for (char c : hex) {
    if (c == ' ') continue;
    const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    if (high < 0) {
      high = digit;
    } else {
      out.push_back(static_cast<char>(high * 16 + digit));
      high = -1;
    }
  }
  return out;
}

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// The doc's examples, byte for byte. Tree `root.sg1.d1.s1` over [1, 100]: 32 bytes.
std::string TreeExample() { return Hex("01 0000000000000001 0000000000000064 1c") + "root.sg1.d1.s1"; }
// Table t1, tag1 = 'a' (SEGMENT_EXACT_MATCH("a", 1)), column f1, over [10, 20]: 28 bytes.
std::string TableExample() {
  return Hex("00 000000000000000a 0000000000000014 04") + "t1" + Hex("02 02") + "a" + Hex("02 02 04") + "f1";
}

// A table deletion of table "t" over [1, 2] with the given condition and column-list bytes.
std::string TableEntry(const std::string& condition, const std::string& columns = Hex("00")) {
  return Hex("00 0000000000000001 0000000000000002 02") + "t" + condition + columns;
}

// The one entry of `bytes`, which must parse cleanly.
DeletionEntry OnlyEntry(const std::string& bytes) {
  DeletionFileContents contents = ParseMods2(bytes, kPath);
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
  EXPECT_EQ(contents.entries.size(), 1u);
  return contents.entries.empty() ? DeletionEntry() : contents.entries[0];
}

TEST(Mods2FileTest, ReadsTheDocsTreeExample) {
  const DeletionEntry entry = OnlyEntry(TreeExample());
  EXPECT_EQ(entry.model, DeletionEntry::Model::kTree);
  EXPECT_EQ(entry.start, 1);
  EXPECT_EQ(entry.end, 100);
  EXPECT_THAT(entry.pattern, ElementsAre("root", "sg1", "d1", "s1"));
  EXPECT_FALSE(entry.file_offset.has_value());  // .mods2 entries touch every chunk of their file
  EXPECT_TRUE(entry.partial_wildcards_match);
}

TEST(Mods2FileTest, ReadsTheDocsTableExample) {
  const DeletionEntry entry = OnlyEntry(TableExample());
  EXPECT_EQ(entry.model, DeletionEntry::Model::kTable);
  EXPECT_EQ(entry.start, 10);
  EXPECT_EQ(entry.end, 20);
  EXPECT_EQ(entry.table, "t1");
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kSegmentEquals);
  EXPECT_EQ(entry.devices.value, std::optional<std::string>("a"));
  EXPECT_EQ(entry.devices.segment, 1);
  EXPECT_THAT(entry.columns, ElementsAre("f1"));
  EXPECT_FALSE(entry.file_offset.has_value());
}

TEST(Mods2FileTest, ReadsTheTableFixture) {
  const std::string path =
      testing::FixturePath("iotdb_datadir/data/sequence/db1/1/2810/1700000000000-1-0-0.tsfile.mods2");
  const std::string bytes = testing::ReadWholeFile(path);
  ASSERT_EQ(bytes.size(), 24u) << path;
  DeletionFileContents contents = ParseMods2(bytes, path);
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
  ASSERT_EQ(contents.entries.size(), 1u);
  const DeletionEntry& entry = contents.entries[0];
  EXPECT_EQ(entry.model, DeletionEntry::Model::kTable);
  EXPECT_EQ(entry.start, 1700000000001);
  EXPECT_EQ(entry.end, 1700000000001);
  EXPECT_EQ(entry.table, "t");
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kSegmentEquals);
  EXPECT_EQ(entry.devices.value, std::optional<std::string>("b"));
  EXPECT_EQ(entry.devices.segment, 1);
  EXPECT_THAT(entry.columns, IsEmpty());
}

TEST(Mods2FileTest, ReadsTheTreeFixture) {
  const std::string path =
      testing::FixturePath("iotdb_datadir/data/sequence/root.sg1/2/2810/1700000000000-1-0-0.tsfile.mods2");
  const std::string bytes = testing::ReadWholeFile(path);
  ASSERT_EQ(bytes.size(), 63u) << path;
  DeletionFileContents contents = ParseMods2(bytes, path);
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
  ASSERT_EQ(contents.entries.size(), 2u);
  EXPECT_EQ(contents.entries[0].model, DeletionEntry::Model::kTree);
  EXPECT_EQ(contents.entries[0].start, 1700000000000);
  EXPECT_EQ(contents.entries[0].end, 1700000000000);
  EXPECT_THAT(contents.entries[0].pattern, ElementsAre("root", "sg1", "d1", "s1"));
  EXPECT_EQ(contents.entries[1].model, DeletionEntry::Model::kTree);
  EXPECT_EQ(contents.entries[1].start, 1700000000001);
  EXPECT_EQ(contents.entries[1].end, 1700000000001);
  EXPECT_THAT(contents.entries[1].pattern, ElementsAre("root", "sg1", "d2", "*"));
}

TEST(Mods2FileTest, EmptyFileHasNoEntries) {
  DeletionFileContents contents = ParseMods2("", kPath);
  EXPECT_THAT(contents.entries, IsEmpty());
  EXPECT_TRUE(contents.damage.ok());
  EXPECT_TRUE(contents.unknown.ok());
}

TEST(Mods2FileTest, ReadsOpenEndedTimesAndBackQuotedNodes) {
  const DeletionEntry entry =
      OnlyEntry(Hex("01 8000000000000000 7fffffffffffffff 28") + "root.sg.`d.1`.`a``b`");
  EXPECT_EQ(entry.start, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(entry.end, std::numeric_limits<int64_t>::max());
  EXPECT_THAT(entry.pattern, ElementsAre("root", "sg", "d.1", "a`b"));
}

// Every cut of a tree entry (32 bytes) followed by a table entry (28 bytes): the first entry is
// kept once it is whole, and the damage names the file and where the cut entry began.
TEST(Mods2FileTest, TruncationAtEveryByteKeepsTheWholeEntriesBeforeIt) {
  const std::string whole = TreeExample() + TableExample();
  ASSERT_EQ(whole.size(), 60u);
  for (size_t cut = 0; cut <= whole.size(); ++cut) {
    SCOPED_TRACE(cut);
    DeletionFileContents contents = ParseMods2(std::string_view(whole).substr(0, cut), kPath);
    EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
    const size_t expected_entries = cut < 32 ? 0 : (cut < 60 ? 1 : 2);
    ASSERT_EQ(contents.entries.size(), expected_entries);
    if (expected_entries >= 1) {
      EXPECT_THAT(contents.entries[0].pattern, ElementsAre("root", "sg1", "d1", "s1"));
    }
    if (expected_entries == 2) {
      EXPECT_EQ(contents.entries[1].table, "t1");
    }
    if (cut == 0 || cut == 32 || cut == 60) {
      EXPECT_TRUE(contents.damage.ok()) << contents.damage;
      continue;
    }
    EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(contents.damage), HasSubstr(kPath));
    EXPECT_THAT(Message(contents.damage),
                HasSubstr(cut < 32 ? "deletion entry at offset 0:" : "deletion entry at offset 32:"));
  }
}

TEST(Mods2FileTest, TruncationMessageSaysWhatWasCut) {
  // 12 bytes: the type, the start time, and 3 of the end time's 8 bytes.
  DeletionFileContents contents = ParseMods2(TreeExample().substr(0, 12), kPath);
  EXPECT_EQ(Message(contents.damage),
            "db/1/2810/1-1-0-0.tsfile.mods2: deletion entry at offset 0: truncated end time at offset 9: "
            "needs 8 bytes, 3 remain");
}

TEST(Mods2FileTest, PathLengthPastTheEndIsDamage) {
  // The path says 14 bytes; 4 follow.
  DeletionFileContents contents =
      ParseMods2(TreeExample() + Hex("01 0000000000000001 0000000000000064 1c") + "root", kPath);
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(contents.damage), HasSubstr("deletion entry at offset 32:"));
  EXPECT_TRUE(contents.unknown.ok());
}

TEST(Mods2FileTest, UnknownTypeByteStopsWithUnknown) {
  const std::string bytes = TreeExample() + Hex("07 0000000000000001 0000000000000064") + TreeExample();
  DeletionFileContents contents = ParseMods2(bytes, kPath);
  ASSERT_EQ(contents.entries.size(), 1u);  // the entry before it; nothing after it
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_EQ(contents.unknown.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(Message(contents.unknown), HasSubstr(kPath));
  EXPECT_THAT(Message(contents.unknown), HasSubstr("deletion entry at offset 32:"));
  EXPECT_THAT(Message(contents.unknown), HasSubstr("type byte 0x07"));
}

TEST(Mods2FileTest, UnknownConditionKindStopsWithUnknown) {
  // After the 32-byte tree entry: type 32, times 33-48, "t" 49-50, the kind at 51.
  const std::string bytes = TreeExample() + TableEntry(Hex("09")) + TreeExample();
  DeletionFileContents contents = ParseMods2(bytes, kPath);
  ASSERT_EQ(contents.entries.size(), 1u);
  EXPECT_TRUE(contents.damage.ok()) << contents.damage;
  EXPECT_EQ(contents.unknown.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(Message(contents.unknown), HasSubstr("deletion entry at offset 32:"));
  EXPECT_THAT(Message(contents.unknown), HasSubstr("unknown device condition kind 9 at offset 51"));
}

TEST(Mods2FileTest, ReadsNopAndFullExactMatch) {
  EXPECT_EQ(OnlyEntry(TableEntry(Hex("00"))).devices.kind, DeviceCondition::Kind::kAll);
  // FULL_EXACT_MATCH ["t", "a", null]: the trailing null is trimmed, as StringArrayDeviceID does.
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("01 03 02") + "t" + Hex("02") + "a" + Hex("01")));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kDevice);
  ASSERT_EQ(entry.devices.devices.size(), 1u);
  EXPECT_EQ(entry.devices.devices[0], DeviceId({"t", "a"}));
  EXPECT_EQ(entry.devices.devices[0].segment_count(), 2u);
}

TEST(Mods2FileTest, ReadsSegmentEqualsNull) {
  // tag2 IS NULL: SEGMENT_EXACT_MATCH(null, 2).
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("02 01 04")));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kSegmentEquals);
  EXPECT_FALSE(entry.devices.value.has_value());
  EXPECT_EQ(entry.devices.segment, 2);
}

TEST(Mods2FileTest, ReadsDeviceIn) {
  // DEVICE_IN of two devices: ["t", "a"] and ["t", "b", null] (read as ["t", "b"]).
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("04 04") + Hex("02 02") + "t" + Hex("02") + "a" +
                                                   Hex("03 02") + "t" + Hex("02") + "b" + Hex("01")));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kDeviceIn);
  ASSERT_EQ(entry.devices.devices.size(), 2u);
  EXPECT_EQ(entry.devices.devices[0], DeviceId({"t", "a"}));
  EXPECT_EQ(entry.devices.devices[1], DeviceId({"t", "b"}));
}

TEST(Mods2FileTest, ReadsSegmentNotNull) {
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("05 04")));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kSegmentNotNull);
  EXPECT_EQ(entry.devices.segment, 2);
}

TEST(Mods2FileTest, ReadsAndOfTagTerms) {
  // tag1 = 'a' AND tag2 IS NULL, column list [s1, s2].
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("03 04 02 02") + "a" + Hex("02 02 01 04"),
                                                   Hex("04 04") + "s1" + Hex("04") + "s2"));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kAnd);
  ASSERT_EQ(entry.devices.operands.size(), 2u);
  EXPECT_EQ(entry.devices.operands[0].kind, DeviceCondition::Kind::kSegmentEquals);
  EXPECT_EQ(entry.devices.operands[0].value, std::optional<std::string>("a"));
  EXPECT_EQ(entry.devices.operands[0].segment, 1);
  EXPECT_EQ(entry.devices.operands[1].kind, DeviceCondition::Kind::kSegmentEquals);
  EXPECT_FALSE(entry.devices.operands[1].value.has_value());
  EXPECT_EQ(entry.devices.operands[1].segment, 2);
  EXPECT_THAT(entry.columns, ElementsAre("s1", "s2"));
}

// `n` ANDs of one operand each, nested, around a NOP.
std::string NestedAnds(int n) {
  std::string condition;
  for (int i = 0; i < n; ++i) condition += Hex("03 02");
  return condition + Hex("00");
}

TEST(Mods2FileTest, AndNestingIsFollowedTo64Levels) {
  const DeletionEntry entry = OnlyEntry(TableEntry(NestedAnds(64)));
  const DeviceCondition* condition = &entry.devices;
  for (int level = 0; level < 64; ++level) {
    ASSERT_EQ(condition->kind, DeviceCondition::Kind::kAnd) << level;
    ASSERT_EQ(condition->operands.size(), 1u) << level;
    condition = &condition->operands[0];
  }
  EXPECT_EQ(condition->kind, DeviceCondition::Kind::kAll);
}

TEST(Mods2FileTest, DeeperAndNestingIsUnknown) {
  for (int depth : {65, 100000}) {
    SCOPED_TRACE(depth);
    DeletionFileContents contents = ParseMods2(TreeExample() + TableEntry(NestedAnds(depth)), kPath);
    EXPECT_EQ(contents.entries.size(), 1u);
    EXPECT_TRUE(contents.damage.ok()) << contents.damage;
    EXPECT_EQ(contents.unknown.code(), absl::StatusCode::kUnimplemented);
    EXPECT_THAT(Message(contents.unknown), HasSubstr("deletion entry at offset 32:"));
    EXPECT_THAT(Message(contents.unknown), HasSubstr("nested more than 64 levels"));
  }
}

// Counts far beyond the bytes that follow are damage, found before anything is allocated for them.
TEST(Mods2FileTest, HostileCountsAreDamage) {
  const std::string huge = Hex("fe ff ff ff 0f");  // zig-zag 2147483647
  const std::string cases[] = {
      TableEntry(Hex("00"), huge),                       // columns
      TableEntry(Hex("03") + huge),                      // AND operands
      TableEntry(Hex("04") + huge),                      // DEVICE_IN devices
      TableEntry(Hex("01 ff ff ff ff 07")),              // FULL_EXACT_MATCH segments (uvarint 2^31 - 1)
      TableEntry(Hex("04 02 ff ff ff ff 07")),           // one DEVICE_IN device's segments
  };
  for (const std::string& entry : cases) {
    SCOPED_TRACE(entry.size());
    DeletionFileContents contents = ParseMods2(TreeExample() + entry, kPath);
    EXPECT_EQ(contents.entries.size(), 1u);
    EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
    EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(contents.damage), HasSubstr("deletion entry at offset 32:"));
  }
}

TEST(Mods2FileTest, NegativeOrNullLengthsAreDamage) {
  const std::string cases[] = {
      Hex("01 0000000000000001 0000000000000064 03") + "root",  // path length -2
      Hex("01 0000000000000001 0000000000000064 01"),           // null path
      Hex("00 0000000000000001 0000000000000002 01 00 00"),     // null table name
      TableEntry(Hex("00"), Hex("02 01")),                      // null column name
      TableEntry(Hex("02 05") + "a" + Hex("02")),               // segment value length -3
      Hex("01 0000000000000001 0000000000000064 ff ff ff ff ff 01"),  // a length that does not fit in 32 bits
  };
  for (const std::string& entry : cases) {
    SCOPED_TRACE(entry.size());
    DeletionFileContents contents = ParseMods2(TreeExample() + entry + TreeExample(), kPath);
    EXPECT_EQ(contents.entries.size(), 1u);
    EXPECT_TRUE(contents.unknown.ok()) << contents.unknown;
    EXPECT_EQ(contents.damage.code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(contents.damage), HasSubstr("deletion entry at offset 32:"));
  }
}

// IoTDB's readers take a negative count as none (DeletionPredicate#deserialize keeps columns only
// when the count is > 0; And#deserialize loops `i < size`): the entry then deletes every column.
TEST(Mods2FileTest, NegativeCountsReadAsNone) {
  const DeletionEntry entry = OnlyEntry(TableEntry(Hex("03 01"), Hex("01")));
  EXPECT_EQ(entry.devices.kind, DeviceCondition::Kind::kAnd);
  EXPECT_THAT(entry.devices.operands, IsEmpty());
  EXPECT_THAT(entry.columns, IsEmpty());
}

// SerializeMods2 writes what IoTDB writes: the doc's examples byte for byte, and every kind of
// condition reads back as written.
TEST(Mods2FileTest, SerializeWritesTheDocsBytes) {
  DeletionEntry tree;
  tree.model = DeletionEntry::Model::kTree;
  tree.start = 1;
  tree.end = 100;
  tree.pattern = {"root", "sg1", "d1", "s1"};
  EXPECT_EQ(SerializeMods2(tree), TreeExample());
  DeletionEntry table;
  table.model = DeletionEntry::Model::kTable;
  table.start = 10;
  table.end = 20;
  table.table = "t1";
  table.devices.kind = DeviceCondition::Kind::kSegmentEquals;
  table.devices.value = "a";
  table.devices.segment = 1;
  table.columns = {"f1"};
  EXPECT_EQ(SerializeMods2(table), TableExample());
}

TEST(Mods2FileTest, SerializedConditionsReadBack) {
  DeletionEntry entry;
  entry.model = DeletionEntry::Model::kTable;
  entry.start = -5;
  entry.end = 7;
  entry.table = "t";
  DeviceCondition in;
  in.kind = DeviceCondition::Kind::kDeviceIn;
  in.devices = {DeviceId({std::string("t"), std::string("a")}), DeviceId({std::string("t"), std::nullopt, std::string("b")})};
  DeviceCondition not_null;
  not_null.kind = DeviceCondition::Kind::kSegmentNotNull;
  not_null.segment = 2;
  DeviceCondition is_null;
  is_null.kind = DeviceCondition::Kind::kSegmentEquals;
  is_null.segment = 1;
  entry.devices.kind = DeviceCondition::Kind::kAnd;
  entry.devices.operands = {in, not_null, is_null};
  const DeletionEntry back = OnlyEntry(SerializeMods2(entry));
  ASSERT_EQ(back.devices.operands.size(), 3u);
  EXPECT_EQ(back.devices.operands[0].devices, in.devices);
  EXPECT_EQ(back.devices.operands[1].kind, DeviceCondition::Kind::kSegmentNotNull);
  EXPECT_EQ(back.devices.operands[1].segment, 2);
  EXPECT_FALSE(back.devices.operands[2].value.has_value());
  EXPECT_EQ(back.start, -5);
  EXPECT_THAT(back.columns, IsEmpty());
  // A tree node with a '.' is back-quoted, and reads back as one node.
  DeletionEntry tree;
  tree.pattern = {"root", "sg", "a.b", "**"};
  EXPECT_THAT(OnlyEntry(SerializeMods2(tree)).pattern, ElementsAre("root", "sg", "a.b", "**"));
}

}  // namespace
}  // namespace tsread::iotdb

#include "tsread/format/device_id.h"

#include <string>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// Serializes a V4 StringArrayDeviceID the way Java's writer does (§2.2): uvar count, then
// zig-zag varint length (-1 = null) + bytes per segment. Lengths here stay below 64.
std::string SerializeV4(const std::vector<std::optional<std::string>>& segments) {
  std::string out;
  out.push_back(static_cast<char>(segments.size()));
  for (const auto& s : segments) {
    if (!s.has_value()) {
      out.push_back(0x01);
      continue;
    }
    out.push_back(static_cast<char>(s->size() * 2));
    out += *s;
  }
  return out;
}

DeviceIdView ViewOf(const std::string& bytes, uint8_t version = 4) {
  ByteStream in(bytes, 0);
  absl::StatusOr<DeviceIdView> view = ReadDeviceIdView(in, version);
  EXPECT_TRUE(view.ok()) << view.status();
  EXPECT_TRUE(in.empty());
  return *view;
}

TEST(DeviceIdTest, RoundTripsSegmentsIncludingNullAndEmpty) {
  const std::string bytes = SerializeV4({"t_all", std::nullopt, "", "dev_17"});
  DeviceIdView view = ViewOf(bytes);
  EXPECT_EQ(view.segment_count(), 4u);
  DeviceId owned = view.ToOwned();
  ASSERT_EQ(owned.segment_count(), 4u);
  EXPECT_EQ(owned.table_name(), "t_all");
  EXPECT_FALSE(owned.segment(1).has_value());
  EXPECT_EQ(*owned.segment(2), "");
  EXPECT_EQ(*owned.segment(3), "dev_17");
  EXPECT_FALSE(owned.segment(4).has_value());
  EXPECT_EQ(owned.ToString(), "t_all.null..dev_17");
  EXPECT_EQ(CompareDeviceIds(view, owned), 0);
}

TEST(DeviceIdTest, TrailingNullSegmentsAreDroppedAsJavaDoes) {
  DeviceId owned = ViewOf(SerializeV4({"t", "west", std::nullopt})).ToOwned();
  EXPECT_EQ(owned, DeviceId({"t", "west"}));
  EXPECT_EQ(owned.segment_count(), 2u);
  EXPECT_EQ(CompareDeviceIds(ViewOf(SerializeV4({"t", "west", std::nullopt})), DeviceId({"t", "west"})), 0);
}

TEST(DeviceIdTest, ZeroSegmentsReadAsOneEmptySegment) {
  DeviceIdView view = ViewOf(std::string(1, '\0'));
  EXPECT_EQ(view.ToOwned(), DeviceId({""}));
  EXPECT_EQ(CompareDeviceIds(view, DeviceId({""})), 0);
}

TEST(DeviceIdTest, ViewIsZeroCopy) {
  const std::string bytes = SerializeV4({"table1", "a"});
  DeviceIdView view = ViewOf(bytes);
  const char* first = nullptr;
  view.ForEachSegment([&](NullableView s) {
    if (first == nullptr) first = s->data();
  });
  EXPECT_EQ(first, bytes.data() + 2);
}

TEST(DeviceIdTest, OrderIsSegmentWiseWithNullFirstAndPrefixFirst) {
  const DeviceId b({"t", "b"});
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t", "a", "z"})), b), 0);
  EXPECT_GT(CompareDeviceIds(ViewOf(SerializeV4({"t", "c"})), b), 0);
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t", std::nullopt, "z"})), b), 0);  // null < any string
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t"})), b), 0);                      // prefix first
  EXPECT_GT(CompareDeviceIds(ViewOf(SerializeV4({"t", "b", "x"})), b), 0);
  EXPECT_GT(CompareDeviceIds(ViewOf(SerializeV4({"t", "b", std::nullopt, "x"})), b), 0);
  // Segment comparison is by string, not by length: "ab" < "b".
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t", "ab"})), b), 0);
}

TEST(DeviceIdTest, SupplementaryCharactersSortAsJavaUtf16) {
  // U+1F600 (F0 9F 98 80) is a surrogate pair in UTF-16, so Java puts it before U+FF01 (EF BC 81),
  // although its UTF-8 bytes are greater.
  const std::string emoji = "\xF0\x9F\x98\x80";
  const std::string fullwidth = "\xEF\xBC\x81";
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t", emoji})), DeviceId({"t", fullwidth})), 0);
  EXPECT_GT(CompareDeviceIds(ViewOf(SerializeV4({"t", fullwidth})), DeviceId({"t", emoji})), 0);
  // Ordinary BMP text keeps byte order.
  EXPECT_LT(CompareDeviceIds(ViewOf(SerializeV4({"t", "\xC3\xA9"})), DeviceId({"t", fullwidth})), 0);
}

TEST(DeviceIdTest, V3PlainPathsCompareByBytes) {
  std::string bytes;
  bytes.push_back(static_cast<char>(10 * 2));
  bytes += "root.sg.d1";
  DeviceIdView view = ViewOf(bytes, 3);
  EXPECT_TRUE(view.is_plain());
  EXPECT_EQ(view.ToString(), "root.sg.d1");
  EXPECT_EQ(CompareDeviceIds(view, DeviceId::Plain("root.sg.d1")), 0);
  // Plain order puts "root.a.b.c-e" before "root.a.b.c.d" ('-' < '.'), §13 item 11.
  EXPECT_GT(CompareDeviceIds(view, DeviceId::Plain("root.sg.d0")), 0);
}

TEST(DeviceIdTest, SegmentCountBeyondRemainingBytesIsRejectedBeforeWalking) {
  std::string bytes = "\xFF\xFF\xFF\x0F";  // 2^28-1 segments, 0 bytes behind
  ByteStream in(bytes, 500);
  absl::StatusOr<DeviceIdView> view = ReadDeviceIdView(in, 4);
  ASSERT_FALSE(view.ok());
  EXPECT_EQ(view.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(view.status().message().find("offset 500"), std::string::npos);
}

TEST(DeviceIdTest, TruncatedSegmentIsDataLoss) {
  std::string bytes = SerializeV4({"table", "abc"});
  for (size_t len = 0; len < bytes.size(); ++len) {
    ByteStream in(std::string_view(bytes).substr(0, len), 0);
    EXPECT_EQ(ReadDeviceIdView(in, 4).status().code(), absl::StatusCode::kDataLoss) << len;
  }
}

}  // namespace
}  // namespace tsread

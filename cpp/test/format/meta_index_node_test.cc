#include "tsread/format/meta_index_node.h"

#include <string>

#include "gtest/gtest.h"

namespace tsread {
namespace {

void AppendI64(std::string& out, int64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

void AppendVarString(std::string& out, const std::string& s) {
  out.push_back(static_cast<char>(s.size() * 2));
  out += s;
}

// A hand-built LEAF_MEASUREMENT node: 3 entries, endOffset, type.
std::string MeasurementNode(uint8_t type = 3, int64_t end = 400) {
  std::string out;
  out.push_back(3);
  AppendVarString(out, "");
  AppendI64(out, 100);
  AppendVarString(out, "s1");
  AppendI64(out, 150);
  AppendVarString(out, "s2");
  AppendI64(out, 300);
  AppendI64(out, end);
  out.push_back(static_cast<char>(type));
  return out;
}

// A hand-built device-level node with 2-segment device ids.
std::string DeviceNode(uint8_t type) {
  std::string out;
  out.push_back(2);
  out.push_back(2);
  AppendVarString(out, "t");
  AppendVarString(out, "d1");
  AppendI64(out, 120);
  out.push_back(2);
  AppendVarString(out, "t");
  AppendVarString(out, "d2");
  AppendI64(out, 220);
  AppendI64(out, 330);
  out.push_back(static_cast<char>(type));
  return out;
}

TEST(MetaIndexNodeTest, ReadsLeafMeasurementNode) {
  const std::string bytes = MeasurementNode();
  ByteStream in(bytes, 1000);
  MeasurementIndexNode node;
  ASSERT_TRUE(ReadMeasurementIndexNode(in, 50, 1000, node).ok());
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(node.type, MetaIndexNodeType::kLeafMeasurement);
  ASSERT_EQ(node.entries.size(), 3u);
  EXPECT_EQ(node.entries[0].measurement, "");
  EXPECT_EQ(node.entries[2].measurement, "s2");
  EXPECT_EQ(node.entries[1].offset, 150);
  EXPECT_EQ(node.end_of(0), 150);
  EXPECT_EQ(node.end_of(2), 400);
}

TEST(MetaIndexNodeTest, ReadsDeviceNodesOfBothTypes) {
  for (uint8_t type : {0, 1}) {
    const std::string bytes = DeviceNode(type);
    ByteStream in(bytes, 2000);
    DeviceIndexNode node;
    ASSERT_TRUE(ReadDeviceIndexNode(in, 4, 50, 2000, node).ok());
    EXPECT_EQ(static_cast<int>(node.type), type);
    ASSERT_EQ(node.entries.size(), 2u);
    EXPECT_EQ(node.entries[1].device.ToString(), "t.d2");
    EXPECT_EQ(node.end_offset, 330);
  }
}

TEST(MetaIndexNodeTest, RejectsNodeTypeOfTheWrongLevel) {
  const std::string measurement = MeasurementNode(/*type=*/1);
  ByteStream in(measurement, 0);
  MeasurementIndexNode node;
  EXPECT_EQ(ReadMeasurementIndexNode(in, 50, 1000, node).code(), absl::StatusCode::kDataLoss);
  const std::string device = DeviceNode(/*type=*/2);
  ByteStream in2(device, 0);
  DeviceIndexNode dnode;
  EXPECT_EQ(ReadDeviceIndexNode(in2, 4, 50, 1000, dnode).code(), absl::StatusCode::kDataLoss);
}

TEST(MetaIndexNodeTest, RejectsChildrenOutsideTheIndexAreaOrAboveTheNode) {
  const std::string bytes = MeasurementNode();
  MeasurementIndexNode node;
  ByteStream below(bytes, 0);
  EXPECT_EQ(ReadMeasurementIndexNode(below, 120, 1000, node).code(), absl::StatusCode::kDataLoss);
  ByteStream above(bytes, 0);
  EXPECT_EQ(ReadMeasurementIndexNode(above, 50, 300, node).code(), absl::StatusCode::kDataLoss);
  const std::string bad_end = MeasurementNode(3, /*end=*/200);  // end before the last child
  ByteStream end(bad_end, 0);
  EXPECT_EQ(ReadMeasurementIndexNode(end, 50, 1000, node).code(), absl::StatusCode::kDataLoss);
}

TEST(MetaIndexNodeTest, RejectsNonIncreasingOffsets) {
  std::string bytes;
  bytes.push_back(2);
  AppendVarString(bytes, "a");
  AppendI64(bytes, 200);
  AppendVarString(bytes, "b");
  AppendI64(bytes, 200);
  AppendI64(bytes, 300);
  bytes.push_back(3);
  ByteStream in(bytes, 0);
  MeasurementIndexNode node;
  EXPECT_EQ(ReadMeasurementIndexNode(in, 50, 1000, node).code(), absl::StatusCode::kDataLoss);
}

TEST(MetaIndexNodeTest, RejectsChildCountsThatCannotFit) {
  std::string bytes = "\xFF\xFF\x03";  // 65535 children in a tiny buffer
  bytes += std::string(20, '\0');
  ByteStream in(bytes, 0);
  MeasurementIndexNode node;
  EXPECT_EQ(ReadMeasurementIndexNode(in, 0, 1000, node).code(), absl::StatusCode::kDataLoss);
  EXPECT_LE(node.entries.capacity(), 3u);  // nothing reserved for the claimed count
  const std::string zero(1, '\0');
  ByteStream empty(zero, 0);
  EXPECT_EQ(ReadMeasurementIndexNode(empty, 0, 1000, node).code(), absl::StatusCode::kDataLoss);
}

TEST(MetaIndexNodeTest, EveryTruncationIsDataLoss) {
  const std::string bytes = DeviceNode(1);
  for (size_t len = 0; len < bytes.size(); ++len) {
    ByteStream in(std::string_view(bytes).substr(0, len), 0);
    DeviceIndexNode node;
    EXPECT_EQ(ReadDeviceIndexNode(in, 4, 50, 1000, node).code(), absl::StatusCode::kDataLoss) << len;
  }
}

}  // namespace
}  // namespace tsread

// ZIGZAG (§9.8) decoder tests: hand-written bytes and a test-only package writer.
#include "tsread/encoding/zigzag.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// A heap copy of exactly the bytes of `s` (no terminator, no spare capacity), so that ASan
// reports any read past the end of the stream.
class ExactBytes {
 public:
  explicit ExactBytes(std::string_view s) : bytes_(s.begin(), s.end()) {}
  std::string_view view() const { return {bytes_.data(), bytes_.size()}; }

 private:
  std::vector<char> bytes_;
};

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

void PutUVar(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// One package: uvar byteLen, uvar count, zig-zag varints (Java's Int/LongZigzagEncoder).
std::string Package(const std::vector<int64_t>& values) {
  std::string body;
  for (int64_t v : values) {
    const uint64_t u = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
    PutUVar(&body, u);
  }
  std::string out;
  PutUVar(&out, body.size());
  PutUVar(&out, values.size());
  return out + body;
}

void ExpectDataLoss(const absl::StatusOr<size_t>& result) {
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << result.status();
}

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();

TEST(ZigzagTest, HandVectorInt32) {
  // byteLen 5, count 4: -1 -> 01, 1 -> 02, -64 -> 7F, 64 -> 80 01.
  const std::string stream = Bytes({0x05, 0x04, 0x01, 0x02, 0x7F, 0x80, 0x01});
  std::vector<int32_t> out(4);
  auto consumed = DecodeZigzagInt32s(stream, 4, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 7u);
  EXPECT_THAT(out, ElementsAre(-1, 1, -64, 64));
}

TEST(ZigzagTest, ExtremesInt32) {
  const std::string stream = Package({kIntMin, kIntMax, 0, -2, 3});
  std::vector<int32_t> out(5);
  ASSERT_TRUE(DecodeZigzagInt32s(stream, 5, out.data()).ok());
  EXPECT_THAT(out, ElementsAre(kIntMin, kIntMax, 0, -2, 3));
}

TEST(ZigzagTest, ExtremesInt64) {
  // LLONG_MIN zig-zags to 2^64 - 1: a 10-byte varint.
  const std::string stream = Package({kLongMin, kLongMax, -1, 1, int64_t{1} << 40});
  std::vector<int64_t> out(5);
  auto consumed = DecodeZigzagInt64s(stream, 5, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(kLongMin, kLongMax, -1, 1, int64_t{1} << 40));
}

TEST(ZigzagTest, MultiplePackagesAndCountInsideAPackage) {
  std::vector<int64_t> a, b;
  for (int i = 0; i < 300; ++i) a.push_back(i * 1000 - 77777);
  for (int i = 0; i < 50; ++i) b.push_back(-i * i * i);
  const std::string stream = Package(a) + Package(b) + "junk";
  std::vector<int64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());

  std::vector<int64_t> out(all.size());
  auto consumed = DecodeZigzagInt64s(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 4);
  EXPECT_THAT(out, ElementsAreArray(all));

  std::vector<int32_t> ints(310);
  consumed = DecodeZigzagInt32s(stream, ints.size(), ints.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 4);  // the second package is consumed whole
  for (size_t i = 0; i < ints.size(); ++i) EXPECT_EQ(ints[i], all[i]) << i;
}

TEST(ZigzagTest, EveryTruncatedPrefixIsDataLoss) {
  const std::string stream = Package({1, -300, kLongMin}) + Package({kLongMax, 5});
  for (size_t len = 0; len < stream.size(); ++len) {
    std::vector<int64_t> out(5);
    ExpectDataLoss(DecodeZigzagInt64s(ExactBytes(stream.substr(0, len)).view(), 5, out.data()));
  }
}

TEST(ZigzagTest, MoreValuesRequestedThanTheStreamHolds) {
  std::vector<int32_t> out(4);
  auto result = DecodeZigzagInt32s(Package({1, 2, 3}), 4, out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("3 of 4 values"));
}

TEST(ZigzagTest, MalformedPackages) {
  int32_t out[4];
  // More values than bytes.
  ExpectDataLoss(DecodeZigzagInt32s(Bytes({0x02, 0x03, 0x00, 0x00}), 3, out));
  // A varint that runs past its package (byteLen 1 but the byte continues).
  ExpectDataLoss(DecodeZigzagInt32s(Bytes({0x01, 0x01, 0x80, 0x01}), 1, out));
  // An INT32 value longer than 32 bits.
  auto result = DecodeZigzagInt32s(Bytes({0x06, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), 1, out);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("ZIGZAG INT32 value at stream offset 2"));
  // An INT64 value longer than 64 bits.
  int64_t out64;
  ExpectDataLoss(DecodeZigzagInt64s(
      Bytes({0x0A, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}), 1, &out64));
  // byteLen beyond the stream.
  ExpectDataLoss(DecodeZigzagInt64s(Bytes({0x09, 0x01, 0x02}), 1, &out64));
}

TEST(ZigzagTest, ZeroCountReadsNothing) {
  auto consumed = DecodeZigzagInt32s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

}  // namespace
}  // namespace tsread

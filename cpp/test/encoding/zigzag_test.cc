// ZIGZAG (§9.8) decoder tests: hand-written bytes and a test-only package writer.
#include "tsread/encoding/zigzag.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using testing::Bytes;
using testing::ExpectDataLoss;
using testing::ExpectEveryProperPrefixIsDataLoss;
using testing::ExpectRealPage;
using testing::PutUVar;

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
  std::vector<int64_t> out(5);
  ExpectEveryProperPrefixIsDataLoss(stream,
                                    [&](std::string_view prefix) { return DecodeZigzagInt64s(prefix, 5, out.data()); });
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

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// table_enc_ZIGZAG.tsfile, column f_timestamp (TIMESTAMP, ZIGZAG): its smallest page, 146 values in 880
// bytes.
TEST(ZigzagTest, RealPageTimestamps) {
  ExpectRealPage<int64_t>(
      DecodeZigzagInt64s,
      {.hex = "ec069201b8d18a82fa62bac78b82fa62f4978d82fa6292ca8982fa62a89c8a82fa62ee8d8a82fa62fa958d82fa62d6ec"
              "8a82fa62eec88c82fa629cef8c82fa62fcea8a82fa62deac9082fa62e2cc8b82fa6294fc8a82fa62e8899182fa6294a5"
              "8e82fa628ca58e82fa62a89c9182fa62e4998e82fa629ac08a82fa6284b98f82fa6294ee8f82fa62c8ca8b82fa62f8b8"
              "8c82fa62d6b88f82fa62b8d99082fa62c8c69082fa629ca58e82fa628acf9282fa6290a08d82fa628eb79182fa62c289"
              "9182fa62f0989182fa62b0ca9182fa62b4e78d82fa62d6dd8e82fa62c2aa8e82fa62bea19082fa62aea39382fa62a8b0"
              "9382fa6296f29282fa62e48c9282fa6288958e82fa62e0ac8f82fa62a6b09082fa62b8d59082fa62b8998f82fa62fad9"
              "9282fa62d4f29482fa62a0e09282fa62acb88f82fa62dcee8e82fa629e849382fa62f2a19582fa62b6e48f82fa62b6df"
              "9582fa62e0a99082fa62cc8f9282fa62e8e69082fa62e8fb9182fa62bcf19682fa62c8cb9382fa62f8eb9082fa62f0d9"
              "9282fa62f4ef9582fa62f0e19682fa62a4989882fa62d6c89582fa6280ee9682fa62e4c59382fa6290ad9382fa62f8b8"
              "9882fa62ae899782fa62aecb9682fa62f2899782fa6296bf9682fa62eee19582fa6298929982fa62ecf69482fa62e2eb"
              "9382fa6288ac9682fa62f8e49782fa62c4a19982fa6284dc9582fa62d0999882fa62dc939782fa62dce69782fa62dee0"
              "9582fa62b4b29782fa62b8d69782fa62b2be9682fa62fab39582fa62e6fc9682fa62cefa9882fa6284e29682fa6282cb"
              "9682fa62eaa19b82fa62d8e39582fa62a8a09882fa62d8bf9782fa62c4f09582fa62a48b9982fa628ae89b82fa62b8bf"
              "9b82fa62a4b29a82fa628aff9a82fa62869d9782fa628e9b9882fa6290b09d82fa62c4b69c82fa62ec9c9b82fa6296d9"
              "9c82fa6294919782fa62b6b89d82fa628cbc9782fa62f8e29d82fa62ecb59782fa62e2b89e82fa62c6fb9c82fa62a0e0"
              "9b82fa62eaa59c82fa62b8c99c82fa62d4e19882fa629e9c9f82fa62b2cb9c82fa62bc839982fa62d2cf9982fa6284fb"
              "9f82fa62d2ac9d82fa62b0a99982fa62bee29f82fa62faa19f82fa62bed69a82fa62a0ee9d82fa62a6c69d82fa62dee0"
              "9f82fa62f2f8a082fa62f6c49f82fa62e0ad9a82fa62a6bf9b82fa62a493a182fa62e6889d82fa62b0a79d82fa62f489"
              "9f82fa62eeba9e82fa62a8a39b82fa62",
       .count = 146,
       .first = int64_t{1700003927132},
       .last = int64_t{1700004063444},
       .min = int64_t{1700003918473},
       .max = int64_t{1700004111570},
       .fnv1a = 0xd7021ebb374ed528u});
}

}  // namespace
}  // namespace tsread

// RLE (§9.3) decoder tests. Vectors come from hand-written bytes or from the small independent
// encoder below (bit by bit, MSB-first), never from the decoder itself.
#include "tsread/encoding/rle.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
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
using testing::BitWriter;
using testing::Bytes;
using testing::ExactBytes;
using testing::ExpectDataLoss;
using testing::ExpectEveryProperPrefixIsDataLoss;
using testing::ExpectRealPage;
using testing::Fnv1a;
using testing::FromHex;
using testing::PutUVar;

// Builds one RLE package (§9.3) and remembers the values it stands for.
class PackageWriter {
 public:
  // big_endian_values: INT64 RLE-run values are big-endian, INT32/BOOLEAN little-endian.
  PackageWriter(int bit_width, bool big_endian_values)
      : bit_width_(bit_width), big_endian_(big_endian_values) {
    payload_.push_back(static_cast<char>(bit_width));
  }

  PackageWriter& Run(uint64_t value, uint32_t count) {
    PutUVar(&payload_, count << 1);
    const int bytes = (bit_width_ + 7) / 8;
    for (int i = 0; i < bytes; ++i) {
      const int shift = big_endian_ ? 8 * (bytes - 1 - i) : 8 * i;
      payload_.push_back(static_cast<char>(value >> shift));
    }
    values_.insert(values_.end(), count, value);
    return *this;
  }

  // One bit-packed run of values.size() (1..504) values; the last group is zero-padded.
  PackageWriter& Packed(const std::vector<uint64_t>& values) {
    const size_t groups = (values.size() + 7) / 8;
    PutUVar(&payload_, static_cast<uint32_t>(groups << 1 | 1));
    payload_.push_back(static_cast<char>(values.size() - (groups - 1) * 8));
    BitWriter bits;
    for (size_t i = 0; i < groups * 8; ++i) bits.Write(i < values.size() ? values[i] : 0, bit_width_);
    payload_ += bits.bytes();
    values_.insert(values_.end(), values.begin(), values.end());
    return *this;
  }

  std::string Package() const {
    std::string out;
    PutUVar(&out, static_cast<uint32_t>(payload_.size()));
    return out + payload_;
  }
  const std::vector<uint64_t>& values() const { return values_; }

 private:
  int bit_width_;
  bool big_endian_;
  std::string payload_;
  std::vector<uint64_t> values_;
};

std::vector<int32_t> AsInt32s(const std::vector<uint64_t>& v) {
  std::vector<int32_t> out;
  for (uint64_t x : v) out.push_back(static_cast<int32_t>(static_cast<uint32_t>(x)));
  return out;
}

std::vector<int64_t> AsInt64s(const std::vector<uint64_t>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

uint64_t Mask(int bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// --- Hand-made byte vectors --------------------------------------------------------------------

TEST(RleTest, HandVectorInt32RunThenBitPacked) {
  // bitWidth 3; RLE run: header 10<<1 = 0x14, value 5 in one byte; bit-packed: header 1<<1|1,
  // lastCount 8, values 0..7 as 000 001 010 011 100 101 110 111 = 0x05 0x39 0x77.
  const std::string stream = Bytes({0x08, 0x03, 0x14, 0x05, 0x03, 0x08, 0x05, 0x39, 0x77});
  std::vector<int32_t> out(18);
  auto consumed = DecodeRleInt32s(ExactBytes(stream).view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7));
}

TEST(RleTest, HandVectorRunValueByteOrderDiffersBetweenInt32AndInt64) {
  // bitWidth 12: the run value takes 2 bytes. INT32: little-endian; INT64: big-endian.
  const std::string little = Bytes({0x04, 0x0C, 0x06, 0xBC, 0x0A});
  std::vector<int32_t> ints(3);
  ASSERT_TRUE(DecodeRleInt32s(little, 3, ints.data()).ok());
  EXPECT_THAT(ints, ElementsAre(0xABC, 0xABC, 0xABC));

  const std::string big = Bytes({0x04, 0x0C, 0x06, 0x0A, 0xBC});
  std::vector<int64_t> longs(3);
  ASSERT_TRUE(DecodeRleInt64s(big, 3, longs.data()).ok());
  EXPECT_THAT(longs, ElementsAre(0xABC, 0xABC, 0xABC));
}

TEST(RleTest, HandVectorLastCountBelowEight) {
  // bitWidth 1; one group with lastCount 3: bits 101 then padding.
  const std::string stream = Bytes({0x04, 0x01, 0x03, 0x03, 0xA0});
  std::vector<int32_t> out(3);
  auto consumed = DecodeRleInt32s(stream, 3, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 5u);
  EXPECT_THAT(out, ElementsAre(1, 0, 1));
}

TEST(RleTest, HandVectorBooleans) {
  // bitWidth 1: RLE run of 9 trues, then 8 bit-packed values 1011 0010.
  const std::string stream = Bytes({0x06, 0x01, 0x12, 0x01, 0x03, 0x08, 0xB2});
  std::vector<uint8_t> out(17);
  auto consumed = DecodeRleBooleans(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAre(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0));
}

TEST(RleTest, BooleanIsAnyNonZeroInt) {
  PackageWriter p(2, false);
  p.Run(2, 3).Packed({0, 1, 2, 3, 0});
  std::vector<uint8_t> out(8);
  ASSERT_TRUE(DecodeRleBooleans(p.Package(), out.size(), out.data()).ok());
  EXPECT_THAT(out, ElementsAre(1, 1, 1, 0, 1, 1, 1, 0));
}

// --- Every bit width, mixed runs ----------------------------------------------------------------

std::vector<uint64_t> RandomValues(std::mt19937_64* rng, size_t n, int bits) {
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = (*rng)() & Mask(bits);
  if (bits > 0 && n > 0) v[n / 2] = Mask(bits);  // the top of the range
  return v;
}

TEST(RleTest, Int32EveryBitWidthMixedRuns) {
  std::mt19937_64 rng(32);
  for (int w = 0; w <= 32; ++w) {
    PackageWriter p(w, false);
    p.Packed(RandomValues(&rng, 13, w))  // lastCount 5
        .Run(Mask(w), 20)
        .Packed(RandomValues(&rng, 8, w))
        .Run(0, 9)
        .Packed(RandomValues(&rng, 63 * 8, w));  // the largest run a writer makes
    const std::string stream = p.Package();
    std::vector<int32_t> out(p.values().size());
    auto consumed = DecodeRleInt32s(ExactBytes(stream).view(), out.size(), out.data());
    ASSERT_TRUE(consumed.ok()) << "w=" << w << ": " << consumed.status();
    EXPECT_EQ(*consumed, stream.size());
    EXPECT_THAT(out, ElementsAreArray(AsInt32s(p.values()))) << "w=" << w;
  }
}

TEST(RleTest, Int64EveryBitWidthMixedRuns) {
  std::mt19937_64 rng(64);
  for (int w = 0; w <= 64; ++w) {
    PackageWriter p(w, true);
    p.Packed(RandomValues(&rng, 21, w))
        .Run(Mask(w), 17)
        .Packed(RandomValues(&rng, 40, w))
        .Run(1 & Mask(w), 8);
    const std::string stream = p.Package();
    std::vector<int64_t> out(p.values().size());
    auto consumed = DecodeRleInt64s(ExactBytes(stream).view(), out.size(), out.data());
    ASSERT_TRUE(consumed.ok()) << "w=" << w << ": " << consumed.status();
    EXPECT_EQ(*consumed, stream.size());
    EXPECT_THAT(out, ElementsAreArray(AsInt64s(p.values()))) << "w=" << w;
  }
}

TEST(RleTest, Int32ExtremesAtWidth32) {
  const uint64_t min = 0x80000000u;
  const uint64_t minus_one = 0xFFFFFFFFu;
  PackageWriter p(32, false);
  p.Run(min, 10).Packed({min, minus_one, 0x7FFFFFFF, 0, 1}).Run(minus_one, 8);
  std::vector<int32_t> out(23);
  ASSERT_TRUE(DecodeRleInt32s(p.Package(), out.size(), out.data()).ok());
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(out[0], kMin);
  EXPECT_EQ(out[9], kMin);
  EXPECT_THAT(std::vector<int32_t>(out.begin() + 10, out.begin() + 15), ElementsAre(kMin, -1, kMax, 0, 1));
  EXPECT_EQ(out[15], -1);
  EXPECT_EQ(out[22], -1);
}

TEST(RleTest, Int64ExtremesAtWidth64) {
  const uint64_t min = uint64_t{1} << 63;
  PackageWriter p(64, true);
  p.Run(min, 9).Packed({min, ~uint64_t{0}, min - 1, 0, 42});
  std::vector<int64_t> out(14);
  ASSERT_TRUE(DecodeRleInt64s(p.Package(), out.size(), out.data()).ok());
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(out[0], kMin);
  EXPECT_EQ(out[8], kMin);
  EXPECT_THAT(std::vector<int64_t>(out.begin() + 9, out.end()), ElementsAre(kMin, -1, kMax, 0, 42));
}

TEST(RleTest, LongRunAndCountEndingInsideARun) {
  PackageWriter p(7, false);
  p.Run(99, 100000).Packed({1, 2, 3});
  const std::string stream = p.Package();
  std::vector<int32_t> out(5000);
  auto consumed = DecodeRleInt32s(ExactBytes(stream).view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  // The package is consumed whole, as Java reads it whole.
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out.front(), 99);
  EXPECT_EQ(out.back(), 99);
}

TEST(RleTest, CountEndingInsideABitPackedGroup) {
  PackageWriter p(5, false);
  p.Packed({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}).Run(3, 8);
  std::vector<int32_t> out(10, -7);
  ASSERT_TRUE(DecodeRleInt32s(p.Package(), 10, out.data()).ok());
  EXPECT_THAT(out, ElementsAre(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
}

TEST(RleTest, MultiplePackages) {
  PackageWriter a(4, false);
  a.Run(7, 8).Packed({1, 2, 3});
  PackageWriter b(20, false);
  b.Packed({1 << 19, 5, 6, 7, 8, 9, 10, 11, 12}).Run(123456, 10);
  const std::string stream = a.Package() + b.Package() + "trailing";
  std::vector<uint64_t> all = a.values();
  all.insert(all.end(), b.values().begin(), b.values().end());

  std::vector<int32_t> out(all.size());
  auto consumed = DecodeRleInt32s(ExactBytes(stream).view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, a.Package().size() + b.Package().size());
  EXPECT_THAT(out, ElementsAreArray(AsInt32s(all)));

  // Values that end exactly at the first package's end do not touch the second.
  std::vector<int32_t> first(a.values().size());
  consumed = DecodeRleInt32s(stream, first.size(), first.data());
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, a.Package().size());
}

TEST(RleTest, ZeroCountReadsNothing) {
  auto consumed = DecodeRleInt64s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

// --- Errors ---------------------------------------------------------------------------------------

TEST(RleTest, EveryTruncatedPrefixIsDataLoss) {
  PackageWriter a(9, false);
  a.Run(300, 12).Packed({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  PackageWriter b(33, true);
  b.Packed({1, 2, 3}).Run(uint64_t{1} << 32, 9);
  const std::string ints = a.Package() + a.Package();
  const std::string longs = b.Package() + b.Package();
  std::vector<int32_t> out(2 * a.values().size());
  ExpectEveryProperPrefixIsDataLoss(
      ints, [&](std::string_view prefix) { return DecodeRleInt32s(prefix, out.size(), out.data()); });
  std::vector<uint8_t> bools(out.size());
  ExpectEveryProperPrefixIsDataLoss(
      ints, [&](std::string_view prefix) { return DecodeRleBooleans(prefix, bools.size(), bools.data()); });
  std::vector<int64_t> out64(2 * b.values().size());
  ExpectEveryProperPrefixIsDataLoss(
      longs, [&](std::string_view prefix) { return DecodeRleInt64s(prefix, out64.size(), out64.data()); });
}

TEST(RleTest, MoreValuesRequestedThanTheStreamHolds) {
  PackageWriter p(3, false);
  p.Run(1, 8).Packed({1, 2});
  std::vector<int32_t> out(11);
  auto result = DecodeRleInt32s(p.Package(), out.size(), out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("10 of 11 values"));
}

TEST(RleTest, BitWidthBeyondTheType) {
  int32_t i32;
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x03, 0x21, 0x02, 0x00}), 1, &i32));  // 33
  uint8_t b;
  ExpectDataLoss(DecodeRleBooleans(Bytes({0x03, 0x21, 0x02, 0x00}), 1, &b));
  int64_t i64;
  ExpectDataLoss(DecodeRleInt64s(Bytes({0x03, 0x41, 0x02, 0x00}), 1, &i64));  // 65
  EXPECT_TRUE(DecodeRleInt64s(Bytes({0x0A, 0x40, 0x02, 0, 0, 0, 0, 0, 0, 0, 7}), 1, &i64).ok());
  EXPECT_EQ(i64, 7);
}

TEST(RleTest, MalformedRuns) {
  int32_t out[16];
  // Package length 0 (no bit width).
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x00}), 1, out));
  // Package longer than the stream.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x05, 0x01, 0x02}), 1, out));
  // RLE run of zero values.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x03, 0x01, 0x00, 0x01}), 1, out));
  // Bit-packed run of zero groups.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x03, 0x01, 0x01, 0x08}), 1, out));
  // lastCount 9.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x04, 0x01, 0x03, 0x09, 0xFF}), 1, out));
  // lastCount 0 in a single group: no values.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x04, 0x01, 0x03, 0x00, 0xFF}), 1, out));
  // Two groups announced, one present.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x04, 0x01, 0x05, 0x08, 0xFF}), 9, out));
  // Run header >= 2^31 (negative as a Java int).
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x07, 0x01, 0x80, 0x80, 0x80, 0x80, 0x08, 0x01}), 1, out));
  // Run header varint longer than 5 bytes.
  ExpectDataLoss(DecodeRleInt32s(Bytes({0x07, 0x01, 0x82, 0x80, 0x80, 0x80, 0x80, 0x00}), 1, out));
}

TEST(RleTest, ErrorMessageNamesTheStreamOffset) {
  PackageWriter p(3, false);
  p.Run(1, 8);
  const std::string stream = p.Package() + Bytes({0x03, 0x25, 0x02, 0x00});  // second: width 37
  std::vector<int32_t> out(9);
  auto result = DecodeRleInt32s(stream, out.size(), out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("bit width at stream offset 5"));
  // Nested use: offsets are reported relative to the enclosing stream.
  result = DecodeRleInt32s(stream, out.size(), out.data(), 100);
  EXPECT_THAT(result.status().message(), HasSubstr("at stream offset 105"));
}

// --- The shared group unpacker -------------------------------------------------------------------

TEST(RleTest, UnpackBitPackedGroupsEveryWidth) {
  std::mt19937_64 rng(7);
  for (int w = 0; w <= 64; ++w) {
    const std::vector<uint64_t> values = RandomValues(&rng, 24, w);
    BitWriter bits;
    for (uint64_t v : values) bits.Write(v, w);
    // Exactly 3 * w bytes, in a buffer of that size so that ASan sees any overread.
    const std::string packed = bits.bytes();
    ASSERT_EQ(packed.size(), static_cast<size_t>(3 * w));
    std::vector<uint8_t> exact(packed.begin(), packed.end());
    std::vector<uint64_t> out64(24);
    UnpackBitPackedGroups64(w, exact.data(), 3, out64.data());
    EXPECT_THAT(out64, ElementsAreArray(values)) << "w=" << w;
    if (w <= 32) {
      std::vector<uint32_t> out32(24);
      UnpackBitPackedGroups32(w, exact.data(), 3, out32.data());
      EXPECT_THAT(out32, ElementsAreArray(std::vector<uint32_t>(values.begin(), values.end()))) << "w=" << w;
    }
  }
}

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// table_enc_RLE.tsfile, column f_boolean (BOOLEAN, RLE): its smallest page, 474 values in 30 bytes.
TEST(RleTest, RealPageBooleans) {
  const std::string stream = FromHex("1d01050803fc700078010308203a00240103087f8e03017e000308f81200");
  std::vector<uint8_t> out(474);
  auto consumed = DecodeRleBooleans(ExactBytes(stream).view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out.front(), 0);
  EXPECT_EQ(out.back(), 0);
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), 298);
  EXPECT_EQ(Fnv1a(out), 0xb6d84026a3156285u);
}

// DecodeRleInt32s without its `offset` argument.
absl::StatusOr<size_t> RleInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeRleInt32s(stream, count, out);
}

// table_enc_RLE.tsfile, column f_date (DATE, RLE): its smallest page, 65 values in 8 bytes.
TEST(RleTest, RealPageDates) {
  ExpectRealPage<int32_t>(RleInt32s, {.hex = "071982016cda3401",
                                      .count = 65,
                                      .first = 20241004,
                                      .last = 20241004,
                                      .min = 20241004,
                                      .max = 20241004,
                                      .fnv1a = 0xe744ea7a090de9bcu});
}

// table_enc_RLE.tsfile, column f_int32 (INT32, RLE): its smallest page, 73 values in 97 bytes.
TEST(RleTest, RealPageInt32s) {
  ExpectRealPage<int32_t>(
      RleInt32s,
      {.hex = "600b0b0888911226c4d89b13627c4f89f13e27c4f89f13e29c538bb1762ec678cf19e37c6e8d11a634c698d31b633c67"
              "8c719a334668cd19a3346616660407068cf19e31c6b8c718e3145a8b515e2bc578af14a2944a88710e21c4c899110000"
              "00",
       .count = 73,
       .first = 1092,
       .last = 1092,
       .min = 1091,
       .max = 1135,
       .fnv1a = 0x62645993f158ca7bu});
}

}  // namespace
}  // namespace tsread

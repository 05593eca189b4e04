// FloatDecoder wrapper (§9.5) tests. The inner streams come from the small test-only writers
// below: a TS_2DIFF writer that stores every delta at full width and an RLE writer that stores all
// values in one bit-packed run of full width; both are valid streams that Java's decoders accept.
#include "tsread/encoding/float_scaled.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::ExpectDataLoss;
using testing::ExpectEveryProperPrefixIsDataLoss;
using testing::ExpectRealPage;
using testing::PutBigEndian;
using testing::PutUVar;

// One TS_2DIFF block of all values, minDelta 0, deltas at full width (§9.4).
template <typename T>
std::string Ts2DiffBlock(const std::vector<T>& values) {
  constexpr int kBytes = sizeof(T);
  std::string out;
  PutBigEndian(&out, values.size() - 1, 4);
  PutBigEndian(&out, 8 * kBytes, 4);
  PutBigEndian(&out, 0, kBytes);
  PutBigEndian(&out, static_cast<uint64_t>(values[0]), kBytes);
  for (size_t i = 1; i < values.size(); ++i) {
    PutBigEndian(&out, static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(values[i - 1]), kBytes);
  }
  return out;
}

// One RLE package holding all values in one bit-packed run of full width (§9.3).
template <typename T>
std::string RlePackage(const std::vector<T>& values) {
  constexpr int kBytes = sizeof(T);
  const size_t groups = (values.size() + 7) / 8;
  std::string payload;
  payload.push_back(static_cast<char>(8 * kBytes));
  PutUVar(&payload, static_cast<uint32_t>(groups << 1 | 1));
  payload.push_back(static_cast<char>(values.size() - (groups - 1) * 8));
  for (size_t i = 0; i < groups * 8; ++i) {
    PutBigEndian(&payload, i < values.size() ? static_cast<uint64_t>(values[i]) : 0, kBytes);
  }
  std::string out;
  PutUVar(&out, static_cast<uint32_t>(payload.size()));
  return out + payload;
}

std::string Header(uint32_t m) {
  std::string out;
  PutUVar(&out, m);
  return out;
}

const std::vector<int32_t> kInts = {
    12345, -1, 0, 100, 7, -98765, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
    1};
const std::vector<int64_t> kLongs = {12345,
                                     -1,
                                     0,
                                     100,
                                     7,
                                     -98765,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min(),
                                     1,
                                     9007199254740993};

TEST(FloatScaledTest, FloatTs2DiffPrecisionTwo) {
  const std::string stream = Header(2) + Ts2DiffBlock(kInts) + "trailing";
  std::vector<float> out(kInts.size());
  auto consumed = DecodeScaledFloats(Encoding::kTs2Diff, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 8);
  EXPECT_EQ(out[0], 123.45f);
  // Java: (float) (value / 100.0), the quotient in double.
  for (size_t i = 0; i < kInts.size(); ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(static_cast<float>(kInts[i] / 100.0)))
        << i;
  }
}

TEST(FloatScaledTest, DoubleQuotientRoundsOnceMoreToFloat) {
  // 16777217 / 10 = 1677721.7 in double, then rounded to float: not the same as dividing in float.
  const std::vector<int32_t> ints = {16777217, 1};
  std::vector<float> out(2);
  ASSERT_TRUE(DecodeScaledFloats(Encoding::kTs2Diff, Header(1) + Ts2DiffBlock(ints), 2, out.data()).ok());
  EXPECT_EQ(out[0], static_cast<float>(16777217 / 10.0));
  EXPECT_NE(out[0], 16777217.0f / 10.0f);
  EXPECT_EQ(out[1], static_cast<float>(0.1));
}

TEST(FloatScaledTest, FloatRle) {
  const std::string stream = Header(3) + RlePackage(kInts);
  std::vector<float> out(kInts.size());
  auto consumed = DecodeScaledFloats(Encoding::kRle, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  for (size_t i = 0; i < kInts.size(); ++i) EXPECT_EQ(out[i], static_cast<float>(kInts[i] / 1000.0)) << i;
}

TEST(FloatScaledTest, DoubleRleAndTs2DiffPrecisionTwo) {
  for (Encoding inner : {Encoding::kRle, Encoding::kTs2Diff}) {
    const std::string stream =
        Header(2) + (inner == Encoding::kRle ? RlePackage(kLongs) : Ts2DiffBlock(kLongs));
    std::vector<double> out(kLongs.size());
    auto consumed = DecodeScaledDoubles(inner, stream, out.size(), out.data());
    ASSERT_TRUE(consumed.ok()) << consumed.status();
    EXPECT_EQ(*consumed, stream.size());
    EXPECT_EQ(out[0], 123.45);
    for (size_t i = 0; i < kLongs.size(); ++i) {
      EXPECT_EQ(std::bit_cast<uint64_t>(out[i]),
                std::bit_cast<uint64_t>(static_cast<double>(kLongs[i]) / 100.0))
          << i;
    }
  }
}

TEST(FloatScaledTest, PrecisionZeroOrNegativeDividesByOne) {
  // m = 0, and m = 0x80000000 (negative as a Java int; a 5-byte uvar).
  for (uint32_t m : {0u, 0x80000000u}) {
    const std::string stream = Header(m) + Ts2DiffBlock(std::vector<int64_t>{5, -7});
    std::vector<double> out(2);
    ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, stream, 2, out.data()).ok());
    EXPECT_EQ(out[0], 5.0);
    EXPECT_EQ(out[1], -7.0);
  }
}

TEST(FloatScaledTest, LargePrecision) {
  std::vector<double> out(1);
  ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, Header(22) + Ts2DiffBlock(std::vector<int64_t>{3}), 1,
                                  out.data())
                  .ok());
  EXPECT_EQ(out[0], 3 / 1e22);
  ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, Header(400) + Ts2DiffBlock(std::vector<int64_t>{3}), 1,
                                  out.data())
                  .ok());
  EXPECT_EQ(out[0], 0.0);  // 3 / Infinity
}

TEST(FloatScaledTest, ScaledBitmap) {
  // Values 0..9; bitmap marks values 0, 2 and 9 as scaled (bits 0, 2 of byte 0, bit 1 of byte 1).
  std::vector<int32_t> ints = {150, 123456789, 250, 4, 5, 6, 7, 8, 9, 1050};
  std::string stream = Header(0x7FFFFFFF);
  PutUVar(&stream, 10);
  stream += std::string({static_cast<char>(0x05), static_cast<char>(0x02)});  // 10/8 + 1 = 2 bytes
  stream += Header(2) + Ts2DiffBlock(ints);
  std::vector<float> out(ints.size());
  auto consumed = DecodeScaledFloats(Encoding::kTs2Diff, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out[0], 1.5f);
  EXPECT_EQ(out[1], 123456789.0f);  // unscaled: the integer itself
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 4.0f);
  EXPECT_EQ(out[9], 10.5f);
}

TEST(FloatScaledTest, RawBitsBitmap) {
  // Value 0 scaled, value 1 unscaled, values 2 and 3 raw IEEE bits (NaN payload, 1e30).
  const int64_t nan_bits = 0x7FF0000000000123;
  const int64_t big_bits = std::bit_cast<int64_t>(1e30);
  std::vector<int64_t> longs = {314, 271828182845904, nan_bits, big_bits};
  std::string stream = Header(0x7FFFFFFE);
  PutUVar(&stream, 4);
  stream.push_back(static_cast<char>(0x01));  // scaled: bit 0
  stream.push_back(static_cast<char>(0x0C));  // raw bits: bits 2 and 3
  stream += Header(2) + RlePackage(longs);
  std::vector<double> out(longs.size());
  auto consumed = DecodeScaledDoubles(Encoding::kRle, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out[0], 3.14);
  EXPECT_EQ(out[1], 271828182845904.0);
  EXPECT_EQ(std::bit_cast<int64_t>(out[2]), nan_bits);
  EXPECT_EQ(out[3], 1e30);
}

TEST(FloatScaledTest, BitmapThatDoesNotCoverCountIsCorrupt) {
  std::string stream = Header(0x7FFFFFFF);
  PutUVar(&stream, 3);  // 1 bitmap byte: covers 8 values
  stream.push_back(static_cast<char>(0xFF));
  stream += Header(2) + Ts2DiffBlock(std::vector<int32_t>(9, 1));
  std::vector<float> out(9);
  ExpectDataLoss(DecodeScaledFloats(Encoding::kTs2Diff, stream, 9, out.data()));
  EXPECT_TRUE(DecodeScaledFloats(Encoding::kTs2Diff, stream, 8, out.data()).ok());
}

TEST(FloatScaledTest, EveryTruncatedPrefixIsDataLoss) {
  std::string stream = Header(0x7FFFFFFE);
  PutUVar(&stream, 300);
  stream += std::string(2 * (300 / 8 + 1), '\x01');
  stream += Header(2) + RlePackage(std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<float> out(9);
  ASSERT_TRUE(DecodeScaledFloats(Encoding::kRle, stream, 9, out.data()).ok());
  ExpectEveryProperPrefixIsDataLoss(
      stream, [&](std::string_view prefix) { return DecodeScaledFloats(Encoding::kRle, prefix, 9, out.data()); });
}

TEST(FloatScaledTest, InnerErrorsReportOffsetsInTheWholeStream) {
  // Header is 1 byte; the TS_2DIFF block header is cut short.
  std::vector<double> out(1);
  auto result = DecodeScaledDoubles(Encoding::kTs2Diff, Header(2) + std::string(5, '\0'), 1, out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("TS_2DIFF INT64 block header at stream offset 1"));
}

TEST(FloatScaledTest, MoreValuesThanTheStreamHolds) {
  std::vector<float> out(10);
  ExpectDataLoss(DecodeScaledFloats(Encoding::kTs2Diff, Header(2) + Ts2DiffBlock(kInts), 10, out.data()));
}

TEST(FloatScaledTest, OtherInnerEncodingsAreRejected) {
  float out;
  EXPECT_EQ(DecodeScaledFloats(Encoding::kGorilla, Header(2), 1, &out).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FloatScaledTest, ZeroCountReadsNothing) {
  auto consumed = DecodeScaledDoubles(Encoding::kRle, "", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// DecodeScaledFloats / DecodeScaledDoubles over `inner`, as a `(stream, count, out)` decoder.
auto Scaled(Encoding inner) {
  return [inner](std::string_view stream, size_t count, auto* out) -> absl::StatusOr<size_t> {
    if constexpr (std::is_same_v<decltype(out), float*>) {
      return DecodeScaledFloats(inner, stream, count, out);
    } else {
      return DecodeScaledDoubles(inner, stream, count, out);
    }
  };
}

// table_enc_RLE.tsfile, column f_float (FLOAT, RLE): its smallest page, 111 values in 216 bytes.
TEST(FloatScaledTest, RealPageFloatRle) {
  ExpectRealPage<float>(
      Scaled(Encoding::kRle),
      {.hex = "02d5010f1d07c127824f049e091c17582d305860b0c16182c3077e109c2138427084e0f0c17582eb03ee07dc0d781af0"
              "35e06bc0b1824b0496092c15b83b307660b0c1318263057e0afc11381c7038e071c0c7818f031e04fc09f81df041e07e"
              "c0f181e303c6058c0b181b7049608ac1158227044e088c111822705060a0c141828305060a5c169833b07460fac1f584"
              "2f087613bc27784ef09de146c28d85cf0b9e181c2ff86270c4e189c31385cb0bb6188c2e985d30986130c26184cb0bae"
              "167c2f785ef0bc6168c2d185a30ace149c2c7858f0b18000",
       .count = 111,
       .first = std::bit_cast<float>(uint32_t{0x43773ae1}),
       .last = std::bit_cast<float>(uint32_t{0x43794f5c}),
       .min = std::bit_cast<float>(uint32_t{0x43768ccd}),
       .max = std::bit_cast<float>(uint32_t{0x4379b0a4}),
       .fnv1a = 0x96c976d1186d26e0u});
}

// table_enc_RLE.tsfile, column f_double (DOUBLE, RLE): its smallest page, 196 values in 356 bytes.
TEST(FloatScaledTest, RealPageDoubleRle) {
  ExpectRealPage<double>(
      Scaled(Encoding::kRle),
      {.hex = "02e1020e3304a03e948a49691aa762a6fa9369e3a91ea65a9bea92a6da9a7a58a99aa512949a5ba940a48e91fa556913"
              "a482924a62e939a5d695ea526955a432915a56290fa7c2a35a83ab2aaf0abd6b0a2c26b0c6cd1b442d08b40ac6bb59ed"
              "a5b6aae1aba86f36badeebcbd72f16bcbaf0ebce6f07bc42f7fbbc2effb93ee77bbdaf17be1ef1bbafae68b9e2e51bce"
              "af41bd6afadc043093c28b118c5231aec7772b8ca9b1f9c6a321fcb372d5cacf331caff2d3cbb72f7cb3b27dcc672e4c"
              "a53231c7ff1aec7331d9c8b324ac7c7283caab25ac877245c56f140c6371a4c85311dc5670bac4fb178c5330d6c3670c"
              "3c3fb0dcc217014bf72ff7bccef5dbecefdbbe7ef81be7efdabd06f00bd4aeeeb8b6d77b5a2daab5b2d6ab31ed12b3a6"
              "c67b1aac53b1f2c97b1cac13b042c05b016bf1af16c00b0e6c5eaf12b96b016c3eb256ce5b02abeeb136c3fae72c26b3"
              "b6d34b7ead75b32acefb546cd900000000000000",
       .count = 196,
       .first = std::bit_cast<double>(uint64_t{0x4059a33333333333}),
       .last = std::bit_cast<double>(uint64_t{0x405cb3d70a3d70a4}),
       .min = std::bit_cast<double>(uint64_t{0x4059a33333333333}),
       .max = std::bit_cast<double>(uint64_t{0x406061999999999a}),
       .fnv1a = 0x85d8d9ff13455893u});
}

// table_enc_TS_2DIFF.tsfile, column f_float (FLOAT, TS_2DIFF): its smallest page, 471 values in 500 bytes.
TEST(FloatScaledTest, RealPageFloatTs2Diff) {
  ExpectRealPage<float>(
      Scaled(Encoding::kTs2Diff),
      {.hex = "020000008000000008ffffffbc00004e17444444445b47444f44546d4453577544384e44693a4449454f1644442e444c"
              "0f44445a402844a2443744424400690f4e4f442e4444054f4444254444204444444444443a4444445044445244444444"
              "471e44644444442f4444444448554a4f554437464444444453634b6844445b4433213544444444422e4457443a6a4444"
              "440000008000000007ffffffc500004e586f45dbd76ef9e17651db2765da3bc2dddbb76eddbb63cddbb76edd8877b683"
              "b7685dc077257217695dbb76ec73b6aeddbb8aeddbb932df8e7651dc93ec04bbe2a1dd1ceee536770402278ec8bb652d"
              "dd07749dbb1cef1cd52edebc76fdd8b76eddbb76d064b7aeddbb6dae63f7cece3b0000008000000007ffffffc800004d"
              "e670e11b896aefb871111387091c3852e26b57060aab70f1c63652d743cae22b87315c3870e138070e27b870e1c36130"
              "1c497101c1970e1c097151c3d7169c464bca83838921b67131fb87055c2670e0e965ca992c6a71c19719dc1070e1c2b6"
              "4b1c3870e1c3870e1c24bad5c0470e1c380000005300000008ffffffab00004cea553456627755557e555572559b6255"
              "6a494e556755555c55397c5555555555554055558155555555555555552b5655555555556e5c559e5555555560655555"
              "618b44556a55001a557155705591755c551a5555",
       .count = 471,
       .first = std::bit_cast<float>(uint32_t{0x4347e8f6}),
       .last = std::bit_cast<float>(uint32_t{0x43484f5c}),
       .min = std::bit_cast<float>(uint32_t{0x434491ec}),
       .max = std::bit_cast<float>(uint32_t{0x434a199a}),
       .fnv1a = 0x4b9a098020b8964cu});
}

}  // namespace
}  // namespace tsread

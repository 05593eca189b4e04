// TS_2DIFF (§9.4) decoder tests. Vectors are hand-written bytes or come from the test-only
// encoder below, which follows Java's DeltaBinaryEncoder (blocks of 1 + 128 values, minDelta
// as a signed minimum, width from the largest unsigned packed delta).
#include "tsread/encoding/ts2diff.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
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
using testing::PutBigEndian;

int BitLength(uint64_t v) { return v == 0 ? 0 : 64 - __builtin_clzll(v); }

// Encodes `values` as Java's DeltaBinaryEncoder would; records each block's bit width.
template <typename T>
std::string Encode(const std::vector<T>& values, std::vector<int>* widths = nullptr, size_t block = 128) {
  using Word = std::make_unsigned_t<T>;
  constexpr int kBytes = sizeof(T);
  std::string out;
  for (size_t start = 0; start < values.size();) {
    const size_t n = std::min(block, values.size() - start - 1);
    std::vector<Word> deltas;
    T min_delta = std::numeric_limits<T>::max();  // what Java writes for n == 0
    for (size_t k = 1; k <= n; ++k) {
      const Word d =
          static_cast<Word>(static_cast<Word>(values[start + k]) - static_cast<Word>(values[start + k - 1]));
      deltas.push_back(d);
      min_delta = std::min(min_delta, static_cast<T>(d));
    }
    int w = 0;
    for (Word& d : deltas) {
      d = static_cast<Word>(d - static_cast<Word>(min_delta));
      w = std::max(w, BitLength(d));
    }
    if (widths != nullptr) widths->push_back(w);
    PutBigEndian(&out, n, 4);
    PutBigEndian(&out, static_cast<uint64_t>(w), 4);
    PutBigEndian(&out, static_cast<Word>(min_delta), kBytes);
    PutBigEndian(&out, static_cast<Word>(values[start]), kBytes);
    BitWriter bits;
    for (Word d : deltas) bits.Write(d, w);
    out += bits.bytes();
    start += n + 1;
  }
  return out;
}

template <typename T>
absl::StatusOr<size_t> Decode(std::string_view stream, size_t count, T* out, size_t offset = 0) {
  if constexpr (sizeof(T) == 4) {
    return DecodeTs2DiffInt32s(stream, count, out, offset);
  } else {
    return DecodeTs2DiffInt64s(stream, count, out, offset);
  }
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, size_t block = 128) {
  const std::string stream = Encode(values, nullptr, block);
  std::vector<T> out(values.size());
  auto consumed = Decode(ExactBytes(stream).view(), out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_THAT(out, ElementsAreArray(values));
}

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();

// --- Hand-made byte vectors --------------------------------------------------------------------

TEST(Ts2DiffTest, HandVectorInt32) {
  // Values 10, 12, 15, 15: deltas 2, 3, 0; minDelta 0; packed 2, 3, 0 in 2 bits: 10 11 00 (00).
  const std::string stream = Bytes({0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 10, 0xB0});
  std::vector<int32_t> out(4);
  auto consumed = DecodeTs2DiffInt32s(stream, 4, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 17u);
  EXPECT_THAT(out, ElementsAre(10, 12, 15, 15));
}

TEST(Ts2DiffTest, HandVectorInt64NegativeMinDelta) {
  // Values 100, 95, 96, 90: deltas -5, 1, -6; minDelta -6; packed 1, 7, 0 in 3 bits:
  // 001 111 000 = 0x3C 0x00.
  std::string stream = Bytes({0, 0, 0, 3, 0, 0, 0, 3});
  PutBigEndian(&stream, static_cast<uint64_t>(int64_t{-6}), 8);
  PutBigEndian(&stream, 100, 8);
  stream += Bytes({0x3C, 0x00});
  std::vector<int64_t> out(4);
  auto consumed = DecodeTs2DiffInt64s(stream, 4, out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 26u);
  EXPECT_THAT(out, ElementsAre(100, 95, 96, 90));
}

TEST(Ts2DiffTest, SingleValueBlock) {
  // n = 0, w = 0, minDelta INT_MAX as Java writes it.
  const std::string stream = Bytes({0, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x85});
  int32_t out = 0;
  auto consumed = DecodeTs2DiffInt32s(stream, 1, &out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 16u);
  EXPECT_EQ(out, -123);
  ExpectRoundTrip(std::vector<int64_t>{kLongMin});
}

// --- Block boundaries ---------------------------------------------------------------------------

std::vector<int64_t> Timestamps(size_t n) {
  std::vector<int64_t> v(n);
  std::mt19937_64 rng(n);
  int64_t t = 1700000000000;
  for (auto& x : v) x = (t += 1000 + static_cast<int64_t>(rng() % 50));
  return v;
}

TEST(Ts2DiffTest, BlockBoundaries) {
  for (size_t n : {1, 2, 8, 9, 128, 129, 130, 131, 258, 259, 1000, 10000}) {
    SCOPED_TRACE(n);
    ExpectRoundTrip(Timestamps(n));
    std::vector<int32_t> ints(n);
    for (size_t i = 0; i < n; ++i) ints[i] = static_cast<int32_t>(i * i) - 5000;
    ExpectRoundTrip(ints);
  }
  std::vector<int> widths;
  Encode(Timestamps(130), &widths);
  EXPECT_EQ(widths.size(), 2u);  // 129 values, then a one-value block
}

TEST(Ts2DiffTest, NonDefaultBlockSizes) {
  ExpectRoundTrip(Timestamps(777), 13);
  ExpectRoundTrip(Timestamps(777), 500);
}

TEST(Ts2DiffTest, ConstantDeltasUseWidthZero) {
  std::vector<int64_t> v(300);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 5000 - 7 * static_cast<int64_t>(i);
  std::vector<int> widths;
  Encode(v, &widths);
  EXPECT_THAT(widths, ElementsAre(0, 0, 0));
  ExpectRoundTrip(v);
}

// --- Widths and wrap-around ----------------------------------------------------------------------

// A series whose packed deltas are random below 2^w with one delta at exactly 2^w - 1.
template <typename T>
std::vector<T> SeriesOfWidth(std::mt19937_64* rng, int w, size_t n) {
  using Word = std::make_unsigned_t<T>;
  const Word mask = w == 0 ? 0 : static_cast<Word>(~Word{0} >> (8 * sizeof(T) - w));
  // minDelta in [MIN, MAX - mask] (signed) so that no minDelta + packed wraps below minDelta.
  const Word span = static_cast<Word>(~mask + 1);  // 0 means "only MIN fits"
  const Word offset = span == 0 ? 0 : static_cast<Word>(static_cast<Word>((*rng)()) % span);
  const Word min_delta = static_cast<Word>(static_cast<Word>(std::numeric_limits<T>::min()) + offset);
  std::vector<T> v(n);
  Word value = static_cast<Word>((*rng)());
  for (size_t i = 0; i < n; ++i) {
    v[i] = static_cast<T>(value);
    Word packed = static_cast<Word>((*rng)()) & mask;
    if (i == 0) packed = 0;         // fixes minDelta
    if (i == n / 2) packed = mask;  // fixes the width
    value = static_cast<Word>(value + static_cast<Word>(min_delta + packed));
  }
  return v;
}

TEST(Ts2DiffTest, EveryWidthInt32) {
  std::mt19937_64 rng(1);
  for (int w = 0; w <= 32; ++w) {
    SCOPED_TRACE(w);
    const std::vector<int32_t> v = SeriesOfWidth<int32_t>(&rng, w, 129 + 77);
    std::vector<int> widths;
    Encode(v, &widths);
    ASSERT_EQ(widths[0], w);
    ExpectRoundTrip(v);
  }
}

TEST(Ts2DiffTest, EveryWidthInt64) {
  std::mt19937_64 rng(2);
  for (int w = 0; w <= 64; ++w) {
    SCOPED_TRACE(w);
    const std::vector<int64_t> v = SeriesOfWidth<int64_t>(&rng, w, 129 + 61);
    std::vector<int> widths;
    Encode(v, &widths);
    ASSERT_EQ(widths[0], w);
    ExpectRoundTrip(v);
  }
}

TEST(Ts2DiffTest, ExtremesWrapAround) {
  const std::vector<int32_t> ints = {0, kIntMin, -1, kIntMax, kIntMin, kIntMax, 0, 1, kIntMin};
  std::vector<int> widths;
  Encode(ints, &widths);
  EXPECT_THAT(widths, ElementsAre(32));
  ExpectRoundTrip(ints);

  const std::vector<int64_t> longs = {0, kLongMin, -1, kLongMax, kLongMin, kLongMax, 0, 1, kLongMin};
  widths.clear();
  Encode(longs, &widths);
  EXPECT_THAT(widths, ElementsAre(64));
  ExpectRoundTrip(longs);
}

TEST(Ts2DiffTest, HandVectorWidth32) {
  // n = 1, w = 32, minDelta INT_MIN, first INT_MAX, packed delta 2^31 + 1.
  std::string stream = Bytes({0, 0, 0, 1, 0, 0, 0, 32, 0x80, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF});
  stream += Bytes({0x80, 0, 0, 1});
  std::vector<int32_t> out(2);
  ASSERT_TRUE(DecodeTs2DiffInt32s(stream, 2, out.data()).ok());
  // INT_MAX + INT_MIN + (2^31 + 1) wraps to INT_MIN.
  EXPECT_THAT(out, ElementsAre(kIntMax, kIntMin));
}

// --- Partial decoding ----------------------------------------------------------------------------

TEST(Ts2DiffTest, CountEndingInsideABlockConsumesTheBlock) {
  const std::vector<int64_t> v = Timestamps(200);
  std::vector<int> widths;
  const std::string stream = Encode(v, &widths) + "junk";
  const size_t first_block = 24 + (128 * static_cast<size_t>(widths[0]) + 7) / 8;
  for (size_t count : {1, 5, 8, 9, 100, 128, 129, 130, 199}) {
    std::vector<int64_t> out(count);
    auto consumed = DecodeTs2DiffInt64s(stream, count, out.data());
    ASSERT_TRUE(consumed.ok()) << consumed.status();
    EXPECT_EQ(*consumed, count <= 129 ? first_block : stream.size() - 4);
    EXPECT_THAT(out, ElementsAreArray(v.begin(), v.begin() + static_cast<ptrdiff_t>(count)));
  }
}

TEST(Ts2DiffTest, ZeroCountReadsNothing) {
  auto consumed = DecodeTs2DiffInt32s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

// --- Errors ---------------------------------------------------------------------------------------

TEST(Ts2DiffTest, EveryTruncatedPrefixIsDataLoss) {
  std::mt19937_64 rng(3);
  const std::vector<int32_t> ints = SeriesOfWidth<int32_t>(&rng, 13, 140);
  const std::string s32 = Encode(ints);
  std::vector<int32_t> out32(ints.size());
  ExpectEveryProperPrefixIsDataLoss(
      s32, [&](std::string_view prefix) { return DecodeTs2DiffInt32s(prefix, out32.size(), out32.data()); });
  const std::vector<int64_t> longs = SeriesOfWidth<int64_t>(&rng, 45, 140);
  const std::string s64 = Encode(longs);
  std::vector<int64_t> out64(longs.size());
  ExpectEveryProperPrefixIsDataLoss(
      s64, [&](std::string_view prefix) { return DecodeTs2DiffInt64s(prefix, out64.size(), out64.data()); });
}

TEST(Ts2DiffTest, MoreValuesRequestedThanTheStreamHolds) {
  const std::string stream = Encode(Timestamps(10));
  std::vector<int64_t> out(11);
  auto result = DecodeTs2DiffInt64s(stream, out.size(), out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("block header at stream offset"));
  EXPECT_THAT(result.status().message(), HasSubstr("10 of 11 values"));
}

TEST(Ts2DiffTest, MalformedHeaders) {
  int32_t i32[4];
  int64_t i64[4];
  // n = -1.
  ExpectDataLoss(
      DecodeTs2DiffInt32s(Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 1, i32));
  // w = 33 for INT32, w = -1.
  ExpectDataLoss(
      DecodeTs2DiffInt32s(Bytes({0, 0, 0, 1, 0, 0, 0, 33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 2, i32));
  ExpectDataLoss(
      DecodeTs2DiffInt32s(Bytes({0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0}), 1, i32));
  // w = 65 for INT64.
  std::string header = Bytes({0, 0, 0, 0, 0, 0, 0, 65});
  header += std::string(16, '\0');
  ExpectDataLoss(DecodeTs2DiffInt64s(header, 1, i64));
  // A huge n whose packed bytes are not there.
  auto result =
      DecodeTs2DiffInt32s(Bytes({0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 1}), 2, i32);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("TS_2DIFF INT32 block at stream offset 0"));
}

TEST(Ts2DiffTest, HugeWidthZeroBlockIsBoundedByCount) {
  // n = 2^31 - 1 deltas of width 0 take no bytes: only `count` values are produced.
  std::string stream = Bytes({0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0});
  PutBigEndian(&stream, 3, 8);
  PutBigEndian(&stream, 10, 8);
  std::vector<int64_t> out(4);
  auto consumed = DecodeTs2DiffInt64s(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, 24u);
  EXPECT_THAT(out, ElementsAre(10, 13, 16, 19));
}

TEST(Ts2DiffTest, NestedOffsetsInMessages) {
  std::vector<int32_t> out(2);
  auto result = DecodeTs2DiffInt32s(Bytes({0, 0, 0, 1}), 2, out.data(), 7);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("block header at stream offset 7"));
}

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// Decode without its `offset` argument.
constexpr auto kDecode = [](std::string_view stream, size_t count, auto* out) { return Decode(stream, count, out); };

// table_enc_TS_2DIFF.tsfile, column f_date (DATE, TS_2DIFF): its smallest page, 474 values in 91 bytes.
TEST(Ts2DiffTest, RealPageDates) {
  ExpectRealPage<int32_t>(
      kDecode,
      {.hex = "0000008000000000000000000134d74f0000008000000001000000000134d74f00080000000000000000008000000000"
              "0000008000000000000000000134d7510000005600000001000000000134d7510000000002000000000000",
       .count = 474,
       .first = 20240207,
       .last = 20240210,
       .min = 20240207,
       .max = 20240210,
       .fnv1a = 0x1c7e51d6972f5d11u});
}

// table_enc_TS_2DIFF.tsfile, column f_int64 (INT64, TS_2DIFF): its smallest page, 223 values in 226 bytes.
TEST(Ts2DiffTest, RealPageInt64s) {
  ExpectRealPage<int64_t>(
      kDecode,
      {.hex = "00000080000000060000000000000002000000e8d4ab53e20ee00e9611d826e6416e121abe619e26391740e868485ba6"
              "88fb550445c785e3a9aa2a480659a091e6d46e44004e90203c45469a46009c685a81d3503e286eb5c6484517e485e825"
              "728648becbad8e421b94b66b5627472e16132192593648980000005d000000070000000000000000000000e8d4ab6177"
              "625caa6065c1255e8c8312ec4c21225cc0810bd08b221d0203e9c2ab0e7d6274b1d01460808ab9051800489ca8738406"
              "03244c41c1254aab1e40b082ab05802e78d84027d381148d72634555280421322200",
       .count = 223,
       .first = int64_t{1000000410594},
       .last = int64_t{1000000416459},
       .min = int64_t{1000000410594},
       .max = int64_t{1000000416459},
       .fnv1a = 0x1481c4adf81e2ec3u});
}

// table_enc_TS_2DIFF.tsfile, column f_timestamp (TIMESTAMP, TS_2DIFF): its smallest page, 116 values in 298
// bytes.
TEST(Ts2DiffTest, RealPageTimestamps) {
  ExpectRealPage<int64_t>(
      kDecode,
      {.hex = "0000007300000013ffffffffffff3d830000018bd007122c19b264c7c0837900b3a28dec401d0091d0d363144ea4c97c"
              "8ab102ab01a51e481ec6ecf8a1221e3c80ada0946588bac22c7a423a85b3a8854826db22ed2c456e8a15626a1e03b1c9"
              "cce88700278b030b4416108ff0e258f218b7c906088a2119bf03048052e10d7fb1fd0e310bc48f6074812b72a367e022"
              "7c8d43b0c1b848d084e730a7b82ee9c38bdc47ef8eb461b84c1cd5c2f508daf1124fe400c4b094021132665e335e068c"
              "608b9925c842ddb82e500ea8e23aac04164695d8c9d71bcdc462d082ba800002b8ce35af8166b97e190a445c261c368f"
              "113480a55e5393c7a7708989207e40ec5c62398de7726e2435844218c0e940152202d68050b11791c0513e316784a4e9"
              "38cd1a7fc190047fd502",
       .count = 116,
       .first = int64_t{1700002206252},
       .last = int64_t{1700002742607},
       .min = int64_t{1700002206252},
       .max = int64_t{1700002766698},
       .fnv1a = 0x49b614256d77288au});
}

// table_enc_TS_2DIFF.tsfile, column time (time, TS_2DIFF): its smallest page, 500 values in 654 bytes.
TEST(Ts2DiffTest, RealPageTimeColumn) {
  ExpectRealPage<int64_t>(
      kDecode,
      {.hex = "000000800000000900000000000003330000018bd021e8485aad56ab55cac56ab55aad56ab55aad56ab55aad56ab55aa"
              "d56a00b52d56ab56ba4d6ab55aad56ab55aad56ab55aad56ab55aad56ab55aad56ab55aad56ab55aad56ab55aad56ab5"
              "5a816cab55aad56ab55aad64a455aad56ab55aad56ab55aad56ab55aad56ab55aad56ab55aad5c08a5aad56ab55aad56"
              "ab55aad56ab55aad56ab55aad56ab55aad56ab55aad56ab50000008000000009000000000000032c0000018bd023e030"
              "5e215e6bc5e2f178bc5e2f222675e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f17"
              "800bc2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f23e595e2f178bc463b178bc5e2"
              "f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc5e2f178bc"
              "000000800000000900000000000003210000018bd025d81863b1d8ec763a5deec763b1d8ec763b1d8ec763b1d8ec763b"
              "1d8ec763b1d8ec70a5e98ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1c018e"
              "63b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8e549d31d8ec763b1d8ec763b1d8"
              "ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec763b1d8ec70000007000000009000000000000035a0000018bd027d000"
              "472391c8e472391c8e8e0011c8e4737c7a8e472391c8e472391c8e472391c8e472391c8e472391c8e472391c8e472391"
              "c8e472391c8e472391c8e472391c8e472391c8e47348948e472391c8e472391c8e472391c8e472391c8e09c251c8e472"
              "391c8e472391c8e472391c8e223611c8e472391492472391c8e472391c8e",
       .count = 500,
       .first = int64_t{1700003965000},
       .last = int64_t{1700004464000},
       .fnv1a = 0x9da69fa039d39075u});
}

}  // namespace
}  // namespace tsread

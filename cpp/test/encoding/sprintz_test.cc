// SPRINTZ decoding (format reference §9.12). Streams come from a test-only encoder that follows
// Java's Int/Long/Float/DoubleSprintzEncoder (fire predictor, residual map, bit packing, RLE or
// GORILLA tail), from hand-assembled bytes, or from pages of the Java-written fixture
// table_enc_SPRINTZ.tsfile (expected values = the fixture CSV, which the Java reader produced).
#include "tsread/encoding/sprintz.h"

#include <bit>
#include <climits>
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
using testing::BitsOf;
using testing::BitWriter;
using testing::PutBigEndian;
using testing::PutUVar;

// Per type: predictor word and Java's fire constants (IntFire(2)/bitWidth 8, LongFire(3)/16).
template <typename T>
struct Word {
  static constexpr int kWidth = sizeof(T) * 8;
  using U = std::conditional_t<kWidth == 32, uint32_t, uint64_t>;
  using S = std::conditional_t<kWidth == 32, int32_t, int64_t>;
  static constexpr int kShift = kWidth == 32 ? 2 : 3;
  static constexpr int kFireBits = kWidth == 32 ? 8 : 16;
};

// Java's *SprintzEncoder: full blocks of 9 (first raw + 8 fire residuals mapped by
// err <= 0 ? -2*err : 2*err - 1, Java-int/long wrapping, bit-packed at their max bit width),
// then a tail with the leftover values: one RLE package (bit-packed at full width) for integers,
// a GORILLA stream (every value as '11' with the full XOR) for FLOAT/DOUBLE.
template <typename T>
std::string EncodeSprintz(const std::vector<T>& values) {
  using U = typename Word<T>::U;
  using S = typename Word<T>::S;
  constexpr int W = Word<T>::kWidth;
  std::string out;
  size_t i = 0;
  for (; i + 9 <= values.size(); i += 9) {
    U words[9];
    for (int j = 0; j < 9; ++j) words[j] = BitsOf(values[i + j]);
    int32_t acc = 0;
    U delta = 0;
    U mapped[8];
    int bit_width = 0;
    for (int j = 1; j < 9; ++j) {
      const U pre = words[j - 1];
      const S alpha = acc >> Word<T>::kShift;
      const U pred = pre + static_cast<U>(static_cast<S>(static_cast<U>(alpha) * delta) >> Word<T>::kFireBits);
      const U err = words[j] - pred;
      const U gradient = static_cast<S>(err) > 0 ? U{0} - delta : delta;
      acc = static_cast<int32_t>(static_cast<uint32_t>(static_cast<U>(static_cast<S>(acc)) - gradient));
      delta = words[j] - pre;
      mapped[j - 1] = static_cast<S>(err) <= 0 ? U{0} - 2 * err : 2 * err - 1;  // "TODO: overflow"
      bit_width = std::max(bit_width, mapped[j - 1] == 0 ? 0 : W - std::countl_zero(mapped[j - 1]));
    }
    out.push_back(static_cast<char>(bit_width));
    if constexpr (std::is_same_v<T, int32_t>) {
      PutUVar(&out, words[0]);
    } else {
      PutBigEndian(&out, words[0], W / 8);
    }
    BitWriter packed;
    for (U m : mapped) packed.Write(m, bit_width);
    out += packed.bytes();
  }
  const size_t tail = values.size() - i;
  if (tail == 0) return out;
  out.push_back(static_cast<char>(0x80 | tail));
  if constexpr (std::is_integral_v<T>) {
    std::string payload(1, static_cast<char>(W));
    const size_t groups = (tail + 7) / 8;
    PutUVar(&payload, static_cast<uint32_t>(groups << 1 | 1));
    payload.push_back(static_cast<char>(tail - (groups - 1) * 8));
    BitWriter packed;
    for (size_t j = 0; j < groups * 8; ++j) packed.Write(j < tail ? BitsOf(values[i + j]) : 0, W);
    payload += packed.bytes();
    PutUVar(&out, static_cast<uint32_t>(payload.size()));
    out += payload;
  } else {
    BitWriter g;
    U prev = BitsOf(values[i]);
    g.Write(prev, W);
    for (size_t j = i + 1; j < values.size(); ++j) {
      g.Write(3, 2);
      g.Write(0, W == 32 ? 5 : 6);
      g.Write(W - 1, W == 32 ? 5 : 6);
      g.Write(BitsOf(values[j]) ^ prev, W);
      prev = BitsOf(values[j]);
    }
    out += g.bytes();
  }
  return out;
}

constexpr testing::TypedDecoder Decode(DecodeSprintzInt32s, DecodeSprintzInt64s,
                                       DecodeSprintzFloats, DecodeSprintzDoubles);

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  const std::string enc = EncodeSprintz(values);
  std::vector<T> got(values.size());
  absl::StatusOr<size_t> consumed = Decode(enc, values.size(), got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.size());
  EXPECT_EQ(BitsOf(got), BitsOf(values));
}

// Walks whose prediction errors stay far below 2^30 / 2^62, where Java's map is exact; FLOAT and
// DOUBLE stay positive (crossing zero flips the IEEE sign bit: a huge error, see the quirk tests).
template <typename T>
std::vector<T> Walk(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {
    double v = 250.0;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 4 != 0) {
        v = std::max(1.0, std::round((v + (static_cast<double>(rng() % 201) - 100) / 100) * 100) / 100);
      }
      values.push_back(static_cast<T>(v));
    }
  } else {
    T v = 1000;
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 4 != 0) v = static_cast<T>(v + static_cast<T>(rng() % 2001) - 1000);
      values.push_back(v);
    }
  }
  return values;
}

TEST(SprintzTest, ZeroCountReadsNothing) {
  absl::StatusOr<size_t> consumed = DecodeSprintzInt32s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

TEST(SprintzTest, OneValueIsATail) {
  ExpectRoundTrip<int32_t>({-5});
  ExpectRoundTrip<int64_t>({5});
  ExpectRoundTrip<float>({2.5f});
  ExpectRoundTrip<double>({-2.5});
}

TEST(SprintzTest, FullBlocksWithAndWithoutTail) {
  for (size_t n : {9u, 18u, 20u, 26u, 27u, 135u}) {
    ExpectRoundTrip(Walk<int32_t>(n, n));
    ExpectRoundTrip(Walk<int64_t>(n, n + 1));
    ExpectRoundTrip(Walk<float>(n, n + 2));
    ExpectRoundTrip(Walk<double>(n, n + 3));
  }
}

TEST(SprintzTest, RepeatsPackAtWidthZero) {
  const std::vector<int64_t> values(18, 77);
  const std::string enc = EncodeSprintz(values);
  EXPECT_EQ(enc[0], '\0');  // bit width 0: no residual bytes
  ExpectRoundTrip(values);
  ExpectRoundTrip(std::vector<double>(30, 3.5));
}

TEST(SprintzTest, LongWalks) {
  ExpectRoundTrip(Walk<int32_t>(10000, 1));
  ExpectRoundTrip(Walk<int64_t>(10000, 2));
  ExpectRoundTrip(Walk<float>(10000, 3));
  ExpectRoundTrip(Walk<double>(10000, 4));
}

TEST(SprintzTest, ExtremesAsFirstValuesAndInTails) {
  ExpectRoundTrip<int32_t>({INT32_MIN, INT32_MIN + 1, INT32_MIN + 3, INT32_MIN + 2, INT32_MIN, INT32_MIN + 9,
                            INT32_MIN + 9, INT32_MIN + 8, INT32_MIN + 1,  // block
                            INT32_MAX, INT32_MAX - 1, INT32_MAX - 5, INT32_MAX, INT32_MAX, INT32_MAX - 2,
                            INT32_MAX - 3, INT32_MAX - 3, INT32_MAX - 1,  // block
                            INT32_MIN, INT32_MAX, 0, -1});                // tail
  ExpectRoundTrip<int64_t>({INT64_MAX, INT64_MAX - 1, INT64_MAX - 5, INT64_MAX, INT64_MAX, INT64_MAX - 2,
                            INT64_MAX - 3, INT64_MAX - 3, INT64_MAX - 1,  // block
                            INT64_MIN, INT64_MAX, 0, -1});                // tail
  using F = std::numeric_limits<float>;
  ExpectRoundTrip<float>({1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,  // block
                          F::quiet_NaN(), -F::infinity(), F::infinity(), -0.0f, F::denorm_min()});
  using D = std::numeric_limits<double>;
  ExpectRoundTrip<double>({D::max(), D::max(), D::max(), D::max(), D::max(), D::max(), D::max(), D::max(),
                           D::max(),  // block
                           D::quiet_NaN(), -D::infinity(), D::infinity(), -0.0, D::denorm_min()});
}

TEST(SprintzTest, CountEndingInsideABlockConsumesTheBlock) {
  const std::vector<int32_t> values = Walk<int32_t>(27, 5);
  const std::string enc = EncodeSprintz(values);
  std::vector<int32_t> got(13);
  absl::StatusOr<size_t> consumed = DecodeSprintzInt32s(enc, 13, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(got, std::vector<int32_t>(values.begin(), values.begin() + 13));
  EXPECT_LT(*consumed, enc.size());
}

template <typename T>
void ExpectTruncationDetected(const std::vector<T>& values) {
  const std::string enc = EncodeSprintz(values);
  testing::ExpectTruncationDetected(Decode, enc, enc.size(), values);
}

TEST(SprintzTest, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(Walk<int32_t>(50, 6));
  ExpectTruncationDetected(Walk<int64_t>(50, 7));
  ExpectTruncationDetected(Walk<float>(50, 8));
  ExpectTruncationDetected(Walk<double>(50, 9));
}

TEST(SprintzTest, RejectsTailShorterThanTheCount) {
  const std::string enc = EncodeSprintz(Walk<double>(12, 10));  // one block + 3-value tail
  std::vector<double> got(13);
  absl::StatusOr<size_t> consumed = DecodeSprintzDoubles(enc, 13, got.data());
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("tail holds 3 values but 4 are still needed"));
}

TEST(SprintzTest, RejectsBitWidthWiderThanTheWord) {
  const std::string enc = std::string(1, '\x21') + std::string(40, '\0');  // width 33 for INT32
  std::vector<int32_t> got(9);
  absl::StatusOr<size_t> consumed = DecodeSprintzInt32s(enc, 9, got.data());
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("bit width 33"));
}

TEST(SprintzTest, TailErrorsNameTheTailOffset) {
  std::string enc = EncodeSprintz(Walk<float>(12, 11));
  enc.resize(enc.size() - 1);
  std::vector<float> got(12);
  absl::StatusOr<size_t> consumed = DecodeSprintzFloats(enc, 12, got.data());
  ASSERT_FALSE(consumed.ok());
  EXPECT_THAT(consumed.status().message(), HasSubstr("SPRINTZ FLOAT tail at byte offset"));
}

// Java quirk (§9.12): with bit width 32/64 an unpacked residual whose top bit is set is a negative
// Java int/long, and the map runs on that. Hand-computed from IntSprintzDecoder.recalculate and
// IntFire: first 0, residuals {0x80000001, 0xFFFFFFFF, 0, ...}:
//   r1 = (-2147483647 + 1) / 2 = -1073741823 (unsigned reading would give +1073741825)
//   value1 = 0 + 0 + r1; acc = 0 - 0 = 0; delta = r1
//   r2 = (-1 + 1) / 2 = 0 (unsigned: 2147483648); pred2 = value1 + ((0 >> 2) * delta >> 8) = value1
//   acc = 0 - delta = 1073741823; delta = 0; later predictions add (acc >> 2) * 0 >> 8 = 0.
TEST(SprintzTest, Int32ResidualWithTopBitSetIsNegative) {
  std::string enc(1, '\x20');  // bit width 32
  enc.push_back('\0');         // uvar first value 0
  PutBigEndian(&enc, 0x80000001u, 4);
  PutBigEndian(&enc, 0xFFFFFFFFu, 4);
  enc += std::string(24, '\0');
  std::vector<int32_t> got(9);
  absl::StatusOr<size_t> consumed = DecodeSprintzInt32s(enc, 9, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.size());
  EXPECT_THAT(got, ElementsAre(0, -1073741823, -1073741823, -1073741823, -1073741823, -1073741823,
                               -1073741823, -1073741823, -1073741823));
}

TEST(SprintzTest, Int64ResidualWithTopBitSetIsNegative) {
  std::string enc(1, '\x40');  // bit width 64
  PutBigEndian(&enc, 100, 8);  // first value
  PutBigEndian(&enc, 0x8000000000000001u, 8);
  enc += std::string(56, '\0');
  std::vector<int64_t> got(9);
  absl::StatusOr<size_t> consumed = DecodeSprintzInt64s(enc, 9, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  // r1 = (-(2^63 - 1) + 1) / 2 = -(2^62 - 1); every later residual 0 and delta 0 after value 2.
  const int64_t v = 100 - 4611686018427387903;
  EXPECT_THAT(got, ElementsAre(100, v, v, v, v, v, v, v, v));
}

// Java's encoder map overflows for errors >= 2^30 (J: IntSprintzEncoder.predict "TODO:overflow"):
// 0 then INT32_MAX gives error 2^31-1, mapped to 2*(2^31-1)-1 = -3 as an int; the decoder reads
// (-3+1)/2 = -1. Java reads back -1 for INT32_MAX; so must we.
TEST(SprintzTest, JavaEncoderOverflowReadsBackLikeJava) {
  std::vector<int32_t> values(9, 0);
  values[1] = INT32_MAX;
  const std::string enc = EncodeSprintz(values);
  std::vector<int32_t> got(9);
  absl::StatusOr<size_t> consumed = DecodeSprintzInt32s(enc, 9, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[1], -1);
}

// Java's Float/DoubleSprintzDecoder start the predictor from Float.floatToIntBits(first) /
// Double.doubleToLongBits(first), which canonicalise NaN; the first value itself is returned raw.
TEST(SprintzTest, NaNFirstValueStartsThePredictorFromTheCanonicalNaN) {
  std::string enc(1, '\0');            // bit width 0: all residuals 0
  PutBigEndian(&enc, 0x7FC00001u, 4);  // a NaN with payload
  std::vector<float> got(9);
  absl::StatusOr<size_t> consumed = DecodeSprintzFloats(enc, 9, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(std::bit_cast<uint32_t>(got[0]), 0x7FC00001u);
  for (int i = 1; i < 9; ++i) EXPECT_EQ(std::bit_cast<uint32_t>(got[i]), 0x7FC00000u) << i;
}

// ---- Pages of the Java-written fixture table_enc_SPRINTZ.tsfile (expected = its CSV) ----
// dev_0 f_int32, first page: its first two blocks and its tail (6 values), 31 bytes.
constexpr std::string_view kRealInt32Stream =
      "05f40404006098c105e20478280001c0860d0a0306af6bdaf6bdaf6b800000";
constexpr int32_t kRealInt32Values[] = {
      628, 628, 620, 620,
      617, 617, 614, 610,
      610, 610, 618, 618,
      608, 608, 608, 608,
      601, 601, 701, 701,
      701, 701, 701, 696,
};
// dev_0 f_int64, first page: its first two blocks and its tail (6 values), 77 bytes.
constexpr std::string_view kRealInt64Stream =
      "07000000e8d4a9280626a69bd6af61d307000000e8d4a92901867cd8b873c0b1862b280306e8d4a987f7e8d4a987fee8"
      "d4a98812e8d4a98834e8d4a9883fe8d4a9884f00000000000000000000";
constexpr int64_t kRealInt64Values[] = {
      1000000268294, 1000000268304, 1000000268325, 1000000268367,
      1000000268398, 1000000268425, 1000000268456, 1000000268490,
      1000000268532, 1000000268545, 1000000268579, 1000000268595,
      1000000268609, 1000000268615, 1000000268649, 1000000268689,
      1000000268690, 1000000268715, 1000000292855, 1000000292862,
      1000000292882, 1000000292916, 1000000292927, 1000000292943,
};
// dev_0 f_float, first page: its first two blocks and its tail (6 values), 63 bytes.
constexpr std::string_view kRealFloatStream =
      "12438595c30f5bc570aa5d40180c04e9c000025c28f14f12438541480c2907adfa46f7163b13ae0a14780fe038528643"
      "84214839b2917c9b62cb173c44199a";
constexpr uint32_t kRealFloatValues[] = {
      0x438595c3, 0x4385b47b, 0x438588f6, 0x43858b85,
      0x438587ae, 0x438587ae, 0x438587ae, 0x43853c29,
      0x43853c29, 0x43854148, 0x438528f6, 0x43856666,
      0x4385399a, 0x4385251f, 0x4385251f, 0x438575c3,
      0x438575c3, 0x4385599a, 0x43842148, 0x43842148,
      0x43842148, 0x438435c3, 0x4384199a, 0x4384199a,
};
// dev_0 f_double, first page: its first two blocks and its tail (1 values), 133 bytes.
constexpr std::string_view kRealDoubleStream =
      "3040726947ae147ae117ae147ae14856147ae147ad34748051eb6bc0624b852040654fde1477ce73780ae14c963240d3"
      "d713413130bf5c29e130407287ae147ae1483d1eb851eb86170a3d70a3d75cea3ae13ca073bce0a3c227b3126851e354"
      "dc1553333a9010ef0f5c264d81b3e0f5c2f7814073a28f5c28f5c3c2f7f8ba28f5c28f5c30";
constexpr uint64_t kRealDoubleValues[] = {
      0x40726947ae147ae1, 0x40725d70a3d70a3d, 0x4072887ae147ae14, 0x40728b5c28f5c28f,
      0x407299c28f5c28f6, 0x407289eb851eb852, 0x40729d999999999a, 0x40729e8f5c28f5c3,
      0x4072a80000000000, 0x407287ae147ae148, 0x4072691eb851eb85, 0x407274a3d70a3d71,
      0x40729051eb851eb8, 0x4072a00000000000, 0x4072923d70a3d70a, 0x40727eb851eb851f,
      0x40728e8f5c28f5c3, 0x407288f5c28f5c29, 0x4073a28f5c28f5c3,
};
// dev_2 f_double: three full blocks with bit width 64 whose residuals have the top bit set.
constexpr std::string_view kQuirkDoubleStream =
      "40c0123333333333330009d70a3d70a3d600175c28f5c28f5c00014116147ae0a9000958e11eb8594a001ec7e8f5c28b"
      "0efffb4556147ae1b0001b58147ae150e7000f639b851ec155403ff051eb851eb852ffd28f5c28f5c28f0052147ae147"
      "ae1300020762b851ea4a002d9c1028f5bd0800cd3dd7ae147764ff3c28f5c28f5c2a0035bafae147bb65000fe0ebd70a"
      "460b40400770a3d70a3d71000bd70a3d70a3d8001828f5c28f5c280001fe67333336e2000051eb851eb8520001803428"
      "f5c3610012f908f5c28d1cffcf2bca3d70a511ffdbccceb851eb84";
constexpr uint64_t kQuirkDoubleValues[] = {
      0xc012333333333333, 0xc00d47ae147ae148, 0xc00199999999999a,
      0xc00251eb851eb852, 0xbffd47ae147ae148, 0xbfed70a3d70a3d71,
      0xbff0000000000000, 0xbffdf34f5c28fb4b, 0xc00532c875187191,
      0x3ff051eb851eb852, 0x3fd999999999999a, 0x4002a3d70a3d70a4,
      0x400199999999999a, 0x3feae147ae147ae1, 0x3f847ae147ae147b,
      0x3fe6666666666666, 0x400102470a3d7df4, 0x4008868985a77d3d,
      0x400770a3d70a3d71, 0x4001851eb851eb85, 0x3ff570a3d70a3d71,
      0x3ff451eb851eb852, 0x3ff428f5c28f5c29, 0x3ff47ae147ae147b,
      0x3fea8f5c28f5c28f, 0x3fd28f5c28f5c28f, 0x3fe46144cccccccd,
};
// (as text: -4.55, -3.66, -2.2, -2.29, -1.83, -0.92, -1.0, -1.8719018554690645,
// -2.6497964046558953, 1.02, 0.4, 2.33, 2.2, 0.84, 0.01, 0.7, 2.1261120605483885,
// 3.0656919900644923, 2.93, 2.19, 1.34, 1.27, 1.26, 1.28, 0.83, 0.29, 0.6368736267089844)

// The RLE tail package of integers is read whole; a Java GORILLA tail (FLOAT/DOUBLE) still holds
// the sentinel, padding and the extra byte after the values.
template <typename T, typename Expected, size_t N>
void ExpectRealVector(std::string_view hex, const Expected (&expected)[N]) {
  testing::ExpectDecodesToBits<T>(Decode, hex, expected, /*may_leave_unread=*/std::is_integral_v<T> ? 0 : 10);
}

TEST(SprintzTest, RealJavaPages) {
  ExpectRealVector<int32_t>(kRealInt32Stream, kRealInt32Values);
  ExpectRealVector<int64_t>(kRealInt64Stream, kRealInt64Values);
  ExpectRealVector<float>(kRealFloatStream, kRealFloatValues);
  ExpectRealVector<double>(kRealDoubleStream, kRealDoubleValues);
}

// dev_2's walk crosses zero; Java reads 1.83 back as -1.8719018554690645 etc. (fixture README).
TEST(SprintzTest, RealJavaDoubleBlocksWithSignedResiduals) {
  ExpectRealVector<double>(kQuirkDoubleStream, kQuirkDoubleValues);
}

// Random bytes and corrupted valid streams: every outcome is a value or DataLoss, never a crash or
// an out-of-bounds read (run under ASan/UBSan).
TEST(SprintzTest, GarbageNeverCrashes) {
  const std::vector<std::string> valid = {EncodeSprintz(Walk<int32_t>(100, 1)),
                                          EncodeSprintz(Walk<int64_t>(100, 2)),
                                          EncodeSprintz(Walk<float>(100, 3)),
                                          EncodeSprintz(Walk<double>(100, 4))};
  testing::ExpectGarbageNeverCrashes<int32_t, int64_t, float, double>(Decode, valid);
}

}  // namespace
}  // namespace tsread

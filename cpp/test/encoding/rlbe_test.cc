// RLBE decoding (format reference §9.13). Streams come from a test-only encoder that follows
// Java's IntRLBE / LongRLBE / FloatRLBE / DoubleRLBE (length-coded segments, Fibonacci run
// lengths, the sign-bit quirk), from hand-assembled bits, or from pages of the Java-written
// fixture table_enc_RLBE.tsfile (expected values = the fixture CSV, which the Java reader produced).
#include "tsread/encoding/rlbe.h"

#include <algorithm>
#include <bit>
#include <climits>
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

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using testing::Bits;
using testing::BitsOf;
using testing::BitWriter;

template <typename T>
struct Word {
  static constexpr int kWidth = sizeof(T) * 8;
  using U = std::conditional_t<kWidth == 32, uint32_t, uint64_t>;
  static constexpr int kLengthBits = kWidth == 32 ? 6 : 7;
};

// J: RLBE.calcFibonacci + flushSegment: Zeckendorf bits over 1, 2, 3, 5, ... least significant
// first, then a closing '1'.
void WriteFibonacci(BitWriter& w, uint64_t n) {
  std::vector<uint64_t> fib = {1, 2};
  while (fib.back() <= n) fib.push_back(fib[fib.size() - 1] + fib[fib.size() - 2]);
  std::vector<bool> bits(fib.size(), false);
  for (size_t i = fib.size(); i-- > 0;) {
    if (fib[i] <= n) {
      bits[i] = true;
      n -= fib[i];
    }
  }
  while (!bits.back()) bits.pop_back();
  for (bool b : bits) w.PutBit(b);
  w.PutBit(true);
}

// Java's *RLBE encoders: blocks of `block_size` values; word 0 = first value's bits, word i =
// bits of (v[i] - v[i-1]) computed in T (J: subAccurate, i.e. correctly rounded); each word's
// length = its binary length (1 for 0, W for negatives); runs of equal length share a segment;
// the sign bit of a full-length word is written as 0.
template <typename T>
std::string EncodeRlbe(const std::vector<T>& values, size_t block_size = 10000) {
  using U = typename Word<T>::U;
  constexpr int W = Word<T>::kWidth;
  BitWriter w;
  for (size_t start = 0; start < values.size(); start += block_size) {
    const size_t n = std::min(block_size, values.size() - start);
    std::vector<U> words;
    std::vector<int> lengths;
    for (size_t i = 0; i < n; ++i) {
      U word;
      if (i == 0) {
        word = BitsOf(values[start]);
      } else if constexpr (std::is_integral_v<T>) {
        word = BitsOf(values[start + i]) - BitsOf(values[start + i - 1]);
      } else {
        word = BitsOf(static_cast<T>(values[start + i] - values[start + i - 1]));
      }
      words.push_back(word);
      lengths.push_back(word == 0 ? 1 : W - std::countl_zero(word));
    }
    w.Write(n, 32);
    for (size_t i = 0; i < n;) {
      size_t j = i;
      while (j < n && lengths[j] == lengths[i]) ++j;
      w.Write(static_cast<uint64_t>(lengths[i]), Word<T>::kLengthBits);
      WriteFibonacci(w, j - i);
      for (size_t k = i; k < j; ++k) {
        U word = words[k];
        if (lengths[k] == W) word &= ~(U{1} << (W - 1));  // (word & (1L << 63)) > 0 is false
        w.Write(word, lengths[k]);
      }
      i = j;
    }
    w.PadToByte();
  }
  return w.bytes();
}

// What Java reads back: integers exactly; FLOAT/DOUBLE as the running sum of the deltas in T.
template <typename T>
std::vector<T> JavaReadsBack(const std::vector<T>& values, size_t block_size = 10000) {
  std::vector<T> out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::is_integral_v<T> || i % block_size == 0) {
      out.push_back(values[i]);
    } else {
      out.push_back(static_cast<T>(out.back() + static_cast<T>(values[i] - values[i - 1])));
    }
  }
  return out;
}

constexpr testing::TypedDecoder Decode(DecodeRlbeInt32s, DecodeRlbeInt64s,
                                       DecodeRlbeFloats, DecodeRlbeDoubles);

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, size_t block_size = 10000) {
  const std::string enc = EncodeRlbe(values, block_size);
  std::vector<T> got(values.size());
  absl::StatusOr<size_t> consumed = Decode(enc, values.size(), got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.size());
  EXPECT_EQ(BitsOf(got), BitsOf(JavaReadsBack(values, block_size)));
}

// FLOAT/DOUBLE walks from 2.0; integer steps of up to 1000 either way.
template <typename T>
std::vector<T> Walk(size_t n, uint64_t seed) {
  return testing::RandomWalk<T>(n, seed, {.start = 2.0, .max_step_up = 1000, .max_step_down = 1000});
}

TEST(RlbeTest, ZeroCountReadsNothing) {
  absl::StatusOr<size_t> consumed = DecodeRlbeInt32s("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

TEST(RlbeTest, OneValue) {
  ExpectRoundTrip<int32_t>({0});
  ExpectRoundTrip<int32_t>({-7});
  ExpectRoundTrip<int64_t>({7});
  ExpectRoundTrip<float>({-1.5f});
  ExpectRoundTrip<double>({1.5});
}

TEST(RlbeTest, IntegerWalksAndExtremes) {
  ExpectRoundTrip(Walk<int32_t>(5000, 1));
  ExpectRoundTrip(Walk<int64_t>(5000, 2));
  ExpectRoundTrip<int32_t>(
      {INT32_MIN, INT32_MAX, INT32_MIN, 0, -1, INT32_MAX, INT32_MAX, 1, INT32_MIN, INT32_MIN});
  ExpectRoundTrip<int64_t>(
      {INT64_MIN, INT64_MAX, INT64_MIN, 0, -1, INT64_MAX, INT64_MAX, 1, INT64_MIN, INT64_MIN});
}

TEST(RlbeTest, SeveralBlocks) {
  ExpectRoundTrip(Walk<int32_t>(100, 3), /*block_size=*/7);
  ExpectRoundTrip(Walk<double>(100, 4), /*block_size=*/9);
  ExpectRoundTrip(Walk<int64_t>(25000, 5));  // 10000 + 10000 + 5000
}

TEST(RlbeTest, FloatWalksSumDeltasLikeJava) {
  ExpectRoundTrip(Walk<float>(5000, 6));
  ExpectRoundTrip(Walk<double>(5000, 7));
  using F = std::numeric_limits<float>;
  ExpectRoundTrip<float>({1.0f, F::infinity(), F::max(), -0.0f, F::denorm_min(), 0.0f, -F::max()});
  using D = std::numeric_limits<double>;
  ExpectRoundTrip<double>({1.0, D::infinity(), D::max(), -0.0, D::denorm_min(), 0.0, -D::max()});
}

// Hand-computed Java results (§9.13): DoubleRLBEDecoder adds the stored delta 0.01 - 0.03 =
// -0.019999999999999997 to 0.03 and gets 0.010000000000000002; FloatRLBEDecoder adds, in float,
// 0.05f - 0.01f = 0.04f (0x3D23D70A) to 0.01f (0x3C23D70A) and gets 0x3D4CCCCC (0.049999997f,
// where 0.05f is 0x3D4CCCCD).
TEST(RlbeTest, JavaFloatingPointSummation) {
  std::vector<double> d(2);
  const std::string denc = EncodeRlbe<double>({0.03, 0.01});
  ASSERT_TRUE(DecodeRlbeDoubles(denc, 2, d.data()).ok());
  EXPECT_EQ(d[0], 0.03);
  EXPECT_EQ(d[1], 0.010000000000000002);
  std::vector<float> f(2);
  const std::string fenc = EncodeRlbe<float>({0.01f, 0.05f});
  ASSERT_TRUE(DecodeRlbeFloats(fenc, 2, f.data()).ok());
  EXPECT_EQ(std::bit_cast<uint32_t>(f[0]), 0x3C23D70Au);
  EXPECT_EQ(std::bit_cast<uint32_t>(f[1]), 0x3D4CCCCCu);
}

// Full-length words carry a cleared sign bit; the decoder subtracts 2^31 (§9.13).
TEST(RlbeTest, FullLengthWordsGetTheirSignBitBack) {
  // count 2; length 32; run 2 = Fibonacci "01" + "1"; words 0x7FFFFFFB (-5) and 0x7FFFFFFF (-1).
  const std::string s = Bits(
      "00000000 00000000 00000000 00000010"
      "100000 011"
      "01111111 11111111 11111111 11111011"
      "01111111 11111111 11111111 11111111");
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeRlbeInt32s(s, 2, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, s.size());
  EXPECT_THAT(out, ElementsAre(-5, -6));
}

TEST(RlbeTest, HandAssembledRunsAndBlocks) {
  // INT64 (7-bit lengths). Block 1: count 4; length 3, run 1 ("1" + "1"): 5; length 1, run 3
  // ("001" + "1"): +1 +0 +1; 58 bits, padded to 64. Block 2: count 1; length 2, run 1: 2.
  const std::string s = Bits(
      "00000000 00000000 00000000 00000100"
      "0000011 11 101"
      "0000001 0011 1 0 1"
      "000000"
      "00000000 00000000 00000000 00000001"
      "0000010 11 10");
  int64_t out[5];
  absl::StatusOr<size_t> consumed = DecodeRlbeInt64s(s, 5, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, s.size());
  EXPECT_THAT(out, ElementsAre(5, 6, 6, 7, 2));
}

TEST(RlbeTest, CountEndingInsideARun) {
  const std::vector<int32_t> values(50, 3);
  const std::string enc = EncodeRlbe(values);
  std::vector<int32_t> got(10);
  absl::StatusOr<size_t> consumed = DecodeRlbeInt32s(enc, 10, got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(got, std::vector<int32_t>(10, 3));
  EXPECT_LT(*consumed, enc.size());
}

absl::Status DecodeInt32Status(std::string_view bits, size_t count) {
  const std::string s = Bits(bits);
  std::vector<int32_t> out(count);
  return DecodeRlbeInt32s(s, count, out.data()).status();
}

TEST(RlbeTest, RejectsBadBlockCounts) {
  absl::Status st = DecodeInt32Status("00000000 00000000 00000000 00000000  000001 11 1", 1);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("block value count 0"));
  st = DecodeInt32Status("00000000 00000000 00100111 00010001  000001 11 1", 1);  // 10001
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("block value count 10001"));
  st = DecodeInt32Status("10000000 00000000 00000000 00000001  000001 11 1", 1);  // negative in Java
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
}

TEST(RlbeTest, RejectsBadSegmentLengths) {
  absl::Status st = DecodeInt32Status("00000000 00000000 00000000 00000001  000000 11 1", 1);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("segment word length 0"));
  st = DecodeInt32Status("00000000 00000000 00000000 00000001  100001 11" + std::string(33, '1'), 1);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("segment word length 33"));
}

TEST(RlbeTest, RejectsRunsBeyondTheBlock) {
  // count 2, run 3 ("001" + "1").
  absl::Status st = DecodeInt32Status("00000000 00000000 00000000 00000010  000001 0011 111", 2);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(st.message(), HasSubstr("Fibonacci"));
  // No terminator within 64 bits.
  st = DecodeInt32Status("00000000 00000000 00000000 00000010  000001" + std::string(80, '0'), 2);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
}

template <typename T>
void ExpectTruncationDetected(const std::vector<T>& values, size_t block_size) {
  const std::string enc = EncodeRlbe(values, block_size);
  testing::ExpectTruncationDetected(Decode, enc, enc.size(), JavaReadsBack(values, block_size));
}

TEST(RlbeTest, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(Walk<int32_t>(60, 8), 25);
  ExpectTruncationDetected(Walk<int64_t>(60, 9), 25);
  ExpectTruncationDetected(Walk<float>(60, 10), 25);
  ExpectTruncationDetected(Walk<double>(60, 11), 25);
}

// ---- Pages of the Java-written fixture table_enc_RLBE.tsfile (expected = its CSV) ----
// dev_0 f_int32, page 0: its first 40 values (75 bytes). 
constexpr std::string_view kRealInt32Stream =
      "000003b72b9d01d06fffffff00e837ffffffd0740dfffffff5fffffff01609c03a0dffffffd813106fffffff2098837f"
      "fffff80462837ffffff606c03e836106fffffff80b206fffffff6f";
constexpr int32_t kRealInt32Values[] = {
      628, 628, 620, 620,
      617, 617, 614, 610,
      610, 610, 618, 618,
      608, 608, 608, 608,
      601, 601, 601, 601,
      593, 593, 593, 593,
      594, 594, 584, 584,
      584, 584, 584, 589,
      589, 589, 589, 589,
      585, 585, 585, 580,
};
// dev_0 f_int64, page 0: its first 40 values (70 bytes). 
constexpr std::string_view kRealInt64Stream =
      "000003ae51f46a54940304e82f50dd414ffbf86715413d0dc417804f81f8338a803c2f90dc417d86e408efc2be7c1785"
      "79884e437685f41380dde1f9a1ba82f308eb837185ea";
constexpr int64_t kRealInt64Values[] = {
      1000000268294, 1000000268304, 1000000268325, 1000000268367,
      1000000268398, 1000000268425, 1000000268456, 1000000268490,
      1000000268532, 1000000268545, 1000000268579, 1000000268595,
      1000000268609, 1000000268615, 1000000268649, 1000000268689,
      1000000268690, 1000000268715, 1000000268749, 1000000268776,
      1000000268812, 1000000268823, 1000000268838, 1000000268866,
      1000000268897, 1000000268900, 1000000268925, 1000000268942,
      1000000268951, 1000000268996, 1000000269022, 1000000269030,
      1000000269077, 1000000269154, 1000000269196, 1000000269215,
      1000000269225, 1000000269239, 1000000269274, 1000000269295,
};
// dev_0 f_float, page 0: its first 40 values (119 bytes). 
constexpr std::string_view kRealFloatStream =
      "000003b77f870b2b86f7f3ae000419f570a003df94780010679eb80000b20cfc5c28001cf7e91f000419f2148003dfde"
      "b8001033eb330003e23d800073dfe4290000e833e614800059067bc2a000098833e38500006c20cf8e14001efe800000"
      "07419e1200003cfcf5c000fa3d70001d067c5c30000988";
constexpr uint32_t kRealFloatValues[] = {
      0x438595c3, 0x4385b47b, 0x438588f6, 0x43858b85,
      0x438587ae, 0x438587ae, 0x438587ae, 0x43853c29,
      0x43853c29, 0x43854148, 0x438528f6, 0x43856666,
      0x4385399a, 0x4385251f, 0x4385251f, 0x438575c3,
      0x438575c3, 0x4385599a, 0x4385599a, 0x4385599a,
      0x43854b85, 0x43854b85, 0x43854b85, 0x43854b85,
      0x4385347b, 0x4385347b, 0x4385347b, 0x4385347b,
      0x4385347b, 0x43851d71, 0x43853d71, 0x43853d71,
      0x43853c29, 0x43854000, 0x438563d7, 0x438563d7,
      0x43854e14, 0x43854e14, 0x43854e14, 0x43854e14,
};
// (as text: 267.17, 267.41, 267.07, 267.09, 267.06, 267.06, 267.06, 266.47, 266.47, 266.51, 266.32,
// 266.8, 266.45, 266.29, 266.29, 266.92, 266.92, 266.7, 266.7, 266.7, 266.59, 266.59, 266.59,
// 266.59, 266.41, 266.41, 266.41, 266.41, 266.41, 266.23, 266.48, 266.48, 266.47, 266.5, 266.78,
// 266.78, 266.61, 266.61, 266.61, 266.61)
// dev_2 f_double, page 2: its first 40 values (344 bytes). Java sums the double deltas, so the walk
// reads back with drift.
constexpr std::string_view kRealDoubleStream =
      "000003ac7fc0027ae147ae147b8167fec7ae147ae147c7f90a3d70a3d70a87fc7ae147ae147ae7fde147ae147ae14fbf"
      "f0cccccccccccd2019ff9c28f5c28f5c29ff30a3d70a3d70b1fee147ae147ae143e7ff9ae147ae147ae7fc0a3d70a3d7"
      "0a5033fe8f5c28f5c28f67dffa3d70a3d70a3d902cff9d70a3d70a3d68fffb851eb851eb88ffab851eb851eb80ff8f5c"
      "28f5c28f61f3ffa147ae147ae143fdf5c28f5c28f608067f5d70a3d70a3d007faa3d70a3d70a407fe051eb851eb858f8"
      "ffeae147ae147ae8ffdd70a3d70a3d6bfe6b851eb851eb88033ff6b851eb851eb63fdae147ae147af04009ae147ae147"
      "ae3fef0a3d70a3d7003ff8ccccccccccd07c7ffd5c28f5c28f5c7feeb851eb851eb9ff83d70a3d70a3e4067fc147ae14"
      "7ae1507fed1eb851eb8518f9ffdffffffffffff1ff88f5c28f5c29040cff2147ae147ae101f7ff8e147ae147ae04019f"
      "c23d70a3d70a001f";
constexpr uint64_t kRealDoubleValues[] = {
      0x40027ae147ae147b, 0x3fed70a3d70a3d70, 0x3fe75c28f5c28f5b,
      0x3fbc28f5c28f5c20, 0xbfeb851eb851eb86, 0xbfe6b851eb851eb9,
      0xbffee147ae147ae2, 0xc004f5c28f5c28f6, 0xc0087ae147ae147b,
      0xbffd99999999999a, 0xbff570a3d70a3d71, 0xc000f5c28f5c28f6,
      0xbffd70a3d70a3d71, 0xc0048f5c28f5c28f, 0xc012000000000000,
      0xc0155c28f5c28f5c, 0xc017d70a3d70a3d7, 0xc014cccccccccccd,
      0xc012d70a3d70a3d7, 0xc013147ae147ae14, 0xc014666666666666,
      0xc01870a3d70a3d71, 0xc015147ae147ae14, 0xc00e7ae147ae147b,
      0xc008cccccccccccd, 0xc012147ae147ae14, 0xc013c28f5c28f5c3,
      0xc0204ccccccccccd, 0xc0223d70a3d70a3d, 0xc025570a3d70a3d7,
      0xc022000000000000, 0xc01e28f5c28f5c29, 0xc01a0a3d70a3d70a,
      0xc01c1eb851eb851f, 0xc020e147ae147ae1, 0xc01dc28f5c28f5c3,
      0xc0197ae147ae147b, 0xc01a3d70a3d70a3d, 0xc015cccccccccccd,
      0xc015d70a3d70a3d7,
};
// (as text: 2.31, 0.9199999999999999, 0.7299999999999999, 0.10999999999999988, -0.8600000000000001,
// -0.7100000000000001, -1.9300000000000002, -2.62, -3.06, -1.85, -1.34, -2.12, -1.84, -2.57, -4.5,
// -5.34, -5.96, -5.2, -4.71, -4.77, -5.1, -6.11, -5.27, -3.81, -3.1, -4.52, -4.94, -8.15, -9.12,
// -10.67, -9.0, -7.54, -6.51, -7.03, -8.44, -7.44, -6.37, -6.56, -5.45, -5.46)

template <typename T, typename Expected, size_t N>
void ExpectRealVector(std::string_view hex, const Expected (&expected)[N]) {
  testing::ExpectDecodesToBits<T>(Decode, hex, expected);
}

TEST(RlbeTest, RealJavaPages) {
  ExpectRealVector<int32_t>(kRealInt32Stream, kRealInt32Values);
  ExpectRealVector<int64_t>(kRealInt64Stream, kRealInt64Values);
  ExpectRealVector<float>(kRealFloatStream, kRealFloatValues);
  ExpectRealVector<double>(kRealDoubleStream, kRealDoubleValues);
}

// Random bytes and corrupted valid streams: every outcome is a value or DataLoss, never a crash or
// an out-of-bounds read (run under ASan/UBSan).
TEST(RlbeTest, GarbageNeverCrashes) {
  const std::vector<std::string> valid = {EncodeRlbe(Walk<int32_t>(100, 1), 30),
                                          EncodeRlbe(Walk<int64_t>(100, 2)),
                                          EncodeRlbe(Walk<float>(100, 3)),
                                          EncodeRlbe(Walk<double>(100, 4), 40)};
  testing::ExpectGarbageNeverCrashes<int32_t, int64_t, float, double>(Decode, valid);
}

}  // namespace
}  // namespace tsread

// CHIMP decoding (format reference §9.11). Streams come from a test-only encoder that follows
// Java's Int/LongChimpEncoder (ring of previous values, lower-bits index, sentinel, padding and
// extra byte) or from hand-assembled bit strings.
#include "tsread/encoding/chimp.h"

#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Bits;
using testing::BitsOf;
using testing::BitWriter;

struct Encoded {
  std::string bytes;
  size_t value_bytes = 0;  // bytes holding the values (without sentinel, padding, extra byte)
  std::array<int, 4> cases{};  // how often each control ('00', '01', '10', '11') was written
};

// Java's LongChimpEncoder / IntChimpEncoder: W-bit patterns in, stream out.
template <int W>
Encoded EncodeChimp(const std::vector<uint64_t>& values) {
  constexpr int kLog2N = W == 32 ? 6 : 7;
  constexpr int kN = 1 << kLog2N;
  constexpr int kThreshold = (W == 32 ? 5 : 6) + kLog2N;
  constexpr uint64_t kSetLsb = (uint64_t{1} << (kThreshold + 1)) - 1;
  constexpr int kSigBits = W == 32 ? 5 : 6;
  constexpr uint64_t kMask = W == 32 ? 0xFFFFFFFFull : ~0ull;
  // J: leadingRound / leadingRepresentation
  auto round_leading = [](int lz) -> int {
    static constexpr int kRound[] = {0,  0,  0,  0,  0,  0,  0,  0,  8,  8,  8,  8, 12,
                                     12, 12, 12, 16, 16, 18, 18, 20, 20, 22, 22, 24};
    return lz >= 24 ? 24 : kRound[lz];
  };
  auto code_of = [](int rounded) -> int {
    switch (rounded) {
      case 0: return 0;
      case 8: return 1;
      case 12: return 2;
      case 16: return 3;
      case 18: return 4;
      case 20: return 5;
      case 22: return 6;
      default: return 7;
    }
  };
  BitWriter w;
  Encoded out;
  std::array<uint64_t, kN> stored{};
  std::vector<int> indices(size_t{1} << (kThreshold + 1), 0);
  int index = 0, current = 0, stored_leading = INT_MAX;
  bool first = true;
  auto encode = [&](uint64_t value) {
    value &= kMask;
    if (first) {
      stored[0] = value;
      w.Write(value, W);
      indices[value & kSetLsb] = index;
      first = false;
      return;
    }
    const uint64_t key = value & kSetLsb;
    uint64_t x;
    int previous_index, trailing = 0;
    const int curr_index = indices[key];
    if (index - curr_index < kN) {
      const uint64_t temp = value ^ stored[curr_index % kN];
      trailing = temp == 0 ? W : std::countr_zero(temp);
      if (trailing > kThreshold) {
        previous_index = curr_index % kN;
        x = temp;
      } else {
        previous_index = index % kN;
        x = stored[previous_index] ^ value;
      }
    } else {
      previous_index = index % kN;
      x = stored[previous_index] ^ value;
    }
    if (x == 0) {
      ++out.cases[0];
      w.WriteString("00");
      w.Write(static_cast<uint64_t>(previous_index), kLog2N);
      stored_leading = W + 1;
    } else {
      const int leading = round_leading(std::countl_zero(x) - (64 - W));
      if (trailing > kThreshold) {
        const int sig = W - leading - trailing;
        ++out.cases[1];
        w.WriteString("01");
        w.Write(static_cast<uint64_t>(previous_index), kLog2N);
        w.Write(static_cast<uint64_t>(code_of(leading)), 3);
        w.Write(static_cast<uint64_t>(sig), kSigBits);
        w.Write(x >> trailing, sig);
        stored_leading = W + 1;
      } else if (leading == stored_leading) {
        ++out.cases[2];
        w.WriteString("10");
        w.Write(x, W - leading);
      } else {
        stored_leading = leading;
        ++out.cases[3];
        w.WriteString("11");
        w.Write(static_cast<uint64_t>(code_of(leading)), 3);
        w.Write(x, W - leading);
      }
    }
    current = (current + 1) % kN;
    stored[current] = value;
    ++index;
    indices[key] = index;
  };
  for (uint64_t v : values) encode(v);
  out.value_bytes = (w.bit_count() + 7) / 8;
  encode(W == 32 ? 0x80000000ull : 0x8000000000000000ull);
  w.PadToByte();
  w.Write(0, 8);
  out.bytes = w.bytes();
  return out;
}

constexpr testing::TypedDecoder Decode(DecodeChimpInt32s, DecodeChimpInt64s,
                                       DecodeChimpFloats, DecodeChimpDoubles);

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, bool expect_all_cases = false) {
  const Encoded enc = EncodeChimp<sizeof(T) * 8>(BitsOf(values));
  if (expect_all_cases) {
    EXPECT_THAT(enc.cases, ::testing::Each(::testing::Gt(0)));
  }
  std::vector<T> got(values.size());
  absl::StatusOr<size_t> consumed = Decode(enc.bytes, values.size(), got.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, enc.value_bytes);
  EXPECT_EQ(BitsOf(got), BitsOf(values));
}

template <typename T>
std::vector<T> RandomWalk(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {
    double v = 250.0;
    for (size_t i = 0; i < n; ++i) {
      switch (rng() % 5) {
        case 0: break;
        case 1:  // an older value
          v = values.empty() ? v : static_cast<double>(values[rng() % values.size()]);
          break;
        default: v = std::round((v + (static_cast<double>(rng() % 201) - 100) / 100.0) * 100) / 100;
      }
      values.push_back(static_cast<T>(v));
    }
  } else {
    using U = std::make_unsigned_t<T>;
    U v = 1000;
    for (size_t i = 0; i < n; ++i) {
      switch (rng() % 6) {
        case 0: break;
        case 1: v += static_cast<U>(rng() % 64); break;
        case 2: v -= static_cast<U>(rng() % 100000); break;
        case 3: v = static_cast<U>(rng()); break;
        case 4: v = values.empty() ? v : static_cast<U>(values[rng() % values.size()]); break;
        default: v += static_cast<U>(rng() % 4) << 20; break;  // many trailing zeros: '01'
      }
      values.push_back(static_cast<T>(v));
    }
  }
  return values;
}

TEST(ChimpTest, ZeroCountReadsNothing) {
  absl::StatusOr<size_t> consumed = DecodeChimpDoubles("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

TEST(ChimpTest, OneValue) {
  ExpectRoundTrip<int32_t>({-5});
  ExpectRoundTrip<int64_t>({5});
  ExpectRoundTrip<float>({0.25f});
  ExpectRoundTrip<double>({1e300});
}

TEST(ChimpTest, Repeats) {
  ExpectRoundTrip<int32_t>(std::vector<int32_t>(300, 9));
  ExpectRoundTrip<double>(std::vector<double>(300, 9.5));
}

TEST(ChimpTest, ExtremesAndSentinelsInTheMiddle) {
  ExpectRoundTrip<int32_t>({0, INT32_MIN, INT32_MAX, -1, INT32_MIN, INT32_MIN, 1, INT32_MAX, 0, INT32_MIN});
  ExpectRoundTrip<int64_t>({0, INT64_MIN, INT64_MAX, -1, INT64_MIN, INT64_MIN, 1, INT64_MAX, 0, INT64_MIN});
  using F = std::numeric_limits<float>;
  ExpectRoundTrip<float>({F::quiet_NaN(), 1.0f, F::quiet_NaN(), -F::infinity(), F::infinity(), -0.0f, 0.0f,
                          F::denorm_min(), -F::denorm_min(), F::max(), F::quiet_NaN()});
  using D = std::numeric_limits<double>;
  ExpectRoundTrip<double>({D::quiet_NaN(), 1.0, D::quiet_NaN(), -D::infinity(), D::infinity(), -0.0, 0.0,
                           D::denorm_min(), -D::denorm_min(), D::max(), D::quiet_NaN()});
}

TEST(ChimpTest, LongRandomWalksUseAllFourCases) {
  ExpectRoundTrip(RandomWalk<int32_t>(20000, 1), /*expect_all_cases=*/true);
  ExpectRoundTrip(RandomWalk<int64_t>(20000, 2), /*expect_all_cases=*/true);
  ExpectRoundTrip(RandomWalk<float>(20000, 3), /*expect_all_cases=*/true);
  ExpectRoundTrip(RandomWalk<double>(20000, 4), /*expect_all_cases=*/true);
}

TEST(ChimpTest, RandomBitPatterns) {
  const testing::RandomFloatingBits random = testing::RandomBitPatterns(5);
  ExpectRoundTrip(random.doubles);
  ExpectRoundTrip(random.floats);
}

template <typename T>
void ExpectTruncationDetected(const std::vector<T>& values) {
  const Encoded enc = EncodeChimp<sizeof(T) * 8>(BitsOf(values));
  testing::ExpectTruncationDetected(Decode, enc.bytes, enc.value_bytes, values, "truncated");
}

TEST(ChimpTest, TruncationAtEveryPrefix) {
  ExpectTruncationDetected(RandomWalk<int32_t>(300, 6));
  ExpectTruncationDetected(RandomWalk<int64_t>(300, 7));
  ExpectTruncationDetected(RandomWalk<float>(300, 8));
  ExpectTruncationDetected(RandomWalk<double>(300, 9));
}

TEST(ChimpTest, HandAssembledInt32Stream) {
  // first = 0x00000100 (ring[0]).
  // '11' code 7 (L = 24): 8 bits 00000011 -> 0x100 ^ 0x3 = 0x103 (ring[1])
  // '10' (L = 24): 8 bits 00000001 -> 0x102 (ring[2])
  // '00' idx 0 -> 0x100 (ring[3])
  // '01' idx 1, code 0 (L = 0), sig 00000 (= 32): 32 bits 0xF0000000 -> 0x103 ^ 0xF0000000
  // '10' after '01': stored L = 0 now, 32 bits 0x00000001 -> 0xF0000102
  const std::string s = Bits(
      "00000000 00000000 00000001 00000000"
      "11 111 00000011"
      "10 00000001"
      "00 000000"
      "01 000001 000 00000 11110000 00000000 00000000 00000000"
      "10 00000000 00000000 00000000 00000001");
  int32_t out[6];
  absl::StatusOr<size_t> consumed = DecodeChimpInt32s(s, 6, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, s.size());
  EXPECT_THAT(out, ElementsAre(0x100, 0x103, 0x102, 0x100, static_cast<int32_t>(0xF0000103u),
                               static_cast<int32_t>(0xF0000102u)));
}

TEST(ChimpTest, RepeatOfAnUnwrittenSlotIsZero) {
  // Java's ring starts zeroed; '00' idx 5 before slot 5 is written reads 0.
  const std::string s = Bits("00000000 00000000 00000000 00000111  00 000101");
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeChimpInt32s(s, 2, out);
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_THAT(out, ElementsAre(7, 0));
}

TEST(ChimpTest, RejectsReuseBeforeAnyLeading) {
  const std::string s = Bits("00000000 00000000 00000000 00000111  10" + std::string(40, '0'));
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeChimpInt32s(s, 2, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("CHIMP INT32 stream at byte offset 4"));
}

TEST(ChimpTest, RejectsRingXorWiderThanTheWord) {
  // '01' idx 0, code 7 (L = 24), sig 10: 34 > 32.
  const std::string s = Bits("00000000 00000000 00000000 00000111  01 000000 111 01010" + std::string(40, '0'));
  int32_t out[2];
  absl::StatusOr<size_t> consumed = DecodeChimpInt32s(s, 2, out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_EQ(consumed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(consumed.status().message(), HasSubstr("exceed 32"));
}

// Random bytes and corrupted valid streams: every outcome is a value or DataLoss, never a crash or
// an out-of-bounds read (run under ASan/UBSan).
TEST(ChimpTest, GarbageNeverCrashes) {
  const std::vector<std::string> valid = {
      EncodeChimp<32>(BitsOf(RandomWalk<int32_t>(200, 1))).bytes,
      EncodeChimp<64>(BitsOf(RandomWalk<double>(200, 2))).bytes,
      EncodeChimp<64>(BitsOf(RandomWalk<int64_t>(200, 3))).bytes};
  testing::ExpectGarbageNeverCrashes<int32_t, int64_t, float, double>(Decode, valid);
}

}  // namespace
}  // namespace tsread

// TS_2DIFF encoding (format reference §9.4): hand-checked bytes for tiny inputs, and round trips
// through the reader's decoder for random, extreme and block-boundary inputs.
#include "tsread/write/ts2diff_encoder.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
#include "tsread/encoding/ts2diff.h"

namespace tsread {
namespace {

using testing::ToHex;

TEST(Ts2DiffEncoderTest, ThreeLongsMatchHandCheckedBytes) {
  // first 1, deltas 2 and 3: minDelta 2, packed 0 and 1 in width 1 -> one byte 0b01000000.
  const int64_t values[] = {1, 3, 6};
  std::string out;
  EncodeTs2DiffInt64s(values, 3, out);
  EXPECT_EQ(ToHex(out),
            "00000002"          // n = 2 deltas
            "00000001"          // w = 1
            "0000000000000002"  // minDelta
            "0000000000000001"  // first
            "40");
}

TEST(Ts2DiffEncoderTest, SingleValueBlockKeepsJavasLongMaxMinDelta) {
  const int64_t values[] = {7};
  std::string out;
  EncodeTs2DiffInt64s(values, 1, out);
  EXPECT_EQ(ToHex(out),
            "00000000"
            "00000000"
            "7fffffffffffffff"
            "0000000000000007");
}

TEST(Ts2DiffEncoderTest, TwoIntsWithNegativeDeltaAndWidthZero) {
  const int32_t values[] = {10, 8};
  std::string out;
  EncodeTs2DiffInt32s(values, 2, out);
  EXPECT_EQ(ToHex(out),
            "00000001"
            "00000000"
            "fffffffe"
            "0000000a");
}

TEST(Ts2DiffEncoderTest, EmptyInputWritesNothing) {
  std::string out;
  EncodeTs2DiffInt64s(nullptr, 0, out);
  EXPECT_TRUE(out.empty());
}

TEST(Ts2DiffEncoderTest, BlocksHold129Values) {
  std::vector<int64_t> values(129 * 2 + 1);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i * i);
  std::string out;
  EncodeTs2DiffInt64s(values.data(), values.size(), out);
  // Block 1: n = 128 ... block 3: n = 0.
  EXPECT_EQ(ToHex(out.substr(0, 4)), "00000080");
  std::vector<int64_t> decoded(values.size());
  auto used = DecodeTs2DiffInt64s(out, values.size(), decoded.data());
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_EQ(*used, out.size());
  EXPECT_EQ(decoded, values);
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  std::string out;
  std::vector<T> decoded(values.size());
  if constexpr (sizeof(T) == 4) {
    EncodeTs2DiffInt32s(values.data(), values.size(), out);
    auto used = DecodeTs2DiffInt32s(out, values.size(), decoded.data());
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_EQ(*used, out.size());
  } else {
    EncodeTs2DiffInt64s(values.data(), values.size(), out);
    auto used = DecodeTs2DiffInt64s(out, values.size(), decoded.data());
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_EQ(*used, out.size());
  }
  EXPECT_EQ(decoded, values);
}

TEST(Ts2DiffEncoderTest, ExtremesWrapAround) {
  using L = std::numeric_limits<int64_t>;
  using I = std::numeric_limits<int32_t>;
  ExpectRoundTrip<int64_t>({L::min(), L::max(), 0, L::min(), -1, L::max(), L::max()});
  ExpectRoundTrip<int32_t>({I::min(), I::max(), 0, I::min(), -1, I::max(), I::max()});
}

TEST(Ts2DiffEncoderTest, RandomInputsRoundTrip) {
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = random() % 700 + 1;
    const int shift = static_cast<int>(random() % 64);
    std::vector<int64_t> longs(n);
    std::vector<int32_t> ints(n);
    uint64_t walk = random();  // unsigned: the walk may wrap around
    for (size_t i = 0; i < n; ++i) {
      walk += (random() >> shift) - (random() >> shift);
      longs[i] = static_cast<int64_t>(walk);
      ints[i] = static_cast<int32_t>(walk);
    }
    ExpectRoundTrip(longs);
    ExpectRoundTrip(ints);
  }
}

}  // namespace
}  // namespace tsread

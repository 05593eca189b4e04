// GORILLA encoding (format reference §9.6): hand-checked bytes (control bits, sentinel, padding,
// the extra byte) and round trips through the reader's decoders, NaN/inf/-0.0 included.
#include "tsread/write/gorilla_encoder.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
#include "tsread/encoding/gorilla.h"

namespace tsread {
namespace {

using testing::ToHex;

TEST(GorillaEncoderTest, OneDoubleThenSentinel) {
  // 1.0 = 3FF0..., sentinel 7FF8...: XOR 4008... has L = 1, T = 51, S = 12:
  // '11' 000001 001011 100000000001 = 90 bits -> padded to 12 bytes (floor(90/8) + 1).
  const double values[] = {1.0};
  std::string out;
  EncodeGorillaDoubles(values, 1, out);
  EXPECT_EQ(ToHex(out),
            "3ff0000000000000"
            "c12e0040");
}

TEST(GorillaEncoderTest, OneIntThenSentinel) {
  // 5, sentinel 0x80000000: XOR 0x80000005, L = 0, S = 32: '11' 00000 11111 + 32 bits = 76 bits.
  const int32_t values[] = {5};
  std::string out;
  EncodeGorillaInt32s(values, 1, out);
  EXPECT_EQ(ToHex(out),
            "00000005"
            "c1f8000000"
            "50");
}

TEST(GorillaEncoderTest, ByteAlignedEndGetsAnExtraZeroByte) {
  // Eight times the sentinel value itself: 32 bits + seven '0' repeats + the '0' sentinel =
  // 40 bits, exactly 5 bytes; Java's flush then writes the (empty) current byte as an extra 0x00.
  std::vector<int32_t> values(8, std::bit_cast<int32_t>(0x80000000u));
  std::string out;
  EncodeGorillaInt32s(values.data(), values.size(), out);
  EXPECT_EQ(ToHex(out),
            "80000000"
            "00"
            "00");
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values) {
  std::string out;
  std::vector<T> decoded(values.size());
  absl::StatusOr<size_t> used;
  if constexpr (std::is_same_v<T, double>) {
    EncodeGorillaDoubles(values.data(), values.size(), out);
    used = DecodeGorillaDoubles(out, values.size(), decoded.data());
  } else if constexpr (std::is_same_v<T, float>) {
    EncodeGorillaFloats(values.data(), values.size(), out);
    used = DecodeGorillaFloats(out, values.size(), decoded.data());
  } else if constexpr (std::is_same_v<T, int64_t>) {
    EncodeGorillaInt64s(values.data(), values.size(), out);
    used = DecodeGorillaInt64s(out, values.size(), decoded.data());
  } else {
    EncodeGorillaInt32s(values.data(), values.size(), out);
    used = DecodeGorillaInt32s(out, values.size(), decoded.data());
  }
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_LE(*used, out.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      ASSERT_EQ(std::bit_cast<Bits>(decoded[i]), std::bit_cast<Bits>(values[i])) << "value " << i;
    } else {
      ASSERT_EQ(decoded[i], values[i]) << "value " << i;
    }
  }
}

TEST(GorillaEncoderTest, SpecialFloatsRoundTripBitExactly) {
  const double inf = std::numeric_limits<double>::infinity();
  ExpectRoundTrip<double>({std::nan(""), -0.0, 0.0, inf, -inf, std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::max(), std::nan(""), 1.5, 1.5, -2.25});
  const float finf = std::numeric_limits<float>::infinity();
  ExpectRoundTrip<float>({std::nanf(""), -0.0f, 0.0f, finf, -finf, std::numeric_limits<float>::denorm_min(), 3.25f,
                          3.25f, std::numeric_limits<float>::lowest()});
  ExpectRoundTrip<int64_t>({std::numeric_limits<int64_t>::min(), 0, std::numeric_limits<int64_t>::max(), -1, 1});
  ExpectRoundTrip<int32_t>({std::numeric_limits<int32_t>::min(), 0, std::numeric_limits<int32_t>::max(), -1, 1});
}

TEST(GorillaEncoderTest, RandomWalksRoundTrip) {
  std::mt19937_64 random(11);
  std::normal_distribution<double> step(0, 1);
  for (int trial = 0; trial < 100; ++trial) {
    const size_t n = random() % 500 + 1;
    std::vector<double> doubles(n);
    std::vector<float> floats(n);
    std::vector<int64_t> longs(n);
    std::vector<int32_t> ints(n);
    double walk = 0;
    for (size_t i = 0; i < n; ++i) {
      if (random() % 4 != 0) walk += step(random);
      doubles[i] = walk;
      floats[i] = static_cast<float>(std::round(walk * 100) / 100);
      longs[i] = static_cast<int64_t>(walk * 1e6);
      ints[i] = static_cast<int32_t>(walk * 100);
    }
    ExpectRoundTrip(doubles);
    ExpectRoundTrip(floats);
    ExpectRoundTrip(longs);
    ExpectRoundTrip(ints);
  }
}

}  // namespace
}  // namespace tsread

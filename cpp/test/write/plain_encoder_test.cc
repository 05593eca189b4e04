// PLAIN encoding (format reference §9.2): binaries as svar length + bytes, INT32 as svar.
#include "tsread/write/plain_encoder.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/encoding/plain.h"

namespace tsread {
namespace {

TEST(PlainEncoderTest, BinariesHaveZigZagLengths) {
  const std::string long_value(100, 'x');
  const std::string_view values[] = {"", "ab", long_value};
  std::string out;
  EncodePlainBinaries(values, 3, out);
  // "" -> 00; "ab" -> 04 'a' 'b'; 100 bytes -> zig-zag 200 = c8 01.
  EXPECT_EQ(out.substr(0, 4), std::string("\x00\x04"
                                          "ab",
                                          4));
  EXPECT_EQ(out.substr(4, 2), "\xc8\x01");
  std::string_view decoded[3];
  auto used = DecodePlainBinaries(out, 3, decoded);
  ASSERT_TRUE(used.ok()) << used.status();
  EXPECT_EQ(*used, out.size());
  EXPECT_EQ(decoded[0], "");
  EXPECT_EQ(decoded[1], "ab");
  EXPECT_EQ(decoded[2], long_value);
}

TEST(PlainEncoderTest, NumbersRoundTrip) {
  const std::vector<int32_t> ints = {0, -1, 1, std::numeric_limits<int32_t>::min(),
                                     std::numeric_limits<int32_t>::max()};
  std::string out;
  EncodePlainInt32s(ints.data(), ints.size(), out);
  EXPECT_EQ(out.substr(0, 3), std::string("\x00\x01\x02", 3));
  std::vector<int32_t> decoded(ints.size());
  ASSERT_TRUE(DecodePlainInt32s(out, ints.size(), decoded.data()).ok());
  EXPECT_EQ(decoded, ints);

  const std::vector<int64_t> longs = {std::numeric_limits<int64_t>::min(), 5};
  out.clear();
  EncodePlainInt64s(longs.data(), longs.size(), out);
  EXPECT_EQ(out.size(), 16u);
  std::vector<int64_t> decoded_longs(2);
  ASSERT_TRUE(DecodePlainInt64s(out, 2, decoded_longs.data()).ok());
  EXPECT_EQ(decoded_longs, longs);
}

}  // namespace
}  // namespace tsread

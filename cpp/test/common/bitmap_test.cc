// CopyBits against a copy written bit by bit here, for every source and destination offset within
// three bytes and every length up to five bytes, over bytes of mixed bits.
#include "tsread/common/bitmap.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

bool Bit(const std::vector<uint8_t>& bits, size_t r) { return (bits[r / 8] >> (r % 8)) & 1; }

TEST(BitmapTest, CopyBitsEqualsACopyBitByBit) {
  const std::vector<uint8_t> src = {0xA5, 0x3C, 0xFF, 0x00, 0x81, 0x7E, 0x5A, 0xC3};
  for (const uint8_t background : {uint8_t{0x00}, uint8_t{0xFF}, uint8_t{0x96}}) {
    for (size_t src_bit = 0; src_bit < 24; ++src_bit) {
      for (size_t dst_bit = 0; dst_bit < 24; ++dst_bit) {
        for (size_t count = 0; src_bit + count <= 64 && count <= 40; ++count) {
          std::vector<uint8_t> want(10, background), got(10, background);
          for (size_t r = 0; r < count; ++r) {
            const uint8_t bit = static_cast<uint8_t>(1u << ((dst_bit + r) % 8));
            uint8_t& byte = want[(dst_bit + r) / 8];
            byte = Bit(src, src_bit + r) ? (byte | bit) : (byte & ~bit);
          }
          CopyBits(src.data(), src_bit, got.data(), dst_bit, count);
          ASSERT_EQ(got, want) << "src_bit " << src_bit << " dst_bit " << dst_bit << " count " << count;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tsread

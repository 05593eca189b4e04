// An MSB-first bit stream writer (§9.1 "MSB-first bit stream"): bit 7 of the first byte is the
// first bit, multi-bit fields go high bit first. GORILLA (§9.6), the TS_2DIFF packed deltas (§9.4)
// and RLE bit-packed groups (§9.3) all use this layout.
#ifndef TSREAD_WRITE_BIT_APPENDER_H_
#define TSREAD_WRITE_BIT_APPENDER_H_

#include <cstdint>
#include <string>

namespace tsread {

class BitAppender {
 public:
  explicit BitAppender(std::string& out) : out_(out) {}

  // Appends the low `bits` bits of `value` (0 <= bits <= 64), high bit first.
  void Write(uint64_t value, int bits) {
    if (bits == 0) return;
    if (bits < 64) value &= (uint64_t{1} << bits) - 1;
    // acc_ holds acc_bits_ (< 8) pending bits in its low end.
    while (bits > 0) {
      const int take = bits < 56 ? bits : 56;
      bits -= take;
      acc_ = (acc_ << take) | ((value >> bits) & ((uint64_t{1} << take) - 1));
      acc_bits_ += take;
      while (acc_bits_ >= 8) {
        acc_bits_ -= 8;
        out_.push_back(static_cast<char>(acc_ >> acc_bits_));
      }
      acc_ &= (uint64_t{1} << acc_bits_) - 1;
    }
  }
  void WriteBit(bool bit) { Write(bit ? 1 : 0, 1); }

  // Bits waiting for their byte to fill.
  int pending_bits() const { return acc_bits_; }

  // Writes the partly filled byte, zero-padded, if there is one.
  void PadToByte() {
    if (acc_bits_ > 0) {
      out_.push_back(static_cast<char>(acc_ << (8 - acc_bits_)));
      acc_ = 0;
      acc_bits_ = 0;
    }
  }

 private:
  std::string& out_;
  uint64_t acc_ = 0;
  int acc_bits_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_WRITE_BIT_APPENDER_H_

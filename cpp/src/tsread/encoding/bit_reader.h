// BitReader: an MSB-first bit stream over a byte span (format reference §9.1: "bit 7 of byte 0 is
// the first bit; multi-bit fields are read high bit first"). Used by GORILLA, CHIMP, RLBE,
// GORILLA_V1 and the bit-packed groups of RLE and TS_2DIFF.
//
// Reads never touch memory outside the span: Read() fails (returns false) if fewer bits remain.
#ifndef TSREAD_ENCODING_BIT_READER_H_
#define TSREAD_ENCODING_BIT_READER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace tsread {

class BitReader {
 public:
  BitReader() = default;
  explicit BitReader(std::string_view bytes)
      : data_(reinterpret_cast<const uint8_t*>(bytes.data())), size_(bytes.size()), bit_pos_(0),
        bit_size_(static_cast<uint64_t>(bytes.size()) * 8) {}

  uint64_t bits_remaining() const { return bit_size_ - bit_pos_; }
  uint64_t bit_position() const { return bit_pos_; }
  // Bytes touched so far, counting a partly read byte as consumed.
  size_t bytes_consumed() const { return static_cast<size_t>((bit_pos_ + 7) / 8); }
  // Skips to the next byte boundary (no-op when already aligned).
  void AlignToByte() { bit_pos_ = (bit_pos_ + 7) & ~uint64_t{7}; }

  // Reads `n` bits (0..64) as an unsigned number; false if fewer than `n` bits remain.
  bool Read(int n, uint64_t* out) {
    if (static_cast<uint64_t>(n) > bits_remaining()) return false;
    *out = ReadUnchecked(n);
    return true;
  }
  bool ReadBit(bool* out) {
    if (bit_pos_ >= bit_size_) return false;
    *out = (data_[bit_pos_ >> 3] >> (7 - (bit_pos_ & 7))) & 1;
    ++bit_pos_;
    return true;
  }

  // --- Window access for hot loops (GORILLA, CHIMP): peek up to 64 bits, then Skip() what was
  // used. Peeking never touches memory outside the span; Skip() is unchecked.

  // Whole bytes from the byte holding the current position to the end of the span.
  size_t bytes_ahead() const { return size_ - static_cast<size_t>(bit_pos_ >> 3); }
  // The 64 bits that start at the current position, first one in bit 63; bits past the end of
  // the span read as 0 (so a caller must still check bits_remaining() before using them).
  uint64_t Peek64() const { return bytes_ahead() >= 9 ? Peek64Unchecked() : Peek64Padded(); }
  // As Peek64(), for a caller that has checked bytes_ahead() >= 9.
  uint64_t Peek64Unchecked() const {
    const uint8_t* p = data_ + (bit_pos_ >> 3);
    uint64_t word;
    std::memcpy(&word, p, 8);
    const unsigned skip = static_cast<unsigned>(bit_pos_ & 7);
    // The ninth byte supplies the `skip` low bits shifted out of the 8-byte word (none when 0).
    return (__builtin_bswap64(word) << skip) | (uint64_t{p[8]} >> (8 - skip));
  }
  // Advances by `n` bits; the caller has checked bits_remaining() >= n.
  void Skip(uint64_t n) { bit_pos_ += n; }

  // Reads `n` bits (0..64); the caller has checked bits_remaining() >= n.
  uint64_t ReadUnchecked(int n) {
    if (n == 0) return 0;
    if (n > 56) {
      uint64_t high = ReadUnchecked(n - 32);
      return (high << 32) | ReadUnchecked(32);
    }
    // A 64-bit big-endian window starting at the current byte holds the n (<= 56) bits wanted
    // after discarding the (bit_pos_ % 8) bits already consumed from that byte.
    const uint64_t window = LoadWindow(bit_pos_ >> 3);
    const int skip = static_cast<int>(bit_pos_ & 7);
    bit_pos_ += static_cast<uint64_t>(n);
    return (window << skip) >> (64 - n);
  }

 private:
  uint64_t LoadWindow(size_t byte) const {
    if (byte + 8 <= size_) {
      uint64_t v;
      std::memcpy(&v, data_ + byte, 8);
      return __builtin_bswap64(v);
    }
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) {
      v <<= 8;
      if (byte + i < size_) v |= data_[byte + i];
    }
    return v;
  }

  uint64_t Peek64Padded() const {
    const size_t byte = static_cast<size_t>(bit_pos_ >> 3);
    const unsigned skip = static_cast<unsigned>(bit_pos_ & 7);
    const uint8_t ninth = byte + 8 < size_ ? data_[byte + 8] : 0;
    return (LoadWindow(byte) << skip) | (uint64_t{ninth} >> (8 - skip));
  }

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  uint64_t bit_pos_ = 0;
  uint64_t bit_size_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_ENCODING_BIT_READER_H_

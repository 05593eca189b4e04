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
  uint64_t Peek64Unchecked() const { return Peek64At(data_, bit_pos_); }
  // The 64 bits that start at bit `at` of `data`, first one in bit 63; the caller has checked that
  // byte at / 8 + 8 exists.
  static uint64_t Peek64At(const uint8_t* data, uint64_t at) {
    const uint8_t* p = data + (at >> 3);
    uint64_t word;
    std::memcpy(&word, p, 8);
    const unsigned skip = static_cast<unsigned>(at & 7);
    // The ninth byte supplies the `skip` low bits shifted out of the 8-byte word (none when 0).
    return (__builtin_bswap64(word) << skip) | (uint64_t{p[8]} >> (8 - skip));
  }
  // Advances by `n` bits; the caller has checked bits_remaining() >= n.
  void Skip(uint64_t n) { bit_pos_ += n; }
  // The span's bytes, for a RefillingBitBuffer that takes over the hot part of the stream.
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

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

// A 64-bit register buffer over a BitReader's bytes for hot loops that need up to 56 bits per
// step: after Refill() the top 56 bits of window() are the next stream bits. It follows the
// "refill with a branch-free unaligned big-endian load" scheme: the load address depends only on
// the state left by the previous refill, so the load overlaps the decoding of the previous value
// instead of sitting on its dependency chain. It only loads while 8 bytes remain at the load
// address (CanRefill()); the caller finishes the stream with the checked BitReader (Sync()).
class RefillingBitBuffer {
 public:
  // Starts at `in`'s position; the caller has checked in.bytes_ahead() >= 8 (the first load).
  explicit RefillingBitBuffer(const BitReader& in)
      : begin_(in.data()), next_(in.data() + (in.bit_position() >> 3)), end_(in.data() + in.size()) {
    const unsigned skip = static_cast<unsigned>(in.bit_position() & 7);
    Refill();
    Consume(skip);
  }

  // True while a Refill() reads only bytes of the span.
  bool CanRefill() const { return end_ - next_ >= 8; }
  // Tops the buffer up to >= 56 valid bits. Bits below `count_` are either zero (shifted in) or
  // already the right stream bits (an earlier load covered them), so OR-ing the same bytes again
  // is harmless.
  void Refill() {
    window_ |= LoadBigEndian(next_) >> count_;
    next_ += (63 - count_) >> 3;  // whole bytes now in the window
    count_ |= 56;
  }
  uint64_t window() const { return window_; }
  // Drops `n` (<= 56 after a Refill) bits from the top.
  void Consume(unsigned n) {
    window_ <<= n;
    count_ -= n;
  }
  // The stream bit position of the top of the window.
  uint64_t bit_position() const { return static_cast<uint64_t>(next_ - begin_) * 8 - count_; }
  // Moves `in` to this buffer's position.
  void Sync(BitReader& in) const { in.Skip(bit_position() - in.bit_position()); }

 private:
  static uint64_t LoadBigEndian(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return __builtin_bswap64(v);
  }

  const uint8_t* begin_;
  const uint8_t* next_;  // the byte loaded at the next Refill(); bit 8*(next_-begin_) sits at count_
  const uint8_t* end_;
  uint64_t window_ = 0;
  unsigned count_ = 0;  // valid bits at the top of window_ (0..63)
};

}  // namespace tsread

#endif  // TSREAD_ENCODING_BIT_READER_H_

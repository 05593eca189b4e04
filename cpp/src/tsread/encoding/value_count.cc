#include "tsread/encoding/value_count.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "tsread/encoding/plain.h"
#include "tsread/io/endian.h"

// Each walk below mirrors the checks of its decoder (rle.cc, dictionary.cc, ts2diff.cc,
// float_scaled.cc, regular.cc) in the same order, and counts a run or block only once all of them
// have passed, because the decoder rejects a malformed run even when it needs only some of its
// values. A change to a decoder's checks must be made here too; value_count_test.cc decodes
// `bound` and `bound + 1` values of real and mutated streams to catch a walk that drifts.

namespace tsread {
namespace {

constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

// Totals can exceed 64 bits only for streams of exabytes, but a bound must never wrap to small.
uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return a > kNoLimit - b ? kNoLimit : a + b; }

size_t Remaining(const uint8_t* p, const uint8_t* end) { return static_cast<size_t>(end - p); }

const uint8_t* Begin(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// ---------------------------------------------------------------------------------------------
// RLE (§9.3).

struct RleRules {
  // Widest bit width the decoder accepts: 32 for BOOLEAN, INT32 and DICTIONARY indices, 64 for INT64.
  int max_bit_width = 32;
  // DICTIONARY only: the entry count. An RLE run whose (INT32, little-endian) index reaches it
  // makes the decode fail on its first value, so counting stops before it.
  uint64_t index_limit = kNoLimit;
};

// Counts the values of the runs of one package payload [p, end) (after its bit width) into *total;
// false if it stopped at a run the decoder rejects (so no later package is reached either).
bool CountRuns(const uint8_t* p, const uint8_t* end, int bit_width, const RleRules& rules, uint64_t* total) {
  const size_t value_bytes = (static_cast<size_t>(bit_width) + 7) / 8;
  while (p < end) {
    uint32_t header;
    p = ParseUVarInt32(p, end, &header);  // consumes at least one byte
    if (p == nullptr || header > 0x7FFFFFFFu) return false;  // truncated, or negative as a Java int
    const uint64_t n = header >> 1;
    if (n == 0) return false;  // zero values or zero groups
    if ((header & 1) == 0) {
      // RLE run: n copies of one value stored in value_bytes bytes.
      if (value_bytes > Remaining(p, end)) return false;
      if (rules.index_limit != kNoLimit) {
        uint64_t index = 0;  // little-endian, as IntRleDecoder reads it (value_bytes <= 4 here)
        for (size_t i = 0; i < value_bytes; ++i) index |= uint64_t{p[i]} << (8 * i);
        if (index >= rules.index_limit) return false;
      }
      p += value_bytes;
      *total = SaturatingAdd(*total, n);
    } else {
      // Bit-packed run: n groups of 8 values, each group bit_width bytes; lastCount values used in
      // the last group.
      if (p == end) return false;
      const uint64_t last_count = *p++;
      if (last_count > 8) return false;
      const uint64_t values = (n - 1) * 8 + last_count;
      if (values == 0) return false;
      const uint64_t bytes = n * static_cast<uint64_t>(bit_width);  // n < 2^30: no overflow
      if (bytes > Remaining(p, end)) return false;
      p += bytes;
      *total = SaturatingAdd(*total, values);
    }
  }
  return true;
}

// Walks the packages from the start of `stream` until it ends or one is malformed.
uint64_t CountRle(std::string_view stream, const RleRules& rules) {
  const uint8_t* p = Begin(stream);
  const uint8_t* const end = p + stream.size();
  uint64_t total = 0;
  while (p < end) {
    uint32_t length;
    const uint8_t* const payload = ParseUVarInt32(p, end, &length);
    if (payload == nullptr || length > Remaining(payload, end)) return total;
    if (length == 0) return total;  // no room for the bit width
    const int bit_width = *payload;
    if (bit_width > rules.max_bit_width) return total;
    if (!CountRuns(payload + 1, payload + length, bit_width, rules, &total)) return total;
    p = payload + length;  // at least two bytes further
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// TS_2DIFF (§9.4): i32 n ; i32 w ; T minDelta ; T first ; ceil(n*w/8) packed bytes -> n + 1 values.
// A block of width 0 holds n + 1 values in 16 (INT32) or 24 (INT64) bytes whatever n is, so this
// encoding does need a walk: 8 values per byte would reject valid INT32 streams.

uint64_t CountTs2Diff(std::string_view stream, size_t word_bytes) {
  const size_t header_bytes = 8 + 2 * word_bytes;
  const int max_width = static_cast<int>(8 * word_bytes);
  const uint8_t* p = Begin(stream);
  const uint8_t* const end = p + stream.size();
  uint64_t total = 0;
  while (Remaining(p, end) >= header_bytes) {
    const auto n = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
    const auto w = static_cast<int32_t>(LoadBigEndian<uint32_t>(p + 4));
    if (n < 0 || w < 0 || w > max_width) return total;
    const uint8_t* const packed = p + header_bytes;
    const uint64_t packed_bytes = (static_cast<uint64_t>(n) * static_cast<uint64_t>(w) + 7) / 8;
    if (packed_bytes > Remaining(packed, end)) return total;
    total = SaturatingAdd(total, static_cast<uint64_t>(n) + 1);
    p = packed + packed_bytes;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// The FloatDecoder wrapper (§9.5): FLOAT/DOUBLE under RLE or TS_2DIFF.

constexpr uint32_t kScaledBitmapOnly = 0x7FFFFFFF;
constexpr uint32_t kScaledAndRawBitmaps = 0x7FFFFFFE;

// `word_bytes`: 4 for FLOAT (inner INT32 stream), 8 for DOUBLE (inner INT64 stream).
uint64_t CountScaled(Encoding inner, std::string_view stream, size_t word_bytes) {
  const uint8_t* p = Begin(stream);
  const uint8_t* const end = p + stream.size();
  uint32_t m;
  p = ParseUVarInt32(p, end, &m);
  if (p == nullptr) return 0;
  // Values the bitmaps cover: the decoder rejects a count beyond them (float_scaled.cc).
  uint64_t covered = kNoLimit;
  if (m == kScaledBitmapOnly || m == kScaledAndRawBitmaps) {
    uint32_t bitmap_values;
    p = ParseUVarInt32(p, end, &bitmap_values);
    if (p == nullptr || bitmap_values > 0x7FFFFFFFu) return 0;
    const size_t bitmap_bytes = bitmap_values / 8 + 1;  // Java BitMap(size): size/8 + 1 bytes
    const size_t bitmaps = m == kScaledAndRawBitmaps ? 2 : 1;
    if (bitmaps * bitmap_bytes > Remaining(p, end)) return 0;
    covered = 8 * static_cast<uint64_t>(bitmap_bytes);
    p += bitmaps * bitmap_bytes;
    p = ParseUVarInt32(p, end, &m);
    if (p == nullptr) return 0;
  }
  const std::string_view rest = stream.substr(static_cast<size_t>(p - Begin(stream)));
  const uint64_t inner_values = inner == Encoding::kRle
                                    ? CountRle(rest, {.max_bit_width = static_cast<int>(8 * word_bytes)})
                                    : CountTs2Diff(rest, word_bytes);
  return std::min(covered, inner_values);
}

// ---------------------------------------------------------------------------------------------
// DICTIONARY (§9.7): svar entryCount ; entryCount x { svar len ; u8[len] } ; RLE INT32 indices.

uint64_t CountDictionary(std::string_view stream) {
  const uint8_t* p = Begin(stream);
  const uint8_t* const end = p + stream.size();
  // Java reads the entry count and the lengths with readVarInt: zig-zag (§0 svar).
  auto read_svar = [&](int32_t* v) {
    uint32_t u;
    const uint8_t* next = ParseUVarInt32(p, end, &u);
    if (next == nullptr) return false;
    *v = ZigZagDecode32(u);
    p = next;
    return *v >= 0;
  };
  int32_t entry_count;
  if (!read_svar(&entry_count) || static_cast<size_t>(entry_count) > Remaining(p, end)) return 0;
  // Every index must be below entry_count: an empty dictionary can back no value.
  if (entry_count == 0) return 0;
  for (int32_t i = 0; i < entry_count; ++i) {  // each entry takes at least its length byte
    int32_t length;
    if (!read_svar(&length) || static_cast<size_t>(length) > Remaining(p, end)) return 0;
    p += length;
  }
  const std::string_view indices = stream.substr(static_cast<size_t>(p - Begin(stream)));
  return CountRle(indices, {.max_bit_width = 32, .index_limit = static_cast<uint64_t>(entry_count)});
}

// ---------------------------------------------------------------------------------------------
// REGULAR (§9.9): u8 hasMissing ; [i32 L ; u8[L] bitmap] ; i32 n ; T minDelta ; T first.

// Grid points 1..n-1 marked in `bitmap` (java.util.BitSet bytes, LSB-first); the caller has
// checked that the bitmap reaches bit n-1. Point 0 is returned whether marked or not.
uint64_t MarkedAfterFirst(const uint8_t* bitmap, uint64_t n) {
  const uint64_t last = n - 1;
  uint64_t marked = 0;
  for (uint64_t byte = 0; byte <= last / 8; ++byte) {
    unsigned bits = bitmap[byte];
    if (byte == 0) bits &= ~1u;
    if (byte == last / 8) bits &= (2u << (last % 8)) - 1;  // no bits past n-1
    marked += static_cast<uint64_t>(std::popcount(bits));
  }
  return marked;
}

uint64_t CountRegular(std::string_view stream, size_t word_bytes) {
  const size_t tail_bytes = 4 + 2 * word_bytes;  // n, minDelta, first
  const uint8_t* p = Begin(stream);
  const uint8_t* const end = p + stream.size();
  uint64_t total = 0;
  while (p < end) {
    const bool has_missing = *p++ == 1;  // ReadWriteIOUtils.readBool: only 1 is true
    const uint8_t* bitmap = nullptr;
    size_t bitmap_bytes = 0;
    if (has_missing) {
      if (Remaining(p, end) < 4) return total;
      const auto length = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
      if (length < 0 || static_cast<size_t>(length) > Remaining(p + 4, end)) return total;
      bitmap = p + 4;
      bitmap_bytes = static_cast<size_t>(length);
      p = bitmap + bitmap_bytes;
    }
    if (Remaining(p, end) < tail_bytes) return total;
    const auto n = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
    p += tail_bytes;
    if (n < (has_missing ? 2 : 1)) return total;
    if (!has_missing) {
      total = SaturatingAdd(total, static_cast<uint64_t>(n));
      continue;
    }
    const uint64_t last = static_cast<uint64_t>(n) - 1;  // must be marked (regular.cc)
    if (last / 8 >= bitmap_bytes || ((bitmap[last / 8] >> (last % 8)) & 1) == 0) return total;
    total = SaturatingAdd(total, 1 + MarkedAfterFirst(bitmap, static_cast<uint64_t>(n)));
  }
  return total;
}

}  // namespace

uint64_t MaxDecodableValues(Encoding encoding, DataType type, std::string_view stream) {
  const PhysicalType physical = PhysicalTypeOf(type);
  const uint64_t generic = MaxValuesAtOneBitEach(stream.size());
  switch (encoding) {
    case Encoding::kRle:
      switch (physical) {
        case PhysicalType::kBoolean:
        case PhysicalType::kInt32: return CountRle(stream, {.max_bit_width = 32});
        case PhysicalType::kInt64: return CountRle(stream, {.max_bit_width = 64});
        case PhysicalType::kFloat: return CountScaled(Encoding::kRle, stream, 4);
        case PhysicalType::kDouble: return CountScaled(Encoding::kRle, stream, 8);
        case PhysicalType::kBinary: return generic;  // not decodable: leave the error to the decoder
      }
      return generic;
    case Encoding::kTs2Diff:
      switch (physical) {
        case PhysicalType::kInt32: return CountTs2Diff(stream, 4);
        case PhysicalType::kInt64: return CountTs2Diff(stream, 8);
        case PhysicalType::kFloat: return CountScaled(Encoding::kTs2Diff, stream, 4);
        case PhysicalType::kDouble: return CountScaled(Encoding::kTs2Diff, stream, 8);
        case PhysicalType::kBoolean:
        case PhysicalType::kBinary: return generic;
      }
      return generic;
    case Encoding::kDictionary: return physical == PhysicalType::kBinary ? CountDictionary(stream) : generic;
    case Encoding::kRegular:
      switch (physical) {
        case PhysicalType::kInt32: return CountRegular(stream, 4);
        case PhysicalType::kInt64: return CountRegular(stream, 8);
        default: return generic;
      }
    default: return generic;
  }
}

}  // namespace tsread

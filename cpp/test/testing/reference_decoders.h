// Reference decoders for the comparison tests of the fast GORILLA and TS_2DIFF decoders: the
// straightforward form of each (format reference §9.6, §9.4), one field at a time through the
// checked BitReader::Read, with no fast zone, no block reads and no CPU dispatch. They report the
// same DataLoss messages as the library decoders (the offsets included), so a test can compare
// whole results: values bit for bit, bytes consumed, and the status of a corrupt stream.
#ifndef TSREAD_TESTING_REFERENCE_DECODERS_H_
#define TSREAD_TESTING_REFERENCE_DECODERS_H_

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/bit_reader.h"
#include "tsread/encoding/stream_error.h"

namespace tsread::testing {

// --- GORILLA (§9.6) ----------------------------------------------------------------------------

template <typename T>
constexpr const char* ReferenceTypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  return "DOUBLE";
}

// T is int32_t, int64_t, float or double; W = 8 * sizeof(T).
template <typename T>
absl::StatusOr<size_t> ReferenceGorilla(std::string_view stream, size_t count, T* out) {
  constexpr int kWidth = 8 * sizeof(T);
  constexpr int kLengthBits = kWidth == 32 ? 5 : 6;
  using Word = std::conditional_t<kWidth == 32, uint32_t, uint64_t>;
  BitReader in(stream);
  if (count == 0) return size_t{0};
  // Errors name the value that failed and the byte where its bits start.
  auto fail = [&](size_t value, uint64_t value_bit, const std::string& what) {
    return absl::DataLossError(absl::StrCat("GORILLA ", ReferenceTypeName<T>(), " stream at byte offset ",
                                            value_bit / 8, " (value ", value, " of ", count, "): ", what));
  };
  uint64_t prev = 0;
  if (!in.Read(kWidth, &prev)) return fail(0, 0, "truncated");
  out[0] = std::bit_cast<T>(static_cast<Word>(prev));
  uint64_t sig = 0;  // stored S; 0 until the first '11'
  uint64_t trailing = 0;
  for (size_t k = 1; k < count; ++k) {
    const uint64_t start = in.bit_position();
    bool changed = false;
    if (!in.ReadBit(&changed)) return fail(k, start, "truncated");
    if (changed) {
      // A stream that ends after the '1' reads the missing second bit as 0 ('10').
      bool new_lengths = false;
      const bool has_second = in.ReadBit(&new_lengths);
      if (new_lengths) {
        uint64_t leading = 0;
        uint64_t sig_minus_one = 0;
        if (!in.Read(kLengthBits, &leading) || !in.Read(kLengthBits, &sig_minus_one)) {
          return fail(k, start, "truncated");
        }
        if (leading + sig_minus_one + 1 > kWidth) {
          return fail(k, start, absl::StrCat("leading zeros + significant bits exceed ", kWidth));
        }
        sig = sig_minus_one + 1;
        trailing = kWidth - leading - sig;
      } else if (sig == 0) {
        return fail(k, start, "control '10' before any '11'");
      } else if (!has_second) {
        return fail(k, start, "truncated");
      }
      uint64_t xor_bits = 0;
      if (!in.Read(static_cast<int>(sig), &xor_bits)) return fail(k, start, "truncated");
      prev ^= xor_bits << trailing;
    }
    out[k] = std::bit_cast<T>(static_cast<Word>(prev));
  }
  return in.bytes_consumed();
}

// --- TS_2DIFF (§9.4) ---------------------------------------------------------------------------

// T is int32_t or int64_t.
template <typename T>
absl::StatusOr<size_t> ReferenceTs2Diff(std::string_view stream, size_t count, T* out, size_t stream_offset = 0) {
  using Word = std::make_unsigned_t<T>;
  constexpr int kWordBits = 8 * sizeof(T);
  constexpr size_t kHeaderBytes = 8 + 2 * sizeof(T);
  const char* const type = sizeof(T) == 4 ? "TS_2DIFF INT32" : "TS_2DIFF INT64";
  BitReader in(stream);
  // Reads a big-endian field of `bits` bits at the (byte-aligned) current position.
  auto field = [&](int bits) {
    uint64_t v = 0;
    in.Read(bits, &v);
    return v;
  };
  size_t done = 0;
  while (done < count) {
    const size_t at = in.bytes_consumed();
    const size_t offset = stream_offset + at;
    const size_t remaining = stream.size() - at;
    if (remaining < kHeaderBytes) {
      return StreamCorrupt(type, "block header", offset,
                           remaining == 0 ? absl::StrCat("stream ends after ", done, " of ", count, " values")
                                          : absl::StrCat("truncated: needs ", kHeaderBytes, " bytes, ", remaining,
                                                         " remain"));
    }
    const auto n = static_cast<int32_t>(field(32));
    const auto w = static_cast<int32_t>(field(32));
    const auto min_delta = static_cast<Word>(field(kWordBits));
    const auto first = static_cast<Word>(field(kWordBits));
    if (n < 0) return StreamCorrupt(type, "block header", offset, absl::StrCat("negative delta count ", n));
    if (w < 0 || w > kWordBits) {
      return StreamCorrupt(type, "block header", offset,
                           absl::StrCat("bit width ", w, " outside 0..", kWordBits));
    }
    const uint64_t packed_bits = static_cast<uint64_t>(n) * static_cast<uint64_t>(w);
    const uint64_t packed_bytes = (packed_bits + 7) / 8;
    const uint64_t left = stream.size() - at - kHeaderBytes;
    if (packed_bytes > left) {
      return StreamCorrupt(type, "block", offset,
                           absl::StrCat(n, " deltas of ", w, " bits need ", packed_bytes, " bytes, ", left,
                                        " remain"));
    }
    Word value = first;
    out[done++] = static_cast<T>(value);
    const size_t take = std::min(static_cast<size_t>(n), count - done);
    for (size_t k = 0; k < take; ++k) {
      value += min_delta + static_cast<Word>(field(w));
      out[done++] = static_cast<T>(value);
    }
    // The block is consumed whole, padding bits of its last byte included.
    in = BitReader(stream);
    in.Skip((at + kHeaderBytes + packed_bytes) * 8);
  }
  return in.bytes_consumed();
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_REFERENCE_DECODERS_H_

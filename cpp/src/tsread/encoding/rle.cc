#include "tsread/encoding/rle.h"

#include "tsread/encoding/bit_unpack.h"
#include "tsread/encoding/stream_error.h"
#include "tsread/io/endian.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/plain.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// ---------------------------------------------------------------------------------------------
// Bit-packed groups (§9.3), one unpacker per width (bit_unpack.h).

using bit_unpack::UnpackGroup;

template <int kWidth, typename Word>
void UnpackGroups(const uint8_t* in, size_t groups, Word* out) {
  for (size_t g = 0; g < groups; ++g) UnpackGroup<kWidth>(in + g * kWidth, out + g * 8);
}

template <typename Word>
using UnpackFn = void (*)(const uint8_t*, size_t, Word*);

template <typename Word, size_t... kWidth>
constexpr std::array<UnpackFn<Word>, sizeof...(kWidth)> MakeUnpackTable(std::index_sequence<kWidth...>) {
  return {&UnpackGroups<static_cast<int>(kWidth), Word>...};
}

constexpr auto kUnpack32 = MakeUnpackTable<uint32_t>(std::make_index_sequence<33>());
constexpr auto kUnpack64 = MakeUnpackTable<uint64_t>(std::make_index_sequence<65>());

template <typename Word>
UnpackFn<Word> UnpackerFor(int bit_width) {
  if constexpr (sizeof(Word) == 4) {
    return kUnpack32[static_cast<size_t>(bit_width)];
  } else {
    return kUnpack64[static_cast<size_t>(bit_width)];
  }
}

// ---------------------------------------------------------------------------------------------
// RLE streams.

// Per output type: the word the values are decoded in, the byte order of RLE-run values (§9.3:
// Java's IntRleDecoder reads them little-endian, LongRleDecoder big-endian) and the conversion.
template <typename Out>
struct RleTraits;

template <>
struct RleTraits<uint8_t> {
  using Word = uint32_t;
  static constexpr bool kBigEndianRunValue = false;
  static constexpr const char* kName = "RLE BOOLEAN";
  // IntRleDecoder.readBoolean: any non-zero int is true.
  static uint8_t Convert(Word w) { return w != 0; }
};

template <>
struct RleTraits<int32_t> {
  using Word = uint32_t;
  static constexpr bool kBigEndianRunValue = false;
  static constexpr const char* kName = "RLE INT32";
  static int32_t Convert(Word w) { return static_cast<int32_t>(w); }
};

template <>
struct RleTraits<int64_t> {
  using Word = uint64_t;
  static constexpr bool kBigEndianRunValue = true;
  static constexpr const char* kName = "RLE INT64";
  static int64_t Convert(Word w) { return static_cast<int64_t>(w); }
};

// Where offsets inside the decoded span are in the page value stream, for error messages.
struct Origin {
  const uint8_t* begin;
  size_t base;
  size_t At(const uint8_t* p) const { return base + static_cast<size_t>(p - begin); }
};

size_t Remaining(const uint8_t* p, const uint8_t* end) { return static_cast<size_t>(end - p); }

// The value of an RLE run, stored in `n` = ceil(bitWidth/8) bytes (§9.3).
template <typename Word, bool kBigEndian>
Word ReadRunValue(const uint8_t* p, size_t n) {
  Word v = 0;
  for (size_t i = 0; i < n; ++i) {
    if constexpr (kBigEndian) {
      v = static_cast<Word>((v << 8) | p[i]);
    } else {
      v |= static_cast<Word>(p[i]) << (8 * i);
    }
  }
  return v;
}

// For each byte of a width-1 group, its eight values as 0/1 bytes, first value (bit 7) first.
struct BooleanBytesTable {
  uint8_t bytes[256][8];
};
constexpr BooleanBytesTable MakeBooleanBytesTable() {
  BooleanBytesTable table{};
  for (int b = 0; b < 256; ++b) {
    for (int j = 0; j < 8; ++j) table.bytes[b][j] = static_cast<uint8_t>((b >> (7 - j)) & 1);
  }
  return table;
}

// Writes the first `take` values of the bit-packed run at `in` (whose groups are all readable).
template <typename Out>
void UnpackRun(const uint8_t* in, int bit_width, size_t take, Out* out) {
  using Word = typename RleTraits<Out>::Word;
  const UnpackFn<Word> unpack = UnpackerFor<Word>(bit_width);
  if constexpr (sizeof(Out) == sizeof(Word)) {
    // int32_t/int64_t may be accessed as their unsigned counterparts: unpack in place.
    const size_t full_groups = take / 8;
    unpack(in, full_groups, reinterpret_cast<Word*>(out));
    if (const size_t tail = take % 8; tail != 0) {
      Word group[8];
      unpack(in + full_groups * static_cast<size_t>(bit_width), 1, group);
      for (size_t j = 0; j < tail; ++j) out[full_groups * 8 + j] = RleTraits<Out>::Convert(group[j]);
    }
  } else if (bit_width == 1) {
    // Booleans at width 1 (what Java writes for them): each group is one byte, MSB first, and
    // becomes eight 0/1 bytes in one 8-byte copy from a table.
    static constexpr BooleanBytesTable kBooleanBytes = MakeBooleanBytesTable();
    const size_t full_groups = take / 8;
    for (size_t g = 0; g < full_groups; ++g) std::memcpy(out + g * 8, kBooleanBytes.bytes[in[g]], 8);
    for (size_t i = full_groups * 8; i < take; ++i) {
      out[i] = RleTraits<Out>::Convert((in[i / 8] >> (7 - i % 8)) & 1);
    }
  } else {
    Word buffer[64];
    for (size_t i = 0; i < take; i += 64) {
      const size_t chunk = std::min<size_t>(64, take - i);
      unpack(in + (i / 8) * static_cast<size_t>(bit_width), (chunk + 7) / 8, buffer);
      for (size_t j = 0; j < chunk; ++j) out[i + j] = RleTraits<Out>::Convert(buffer[j]);
    }
  }
}

// Decodes the runs of one package payload [p, end) (after its bit width) until the payload or the
// wanted values run out; advances *done.
template <typename Out>
absl::Status DecodeRuns(const uint8_t* p, const uint8_t* end, int bit_width, const Origin& origin,
                        size_t count, size_t* done, Out* out) {
  using Traits = RleTraits<Out>;
  using Word = typename Traits::Word;
  while (p < end && *done < count) {
    const uint8_t* const run = p;
    uint32_t header;
    p = ParseUVarInt32(p, end, &header);
    if (p == nullptr) {
      return StreamCorrupt(Traits::kName, "run header", origin.At(run), "truncated varint or longer than 32 bits");
    }
    // Java keeps the header in an int: above 2^31 it is negative and so is the count.
    if (header > 0x7FFFFFFFu) {
      return StreamCorrupt(Traits::kName, "run header", origin.At(run),
                     absl::StrCat("header ", header, " is negative as a Java int"));
    }
    const size_t n = header >> 1;
    const size_t wanted = count - *done;
    if ((header & 1) == 0) {
      // A zero-length run would make Java repeat the value forever; no writer produces one.
      if (n == 0) return StreamCorrupt(Traits::kName, "RLE run", origin.At(run), "run of zero values");
      const size_t value_bytes = (static_cast<size_t>(bit_width) + 7) / 8;
      if (value_bytes > Remaining(p, end)) {
        return StreamCorrupt(
            Traits::kName, "RLE run value", origin.At(p),
            absl::StrCat("needs ", value_bytes, " bytes, ", Remaining(p, end), " remain in the package"));
      }
      const Out value = Traits::Convert(ReadRunValue<Word, Traits::kBigEndianRunValue>(p, value_bytes));
      p += value_bytes;
      const size_t take = std::min(n, wanted);
      std::fill_n(out + *done, take, value);
      *done += take;
    } else {
      if (n == 0) {
        return StreamCorrupt(Traits::kName, "bit-packed run", origin.At(run), "run of zero groups");
      }
      if (p == end) {
        return StreamCorrupt(Traits::kName, "bit-packed run", origin.At(p),
                       "package ends before the lastCount byte");
      }
      const size_t last_count = *p++;
      if (last_count > 8) {
        return StreamCorrupt(Traits::kName, "bit-packed run", origin.At(p - 1),
                       absl::StrCat("lastCount ", last_count, " exceeds the 8 values of a group"));
      }
      const size_t values = (n - 1) * 8 + last_count;
      if (values == 0) {
        return StreamCorrupt(Traits::kName, "bit-packed run", origin.At(run), "run of zero values");
      }
      // n < 2^30 and bit_width <= 64: no overflow. (Java zero-fills a short last run; a Java
      // writer always writes whole groups, so a short run is corruption here.)
      const size_t bytes = n * static_cast<size_t>(bit_width);
      if (bytes > Remaining(p, end)) {
        return StreamCorrupt(Traits::kName, "bit-packed run", origin.At(run),
                       absl::StrCat(n, " groups of ", bit_width, " bytes need ", bytes, " bytes, ",
                                    Remaining(p, end), " remain in the package"));
      }
      const size_t take = std::min(values, wanted);
      UnpackRun(p, bit_width, take, out + *done);
      *done += take;
      p += bytes;
    }
  }
  return absl::OkStatus();
}

template <typename Out>
absl::StatusOr<size_t> DecodeRle(std::string_view stream, size_t count, Out* out, size_t stream_offset) {
  using Traits = RleTraits<Out>;
  constexpr int kMaxWidth = static_cast<int>(sizeof(typename Traits::Word) * 8);
  const Origin origin{reinterpret_cast<const uint8_t*>(stream.data()), stream_offset};
  const uint8_t* p = origin.begin;
  const uint8_t* const end = p + stream.size();
  size_t done = 0;
  while (done < count) {
    if (p == end) {
      return StreamCorrupt(Traits::kName, "package", origin.At(p),
                     absl::StrCat("stream ends after ", done, " of ", count, " values"));
    }
    uint32_t length;
    const uint8_t* const payload = ParseUVarInt32(p, end, &length);
    if (payload == nullptr) {
      return StreamCorrupt(Traits::kName, "package length", origin.At(p),
                     "truncated varint or longer than 32 bits");
    }
    if (length > Remaining(payload, end)) {
      return StreamCorrupt(
          Traits::kName, "package", origin.At(p),
          absl::StrCat("length ", length, " exceeds the ", Remaining(payload, end), " bytes that remain"));
    }
    if (length == 0) {
      return StreamCorrupt(Traits::kName, "package", origin.At(p), "length 0 leaves no room for the bit width");
    }
    const int bit_width = *payload;
    if (bit_width > kMaxWidth) {
      return StreamCorrupt(Traits::kName, "bit width", origin.At(payload),
                     absl::StrCat("bit width ", bit_width, " exceeds ", kMaxWidth));
    }
    const uint8_t* const package_end = payload + length;
    TSREAD_RETURN_IF_ERROR(DecodeRuns(payload + 1, package_end, bit_width, origin, count, &done, out));
    p = package_end;
  }
  return static_cast<size_t>(p - origin.begin);
}

}  // namespace

void UnpackBitPackedGroups32(int bit_width, const uint8_t* in, size_t groups, uint32_t* out) {
  assert(bit_width >= 0 && bit_width <= 32);
  kUnpack32[static_cast<size_t>(bit_width)](in, groups, out);
}

void UnpackBitPackedGroups64(int bit_width, const uint8_t* in, size_t groups, uint64_t* out) {
  assert(bit_width >= 0 && bit_width <= 64);
  kUnpack64[static_cast<size_t>(bit_width)](in, groups, out);
}

absl::StatusOr<size_t> DecodeRleBooleans(std::string_view stream, size_t count, uint8_t* out,
                                         size_t stream_offset) {
  return DecodeRle(stream, count, out, stream_offset);
}

absl::StatusOr<size_t> DecodeRleInt32s(std::string_view stream, size_t count, int32_t* out,
                                       size_t stream_offset) {
  return DecodeRle(stream, count, out, stream_offset);
}

absl::StatusOr<size_t> DecodeRleInt64s(std::string_view stream, size_t count, int64_t* out,
                                       size_t stream_offset) {
  return DecodeRle(stream, count, out, stream_offset);
}

}  // namespace tsread

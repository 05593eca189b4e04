#include "tsread/encoding/ts2diff.h"

#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/stream_error.h"
#include "tsread/io/endian.h"
#include "tsread/encoding/rle.h"

namespace tsread {
namespace {

// The packed deltas use the bit-packed group layout of RLE (§9.3): 8 values per w bytes.
inline void UnpackGroups(int w, const uint8_t* in, size_t groups, uint32_t* out) {
  UnpackBitPackedGroups32(w, in, groups, out);
}
inline void UnpackGroups(int w, const uint8_t* in, size_t groups, uint64_t* out) {
  UnpackBitPackedGroups64(w, in, groups, out);
}

// Writes the first `take` values after `first` of a block whose packed deltas are
// [packed, packed + packed_bytes): v_k = v_{k-1} + min_delta + packed_k in Word (unsigned,
// wrapping) arithmetic, as Java's int/long addition.
template <typename Word, typename Out>
void DecodeBlockValues(const uint8_t* packed, size_t packed_bytes, int w, Word first, Word min_delta,
                       size_t take, Out* out) {
  Word value = first;
  if (w == 0) {
    // Constant deltas: the usual shape of a regular time column.
    for (size_t i = 0; i < take; ++i) {
      value += min_delta;
      out[i] = static_cast<Out>(value);
    }
    return;
  }
  const size_t group_bytes = static_cast<size_t>(w);
  constexpr size_t kChunk = 128;  // deltas unpacked at a time: one full Java block
  Word deltas[kChunk];
  for (size_t i = 0; i < take; i += kChunk) {
    const size_t chunk = std::min(kChunk, take - i);
    const size_t first_group = i / 8;
    const size_t full_groups = chunk / 8;
    UnpackGroups(w, packed + first_group * group_bytes, full_groups, deltas);
    if (chunk % 8 != 0) {
      // The block's last group is cut short to ceil(n*w/8) bytes: unpack a zero-padded copy so
      // that no read goes past the block.
      const size_t start = (first_group + full_groups) * group_bytes;
      uint8_t padded[64] = {};
      std::memcpy(padded, packed + start, std::min(group_bytes, packed_bytes - start));
      UnpackGroups(w, padded, 1, deltas + full_groups * 8);
    }
    for (size_t j = 0; j < chunk; ++j) {
      value += min_delta + deltas[j];
      out[i + j] = static_cast<Out>(value);
    }
  }
}

template <typename Word, typename Out>
absl::StatusOr<size_t> DecodeTs2Diff(std::string_view stream, size_t count, Out* out, size_t stream_offset,
                                     const char* type) {
  constexpr size_t kHeaderBytes = 4 + 4 + 2 * sizeof(Word);  // n, w, minDelta, first
  constexpr int kMaxWidth = static_cast<int>(8 * sizeof(Word));
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  const uint8_t* p = begin;
  size_t done = 0;
  while (done < count) {
    const size_t offset = stream_offset + static_cast<size_t>(p - begin);
    const size_t remaining = static_cast<size_t>(end - p);
    if (remaining < kHeaderBytes) {
      return StreamCorrupt(type, "block header", offset,
                     remaining == 0
                         ? absl::StrCat("stream ends after ", done, " of ", count, " values")
                         : absl::StrCat("truncated: needs ", kHeaderBytes, " bytes, ", remaining, " remain"));
    }
    const auto n = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
    const auto w = static_cast<int32_t>(LoadBigEndian<uint32_t>(p + 4));
    const Word min_delta = LoadBigEndian<Word>(p + 8);
    const Word first = LoadBigEndian<Word>(p + 8 + sizeof(Word));
    if (n < 0) return StreamCorrupt(type, "block header", offset, absl::StrCat("negative delta count ", n));
    if (w < 0 || w > kMaxWidth) {
      return StreamCorrupt(type, "block header", offset, absl::StrCat("bit width ", w, " outside 0..", kMaxWidth));
    }
    const uint8_t* const packed = p + kHeaderBytes;
    const uint64_t packed_bytes = (static_cast<uint64_t>(n) * static_cast<uint64_t>(w) + 7) / 8;
    if (packed_bytes > static_cast<uint64_t>(end - packed)) {
      return StreamCorrupt(type, "block", offset,
                     absl::StrCat(n, " deltas of ", w, " bits need ", packed_bytes, " bytes, ", end - packed,
                                  " remain"));
    }
    out[done++] = static_cast<Out>(first);
    const size_t take = std::min(static_cast<size_t>(n), count - done);
    DecodeBlockValues(packed, static_cast<size_t>(packed_bytes), w, first, min_delta, take, out + done);
    done += take;
    p = packed + packed_bytes;
  }
  return static_cast<size_t>(p - begin);
}

}  // namespace

absl::StatusOr<size_t> DecodeTs2DiffInt32s(std::string_view stream, size_t count, int32_t* out,
                                           size_t stream_offset) {
  return DecodeTs2Diff<uint32_t>(stream, count, out, stream_offset, "TS_2DIFF INT32");
}

absl::StatusOr<size_t> DecodeTs2DiffInt64s(std::string_view stream, size_t count, int64_t* out,
                                           size_t stream_offset) {
  return DecodeTs2Diff<uint64_t>(stream, count, out, stream_offset, "TS_2DIFF INT64");
}

}  // namespace tsread

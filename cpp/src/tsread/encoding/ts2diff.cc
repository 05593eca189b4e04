#include "tsread/encoding/ts2diff.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/common/cpu_dispatch.h"
#include "tsread/encoding/bit_unpack.h"
#include "tsread/encoding/stream_error.h"
#include "tsread/encoding/ts2diff_blocks.h"
#include "tsread/io/endian.h"

namespace tsread {
namespace {

// Adds the deltas of `groups` whole groups at `packed` (8 per kWidth bytes, §9.3 layout) to
// `value` one by one and writes each sum: v_k = v_{k-1} + min_delta + packed_k in Word (unsigned,
// wrapping) arithmetic, as Java's int/long addition. Unpacking and summing in one pass keeps the
// deltas in registers. `wide_loads` of the groups (from the first) may be read with 8-byte loads.
template <int kWidth, typename Word, typename Out>
inline void SumGroups(const uint8_t* packed, size_t groups, size_t wide_loads, Word min_delta, Word& value,
                      Out* out) {
  for (size_t g = 0; g < groups; ++g) {
    Word deltas[8];
    if constexpr (kWidth > 0 && kWidth < 8) {
      if (g < wide_loads) {
        bit_unpack::UnpackNarrowGroupWithWideLoad<kWidth>(packed + g * kWidth, deltas);
      } else {
        bit_unpack::UnpackGroup<kWidth>(packed + g * kWidth, deltas);
      }
    } else {
      bit_unpack::UnpackGroup<kWidth>(packed + g * kWidth, deltas);
    }
    for (int j = 0; j < 8; ++j) {
      value += min_delta + deltas[j];
      out[g * 8 + static_cast<size_t>(j)] = static_cast<Out>(value);
    }
  }
}

// Writes the first `take` values after `first` of a block whose packed deltas are
// [packed, packed + packed_bytes); `readable` bytes (>= packed_bytes) lie from `packed` to the end
// of the stream, which bounds the 8-byte loads of narrow groups.
template <int kWidth, typename Word, typename Out>
void DecodeBlockValues(const uint8_t* packed, size_t packed_bytes, size_t readable, Word first, Word min_delta,
                       size_t take, bool vector_blocks, Out* out) {
  Word value = first;
  if constexpr (kWidth == 0) {
    // Constant deltas: the usual shape of a regular time column. Whole registers first where the
    // CPU has AVX-512 (ts2diff_blocks.h), the rest one by one.
    const size_t filled = vector_blocks ? FillConstantDeltasAvx512(min_delta, take, &value, out) : 0;
    for (size_t i = filled; i < take; ++i) {
      value += min_delta;
      out[i] = static_cast<Out>(value);
    }
  } else {
    const size_t full_groups = take / 8;
    // Groups in AVX-512 registers first where the CPU has them (ts2diff_blocks.h): all but those
    // within 64 bytes of the stream's end, which the scalar groups take.
    size_t vector_groups = 0;
    if (vector_blocks) {
      vector_groups = SumGroupsVbmi(packed, full_groups, readable, kWidth, min_delta, &value, out);
    }
    // Group g may be read with an 8-byte load while g * kWidth + 8 <= readable.
    const size_t wide_loads = readable < 8 ? 0 : (readable - 8) / kWidth + 1;
    SumGroups<kWidth>(packed + vector_groups * kWidth, full_groups - vector_groups,
                      wide_loads > vector_groups ? wide_loads - vector_groups : 0, min_delta, value,
                      out + vector_groups * 8);
    if (const size_t tail = take % 8; tail != 0) {
      // The block's last group may be cut short to ceil(n*w/8) bytes: sum a zero-padded copy so
      // that no read goes past the block, and keep the `tail` values wanted.
      const size_t start = full_groups * kWidth;
      uint8_t padded[kWidth] = {};
      std::memcpy(padded, packed + start, std::min<size_t>(kWidth, packed_bytes - start));
      Out last[8];
      SumGroups<kWidth>(padded, 1, 0, min_delta, value, last);
      std::copy_n(last, tail, out + full_groups * 8);
    }
  }
}

template <typename Word, typename Out>
using BlockFn = void (*)(const uint8_t*, size_t, size_t, Word, Word, size_t, bool, Out*);

template <typename Word, typename Out, size_t... kWidth>
constexpr std::array<BlockFn<Word, Out>, sizeof...(kWidth)> MakeBlockTable(std::index_sequence<kWidth...>) {
  return {&DecodeBlockValues<static_cast<int>(kWidth), Word, Out>...};
}

// One block decoder per bit width: 0..32 for INT32, 0..64 for INT64 (checked by the caller).
template <typename Word, typename Out>
BlockFn<Word, Out> BlockDecoderFor(int w) {
  static constexpr auto kTable = MakeBlockTable<Word, Out>(std::make_index_sequence<8 * sizeof(Word) + 1>());
  return kTable[static_cast<size_t>(w)];
}

template <typename Word, typename Out>
absl::StatusOr<size_t> DecodeTs2Diff(std::string_view stream, size_t count, Out* out, size_t stream_offset,
                                     const char* type) {
  constexpr size_t kHeaderBytes = 4 + 4 + 2 * sizeof(Word);  // n, w, minDelta, first
  constexpr int kMaxWidth = static_cast<int>(8 * sizeof(Word));
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  const uint8_t* p = begin;
  const bool vector_blocks = CpuHasAvx512Vbmi();
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
    BlockDecoderFor<Word, Out>(w)(packed, static_cast<size_t>(packed_bytes), static_cast<size_t>(end - packed), first,
                                  min_delta, take, vector_blocks, out + done);
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

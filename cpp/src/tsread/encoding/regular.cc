#include "tsread/encoding/regular.h"

#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/stream_error.h"
#include "tsread/io/endian.h"

namespace tsread {
namespace {

// Writes g_0 and then g_k for each set bit k in 1..n-1 of `bitmap` until `room` values are
// written; returns how many were written.
template <typename Word, typename Out>
size_t WriteMarkedPoints(const uint8_t* bitmap, Word first, Word step, uint64_t n, size_t room, Out* out) {
  size_t written = 0;
  out[written++] = static_cast<Out>(first);
  const uint64_t last = n - 1;
  for (uint64_t byte = 0; byte <= last / 8 && written < room; ++byte) {
    unsigned bits = bitmap[byte];
    if (byte == 0) bits &= ~1u;  // g_0 was written regardless of bit 0 (Java does the same)
    if (byte == last / 8) bits &= (2u << (last % 8)) - 1;  // no bits past n-1
    while (bits != 0 && written < room) {
      const uint64_t k = byte * 8 + static_cast<uint64_t>(__builtin_ctz(bits));
      out[written++] = static_cast<Out>(static_cast<Word>(first + static_cast<Word>(k) * step));
      bits &= bits - 1;
    }
  }
  return written;
}

template <typename Word, typename Out>
absl::StatusOr<size_t> DecodeRegular(std::string_view stream, size_t count, Out* out, const char* type) {
  constexpr size_t kTailBytes = 4 + 2 * sizeof(Word);  // n, minDelta, first
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  auto offset = [begin](const uint8_t* at) { return static_cast<size_t>(at - begin); };
  auto remaining = [end](const uint8_t* at) { return static_cast<size_t>(end - at); };
  const uint8_t* p = begin;
  size_t done = 0;
  while (done < count) {
    const uint8_t* const block = p;
    if (p == end) {
      return StreamCorrupt(type, "block", offset(p),
                     absl::StrCat("stream ends after ", done, " of ", count, " values"));
    }
    // ReadWriteIOUtils.readBool: only the byte 1 means true.
    const bool has_missing = *p++ == 1;
    const uint8_t* bitmap = nullptr;
    size_t bitmap_bytes = 0;
    if (has_missing) {
      if (remaining(p) < 4) {
        return StreamCorrupt(type, "bitmap length", offset(p),
                       absl::StrCat("needs 4 bytes, ", remaining(p), " remain"));
      }
      const auto length = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
      if (length < 0 || static_cast<size_t>(length) > remaining(p + 4)) {
        return StreamCorrupt(type, "bitmap length", offset(p),
                       absl::StrCat("length ", length, " is negative or exceeds the ", remaining(p + 4),
                                    " bytes that remain"));
      }
      bitmap = p + 4;
      bitmap_bytes = static_cast<size_t>(length);
      p = bitmap + bitmap_bytes;
    }
    if (remaining(p) < kTailBytes) {
      return StreamCorrupt(type, "block header", offset(p),
                     absl::StrCat("needs ", kTailBytes, " bytes, ", remaining(p), " remain"));
    }
    const auto n = static_cast<int32_t>(LoadBigEndian<uint32_t>(p));
    const Word step = LoadBigEndian<Word>(p + 4);
    const Word first = LoadBigEndian<Word>(p + 4 + sizeof(Word));
    p += kTailBytes;
    // Java allocates n - 1 grid values and, with missing points, stops after bit n-1: smaller n
    // throws there.
    if (n < (has_missing ? 2 : 1)) {
      return StreamCorrupt(type, "block", offset(block),
                     absl::StrCat("grid of ", n, " points", has_missing ? " with missing points" : ""));
    }
    const size_t room = count - done;
    if (has_missing) {
      const uint64_t last = static_cast<uint64_t>(n) - 1;
      if (last / 8 >= bitmap_bytes || ((bitmap[last / 8] >> (last % 8)) & 1) == 0) {
        return StreamCorrupt(type, "bitmap", offset(block),
                       absl::StrCat("the last grid point ", last, " is not marked present"));
      }
      done += WriteMarkedPoints(bitmap, first, step, static_cast<uint64_t>(n), room, out + done);
    } else {
      const size_t take = std::min(static_cast<size_t>(n), room);
      Word value = first;
      for (size_t i = 0; i < take; ++i) {
        out[done + i] = static_cast<Out>(value);
        value += step;
      }
      done += take;
    }
  }
  return offset(p);
}

}  // namespace

absl::StatusOr<size_t> DecodeRegularInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeRegular<uint32_t>(stream, count, out, "REGULAR INT32");
}

absl::StatusOr<size_t> DecodeRegularInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeRegular<uint64_t>(stream, count, out, "REGULAR INT64");
}

}  // namespace tsread

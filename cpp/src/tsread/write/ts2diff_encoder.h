// TS_2DIFF encoding (format reference §9.4; J: encoding.encoder.DeltaBinaryEncoder): blocks of a
// first value and up to 128 deltas, each stored as (delta - minDelta) in the block's bit width.
//   block := i32 n ; i32 w ; T minDelta ; T first ; u8[ceil(n*w/8)] packed (MSB-first)
// A one-value block has n = 0, w = 0 and minDelta = INT_MAX / LONG_MAX, as Java leaves it.
#ifndef TSREAD_WRITE_TS2DIFF_ENCODER_H_
#define TSREAD_WRITE_TS2DIFF_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tsread {

// Deltas per block (Java DeltaBinaryEncoder.BLOCK_DEFAULT_SIZE).
inline constexpr size_t kTs2DiffBlockDeltas = 128;

// Java packs each block into one encodingBlockBuffer (blockSize * 4 or * 8 bytes) that lives as
// long as the encoder — one page writer, i.e. all pages of a chunk — and its reset() zeroes only
// the first blockSize (128) bytes. The padding bits of a block's last packed byte therefore carry
// stale bits of an earlier, longer block when that byte lies at index 128 or beyond. Passing the
// same Ts2DiffPackBuffer for the pages of one chunk reproduces those bytes exactly; the bits are
// meaningless to every reader (nullptr: zero padding).
struct Ts2DiffPackBuffer {
  uint8_t bytes[kTs2DiffBlockDeltas * 8] = {};
};

// Appends the TS_2DIFF stream of values[0, count) to `out` (nothing for count == 0).
void EncodeTs2DiffInt32s(const int32_t* values, size_t count, std::string& out,
                         Ts2DiffPackBuffer* pack_buffer = nullptr);
void EncodeTs2DiffInt64s(const int64_t* values, size_t count, std::string& out,
                         Ts2DiffPackBuffer* pack_buffer = nullptr);

}  // namespace tsread

#endif  // TSREAD_WRITE_TS2DIFF_ENCODER_H_

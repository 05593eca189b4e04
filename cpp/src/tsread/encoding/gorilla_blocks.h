// GORILLA (format reference §9.6) 64-bit '10' runs eight values at a time in AVX-512 registers.
// A run of '10' values with the same stored lengths puts value j at a bit position known in
// advance (first + j * (2 + S)); with S <= 55, eight values and the bit offset of the first span at
// most 58 bytes, so one 64-byte load holds them and one byte permute (VBMI) lines each value's
// eight bytes up in its lane, big-endian. The XOR chain across the eight is a prefix XOR in three
// lane shifts. Used by gorilla.cc where the CPU has AVX-512 F, BW, DQ and VBMI (CpuHasAvx512Vbmi,
// common/cpu_dispatch.h); elsewhere the scalar blocks there do the same work.
#ifndef TSREAD_ENCODING_GORILLA_BLOCKS_H_
#define TSREAD_ENCODING_GORILLA_BLOCKS_H_

#include <cstddef>
#include <cstdint>

namespace tsread {

// Decodes whole blocks of eight '10' values (S = `sig` in 1..55, trailing zeros `trailing`) from
// the stream `data[0, size)` at bit `*bit_pos`, each value the previous (`*prev`, the bits of the
// value before) XOR its bits shifted left by `trailing`, into out[0, that) — at most `count`
// values, a multiple of eight. Stops before a block whose control bits are not all '10' or whose
// 64-byte load would pass `size`; advances *bit_pos and *prev past what it wrote. Never reads
// outside the span.
size_t DecodeReuseBlocksVbmi(const uint8_t* data, size_t size, uint64_t* bit_pos, uint64_t* prev, uint64_t sig,
                             uint64_t trailing, size_t count, void* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_GORILLA_BLOCKS_H_

// TS_2DIFF (format reference §9.4) bit-packed deltas unpacked and summed eight at a time in AVX-512
// registers. A group of eight W-bit deltas is W bytes (§9.3); one 64-byte load holds a group, one
// byte permute (VBMI) puts the bytes of delta j in lane j big-endian, two shifts leave the delta,
// and the running sum v_k = v_{k-1} + min_delta + delta_k is a prefix sum in three lane shifts plus
// the previous group's last value. Used by ts2diff.cc where the CPU has AVX-512 F, BW, DQ and VBMI
// (CpuHasAvx512Vbmi, common/cpu_dispatch.h); elsewhere its scalar groups do the same work.
#ifndef TSREAD_ENCODING_TS2DIFF_BLOCKS_H_
#define TSREAD_ENCODING_TS2DIFF_BLOCKS_H_

#include <cstddef>
#include <cstdint>

namespace tsread {

// Sums whole groups of eight `width`-bit deltas (1..57; at most `groups` of them) at `packed`, of which
// `readable` bytes lie in the stream, onto *value (wrapping in the width of the output type) and
// writes each sum to out[8 * g + j]. Stops before the first group whose 64-byte load would pass
// `readable`; returns the groups done (0 where the width does not allow it, or where the build has
// no AVX-512 copy) and leaves *value at the last sum written. Only where CpuHasAvx512Vbmi(): the
// caller checks it once a stream.
size_t SumGroupsVbmi(const uint8_t* packed, size_t groups, size_t readable, int width, uint64_t min_delta,
                     uint64_t* value, int64_t* out);
size_t SumGroupsVbmi(const uint8_t* packed, size_t groups, size_t readable, int width, uint32_t min_delta,
                     uint32_t* value, int32_t* out);

// Width 0 (every delta is min_delta: a regular time column): writes *value + min_delta,
// *value + 2 * min_delta, ... to out[0, n) a register at a time for the largest n <= take that fills
// whole registers (8 values of 64 bits, 16 of 32), wrapping in the output type's width; returns n
// (0 where the build has no AVX-512 copy) and leaves *value at the last one written. Only where
// CpuHasAvx512Vbmi(), as SumGroupsVbmi.
size_t FillConstantDeltasAvx512(uint64_t min_delta, size_t take, uint64_t* value, int64_t* out);
size_t FillConstantDeltasAvx512(uint32_t min_delta, size_t take, uint32_t* value, int32_t* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_TS2DIFF_BLOCKS_H_

// Reductions over a run of values without nulls, in vector lanes: the extremes (ExtendRange) and
// the sum (SumRun) of INT32, INT64, FLOAT and DOUBLE values, and the trues of BOOLEAN ones. The
// aggregation (ColumnAggregate) and the CLI's scan summary run on them.
//
// Every result is the same on every CPU and equals what one sequential pass gives, with one
// documented exception (a FLOAT/DOUBLE sum is added in sixteen fixed lanes, see SumRun). The library
// is built for baseline x86-64; where the CPU has AVX2 the same loops run compiled for it
// (64-bit compares and blends that baseline x86-64 lacks), and the extremes compiled for
// AVX-512VL where it has that (64-bit min and max), picked at run time.
#ifndef TSREAD_AGGREGATE_RUN_REDUCE_H_
#define TSREAD_AGGREGATE_RUN_REDUCE_H_

#include <cstddef>
#include <cstdint>

namespace tsread {

// Extends [lo, hi] by values[0, n) exactly as one chain `lo = v < lo ? v : lo` (and `v > hi` for
// hi) seeded with lo and hi would: a NaN never replaces an extreme (and a NaN seed stays), and of
// 0.0 and -0.0 (equal, different bits) the one that came first is kept, the seed first.
void ExtendRange(const int32_t* values, size_t n, int32_t& lo, int32_t& hi);
void ExtendRange(const int64_t* values, size_t n, int64_t& lo, int64_t& hi);
void ExtendRange(const float* values, size_t n, float& lo, float& hi);
void ExtendRange(const double* values, size_t n, double& lo, double& hi);

// Exact integer sums: INT32 for n < 2^32 (the sum fits int64), INT64 for any n.
int64_t SumRun(const int32_t* values, size_t n);
__int128 SumRun(const int64_t* values, size_t n);
// The same INT64 sum, faster when every value is known to lie in [lo, hi] (ExtendRange's result):
// when n * max(|lo|, |hi|) < 2^63 the sum fits int64 and is added there.
__int128 SumRun(const int64_t* values, size_t n, int64_t lo, int64_t hi);
// The number of nonzero bytes (BOOLEAN values are 0/1).
uint64_t SumRun(const uint8_t* values, size_t n);
// FLOAT (widened exactly) and DOUBLE sums in double, added in sixteen lanes: lane k sums the
// values at k, k+16, k+32, ... of the longest prefix whose length is a multiple of 16; the lanes
// are then added in order 0..15 to 0.0, then the remaining values one by one. The same order on
// every CPU, so the same bits; it may differ by rounding from one left-to-right chain.
double SumRun(const float* values, size_t n);
double SumRun(const double* values, size_t n);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_RUN_REDUCE_H_

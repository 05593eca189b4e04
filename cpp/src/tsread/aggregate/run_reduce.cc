// ExtendRange and SumRun (run_reduce.h), written with GCC/Clang vector extensions: `a < b ? a : b`
// on vectors compiles to minps/minpd (or a compare and blend), one lane each, with the scalar
// comparison's meaning per lane (a NaN compares false, so it never replaces). Each kernel is one
// TSREAD_ALWAYS_INLINE template compiled twice, for baseline x86-64 and for AVX2
// (common/cpu_dispatch.h).
#include "tsread/aggregate/run_reduce.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "tsread/common/cpu_dispatch.h"

namespace tsread {
namespace {

// A run's extremes in two vectors of kBytes each (two independent compare chains), then the lanes
// merged and the tail added one by one. Lanes merge exactly (min of mins), except which of 0.0
// and -0.0 survives: the lanes keep their own first zero, one chain the first zero overall (the
// seed first). That extreme is found again by looking for the first zero.
template <typename T, size_t kBytes>
TSREAD_ALWAYS_INLINE void ExtendRangeLanes(const T* values, size_t n, T& lo, T& hi) {
  typedef T Lanes __attribute__((vector_size(kBytes)));
  constexpr size_t kLanes = kBytes / sizeof(T);
  size_t r = 0;
  if (n >= 2 * kLanes) {
    const T seed_lo = lo, seed_hi = hi;
    Lanes l0 = Lanes{} + lo, l1 = l0, h0 = Lanes{} + hi, h1 = h0;
    for (; r + 2 * kLanes <= n; r += 2 * kLanes) {
      Lanes a, b;
      std::memcpy(&a, values + r, sizeof a);
      std::memcpy(&b, values + r + kLanes, sizeof b);
      l0 = a < l0 ? a : l0;
      l1 = b < l1 ? b : l1;
      h0 = a > h0 ? a : h0;
      h1 = b > h1 ? b : h1;
    }
    for (size_t k = 0; k < kLanes; ++k) {
      lo = l0[k] < lo ? l0[k] : lo;
      lo = l1[k] < lo ? l1[k] : lo;
      hi = h0[k] > hi ? h0[k] : hi;
      hi = h1[k] > hi ? h1[k] : hi;
    }
    if constexpr (std::is_floating_point_v<T>) {
      const auto first_zero = [&](T seed) {
        if (seed == 0) return seed;
        for (size_t q = 0; q < r; ++q) {
          if (values[q] == 0) return values[q];
        }
        return seed;  // unreachable: a zero extreme that is not the seed came from a value
      };
      if (lo == 0) lo = first_zero(seed_lo);
      if (hi == 0) hi = first_zero(seed_hi);
    }
  }
  for (; r < n; ++r) {
    lo = values[r] < lo ? values[r] : lo;
    hi = values[r] > hi ? values[r] : hi;
  }
}

// Sums of values widened to 8-byte lanes (FLOAT to double, DOUBLE as is, INT32 to int64, INT64
// to uint64) in the eight lanes run_reduce.h fixes: two 32-byte vectors (which baseline x86-64
// runs as 16-byte halves: the same additions either way), so that two chains of additions
// overlap. The lanes are then added in order 0..7, then the tail one by one. Exact for INT32
// while n < 2^32.
template <typename Sum, typename T>
TSREAD_ALWAYS_INLINE Sum SumWidenedLanes(const T* values, size_t n) {
  static_assert(sizeof(Sum) == 8);
  typedef Sum Sums __attribute__((vector_size(32)));
  typedef T Quad __attribute__((vector_size(4 * sizeof(T))));
  Sums low = {0, 0, 0, 0}, high = low;
  size_t r = 0;
  for (; r + 8 <= n; r += 8) {
    Quad a, b;
    std::memcpy(&a, values + r, sizeof a);
    std::memcpy(&b, values + r + 4, sizeof b);
    low += __builtin_convertvector(a, Sums);
    high += __builtin_convertvector(b, Sums);
  }
  Sum sum = 0;
  for (int k = 0; k < 4; ++k) sum += low[k];
  for (int k = 0; k < 4; ++k) sum += high[k];
  for (; r < n; ++r) sum += static_cast<Sum>(values[r]);
  return sum;
}

// INT64 values read as unsigned u = hi * 2^32 + lo: the lo and hi halves are summed apart in
// 64-bit lanes (exact for up to 2^31 values), and each negative value's v = u - 2^64 is settled by
// counting the set top bits. No 64-bit arithmetic shift or compare is needed (baseline has none).
TSREAD_ALWAYS_INLINE __int128 SumInt64Block(const int64_t* values, size_t n) {
  typedef uint64_t Lanes __attribute__((vector_size(32)));
  Lanes low = {0, 0, 0, 0}, high = low, negative = low;
  size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    Lanes v;
    std::memcpy(&v, values + r, sizeof v);
    low += v & 0xffffffffu;
    high += v >> 32;
    negative += v >> 63;
  }
  __int128 sum = 0;
  for (int k = 0; k < 4; ++k) {
    sum += static_cast<__int128>(low[k]) + (static_cast<__int128>(high[k]) << 32) -
           (static_cast<__int128>(negative[k]) << 64);
  }
  for (; r < n; ++r) sum += values[r];
  return sum;
}

TSREAD_ALWAYS_INLINE __int128 SumInt64Lanes(const int64_t* values, size_t n) {
  constexpr size_t kBlock = size_t{1} << 30;
  __int128 sum = 0;
  for (size_t r = 0; r < n; r += kBlock) sum += SumInt64Block(values + r, n - r < kBlock ? n - r : kBlock);
  return sum;
}

// Counted in 32-bit lanes (bytes widen to 32 bits, not 64), a block of at most 2^31 at a time.
TSREAD_ALWAYS_INLINE uint64_t CountNonzero(const uint8_t* values, size_t n) {
  constexpr size_t kBlock = size_t{1} << 31;
  uint64_t count = 0;
  for (size_t r = 0; r < n; r += kBlock) {
    const size_t end = n - r < kBlock ? n : r + kBlock;
    uint32_t block = 0;
    for (size_t q = r; q < end; ++q) block += values[q] != 0;
    count += block;
  }
  return count;
}

// A sum in int64 that wraps (in uint64 lanes: defined overflow): exact whenever the true sum lies
// in int64 (modular arithmetic).
TSREAD_ALWAYS_INLINE int64_t WrappingSum(const int64_t* values, size_t n) {
  return static_cast<int64_t>(SumWidenedLanes<uint64_t>(values, n));
}

// The two builds of each kernel.
struct Baseline {
  template <typename T>
  static void Range(const T* v, size_t n, T& lo, T& hi) { ExtendRangeLanes<T, 16>(v, n, lo, hi); }
  template <typename T>
  static double FloatSum(const T* v, size_t n) { return SumWidenedLanes<double>(v, n); }
  static int64_t Int32Sum(const int32_t* v, size_t n) { return SumWidenedLanes<int64_t>(v, n); }
  static __int128 Int64Sum(const int64_t* v, size_t n) { return SumInt64Lanes(v, n); }
  static uint64_t Trues(const uint8_t* v, size_t n) { return CountNonzero(v, n); }
  static int64_t Wrapping(const int64_t* v, size_t n) { return WrappingSum(v, n); }
};

struct Avx2 {
  template <typename T>
  TSREAD_TARGET_AVX2 static void Range(const T* v, size_t n, T& lo, T& hi) { ExtendRangeLanes<T, 32>(v, n, lo, hi); }
  template <typename T>
  TSREAD_TARGET_AVX2 static double FloatSum(const T* v, size_t n) { return SumWidenedLanes<double>(v, n); }
  TSREAD_TARGET_AVX2 static int64_t Int32Sum(const int32_t* v, size_t n) { return SumWidenedLanes<int64_t>(v, n); }
  TSREAD_TARGET_AVX2 static __int128 Int64Sum(const int64_t* v, size_t n) { return SumInt64Lanes(v, n); }
  TSREAD_TARGET_AVX2 static uint64_t Trues(const uint8_t* v, size_t n) { return CountNonzero(v, n); }
  TSREAD_TARGET_AVX2 static int64_t Wrapping(const int64_t* v, size_t n) { return WrappingSum(v, n); }
};

unsigned __int128 UnsignedAbs(int64_t v) {
  return v < 0 ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : static_cast<unsigned __int128>(v);
}

template <typename T>
void Range(const T* v, size_t n, T& lo, T& hi) {
  if (CpuHasAvx2()) return Avx2::Range(v, n, lo, hi);
  Baseline::Range(v, n, lo, hi);
}

template <typename T>
double FloatSum(const T* v, size_t n) {
  return CpuHasAvx2() ? Avx2::FloatSum(v, n) : Baseline::FloatSum(v, n);
}

}  // namespace

void ExtendRange(const int32_t* values, size_t n, int32_t& lo, int32_t& hi) { Range(values, n, lo, hi); }
void ExtendRange(const int64_t* values, size_t n, int64_t& lo, int64_t& hi) { Range(values, n, lo, hi); }
void ExtendRange(const float* values, size_t n, float& lo, float& hi) { Range(values, n, lo, hi); }
void ExtendRange(const double* values, size_t n, double& lo, double& hi) { Range(values, n, lo, hi); }

int64_t SumRun(const int32_t* values, size_t n) {
  return CpuHasAvx2() ? Avx2::Int32Sum(values, n) : Baseline::Int32Sum(values, n);
}
__int128 SumRun(const int64_t* values, size_t n) {
  return CpuHasAvx2() ? Avx2::Int64Sum(values, n) : Baseline::Int64Sum(values, n);
}
__int128 SumRun(const int64_t* values, size_t n, int64_t lo, int64_t hi) {
  // |sum| <= n * max(|lo|, |hi|) < 2^63: the wrapping sum is the sum.
  const unsigned __int128 magnitude = std::max(UnsignedAbs(lo), UnsignedAbs(hi));
  if (magnitude * n < (static_cast<unsigned __int128>(1) << 63)) {
    return CpuHasAvx2() ? Avx2::Wrapping(values, n) : Baseline::Wrapping(values, n);
  }
  return SumRun(values, n);
}
uint64_t SumRun(const uint8_t* values, size_t n) {
  return CpuHasAvx2() ? Avx2::Trues(values, n) : Baseline::Trues(values, n);
}
double SumRun(const float* values, size_t n) { return FloatSum(values, n); }
double SumRun(const double* values, size_t n) { return FloatSum(values, n); }

}  // namespace tsread

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

// The first zero of values[0, n) (0.0 or -0.0, whichever comes first), or `seed` when there is
// none; a vector of values is compared at a time.
template <typename T, size_t kBytes>
TSREAD_ALWAYS_INLINE T FirstZero(const T* values, size_t n, T seed) {
  typedef T Lanes __attribute__((vector_size(kBytes)));
  constexpr size_t kLanes = kBytes / sizeof(T);
  size_t q = 0;
  for (; q + kLanes <= n; q += kLanes) {
    Lanes a;
    std::memcpy(&a, values + q, sizeof a);
    const auto zero = a == Lanes{};  // all ones in a lane that holds a zero
    uint64_t words[kBytes / 8];
    std::memcpy(words, &zero, sizeof words);
    uint64_t any = 0;
    for (const uint64_t w : words) any |= w;
    if (any != 0) break;
  }
  for (; q < n; ++q) {
    if (values[q] == 0) return values[q];
  }
  return seed;
}

// A run's extremes in four vectors of kBytes each (four independent compare chains: one compare
// and blend is several cycles long), then the lanes merged and the tail added one by one. Lanes
// merge exactly (min of mins), except which of 0.0 and -0.0 survives: the lanes keep their own
// first zero, one chain the first zero overall (the seed first). That extreme is found again by
// looking for the first zero.
template <typename T, size_t kBytes>
TSREAD_ALWAYS_INLINE void ExtendRangeLanes(const T* values, size_t n, T& lo, T& hi) {
  typedef T Lanes __attribute__((vector_size(kBytes)));
  constexpr size_t kLanes = kBytes / sizeof(T);
  constexpr size_t kStep = 4 * kLanes;
  // Locals, not the references: lo and hi may alias the values, which would keep them in memory.
  T low = lo, high = hi;
  size_t r = 0;
  if (n >= kStep) {
    Lanes l0 = Lanes{} + low, l1 = l0, l2 = l0, l3 = l0;
    Lanes h0 = Lanes{} + high, h1 = h0, h2 = h0, h3 = h0;
    for (; r + kStep <= n; r += kStep) {
      Lanes a, b, c, d;
      std::memcpy(&a, values + r, sizeof a);
      std::memcpy(&b, values + r + kLanes, sizeof b);
      std::memcpy(&c, values + r + 2 * kLanes, sizeof c);
      std::memcpy(&d, values + r + 3 * kLanes, sizeof d);
      l0 = a < l0 ? a : l0;
      l1 = b < l1 ? b : l1;
      l2 = c < l2 ? c : l2;
      l3 = d < l3 ? d : l3;
      h0 = a > h0 ? a : h0;
      h1 = b > h1 ? b : h1;
      h2 = c > h2 ? c : h2;
      h3 = d > h3 ? d : h3;
    }
    const T seed_lo = low, seed_hi = high;
    for (size_t k = 0; k < kLanes; ++k) {
      for (const T v : {l0[k], l1[k], l2[k], l3[k]}) low = v < low ? v : low;
      for (const T v : {h0[k], h1[k], h2[k], h3[k]}) high = v > high ? v : high;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (low == 0) low = FirstZero<T, kBytes>(values, r, seed_lo);
      if (high == 0) high = FirstZero<T, kBytes>(values, r, seed_hi);
    }
  }
  for (; r < n; ++r) {
    low = values[r] < low ? values[r] : low;
    high = values[r] > high ? values[r] : high;
  }
  lo = low;
  hi = high;
}

// FLOAT (widened) and DOUBLE sums in the sixteen lanes run_reduce.h fixes: four 32-byte vectors
// (which baseline x86-64 runs as 16-byte halves: the same additions either way), four chains of
// additions that overlap (one addition takes several cycles). The lanes are then added in order
// 0..15, then the tail one by one.
template <typename T>
TSREAD_ALWAYS_INLINE double SumFloatLanes(const T* values, size_t n) {
  typedef double Sums __attribute__((vector_size(32)));
  // Eight values widened at once, then split into halves: compilers widen a whole vector in
  // fewer shuffles than two halves apart.
  typedef T Eight __attribute__((vector_size(8 * sizeof(T))));
  typedef double WideEight __attribute__((vector_size(64)));
  Sums s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
  // (No lambda for the widening: it would be compiled for baseline x86-64, not inlined here.)
  size_t r = 0;
  for (; r + 16 <= n; r += 16) {
    Eight a, b;
    std::memcpy(&a, values + r, sizeof a);
    std::memcpy(&b, values + r + 8, sizeof b);
    const WideEight wa = __builtin_convertvector(a, WideEight), wb = __builtin_convertvector(b, WideEight);
    Sums q[4];
    std::memcpy(&q[0], &wa, sizeof wa);
    std::memcpy(&q[2], &wb, sizeof wb);
    s0 += q[0];
    s1 += q[1];
    s2 += q[2];
    s3 += q[3];
  }
  double sum = 0;
  for (const Sums& lanes : {s0, s1, s2, s3}) {
    for (int k = 0; k < 4; ++k) sum += lanes[k];
  }
  for (; r < n; ++r) sum += static_cast<double>(values[r]);
  return sum;
}

// An exact INT32 sum without widening each value to 64 bits: v = (v >> 16) * 2^16 + (v & 0xffff),
// the signed high halves and the unsigned low halves summed apart in 32-bit lanes, which cannot
// overflow within a block of 2^15 values per lane (|high| <= 2^15, low < 2^16).
TSREAD_ALWAYS_INLINE int64_t SumInt32Halves(const int32_t* values, size_t n) {
  typedef int32_t Lanes __attribute__((vector_size(32)));
  constexpr size_t kLanes = sizeof(Lanes) / sizeof(int32_t);
  constexpr size_t kBlock = kLanes << 15;
  int64_t high_sum = 0, low_sum = 0;
  size_t r = 0;
  while (n - r >= kLanes) {
    const size_t end = r + std::min(kBlock, (n - r) / kLanes * kLanes);
    Lanes high = {}, low = {};
    for (; r < end; r += kLanes) {
      Lanes a;
      std::memcpy(&a, values + r, sizeof a);
      high += a >> 16;
      low += a & 0xffff;
    }
    for (size_t k = 0; k < kLanes; ++k) {
      high_sum += high[k];
      low_sum += low[k];
    }
  }
  int64_t sum = high_sum * 65536 + low_sum;
  for (; r < n; ++r) sum += values[r];
  return sum;
}

// Sums of values in 8-byte lanes (INT64 as uint64), two 32-byte vectors.
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

// Counted in byte lanes: each 32 bytes compared with zero (a lane of all ones, i.e. -1, where the
// byte is nonzero) and the -1s subtracted, at most 255 times before the lanes are added up.
TSREAD_ALWAYS_INLINE uint64_t CountNonzero(const uint8_t* values, size_t n) {
  typedef uint8_t Bytes __attribute__((vector_size(32)));
  constexpr size_t kBlock = 255 * sizeof(Bytes);
  uint64_t count = 0;
  size_t r = 0;
  while (n - r >= sizeof(Bytes)) {
    const size_t end = r + std::min(kBlock, (n - r) / sizeof(Bytes) * sizeof(Bytes));
    Bytes lanes = {};
    for (; r < end; r += sizeof(Bytes)) {
      Bytes a;
      std::memcpy(&a, values + r, sizeof a);
      lanes -= reinterpret_cast<Bytes>(a != 0);
    }
    for (size_t k = 0; k < sizeof(Bytes); ++k) count += lanes[k];
  }
  for (; r < n; ++r) count += values[r] != 0;
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
  static double FloatSum(const T* v, size_t n) { return SumFloatLanes(v, n); }
  static int64_t Int32Sum(const int32_t* v, size_t n) { return SumInt32Halves(v, n); }
  static __int128 Int64Sum(const int64_t* v, size_t n) { return SumInt64Lanes(v, n); }
  static uint64_t Trues(const uint8_t* v, size_t n) { return CountNonzero(v, n); }
  static int64_t Wrapping(const int64_t* v, size_t n) { return WrappingSum(v, n); }
};

// Only the extremes: AVX-512VL has 64-bit integer min and max (AVX2 compares and blends, two
// instructions on one port); still 32-byte vectors.
struct Avx512 {
  template <typename T>
  TSREAD_TARGET_AVX512VL static void Range(const T* v, size_t n, T& lo, T& hi) { ExtendRangeLanes<T, 32>(v, n, lo, hi); }
};

struct Avx2 {
  template <typename T>
  TSREAD_TARGET_AVX2 static void Range(const T* v, size_t n, T& lo, T& hi) { ExtendRangeLanes<T, 32>(v, n, lo, hi); }
  template <typename T>
  TSREAD_TARGET_AVX2 static double FloatSum(const T* v, size_t n) { return SumFloatLanes(v, n); }
  TSREAD_TARGET_AVX2 static int64_t Int32Sum(const int32_t* v, size_t n) { return SumInt32Halves(v, n); }
  TSREAD_TARGET_AVX2 static __int128 Int64Sum(const int64_t* v, size_t n) { return SumInt64Lanes(v, n); }
  TSREAD_TARGET_AVX2 static uint64_t Trues(const uint8_t* v, size_t n) { return CountNonzero(v, n); }
  TSREAD_TARGET_AVX2 static int64_t Wrapping(const int64_t* v, size_t n) { return WrappingSum(v, n); }
};

unsigned __int128 UnsignedAbs(int64_t v) {
  return v < 0 ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : static_cast<unsigned __int128>(v);
}

template <typename T>
void Range(const T* v, size_t n, T& lo, T& hi) {
  if (CpuHasAvx512Vl()) return Avx512::Range(v, n, lo, hi);
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

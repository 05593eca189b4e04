// ExtendRange and SumRun against one sequential pass written here (the reference path), on random
// and adversarial runs: every length around the vector widths, unaligned starts, NaN, 0.0/-0.0,
// the types' extremes. Bits are compared, so a -0.0 for a 0.0 fails. The same tests run once more
// against the baseline build of the kernels (aggregate_run_reduce_baseline_test) and the AVX2
// one (aggregate_run_reduce_avx2_test); this one runs the AVX-512VL extremes where the CPU has them.
#include "tsread/aggregate/run_reduce.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

template <typename T>
void ChainRange(const T* v, size_t n, T& lo, T& hi) {
  for (size_t i = 0; i < n; ++i) {
    lo = v[i] < lo ? v[i] : lo;
    hi = v[i] > hi ? v[i] : hi;
  }
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// The lane order run_reduce.h documents, written out.
template <typename T>
double LaneSum(const T* v, size_t n) {
  double lanes[16] = {};
  const size_t whole = n / 16 * 16;
  for (size_t i = 0; i < whole; ++i) lanes[i % 16] += static_cast<double>(v[i]);
  double sum = 0;
  for (double lane : lanes) sum += lane;
  for (size_t i = whole; i < n; ++i) sum += static_cast<double>(v[i]);
  return sum;
}

// Every run [start, start + n) of `values` for n up to 70 and starts 0..3, and the whole vector,
// from the seeds given.
template <typename T>
void ExpectRangesMatch(const std::vector<T>& values, T seed_lo, T seed_hi) {
  const auto check = [&](size_t start, size_t n) {
    T lo = seed_lo, hi = seed_hi, want_lo = seed_lo, want_hi = seed_hi;
    ExtendRange(values.data() + start, n, lo, hi);
    ChainRange(values.data() + start, n, want_lo, want_hi);
    ASSERT_TRUE(SameBits(lo, want_lo)) << "start " << start << " n " << n << ": min " << lo << ", want " << want_lo;
    ASSERT_TRUE(SameBits(hi, want_hi)) << "start " << start << " n " << n << ": max " << hi << ", want " << want_hi;
  };
  for (size_t start = 0; start < 4 && start <= values.size(); ++start) {
    for (size_t n = 0; n <= 70 && start + n <= values.size(); ++n) check(start, n);
  }
  check(0, values.size());
}

template <typename T>
std::vector<T> RandomInts(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> out(n);
  for (T& v : out) {
    switch (rng() % 8) {
      case 0: v = std::numeric_limits<T>::min(); break;
      case 1: v = std::numeric_limits<T>::max(); break;
      case 2: v = static_cast<T>(rng() % 7) - 3; break;
      default: v = static_cast<T>(rng()); break;
    }
  }
  return out;
}

template <typename T>
std::vector<T> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> uniform(-1000, 1000);
  std::vector<T> out(n);
  for (T& v : out) {
    switch (rng() % 10) {
      case 0: v = std::numeric_limits<T>::quiet_NaN(); break;
      case 1: v = 0.0; break;
      case 2: v = -0.0; break;
      case 3: v = std::numeric_limits<T>::infinity() * (rng() % 2 ? 1 : -1); break;
      case 4: v = std::numeric_limits<T>::max() * (rng() % 2 ? 1 : -1); break;
      default: v = uniform(rng); break;
    }
  }
  return out;
}

TEST(RunReduceTest, IntegerRangesEqualOneChain) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<int32_t> i32 = RandomInts<int32_t>(1000 + seed, seed);
    const std::vector<int64_t> i64 = RandomInts<int64_t>(1000 + seed, seed);
    ExpectRangesMatch(i32, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min());
    ExpectRangesMatch(i32, int32_t{5}, int32_t{-5});
    ExpectRangesMatch(i64, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min());
    ExpectRangesMatch(i64, int64_t{1}, int64_t{0});
  }
}

TEST(RunReduceTest, FloatRangesEqualOneChainWithNanAndZeros) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<float> f = RandomFloats<float>(500 + seed, seed);
    const std::vector<double> d = RandomFloats<double>(500 + seed, seed);
    ExpectRangesMatch(f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity());
    ExpectRangesMatch(d, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
    // Seeds that are values: a zero seed wins every tie, a NaN seed stays.
    ExpectRangesMatch(f, 0.0f, -0.0f);
    ExpectRangesMatch(d, -0.0, 0.0);
    ExpectRangesMatch(d, std::numeric_limits<double>::quiet_NaN(), 3.0);
  }
}

TEST(RunReduceTest, ZeroExtremesKeepTheFirstZero) {
  // Only zeros of both signs and positive values: the minimum is a zero, and which one is the
  // first of the run (the lanes each see their own first).
  for (int first_negative = 0; first_negative < 2; ++first_negative) {
    for (size_t at = 0; at < 40; ++at) {
      std::vector<double> d(64, 1.5);
      std::vector<float> f(64, 1.5f);
      for (size_t i = at; i < d.size(); i += 3) {
        const bool negative = ((i - at) / 3 + first_negative) % 2 == 1;
        d[i] = negative ? -0.0 : 0.0;
        f[i] = negative ? -0.0f : 0.0f;
      }
      ExpectRangesMatch(d, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
      ExpectRangesMatch(f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity());
      for (double& v : d) v = v == 0 ? v : -v;  // now zeros are the maximum
      ExpectRangesMatch(d, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
    }
  }
}

TEST(RunReduceTest, AllNanLeavesTheSeeds) {
  const std::vector<double> nan(100, std::numeric_limits<double>::quiet_NaN());
  double lo = 7, hi = -7;
  ExtendRange(nan.data(), nan.size(), lo, hi);
  EXPECT_EQ(lo, 7);
  EXPECT_EQ(hi, -7);
}

TEST(RunReduceTest, IntegerSumsAreExact) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<int32_t> i32 = RandomInts<int32_t>(3000 + seed, seed);
    const std::vector<int64_t> i64 = RandomInts<int64_t>(3000 + seed, seed);
    for (size_t start = 0; start < 4; ++start) {
      for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{33}, i32.size() - start}) {
        int64_t want32 = 0;
        __int128 want64 = 0;
        for (size_t i = start; i < start + n; ++i) {
          want32 += i32[i];
          want64 += i64[i];
        }
        EXPECT_EQ(SumRun(i32.data() + start, n), want32) << "n " << n;
        EXPECT_TRUE(SumRun(i64.data() + start, n) == want64) << "n " << n;
        int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
        ChainRange(i64.data() + start, n, lo, hi);
        EXPECT_TRUE(SumRun(i64.data() + start, n, lo, hi) == want64) << "n " << n;
      }
    }
  }
  // Small values: the bounded sum adds in int64 (and a bound that is too wide still gives the sum).
  std::vector<int64_t> small(5000);
  __int128 small_sum = 0;
  for (size_t i = 0; i < small.size(); ++i) small_sum += (small[i] = static_cast<int64_t>(i % 97) - 50);
  EXPECT_TRUE(SumRun(small.data(), small.size(), -50, 46) == small_sum);
  EXPECT_TRUE(SumRun(small.data(), small.size(), std::numeric_limits<int64_t>::min(), 46) == small_sum);
  // Sums far beyond int64 either way.
  const std::vector<int64_t> high(1001, std::numeric_limits<int64_t>::max());
  const std::vector<int64_t> low(1001, std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(SumRun(high.data(), high.size()) == static_cast<__int128>(std::numeric_limits<int64_t>::max()) * 1001);
  EXPECT_TRUE(SumRun(low.data(), low.size()) == static_cast<__int128>(std::numeric_limits<int64_t>::min()) * 1001);
  EXPECT_TRUE(SumRun(high.data(), high.size(), high[0], high[0]) ==
              static_cast<__int128>(std::numeric_limits<int64_t>::max()) * 1001);
  EXPECT_TRUE(SumRun(low.data(), low.size(), low[0], low[0]) ==
              static_cast<__int128>(std::numeric_limits<int64_t>::min()) * 1001);
  // INT32 sums in halves, blocks of 2^15 values per lane: extremes (each half at its limit) over
  // several blocks, and -1 (high half -1, low half 0xffff).
  for (const int32_t v : {std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(), int32_t{-1}}) {
    const std::vector<int32_t> same(8 * 32768 * 2 + 13, v);
    for (size_t n : {size_t{8 * 32768}, size_t{8 * 32768 + 8}, same.size()}) {
      EXPECT_EQ(SumRun(same.data(), n), static_cast<int64_t>(v) * static_cast<int64_t>(n)) << v << " n " << n;
    }
  }
  // Just inside the bound: 2 values of 2^62 - 1 sum to 2^63 - 2, in int64.
  const std::vector<int64_t> edge(2, (int64_t{1} << 62) - 1);
  EXPECT_TRUE(SumRun(edge.data(), edge.size(), edge[0], edge[0]) == static_cast<__int128>(edge[0]) * 2);
}

TEST(RunReduceTest, BooleanSumCountsTrues) {
  std::mt19937 rng(3);
  std::vector<uint8_t> bools(999);
  uint64_t trues = 0;
  for (uint8_t& b : bools) trues += (b = rng() % 2);
  EXPECT_EQ(SumRun(bools.data(), bools.size()), trues);
  EXPECT_EQ(SumRun(bools.data(), 0), 0u);
}

// Byte counters that are added up every 255 vectors: all-true runs (each byte lane at its limit),
// lengths around that flush and around the vector width, unaligned starts, nonzero bytes other
// than 1.
TEST(RunReduceTest, BooleanSumCountsEveryNonzeroByteAcrossFlushes) {
  std::mt19937 rng(5);
  std::vector<uint8_t> ones(3 * 255 * 32 + 100, 1);
  std::vector<uint8_t> mixed(ones.size());
  for (uint8_t& b : mixed) b = rng() % 3 == 0 ? 0 : static_cast<uint8_t>(1 + rng() % 255);
  for (size_t start : {size_t{0}, size_t{1}, size_t{31}}) {
    for (size_t n : {size_t{0}, size_t{31}, size_t{32}, size_t{33}, size_t{255 * 32 - 1}, size_t{255 * 32},
                     size_t{255 * 32 + 1}, size_t{2 * 255 * 32 + 17}, ones.size() - start}) {
      EXPECT_EQ(SumRun(ones.data() + start, n), n) << "start " << start << " n " << n;
      uint64_t want = 0;
      for (size_t i = 0; i < n; ++i) want += mixed[start + i] != 0;
      EXPECT_EQ(SumRun(mixed.data() + start, n), want) << "start " << start << " n " << n;
    }
  }
}

TEST(RunReduceTest, FloatSumsFollowTheDocumentedLanes) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::vector<double> d = RandomFloats<double>(777 + seed, seed);
    std::vector<float> f = RandomFloats<float>(777 + seed, seed);
    // Finite values only, so that a wrong order shows as different bits, not NaN.
    for (double& v : d) v = std::isfinite(v) && std::fabs(v) < 1e6 ? v : 0.1 * seed;
    for (float& v : f) v = std::isfinite(v) && std::fabs(v) < 1e6f ? v : 0.1f * static_cast<float>(seed);
    for (size_t start = 0; start < 4; ++start) {
      for (size_t n = 0; n <= 70; ++n) {
        ASSERT_TRUE(SameBits(SumRun(d.data() + start, n), LaneSum(d.data() + start, n))) << "n " << n;
        ASSERT_TRUE(SameBits(SumRun(f.data() + start, n), LaneSum(f.data() + start, n))) << "n " << n;
      }
      EXPECT_TRUE(SameBits(SumRun(d.data() + start, d.size() - start), LaneSum(d.data() + start, d.size() - start)));
    }
  }
  const std::vector<double> nan_inside = {1, 2, std::numeric_limits<double>::quiet_NaN(), 4, 5};
  EXPECT_TRUE(std::isnan(SumRun(nan_inside.data(), nan_inside.size())));
}

}  // namespace
}  // namespace tsread

#include "tsread/read/page_times.h"

#include <cstring>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/common/cpu_dispatch.h"
#include "tsread/io/status_macros.h"

#if TSREAD_AVX2_DISPATCH
#include <immintrin.h>
#endif

namespace tsread {
namespace {

absl::Status Corrupt(const ChunkHeader& chunk, const PageRef& page, std::string_view what) {
  return absl::DataLossError(absl::StrCat("column \"", ToAbsl(chunk.measurement), "\" (chunk at offset ",
                                          chunk.offset, ", page at offset ", page.header.offset,
                                          "): corrupt times: ", ToAbsl(what)));
}

// Whether every time is after the one before it. The signed comparison is written with
// subtraction, xor and and (Hacker's Delight 2-12: x < y iff the sign bit of
// (x - y) ^ ((x ^ y) & ((x - y) ^ x)) is set, exact also where x - y overflows), which the
// baseline x86-64 ISA vectorizes (it has no 64-bit compare) two lanes at a time; the check costs
// the time-only scan little.
TSREAD_ALWAYS_INLINE bool StrictlyIncreasingLoop(std::span<const int64_t> times) {
  uint64_t all_less = ~uint64_t{0};
  for (size_t r = 1; r < times.size(); ++r) {
    const uint64_t x = static_cast<uint64_t>(times[r - 1]), y = static_cast<uint64_t>(times[r]);
    const uint64_t d = x - y;
    all_less &= d ^ ((x ^ y) & (d ^ x));
  }
  return (all_less >> 63) != 0;
}

#if TSREAD_AVX2_DISPATCH
// The same with AVX2's signed 64-bit compare, four times a step (the loop above took 6 operations
// a lane, 1 % of a scan of the benchmark file); the last times, fewer than four, by the loop.
TSREAD_TARGET_AVX2 bool StrictlyIncreasingAvx2(std::span<const int64_t> times) {
  __m256i all_after = _mm256_set1_epi64x(-1);
  size_t r = 1;
  for (; r + 4 <= times.size(); r += 4) {
    const __m256i before = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(times.data() + r - 1));
    const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(times.data() + r));
    all_after = _mm256_and_si256(all_after, _mm256_cmpgt_epi64(at, before));
  }
  return _mm256_movemask_epi8(all_after) == -1 && StrictlyIncreasingLoop(times.subspan(r - 1));
}
#endif

// The first row whose time is not after the one before it (times must not be increasing).
size_t FirstNonIncreasing(std::span<const int64_t> times) {
  for (size_t r = 1; r < times.size(); ++r) {
    if (times[r] <= times[r - 1]) return r;
  }
  return times.size();
}

}  // namespace

bool StrictlyIncreasing(std::span<const int64_t> times) {
#if TSREAD_AVX2_DISPATCH
  if (CpuHasAvx2()) return StrictlyIncreasingAvx2(times);
#endif
  return StrictlyIncreasingLoop(times);
}

absl::Status CheckPageTimes(const ChunkHeader& chunk, const PageRef& page, std::span<const int64_t> times,
                            const Statistics& chunk_statistics, std::optional<int64_t> previous) {
  if (times.empty()) return absl::OkStatus();
  if (!StrictlyIncreasing(times)) {
    const size_t r = FirstNonIncreasing(times);
    return Corrupt(chunk, page, absl::StrCat("time ", times[r], " of row ", r, " is not after ", times[r - 1],
                                             " (times increase within a chunk)"));
  }
  if (previous.has_value() && times.front() <= *previous) {
    return Corrupt(chunk, page, absl::StrCat("the page starts at ", times.front(), ", not after the previous page's ",
                                             "last time ", *previous));
  }
  int64_t low = chunk_statistics.start_time;
  int64_t high = chunk_statistics.end_time;
  const char* source = "its chunk's statistics";
  if (page.header.statistics.has_value()) {
    low = std::max(low, page.header.statistics->start_time);
    high = std::min(high, page.header.statistics->end_time);
    source = "its page's and chunk's statistics";
  }
  if (times.front() < low || times.back() > high) {
    return Corrupt(chunk, page, absl::StrCat("times ", times.front(), "..", times.back(), " lie outside ", source,
                                             " (", low, "..", high, ")"));
  }
  return absl::OkStatus();
}

void KeepRowsInRange(const TimeRange& range, std::vector<int64_t>& times, std::span<ColumnVector> columns) {
  const size_t begin = static_cast<size_t>(std::lower_bound(times.begin(), times.end(), range.start) - times.begin());
  const size_t end = static_cast<size_t>(std::upper_bound(times.begin(), times.end(), range.end) - times.begin());
  if (begin == 0 && end == times.size()) return;
  const size_t kept = end > begin ? end - begin : 0;
  if (begin > 0 && kept > 0) std::memmove(times.data(), times.data() + begin, kept * sizeof(int64_t));
  times.resize(kept);
  for (ColumnVector& column : columns) column.KeepRange(begin, begin + kept);
}

}  // namespace tsread

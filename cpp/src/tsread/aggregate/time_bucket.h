// Time buckets: `origin + floor((t - origin) / width) * width` in the file's time unit (times
// before the origin floor down, so every bucket holds `width` consecutive times). Origin 0 by
// default, as DuckDB's time_bucket for epoch numbers; IoTDB's GROUP BY ([start, end), step)
// starts its buckets at `start`, which an origin gives.
#ifndef TSREAD_AGGREGATE_TIME_BUCKET_H_
#define TSREAD_AGGREGATE_TIME_BUCKET_H_

#include <cstdint>
#include <limits>

namespace tsread {

class TimeBuckets {
 public:
  // width 0: one bucket for all times.
  // The origin is kept modulo the width: the same boundaries, and every index fits an int64.
  explicit TimeBuckets(int64_t width, int64_t origin = 0)
      : width_(width), origin_(width > 0 ? ((origin % width) + width) % width : 0) {}

  bool enabled() const { return width_ > 0; }
  // Which bucket `t` falls in (0 for every time without buckets).
  int64_t Index(int64_t t) const {
    if (width_ <= 0) return 0;
    const __int128 d = static_cast<__int128>(t) - origin_;
    const __int128 q = d / width_;
    return static_cast<int64_t>((d % width_ != 0 && d < 0) ? q - 1 : q);
  }
  // The first time of bucket `index`; INT64_MIN for the bucket that would start before it (times
  // within `width` of INT64_MIN).
  int64_t Start(int64_t index) const {
    const __int128 start = static_cast<__int128>(index) * width_ + origin_;
    return start < std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::min()
                                                       : static_cast<int64_t>(start);
  }
  // The last time of bucket `index`, INT64_MAX when it would end after it.
  int64_t End(int64_t index) const {
    const __int128 end = static_cast<__int128>(index) * width_ + origin_ + width_ - 1;
    return end > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(end);
  }

 private:
  int64_t width_;
  int64_t origin_;
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_TIME_BUCKET_H_

// Time buckets: `floor(t / width) * width` in the file's time unit, origin 0 (negative times floor
// down, so every bucket holds `width` consecutive times).
#ifndef TSREAD_AGGREGATE_TIME_BUCKET_H_
#define TSREAD_AGGREGATE_TIME_BUCKET_H_

#include <cstdint>
#include <limits>

namespace tsread {

class TimeBuckets {
 public:
  // width 0: one bucket for all times.
  explicit TimeBuckets(int64_t width) : width_(width) {}

  bool enabled() const { return width_ > 0; }
  // Which bucket `t` falls in (0 for every time without buckets).
  int64_t Index(int64_t t) const {
    if (width_ <= 0) return 0;
    const int64_t q = t / width_;
    return (t % width_ != 0 && t < 0) ? q - 1 : q;
  }
  // The first time of bucket `index`; INT64_MIN for the bucket that would start before it (times
  // within `width` of INT64_MIN).
  int64_t Start(int64_t index) const {
    const __int128 start = static_cast<__int128>(index) * width_;
    return start < std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::min()
                                                       : static_cast<int64_t>(start);
  }
  // The last time of bucket `index`, INT64_MAX when it would end after it.
  int64_t End(int64_t index) const {
    const __int128 end = static_cast<__int128>(index) * width_ + width_ - 1;
    return end > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(end);
  }

 private:
  int64_t width_;
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_TIME_BUCKET_H_

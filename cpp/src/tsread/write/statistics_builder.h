// Building the Statistics of pages, chunks and series (format reference §4; J: file.metadata
// .statistics.*Statistics). A page's statistics come from its values; a chunk's merge its pages',
// a series' merge its chunks', in order, as Java's mergeStatistics does (so sums add up in the
// same order). Empty statistics serialize with startTime = Long.MAX and endTime = Long.MIN.
// FLOAT/DOUBLE min/max follow Java exactly: the first value starts them, later values win only by
// `<`/`>`, so a NaN first value stays (tsread's VerifyFile expects the same).
#ifndef TSREAD_WRITE_STATISTICS_BUILDER_H_
#define TSREAD_WRITE_STATISTICS_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

class StatisticsBuilder {
 public:
  // `type` is the series' data type; VECTOR for the aligned time column.
  explicit StatisticsBuilder(DataType type) : type_(type) {}

  DataType type() const { return type_; }
  uint32_t count() const { return count_; }
  int64_t start_time() const { return start_time_; }
  int64_t end_time() const { return end_time_; }

  // Adds values in time order: times[i] is the time of the i-th (non-null) value. Use the
  // overload of the series' physical type; AddTimes for the time column.
  void AddTimes(const int64_t* times, size_t n);
  void Add(const int64_t* times, const uint8_t* bools, size_t n);
  void Add(const int64_t* times, const int32_t* values, size_t n);
  void Add(const int64_t* times, const int64_t* values, size_t n);
  void Add(const int64_t* times, const float* values, size_t n);
  void Add(const int64_t* times, const double* values, size_t n);
  void Add(const int64_t* times, const std::string_view* values, size_t n);

  // Merges statistics of later data of the same type (Java mergeStatistics).
  void Merge(const StatisticsBuilder& later);

  // Appends the §4 serialization.
  void SerializeTo(std::string& out) const;

 private:
  template <typename T>
  void AddFloating(const int64_t* times, const T* values, size_t n);
  void AddTimeRange(const int64_t* times, size_t n);

  DataType type_;
  uint32_t count_ = 0;
  int64_t start_time_ = std::numeric_limits<int64_t>::max();
  int64_t end_time_ = std::numeric_limits<int64_t>::min();
  // INT32/DATE/INT64/TIMESTAMP (widened), BOOLEAN first/last as 0/1.
  int64_t int_min_ = 0, int_max_ = 0, int_first_ = 0, int_last_ = 0, int_sum_ = 0;
  double float_min_ = 0, float_max_ = 0, float_first_ = 0, float_last_ = 0, float_sum_ = 0;
  std::string bin_first_, bin_last_, bin_min_, bin_max_;
};

// The order of STRING min/max: unsigned bytes, then shorter first. Java-written files show this
// order (e.g. max "模式-ß" over "mode_0" in the fixtures); old Binary.compareTo compared signed bytes.
int CompareBinaryValues(std::string_view a, std::string_view b);

}  // namespace tsread

#endif  // TSREAD_WRITE_STATISTICS_BUILDER_H_

#include "tsread/write/statistics_builder.h"

#include <cmath>

#include "tsread/write/byte_appender.h"

namespace tsread {
namespace {

// Java's FloatStatistics/DoubleStatistics updates: a plain comparison, which NaN never wins (so a
// NaN first value stays min/max, as in Java-written files).
void UpdateFloatMin(double& current, double v) {
  if (v < current) current = v;
}
void UpdateFloatMax(double& current, double v) {
  if (v > current) current = v;
}

}  // namespace

int CompareBinaryValues(std::string_view a, std::string_view b) { return a.compare(b); }

void StatisticsBuilder::AddTimeRange(const int64_t* times, size_t n) {
  // Times of one series arrive in increasing order.
  if (count_ == 0) start_time_ = times[0];
  end_time_ = times[n - 1];
}

void StatisticsBuilder::AddTimes(const int64_t* times, size_t n) {
  if (n == 0) return;
  AddTimeRange(times, n);
  count_ += static_cast<uint32_t>(n);
}

void StatisticsBuilder::Add(const int64_t* times, const uint8_t* bools, size_t n) {
  if (n == 0) return;
  int64_t trues = 0;
  for (size_t i = 0; i < n; ++i) trues += bools[i] != 0;
  if (count_ == 0) int_first_ = bools[0] != 0;
  int_last_ = bools[n - 1] != 0;
  int_sum_ += trues;
  AddTimes(times, n);
}

void StatisticsBuilder::Add(const int64_t* times, const int32_t* values, size_t n) {
  if (n == 0) return;
  if (count_ == 0) int_min_ = int_max_ = int_first_ = values[0];
  int64_t lo = int_min_, hi = int_max_, sum = 0;
  for (size_t i = 0; i < n; ++i) {
    lo = values[i] < lo ? values[i] : lo;
    hi = values[i] > hi ? values[i] : hi;
    sum += values[i];
  }
  int_min_ = lo;
  int_max_ = hi;
  int_sum_ += sum;
  int_last_ = values[n - 1];
  AddTimes(times, n);
}

void StatisticsBuilder::Add(const int64_t* times, const int64_t* values, size_t n) {
  if (n == 0) return;
  size_t i = 0;
  if (count_ == 0) {
    // LongStatistics keeps a double sum, initialised with the first value.
    int_min_ = int_max_ = int_first_ = values[0];
    float_sum_ = static_cast<double>(values[0]);
    i = 1;
  }
  int64_t lo = int_min_, hi = int_max_;
  double sum = float_sum_;
  for (; i < n; ++i) {
    lo = values[i] < lo ? values[i] : lo;
    hi = values[i] > hi ? values[i] : hi;
    sum += static_cast<double>(values[i]);
  }
  int_min_ = lo;
  int_max_ = hi;
  float_sum_ = sum;
  int_last_ = values[n - 1];
  AddTimes(times, n);
}

// FloatStatistics and DoubleStatistics differ only in the value width; both keep a double sum.
template <typename T>
void StatisticsBuilder::AddFloating(const int64_t* times, const T* values, size_t n) {
  if (n == 0) return;
  size_t i = 0;
  if (count_ == 0) {
    float_min_ = float_max_ = float_first_ = float_sum_ = values[0];
    i = 1;
  }
  for (; i < n; ++i) {
    UpdateFloatMin(float_min_, values[i]);
    UpdateFloatMax(float_max_, values[i]);
    float_sum_ += static_cast<double>(values[i]);
  }
  float_last_ = values[n - 1];
  AddTimes(times, n);
}

void StatisticsBuilder::Add(const int64_t* times, const float* values, size_t n) { AddFloating(times, values, n); }
void StatisticsBuilder::Add(const int64_t* times, const double* values, size_t n) { AddFloating(times, values, n); }

void StatisticsBuilder::Add(const int64_t* times, const std::string_view* values, size_t n) {
  if (n == 0) return;
  if (type_ == DataType::kString) {
    std::string_view lo = count_ == 0 ? values[0] : std::string_view(bin_min_);
    std::string_view hi = count_ == 0 ? values[0] : std::string_view(bin_max_);
    for (size_t i = 0; i < n; ++i) {
      if (CompareBinaryValues(values[i], lo) < 0) lo = values[i];
      if (CompareBinaryValues(values[i], hi) > 0) hi = values[i];
    }
    // Assign through temporaries: lo/hi may view bin_min_/bin_max_ themselves.
    std::string new_min(lo), new_max(hi);
    bin_min_ = std::move(new_min);
    bin_max_ = std::move(new_max);
  }
  if (type_ == DataType::kString || type_ == DataType::kText) {
    if (count_ == 0) bin_first_.assign(values[0]);
    bin_last_.assign(values[n - 1]);
  }
  AddTimes(times, n);
}

void StatisticsBuilder::Merge(const StatisticsBuilder& later) {
  if (later.count_ == 0) return;
  if (count_ == 0) {
    *this = later;
    return;
  }
  start_time_ = later.start_time_ < start_time_ ? later.start_time_ : start_time_;
  end_time_ = later.end_time_ > end_time_ ? later.end_time_ : end_time_;
  count_ += later.count_;
  switch (type_) {
    case DataType::kBoolean:
      int_last_ = later.int_last_;
      int_sum_ += later.int_sum_;
      break;
    case DataType::kInt32:
    case DataType::kDate:
    case DataType::kInt64:
    case DataType::kTimestamp:
      int_min_ = later.int_min_ < int_min_ ? later.int_min_ : int_min_;
      int_max_ = later.int_max_ > int_max_ ? later.int_max_ : int_max_;
      int_last_ = later.int_last_;
      int_sum_ += later.int_sum_;
      float_sum_ += later.float_sum_;
      break;
    case DataType::kFloat:
    case DataType::kDouble:
      UpdateFloatMin(float_min_, later.float_min_);
      UpdateFloatMax(float_max_, later.float_max_);
      float_last_ = later.float_last_;
      float_sum_ += later.float_sum_;
      break;
    case DataType::kString:
      if (CompareBinaryValues(later.bin_min_, bin_min_) < 0) bin_min_ = later.bin_min_;
      if (CompareBinaryValues(later.bin_max_, bin_max_) > 0) bin_max_ = later.bin_max_;
      bin_last_ = later.bin_last_;
      break;
    case DataType::kText:
      bin_last_ = later.bin_last_;
      break;
    default:
      break;
  }
}

void StatisticsBuilder::SerializeTo(std::string& out) const {
  AppendUVarInt(out, count_);
  AppendI64(out, start_time_);
  AppendI64(out, end_time_);
  switch (type_) {
    case DataType::kBoolean:
      AppendU8(out, static_cast<uint8_t>(int_first_));
      AppendU8(out, static_cast<uint8_t>(int_last_));
      AppendI64(out, int_sum_);
      break;
    case DataType::kInt32:
    case DataType::kDate:
      AppendI32(out, static_cast<int32_t>(int_min_));
      AppendI32(out, static_cast<int32_t>(int_max_));
      AppendI32(out, static_cast<int32_t>(int_first_));
      AppendI32(out, static_cast<int32_t>(int_last_));
      AppendI64(out, int_sum_);
      break;
    case DataType::kInt64:
    case DataType::kTimestamp:
      AppendI64(out, int_min_);
      AppendI64(out, int_max_);
      AppendI64(out, int_first_);
      AppendI64(out, int_last_);
      AppendF64(out, float_sum_);
      break;
    case DataType::kFloat:
      AppendF32(out, static_cast<float>(float_min_));
      AppendF32(out, static_cast<float>(float_max_));
      AppendF32(out, static_cast<float>(float_first_));
      AppendF32(out, static_cast<float>(float_last_));
      AppendF64(out, float_sum_);
      break;
    case DataType::kDouble:
      AppendF64(out, float_min_);
      AppendF64(out, float_max_);
      AppendF64(out, float_first_);
      AppendF64(out, float_last_);
      AppendF64(out, float_sum_);
      break;
    case DataType::kText:
      AppendIntString(out, bin_first_);
      AppendIntString(out, bin_last_);
      break;
    case DataType::kString:
      AppendIntString(out, bin_first_);
      AppendIntString(out, bin_last_);
      AppendIntString(out, bin_min_);
      AppendIntString(out, bin_max_);
      break;
    default:  // BLOB and VECTOR (time) have no type-specific part
      break;
  }
}

}  // namespace tsread

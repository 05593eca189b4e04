// ColumnAggregate (column_aggregate.h).
#include "tsread/aggregate/column_aggregate.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <type_traits>

#include "tsread/aggregate/run_reduce.h"

namespace tsread {
namespace {

// |v| without overflow (|INT64_MIN| = 2^63).
unsigned __int128 Magnitude(int64_t v) {
  return v < 0 ? static_cast<unsigned __int128>(-(static_cast<__int128>(v))) : static_cast<unsigned __int128>(v);
}

// Min, max, sum and count of the valid rows in [first, last] of a numeric column.
template <typename Acc, typename Sum>
struct RunSummary {
  Acc lo, hi;
  Sum sum = 0;
  uint64_t n = 0;
};

// Seeded with lo/hi (the values so far), compared as TakeMinMax does (`v < lo ? v : lo`: NaN never
// replaces). Without nulls, the run's vector reductions (run_reduce.h): min and max in the
// column's own type (FLOAT as float, INT32 as int32: the seeds are values of that type), exactly
// as one chain; a FLOAT/DOUBLE sum in run_reduce's fixed lanes, which may round differently from
// one chain, as column_aggregate.h allows. BOOLEAN values are 0/1 (their sum is the trues).
template <typename Acc, typename Sum, typename T>
RunSummary<Acc, Sum> Summarize(const ColumnVector& values, const T* data, size_t first, size_t last, Acc lo, Acc hi) {
  RunSummary<Acc, Sum> out{lo, hi};
  if (values.null_count == 0) {
    const size_t n = last - first + 1;
    out.n = n;
    if constexpr (std::is_same_v<T, uint8_t>) {  // BOOLEAN has no min or max
      out.sum = static_cast<Sum>(SumRun(data + first, n));
    } else {
      T l = static_cast<T>(lo), h = static_cast<T>(hi);
      ExtendRange(data + first, n, l, h);
      out.lo = static_cast<Acc>(l);
      out.hi = static_cast<Acc>(h);
      if constexpr (std::is_same_v<T, int64_t>) {
        out.sum = SumRun(data + first, n, l, h);  // every value lies in [l, h]
      } else {
        out.sum = static_cast<Sum>(SumRun(data + first, n));
      }
    }
    return out;
  }
  const auto take = [](Acc v, Acc& l, Acc& h, Sum& sum) {
    l = v < l ? v : l;
    h = v > h ? v : h;
    sum += v;
  };
  size_t r = first;
  for (; r <= last; ++r) {
    if (!values.IsValid(r)) continue;
    take(static_cast<Acc>(data[r]), out.lo, out.hi, out.sum);
    ++out.n;
  }
  return out;
}

// The first and last rows of [begin, end) that hold a value; false when none does.
bool FirstAndLastValid(const ColumnVector& values, size_t begin, size_t end, size_t& first, size_t& last) {
  const bool all_valid = values.null_count == 0;
  first = begin;
  while (first < end && !all_valid && !values.IsValid(first)) ++first;
  if (first >= end) return false;
  last = end - 1;
  while (!all_valid && !values.IsValid(last)) --last;
  return true;
}

// The sum of the valid rows [first, last] of a FLOAT/DOUBLE column as a WideSum: where a double's
// partial sums overflowed (values near ±DBL_MAX) though the values' sum may not.
template <typename T>
WideSum WideSumOf(const ColumnVector& values, const T* data, size_t first, size_t last) {
  WideSum sum;
  const bool all_valid = values.null_count == 0;
  for (size_t r = first; r <= last; ++r) {
    if (all_valid || values.IsValid(r)) sum.Add(static_cast<long double>(data[r]));
  }
  return sum;
}

// The sum of |v| over the valid rows [0, n) of a FLOAT/DOUBLE column.
template <typename T>
double AbsoluteSum(const ColumnVector& values, const std::vector<T>& data, size_t n) {
  double sum = 0;
  for (size_t r = 0; r < n; ++r) {
    if (values.IsValid(r)) sum += std::fabs(static_cast<double>(data[r]));
  }
  return sum;
}

}  // namespace

ColumnAggregate::ColumnAggregate(DataType type) : type_(type) {
  if (PhysicalTypeOf(type) == PhysicalType::kBinary) texts_ = std::make_unique<Texts>();
}

ColumnAggregate::ColumnAggregate(const ColumnAggregate& other)
    : type_(other.type_),
      count_(other.count_),
      first_time_(other.first_time_),
      last_time_(other.last_time_),
      first_(other.first_),
      last_(other.last_),
      min_(other.min_),
      max_(other.max_),
      int_sum_(other.int_sum_),
      float_sum_(other.float_sum_),
      wide_sum_(other.wide_sum_ != nullptr ? std::make_unique<WideSum>(*other.wide_sum_) : nullptr),
      texts_(other.texts_ != nullptr ? std::make_unique<Texts>(*other.texts_) : nullptr) {}

ColumnAggregate& ColumnAggregate::operator=(const ColumnAggregate& other) {
  if (this != &other) *this = ColumnAggregate(other);
  return *this;
}

AggregateValue ColumnAggregate::Get(const Number& number, std::string Texts::*text) const {
  AggregateValue v;
  if (binary()) {
    v.s = (*texts_).*text;
  } else if (IsFloatType(type_)) {
    v.d = number.d;
  } else {
    v.i = number.i;
  }
  return v;
}

void ColumnAggregate::Set(Number& number, std::string Texts::*text, const AggregateValue& v) {
  if (binary()) {
    (*texts_).*text = v.s;
  } else if (IsFloatType(type_)) {
    number.d = v.d;
  } else {
    number.i = v.i;
  }
}

bool ColumnAggregate::has_min_max() const {
  return IsIntegerType(type_) || IsFloatType(type_) || type_ == DataType::kString;
}

bool ColumnAggregate::has_sum() const {
  return type_ == DataType::kInt32 || type_ == DataType::kInt64 || IsFloatType(type_) || type_ == DataType::kBoolean;
}

bool ColumnAggregate::has_avg() const { return has_sum() && type_ != DataType::kBoolean; }

double ColumnAggregate::avg() const {
  const long double n = static_cast<long double>(count_);
  if (IsFloatType(type_)) {
    if (wide_sum_ != nullptr) return static_cast<double>(WideSum{wide_sum_->sum / n, wide_sum_->error / n}.ToDouble());
    return static_cast<double>(static_cast<long double>(float_sum_) / n);
  }
  return static_cast<double>(static_cast<long double>(int_sum_) / n);
}

double ColumnAggregate::float_sum() const { return wide_sum_ != nullptr ? wide_sum_->ToDouble() : float_sum_; }

void ColumnAggregate::AddToSum(double x) {
  if (wide_sum_ == nullptr) {
    const double t = float_sum_ + x;
    if (std::isfinite(t)) {
      float_sum_ = t;
      return;
    }
    wide_sum_ = std::make_unique<WideSum>();
    wide_sum_->Add(float_sum_);
  }
  wide_sum_->Add(x);
}

void ColumnAggregate::AddToSum(const WideSum& x) {
  if (wide_sum_ == nullptr) {
    wide_sum_ = std::make_unique<WideSum>();
    wide_sum_->Add(float_sum_);
  }
  wide_sum_->Add(x);
}

bool ColumnAggregate::StatisticsAreExact(const Statistics& s) const {
  if (s.count == 0) return true;
  if (IsFloatType(type_)) return std::isfinite(s.float_sum);
  if (type_ != DataType::kInt64) return true;
  // Every partial sum is at most count * max(|min|, |max|) in magnitude; within 2^53 each
  // addition of integers in a double is exact.
  const unsigned __int128 bound = std::max(Magnitude(s.int_min), Magnitude(s.int_max));
  constexpr double kExact = 9007199254740992.0;  // 2^53
  // A sum that is no integer within that range (a corrupt file's) is not believed either.
  return bound * s.count <= (static_cast<unsigned __int128>(1) << 53) && std::isfinite(s.float_sum) &&
         std::fabs(s.float_sum) <= kExact && s.float_sum == std::floor(s.float_sum);
}

void ColumnAggregate::AddStatistics(const Statistics& s) {
  if (s.count == 0) return;
  ColumnAggregate part(type_);
  part.count_ = s.count;
  part.first_time_ = s.start_time;
  part.last_time_ = s.end_time;
  switch (type_) {
    case DataType::kBoolean:
      part.first_.i = s.bool_first ? 1 : 0;
      part.last_.i = s.bool_last ? 1 : 0;
      part.int_sum_ = s.int_sum;
      break;
    case DataType::kInt32:
    case DataType::kDate:
    case DataType::kInt64:
    case DataType::kTimestamp:
      part.first_.i = s.int_first;
      part.last_.i = s.int_last;
      part.min_.i = s.int_min;
      part.max_.i = s.int_max;
      // INT32 keeps an i64 sum, INT64 a double one (exact here: StatisticsAreExact).
      part.int_sum_ = type_ == DataType::kInt32 ? static_cast<__int128>(s.int_sum) : static_cast<__int128>(s.float_sum);
      break;
    case DataType::kFloat:
    case DataType::kDouble:
      part.first_.d = s.float_first;
      part.last_.d = s.float_last;
      part.min_.d = s.float_min;
      part.max_.d = s.float_max;
      part.float_sum_ = s.float_sum;
      break;
    default:  // TEXT, STRING, BLOB
      part.texts_->first = s.bin_first;
      part.texts_->last = s.bin_last;
      part.texts_->min = s.bin_min;  // STRING only (exact_statistics.h says when they are exact)
      part.texts_->max = s.bin_max;
      break;
  }
  Merge(part);
}

void ColumnAggregate::AddRow(const ColumnVector& values, size_t r, int64_t time) {
  if (!values.IsValid(r)) return;
  AggregateValue v;
  switch (PhysicalTypeOf(type_)) {
    case PhysicalType::kBoolean: v.i = values.bools[r] != 0; break;
    case PhysicalType::kInt32: v.i = values.int32s[r]; break;
    case PhysicalType::kInt64: v.i = values.int64s[r]; break;
    case PhysicalType::kFloat: v.d = values.floats[r]; break;
    case PhysicalType::kDouble: v.d = values.doubles[r]; break;
    case PhysicalType::kBinary: v.s = std::string(values.binary(r)); break;
  }
  AddValue(v, time);
}

template <typename T, typename Store>
void ColumnAggregate::AddNumbers(const ColumnVector& values, const T* data, const int64_t* times, size_t begin,
                                 size_t end, Store store) {
  // The numeric case: `store(value, slot)` writes a value into the member its type uses. One typed
  // loop over the rows (skipping nulls when there are any), no AggregateValue per row; first and
  // last are the first and last valid rows (rows ascend in time).
  size_t first = 0, last = 0;
  if (!FirstAndLastValid(values, begin, end, first, last)) return;
  AggregateValue edge;
  store(data[first], edge);
  if (count_ == 0) {
    Set(min_, &Texts::min, edge);
    Set(max_, &Texts::max, edge);
  }
  TakeFirst(edge, times[first]);
  store(data[last], edge);
  TakeLast(edge, times[last]);
  if constexpr (std::is_floating_point_v<T>) {
    const RunSummary<double, double> run = Summarize<double, double>(values, data, first, last, min_.d, max_.d);
    min_.d = run.lo;
    max_.d = run.hi;
    if (std::isfinite(run.sum)) {
      AddToSum(run.sum);
    } else {
      AddToSum(WideSumOf(values, data, first, last));
    }
    count_ += run.n;
  } else {
    const bool boolean = type_ == DataType::kBoolean;
    const RunSummary<int64_t, __int128> run = Summarize<int64_t, __int128>(values, data, first, last, min_.i, max_.i);
    if (!boolean) {
      min_.i = run.lo;
      max_.i = run.hi;
    }
    if (type_ == DataType::kInt32 || type_ == DataType::kInt64 || boolean) int_sum_ += run.sum;
    count_ += run.n;
  }
}

void ColumnAggregate::AddBinaries(const ColumnVector& values, const int64_t* times, size_t begin, size_t end) {
  // TEXT/STRING/BLOB keep count, first and last: only the first and last valid rows are copied;
  // STRING also min and max, found as views and copied once.
  const bool all_valid = values.null_count == 0;
  size_t first = 0, last = 0;
  if (!FirstAndLastValid(values, begin, end, first, last)) return;
  uint64_t n = last - first + 1;
  for (size_t r = first; !all_valid && r <= last; ++r) n -= !values.IsValid(r);
  if (type_ == DataType::kString) {
    std::string_view lo = values.binary(first), hi = lo;
    for (size_t r = first + 1; r <= last; ++r) {
      if (!all_valid && !values.IsValid(r)) continue;
      const std::string_view v = values.binary(r);
      if (v < lo) lo = v;  // char_traits<char>: unsigned bytes, i.e. code-point order
      if (v > hi) hi = v;
    }
    AggregateValue run_min, run_max;
    run_min.s = std::string(lo);
    run_max.s = std::string(hi);
    if (count_ == 0) {
      texts_->min = std::move(run_min.s);
      texts_->max = std::move(run_max.s);
    } else {
      TakeMinMax(run_min, run_max);
    }
  }
  AggregateValue edge;
  if (count_ == 0 || times[first] < first_time_) {
    edge.s = std::string(values.binary(first));
    TakeFirst(edge, times[first]);
  }
  if (count_ == 0 || times[last] >= last_time_) {
    edge.s = std::string(values.binary(last));
    TakeLast(edge, times[last]);
  }
  count_ += n;
}

void ColumnAggregate::AddRows(const ColumnVector& values, const int64_t* times, size_t begin, size_t end) {
  const auto as_int = [](int64_t v, AggregateValue& slot) { slot.i = v; };
  const auto as_double = [](double v, AggregateValue& slot) { slot.d = v; };
  switch (PhysicalTypeOf(type_)) {
    case PhysicalType::kBoolean: {
      const auto as_bool = [](uint8_t v, AggregateValue& slot) { slot.i = v != 0; };
      return AddNumbers(values, values.bools.data(), times, begin, end, as_bool);
    }
    case PhysicalType::kInt32: return AddNumbers(values, values.int32s.data(), times, begin, end, as_int);
    case PhysicalType::kInt64: return AddNumbers(values, values.int64s.data(), times, begin, end, as_int);
    case PhysicalType::kFloat: return AddNumbers(values, values.floats.data(), times, begin, end, as_double);
    case PhysicalType::kDouble: return AddNumbers(values, values.doubles.data(), times, begin, end, as_double);
    case PhysicalType::kBinary: return AddBinaries(values, times, begin, end);
  }
}

void ColumnAggregate::TakeFirst(const AggregateValue& v, int64_t time) {
  if (count_ > 0 && time >= first_time_) return;
  Set(first_, &Texts::first, v);
  first_time_ = time;
}

void ColumnAggregate::TakeLast(const AggregateValue& v, int64_t time) {
  if (count_ > 0 && time < last_time_) return;
  Set(last_, &Texts::last, v);
  last_time_ = time;
}

void ColumnAggregate::AddValue(const AggregateValue& v, int64_t time) {
  if (count_ == 0) {
    Set(min_, &Texts::min, v);
    Set(max_, &Texts::max, v);
  } else {
    TakeMinMax(v, v);
  }
  TakeFirst(v, time);
  TakeLast(v, time);
  ++count_;
  if (type_ == DataType::kBoolean || type_ == DataType::kInt32 || type_ == DataType::kInt64) int_sum_ += v.i;
  if (IsFloatType(type_)) AddToSum(v.d);
}

void ColumnAggregate::TakeMinMax(const AggregateValue& min, const AggregateValue& max) {
  if (IsIntegerType(type_)) {
    if (min.i < min_.i) min_.i = min.i;
    if (max.i > max_.i) max_.i = max.i;
  } else if (IsFloatType(type_)) {
    // As the Java statistics update: a NaN compares neither less nor greater, so never replaces.
    if (min.d < min_.d) min_.d = min.d;
    if (max.d > max_.d) max_.d = max.d;
  } else if (type_ == DataType::kString) {
    if (min.s < texts_->min) texts_->min = min.s;  // unsigned bytes
    if (max.s > texts_->max) texts_->max = max.s;
  }
}

void ColumnAggregate::Merge(const ColumnAggregate& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  if (other.first_time_ < first_time_) {
    first_ = other.first_;
    if (binary()) texts_->first = other.texts_->first;
    first_time_ = other.first_time_;
  }
  if (other.last_time_ >= last_time_) {
    last_ = other.last_;
    if (binary()) texts_->last = other.texts_->last;
    last_time_ = other.last_time_;
  }
  TakeMinMax(other.min(), other.max());
  count_ += other.count_;
  int_sum_ += other.int_sum_;
  if (other.wide_sum_ != nullptr) {
    AddToSum(*other.wide_sum_);
  } else {
    AddToSum(other.float_sum_);
  }
}


std::optional<ColumnAggregate> ColumnAggregate::WithoutHead(const ColumnVector& head, const int64_t* times,
                                                            size_t tail) const {
  if (head.length <= tail) return std::nullopt;
  ColumnAggregate before(type_), next(type_);
  before.AddRows(head, times, 0, tail);
  if (before.count_ == 0) return *this;  // the page's values are all the tail's
  if (before.count_ > count_) return std::nullopt;  // statistics that do not describe these rows
  ColumnAggregate out(type_);
  if (before.count_ == count_) return out;  // an all-null tail
  next.AddRows(head, times, tail, tail + 1);
  if (next.count_ == 0) return std::nullopt;
  out.count_ = count_ - before.count_;
  out.first_ = next.first_;
  out.first_time_ = next.first_time_;
  out.last_ = last_;
  out.last_time_ = last_time_;
  out.min_ = min_;
  out.max_ = max_;
  if (binary()) {
    out.texts_->first = next.texts_->first;
    out.texts_->last = texts_->last;
    out.texts_->min = texts_->min;
    out.texts_->max = texts_->max;
  }
  if (has_min_max()) {
    // The page's extreme is the tail's when every head value lies strictly inside it.
    bool inside = false;
    if (IsIntegerType(type_)) {
      inside = before.min_.i > min_.i && before.max_.i < max_.i;
    } else if (IsFloatType(type_)) {
      inside = before.min_.d > min_.d && before.max_.d < max_.d && !std::isnan(next.first_.d);
    } else {
      inside = before.texts_->min > texts_->min && before.texts_->max < texts_->max;
    }
    if (!inside) return std::nullopt;
  }
  out.int_sum_ = int_sum_ - before.int_sum_;
  if (IsFloatType(type_)) {
    if (wide_sum_ != nullptr || before.wide_sum_ != nullptr) return std::nullopt;  // decoded instead
    out.float_sum_ = float_sum_ - before.float_sum_;
    const double magnitude = type_ == DataType::kFloat ? AbsoluteSum(head, head.floats, tail)
                                                       : AbsoluteSum(head, head.doubles, tail);
    if (!std::isfinite(float_sum_) || !std::isfinite(out.float_sum_) || magnitude > std::fabs(out.float_sum_)) {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace tsread

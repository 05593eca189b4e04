// ColumnAggregate: count, min, max, first, last and sum of one FIELD column over a group of rows,
// fed either a series' statistics (format reference §4: what the writer computed over exactly
// those values) or decoded rows, with the same result either way.
//
// Semantics, per type (the rows' time order decides first and last):
//   count          non-null values
//   first / last   the values at the earliest / latest time among the non-null ones
//   min / max      INT32, DATE, INT64, TIMESTAMP, FLOAT, DOUBLE, STRING. FLOAT/DOUBLE as the
//                  Java writer's statistics update them: the first value, then replaced by a
//                  value that compares less (greater), so NaN never replaces one; STRING in
//                  unsigned-byte (code-point) order, as SQL's
//   avg            INT32, INT64, FLOAT, DOUBLE: sum / count
//   sum            INT32, INT64 (exact integers), FLOAT, DOUBLE (a decoded sum may differ from the
//                  statistics' by rounding, as IoTDB's do; where a double sum would overflow, it
//                  goes on in a WideSum, so values near ±DBL_MAX that cancel give their finite
//                  sum, and the sum is NaN only when a value is or infinities of both signs are),
//                  BOOLEAN (the trues)
// TEXT and BLOB give count, first and last (their statistics hold no min or max). A group without values gives count 0 and
// nothing else (null).
#ifndef TSREAD_AGGREGATE_COLUMN_AGGREGATE_H_
#define TSREAD_AGGREGATE_COLUMN_AGGREGATE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "tsread/aggregate/wide_sum.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/statistics.h"
#include "tsread/read/column_vector.h"

namespace tsread {

// One value of a column's type (the member its type uses), as the accessors return it.
struct AggregateValue {
  int64_t i = 0;        // INT32, DATE, INT64, TIMESTAMP, BOOLEAN (0/1)
  double d = 0;         // FLOAT (widened exactly), DOUBLE
  std::string s;        // TEXT, STRING, BLOB
};

class ColumnAggregate {
 public:
  explicit ColumnAggregate(DataType type);
  ColumnAggregate(const ColumnAggregate& other);
  ColumnAggregate& operator=(const ColumnAggregate& other);
  ColumnAggregate(ColumnAggregate&&) noexcept = default;
  ColumnAggregate& operator=(ColumnAggregate&&) noexcept = default;

  DataType type() const { return type_; }
  uint64_t count() const { return count_; }
  int64_t first_time() const { return first_time_; }
  int64_t last_time() const { return last_time_; }
  AggregateValue first() const { return Get(first_, &Texts::first); }
  AggregateValue last() const { return Get(last_, &Texts::last); }
  AggregateValue min() const { return Get(min_, &Texts::min); }
  AggregateValue max() const { return Get(max_, &Texts::max); }
  // Exact for the integer types and BOOLEAN.
  __int128 int_sum() const { return int_sum_; }
  // The FLOAT/DOUBLE sum as a double: ±infinity when it lies beyond the double range.
  double float_sum() const;

  bool has_min_max() const;
  bool has_sum() const;
  // INT32, INT64, FLOAT and DOUBLE: the mean of the values (count > 0), sum / count in long double
  // (an INT64 sum beyond 2^53 stays exact until the division).
  bool has_avg() const;
  double avg() const;

  // Whether `s`, a series' statistics over the group's values of this column, gives exactly what
  // decoding would (the caller has checked the encoding is lossless): an INT64 sum is kept in a
  // double and is exact only while no partial sum can pass 2^53; a FLOAT/DOUBLE sum that is not
  // finite may be the writer's overflow (values near ±DBL_MAX whose sum is finite), so is not
  // believed (decoding gives infinity or NaN where the values do).
  bool StatisticsAreExact(const Statistics& s) const;
  // Adds the values `s` describes (their time range s.start_time..s.end_time).
  void AddStatistics(const Statistics& s);
  // Adds row `r` of `values` (null rows are skipped), at `time`. Rows may come in any order: the
  // earliest time keeps its first value, the latest (the last added among equal times) its last.
  void AddRow(const ColumnVector& values, size_t r, int64_t time);
  // Adds rows [begin, end) of `values` (times[r] the time of row r, ascending): AddRow for each,
  // in typed loops.
  void AddRows(const ColumnVector& values, const int64_t* times, size_t begin, size_t end);
  void AddRows(const ColumnVector& values, const int64_t* times) { AddRows(values, times, 0, values.length); }
  // Adds another group's values of the same column (a later file's: on equal times its last wins
  // and its first does not).
  void Merge(const ColumnAggregate& other);

  // This aggregate being a page's (from its statistics), that of its rows from `tail` on, given
  // the page's rows [0, tail] decoded in `head` (times[r] the time of row r) — exactly what
  // aggregating those rows would give, or nullopt when the head leaves it open:
  //   - min (max) when a head value compares less than or equal to (greater than or equal to) the
  //     page's min (max): the extreme may be in the head alone (or a NaN or signed zero's order
  //     decides);
  //   - the tail's first value when row `tail` is null (it lies further on) or, for FLOAT/DOUBLE,
  //     is NaN (the tail's min and max would start at it);
  //   - a FLOAT/DOUBLE sum, the page's less the head's, when the head's values add up to more, in
  //     magnitude, than the result or either sum is not finite: the difference then stays within
  //     a small multiple of a direct sum's rounding bound (column_aggregate.h: sums may round).
  // Counts, integer and BOOLEAN sums, last values and all-null tails are always exact.
  std::optional<ColumnAggregate> WithoutHead(const ColumnVector& head, const int64_t* times, size_t tail) const;

 private:
  // The kept values are stored compactly — a group holds one ColumnAggregate per column, and a
  // bucketed aggregation holds millions of groups: a number in the member of `Number` its type
  // uses (the integer types and BOOLEAN in i, FLOAT/DOUBLE in d), the strings of TEXT, STRING and
  // BLOB out of line in `texts_` (allocated for those types only).
  union Number {
    int64_t i;
    double d;
  };
  struct Texts {
    std::string first, last, min, max;
  };

  bool binary() const { return texts_ != nullptr; }
  AggregateValue Get(const Number& number, std::string Texts::*text) const;
  void Set(Number& number, std::string Texts::*text, const AggregateValue& v);
  void AddValue(const AggregateValue& v, int64_t time);
  template <typename T, typename Store>
  void AddNumbers(const ColumnVector& values, const T* data, const int64_t* times, size_t begin, size_t end,
                  Store store);
  void AddBinaries(const ColumnVector& values, const int64_t* times, size_t begin, size_t end);
  // A first (last) value at `time` replaces the kept one when earlier (not earlier).
  void TakeFirst(const AggregateValue& v, int64_t time);
  void TakeLast(const AggregateValue& v, int64_t time);
  void TakeMinMax(const AggregateValue& min, const AggregateValue& max);

  DataType type_;
  uint64_t count_ = 0;
  int64_t first_time_ = 0, last_time_ = 0;
  Number first_{0}, last_{0}, min_{0}, max_{0};
  // Adds to the FLOAT/DOUBLE sum: in float_sum_ while that stays finite, else (from then on) in
  // wide_sum_ (wide_sum.h).
  void AddToSum(double x);
  void AddToSum(const WideSum& x);

  __int128 int_sum_ = 0;
  double float_sum_ = 0;
  std::unique_ptr<WideSum> wide_sum_;  // once a double sum overflowed: the sum, float_sum_ unused
  std::unique_ptr<Texts> texts_;
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_COLUMN_AGGREGATE_H_

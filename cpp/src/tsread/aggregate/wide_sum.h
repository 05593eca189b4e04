// WideSum: a FLOAT/DOUBLE sum that cannot overflow on the way — long double partial sums (x86-64:
// 80 bits, exponent to ±16383, so no sum of doubles overflows it) with Neumaier's compensation,
// which keeps what each addition rounds away: values near ±DBL_MAX that cancel leave their small
// companions (1.7e308 + 1.5 - 1.7e308 is 1.5). ColumnAggregate switches to it only when a double
// sum stops being finite, so ordinary sums cost what they did.
#ifndef TSREAD_AGGREGATE_WIDE_SUM_H_
#define TSREAD_AGGREGATE_WIDE_SUM_H_

#include <cmath>
#include <limits>

namespace tsread {

struct WideSum {
  long double sum = 0;
  long double error = 0;  // what the additions rounded away

  void Add(long double x) {
    const long double t = sum + x;
    // Only finite terms have an error to keep (an infinity or NaN makes the sum what it is).
    if (std::isfinite(t)) error += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  void Add(const WideSum& other) {
    Add(other.sum);
    error += other.error;
  }
  // The total as a double: ±infinity said outright beyond the double range (a conversion there is
  // undefined in C++), NaN only when a term was NaN or infinities of both signs met.
  double ToDouble() const {
    const long double total = std::isfinite(sum) ? sum + error : sum;
    constexpr long double kMax = std::numeric_limits<double>::max();
    if (total > kMax) return std::numeric_limits<double>::infinity();
    if (total < -kMax) return -std::numeric_limits<double>::infinity();
    return static_cast<double>(total);
  }
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_WIDE_SUM_H_

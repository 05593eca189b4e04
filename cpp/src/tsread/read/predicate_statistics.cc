// What statistics tell of a predicate (bound_predicate.h): no row can match, every row does, or
// the rows must be decoded to know. Statistics (format reference §4) give a count of non-null
// values and, per type, a min and a max — their order is the writer's: numbers by `<` (so a NaN
// is never a min or max unless it came first, and -0.0 ties with 0.0), STRING by the writer's
// string order (StringVerdict), BOOLEAN only by its sum of trues. TEXT and BLOB hold no min or
// max: only the count answers for them.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "tsread/format/string_order.h"
#include "tsread/read/bound_predicate.h"

namespace tsread {
namespace {

// The verdict of `op` over values within [lo, hi] (inclusive), `full` when no row is null.
template <typename T>
Verdict RangeVerdict(CompareOp op, const std::vector<T>& operands, T lo, T hi, bool full) {
  auto verdict = [&](bool none, bool all) { return none ? Verdict::kNone : (all && full ? Verdict::kAll : Verdict::kSome); };
  if (op == CompareOp::kEq) {
    const bool none = std::all_of(operands.begin(), operands.end(), [&](T v) { return v < lo || v > hi; });
    const bool all = lo == hi && std::any_of(operands.begin(), operands.end(), [&](T v) { return v == lo; });
    return verdict(none, all);
  }
  const T v = operands.front();
  switch (op) {
    case CompareOp::kNe: return verdict(lo == v && hi == v, v < lo || v > hi);
    case CompareOp::kLt: return verdict(lo >= v, hi < v);
    case CompareOp::kLe: return verdict(lo > v, hi <= v);
    case CompareOp::kGt: return verdict(hi <= v, lo > v);
    case CompareOp::kGe: return verdict(hi < v, lo >= v);
    default: return Verdict::kSome;
  }
}

// Bytes compared as signed values, then the shorter first (the Binary.compareTo of some Java
// writers' sources).
int CompareSignedBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const auto x = static_cast<signed char>(a[i]), y = static_cast<signed char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// Whether `v` lies outside [lo, hi] in every order a writer may have kept STRING statistics in.
// The reference files' are in code-point order (table_multi: max "模式-ß" over "mode_9"), which is
// unsigned bytes; Java's String order (UTF-16 units) and the signed bytes of some Binary.compareTo
// versions differ from it for some non-ASCII text, and nothing in the file says which was used.
bool OutsideInEveryOrder(const std::string& v, const std::string& lo, const std::string& hi) {
  auto outside = [&](auto compare) { return compare(v, lo) < 0 || compare(v, hi) > 0; };
  return outside([](std::string_view a, std::string_view b) { return a.compare(b); }) &&
         outside(CompareJavaStrings) && outside(CompareSignedBytes);
}

// STRING min/max bound equality only (their order may not be the predicates' unsigned bytes).
Verdict StringVerdict(const BoundPredicate& p, const Statistics& s, bool full) {
  const std::string &lo = s.bin_min, &hi = s.bin_max;
  auto outside = [&](const std::string& v) { return OutsideInEveryOrder(v, lo, hi); };
  if (p.op == CompareOp::kEq) {
    if (std::all_of(p.bytes.begin(), p.bytes.end(), outside)) return Verdict::kNone;
    const bool all = lo == hi && std::find(p.bytes.begin(), p.bytes.end(), lo) != p.bytes.end();
    return all && full ? Verdict::kAll : Verdict::kSome;
  }
  if (p.op == CompareOp::kNe) {
    if (lo == hi && lo == p.bytes.front()) return Verdict::kNone;
    return outside(p.bytes.front()) && full ? Verdict::kAll : Verdict::kSome;
  }
  return Verdict::kSome;
}

Verdict FloatVerdict(const BoundPredicate& p, const Statistics& s, bool full) {
  // A NaN min or max (the first value was NaN) bounds nothing. A sum that is not NaN proves no
  // value was NaN (NaN + x is NaN); otherwise a NaN may hide among the rows, which matches `!=`
  // and nothing else, so neither "every row" nor "no row of a !=" follows.
  if (std::isnan(s.float_min) || std::isnan(s.float_max)) return Verdict::kSome;
  const bool may_hold_nan = std::isnan(s.float_sum);
  const Verdict v = RangeVerdict<double>(p.op, p.floats, s.float_min, s.float_max, full && !may_hold_nan);
  if (may_hold_nan && p.op == CompareOp::kNe && v == Verdict::kNone) return Verdict::kSome;
  return v;
}

}  // namespace

Verdict StatisticsVerdict(const BoundPredicate& p, const Statistics* values, uint64_t rows) {
  const uint64_t count = values == nullptr ? 0 : values->count;
  const bool full = count >= rows;
  if (p.op == CompareOp::kIsNull) return count == 0 ? Verdict::kAll : (full ? Verdict::kNone : Verdict::kSome);
  if (p.op == CompareOp::kIsNotNull) return count == 0 ? Verdict::kNone : (full ? Verdict::kAll : Verdict::kSome);
  if (count == 0) return Verdict::kNone;  // a comparison needs a value
  if (p.op == CompareOp::kEq && p.ints.empty() && p.floats.empty() && p.bytes.empty()) return Verdict::kNone;
  const Statistics& s = *values;
  switch (p.type) {
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kDate:
    case DataType::kTimestamp:
      return RangeVerdict<int64_t>(p.op, p.ints, s.int_min, s.int_max, full);
    case DataType::kBoolean: {
      // The sum counts the trues: all true, all false, or both.
      const int64_t lo = s.int_sum == static_cast<int64_t>(count) ? 1 : 0;
      const int64_t hi = s.int_sum > 0 ? 1 : 0;
      return RangeVerdict<int64_t>(p.op, p.ints, lo, hi, full);
    }
    case DataType::kFloat:
    case DataType::kDouble: return FloatVerdict(p, s, full);
    case DataType::kString: return StringVerdict(p, s, full);
    default: return Verdict::kSome;  // TEXT, BLOB: no min or max
  }
}

}  // namespace tsread

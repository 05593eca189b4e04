// Binding a ValuePredicate to its column's type (bound_predicate.h).
#include "tsread/read/bound_predicate.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <variant>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

bool IsBinaryType(DataType type) { return PhysicalTypeOf(type) == PhysicalType::kBinary; }

absl::Status Mismatch(const ValuePredicate& p, DataType type, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("predicate ", DescribePredicate(p), ": column \"", p.column,
                                                 "\" is ", ToAbsl(DataTypeName(type)), ", ", ToAbsl(why)));
}

// A number written as text: an integer when it reads as one, else a double.
std::optional<PredicateValue> NumberFromText(std::string_view raw) {
  const absl::string_view text = absl::StripAsciiWhitespace(ToAbsl(raw));
  int64_t i = 0;
  if (absl::SimpleAtoi(text, &i)) return PredicateValue(i);
  double d = 0;
  if (absl::SimpleAtod(text, &d)) return PredicateValue(d);
  return std::nullopt;
}

// YYYY-MM-DD as the YYYYMMDD integer DATE stores (§4).
std::optional<int64_t> DateFromText(std::string_view raw) {
  const absl::string_view text = absl::StripAsciiWhitespace(ToAbsl(raw));
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int64_t y = 0, m = 0, d = 0;
  if (!absl::SimpleAtoi(text.substr(0, 4), &y) || !absl::SimpleAtoi(text.substr(5, 2), &m) ||
      !absl::SimpleAtoi(text.substr(8, 2), &d)) {
    return std::nullopt;
  }
  return y * 10000 + m * 100 + d;
}

// The operand as a number for a numeric column (a string is parsed), or an error.
absl::StatusOr<PredicateValue> NumericOperand(const ValuePredicate& p, DataType type, const PredicateValue& v) {
  if (std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v)) return v;
  if (const std::string* s = std::get_if<std::string>(&v)) {
    if (type == DataType::kDate) {
      if (std::optional<int64_t> date = DateFromText(*s); date.has_value()) return PredicateValue(*date);
    }
    if (std::optional<PredicateValue> number = NumberFromText(*s); number.has_value()) return *number;
    return Mismatch(p, type, absl::StrCat("and '", *s, "' is not a number",
                                          type == DataType::kDate ? " nor a date YYYY-MM-DD" : ""));
  }
  return Mismatch(p, type, "not BOOLEAN");
}

// x op d for integer x, as x op' n with an integer n: the same rows. nullopt when every non-null
// row matches; an empty `ints` list (op kEq) when none does.
void BindIntegerToDouble(CompareOp op, double d, BoundPredicate& out) {
  constexpr double kTwo63 = 9223372036854775808.0;  // 2^63: the first double above INT64_MAX
  auto none = [&] { out.op = CompareOp::kEq; };
  auto all = [&] { out.op = CompareOp::kIsNotNull; };
  auto fits = [&](double n) { return n >= -kTwo63 && n < kTwo63; };
  if (std::isnan(d)) return op == CompareOp::kNe ? all() : none();
  const double f = std::floor(d), c = std::ceil(d);
  switch (op) {
    case CompareOp::kEq:
      if (f == d && fits(d)) out.ints.push_back(static_cast<int64_t>(d));
      return;
    case CompareOp::kNe:
      if (f == d && fits(d)) {
        out.ints.push_back(static_cast<int64_t>(d));
        return;
      }
      return all();
    case CompareOp::kLt:  // x < d  <=>  x < ceil(d)
    case CompareOp::kGe:  // x >= d <=>  x >= ceil(d)
      if (c >= kTwo63) return op == CompareOp::kLt ? all() : none();
      if (c < -kTwo63) return op == CompareOp::kLt ? none() : all();
      out.ints.push_back(static_cast<int64_t>(c));
      return;
    case CompareOp::kLe:  // x <= d <=>  x <= floor(d)
    case CompareOp::kGt:  // x > d  <=>  x > floor(d)
      if (f >= kTwo63) return op == CompareOp::kLe ? all() : none();
      if (f < -kTwo63) return op == CompareOp::kLe ? none() : all();
      out.ints.push_back(static_cast<int64_t>(f));
      return;
    default: return;
  }
}

// `d` rounded to the nearest float (ties to even), without the undefined behaviour of converting
// a double beyond the float range.
double RoundToFloat(double d) {
  if (std::isnan(d) || std::fabs(d) <= FLT_MAX) return static_cast<float>(d);
  // Beyond FLT_MAX: FLT_MAX up to half a unit in the last place (2^103) above it, else infinity.
  const double half_ulp = std::ldexp(1.0, 103);
  const double magnitude = std::fabs(d) < static_cast<double>(FLT_MAX) + half_ulp ? FLT_MAX : INFINITY;
  return std::signbit(d) ? -magnitude : magnitude;
}

absl::Status BindOperand(const ValuePredicate& p, const PredicateValue& v, BoundPredicate& out) {
  const DataType type = out.type;
  if (IsBinaryType(type)) {
    const std::string* s = std::get_if<std::string>(&v);
    if (s == nullptr) return Mismatch(p, type, "so the value must be a string");
    out.bytes.push_back(*s);
    return absl::OkStatus();
  }
  if (type == DataType::kBoolean) {
    std::optional<bool> b;
    if (const bool* given = std::get_if<bool>(&v)) b = *given;
    if (const int64_t* i = std::get_if<int64_t>(&v); i != nullptr && (*i == 0 || *i == 1)) b = *i == 1;
    if (const std::string* s = std::get_if<std::string>(&v)) {
      const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(*s));
      if (lower == "true" || lower == "1") b = true;
      if (lower == "false" || lower == "0") b = false;
    }
    if (!b.has_value()) return Mismatch(p, type, "so the value must be true or false");
    out.ints.push_back(*b ? 1 : 0);
    return absl::OkStatus();
  }
  absl::StatusOr<PredicateValue> number = NumericOperand(p, type, v);
  if (!number.ok()) return number.status();
  if (IsFloatType(type)) {
    double d = std::holds_alternative<int64_t>(*number) ? static_cast<double>(std::get<int64_t>(*number))
                                                        : std::get<double>(*number);
    if (type == DataType::kFloat) d = RoundToFloat(d);
    // NaN equals nothing and differs from everything (IEEE): `!= NaN` is every non-null row.
    if (std::isnan(d)) {
      if (out.op == CompareOp::kNe) out.op = CompareOp::kIsNotNull;
      if (out.op != CompareOp::kIsNotNull) out.op = CompareOp::kEq;  // nothing matches
      return absl::OkStatus();
    }
    out.floats.push_back(d);
    return absl::OkStatus();
  }
  if (const int64_t* i = std::get_if<int64_t>(&*number)) {
    out.ints.push_back(*i);
  } else {
    BindIntegerToDouble(out.op, std::get<double>(*number), out);
  }
  return absl::OkStatus();
}

// An INT32/DATE column against operands beyond the INT32 range, rewritten so that every operand
// is within it (the comparison loops then run on the column's own width).
void FitIntegerOperands(BoundPredicate& p) {
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
  if (p.op == CompareOp::kEq) {
    p.ints.erase(std::remove_if(p.ints.begin(), p.ints.end(), [](int64_t v) { return v < kMin || v > kMax; }),
                 p.ints.end());
    return;
  }
  if (p.ints.empty() || (p.ints.front() >= kMin && p.ints.front() <= kMax)) return;
  const bool above = p.ints.front() > kMax;
  // Every value is below an operand above the range (and above one below it).
  bool all = false;
  switch (p.op) {
    case CompareOp::kNe: all = true; break;
    case CompareOp::kLt:
    case CompareOp::kLe: all = above; break;
    case CompareOp::kGt:
    case CompareOp::kGe: all = !above; break;
    default: return;
  }
  p.ints.clear();
  p.op = all ? CompareOp::kIsNotNull : CompareOp::kEq;
}

}  // namespace

absl::StatusOr<BoundPredicate> BindPredicate(const ValuePredicate& predicate, DataType type, size_t index) {
  BoundPredicate bound;
  bound.column = predicate.column;
  bound.index = index;
  bound.type = type;
  bound.op = predicate.op;
  const bool null_test = predicate.op == CompareOp::kIsNull || predicate.op == CompareOp::kIsNotNull;
  const size_t want = predicate.values.size();
  if (null_test ? want != 0 : (want == 0 || (want > 1 && predicate.op != CompareOp::kEq))) {
    return absl::InvalidArgumentError(absl::StrCat("predicate ", DescribePredicate(predicate), ": ",
                                                   ToAbsl(CompareOpText(predicate.op)), " takes ",
                                                   null_test ? "no value" : predicate.op == CompareOp::kEq
                                                                                ? "one value or more"
                                                                                : "exactly one value"));
  }
  if (!IsIntegerType(type) && !IsFloatType(type) && !IsBinaryType(type) && type != DataType::kBoolean) {
    return Mismatch(predicate, type, "which no predicate compares");
  }
  for (const PredicateValue& v : predicate.values) {
    const CompareOp before = bound.op;
    if (absl::Status s = BindOperand(predicate, v, bound); !s.ok()) return s;
    // A rewrite to "every row" or "no row" of a single-operand comparison is final.
    if (bound.op != before) break;
  }
  if (type == DataType::kInt32 || type == DataType::kDate) FitIntegerOperands(bound);
  return bound;
}

}  // namespace tsread

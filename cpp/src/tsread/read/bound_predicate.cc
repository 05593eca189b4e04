// Binding a ValuePredicate to its column's type (bound_predicate.h).
#include "tsread/read/bound_predicate.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "absl/numeric/int128.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tsread/common/calendar.h"
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

bool HasHexPrefix(std::string_view text) { return text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'); }

// "0x7568" as the bytes "uh"; nullopt unless every character after 0x pairs into a hex byte.
std::optional<std::string> HexBytes(std::string_view text) {
  const std::string_view hex = text.substr(2);
  if (hex.size() % 2 != 0) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(hi * 16 + lo));
  }
  return bytes;
}

// Whether YYYYMMDD names a day of the proleptic Gregorian calendar (years 1 to 9999).
bool IsCalendarDate(int64_t yyyymmdd) {
  if (yyyymmdd < 10101 || yyyymmdd > 99991231) return false;
  return DaysFromYyyyMmDd(static_cast<int32_t>(yyyymmdd)).has_value();
}

// YYYY-MM-DD as the YYYYMMDD integer DATE stores (§4); nullopt unless it has that form.
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

// A decimal number written as text, as the integers just below and above it — exactly, where a
// double would round (9223372036854775806.5 is 2^63 as a double). Saturated beyond ±2^100.
struct DecimalBounds {
  absl::int128 floor = 0, ceil = 0;
};

std::optional<DecimalBounds> DecimalFromText(std::string_view raw) {
  const absl::string_view text = absl::StripAsciiWhitespace(ToAbsl(raw));
  size_t i = 0;
  const bool negative = i < text.size() && text[i] == '-';
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::string digits;  // the significand's digits, without the point
  int64_t exponent = 0;  // value = digits x 10^exponent
  bool point = false, any = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      any = true;
      if (point) --exponent;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    int64_t e = 0;
    if (!absl::SimpleAtoi(text.substr(i + 1), &e) || e > 1000000 || e < -1000000) return std::nullopt;
    exponent += e;
    i = text.size();
  }
  if (i != text.size()) return std::nullopt;
  constexpr absl::int128 kCap = absl::MakeInt128(1LL << 36, 0);
  absl::int128 whole = 0;
  bool fraction = false;
  const int64_t n = static_cast<int64_t>(digits.size());
  const int64_t whole_digits = n + exponent;  // digits before the point, zeros appended when > n
  for (int64_t k = 0; k < std::max<int64_t>(whole_digits, 0); ++k) {
    const int digit = k < n ? digits[static_cast<size_t>(k)] - '0' : 0;
    whole = std::min(whole * 10 + digit, kCap);
    if (whole == kCap) break;  // saturated: the digits after it change nothing
  }
  for (int64_t k = std::max<int64_t>(whole_digits, 0); k < n; ++k) fraction = fraction || digits[static_cast<size_t>(k)] != '0';
  DecimalBounds b;
  b.floor = negative ? -whole - (fraction ? 1 : 0) : whole;
  b.ceil = negative ? -whole : whole + (fraction ? 1 : 0);
  return b;
}

// A DATE operand: YYYY-MM-DD or YYYYMMDD text, or an integer YYYYMMDD, naming a real day (§4);
// anything else is an error, never a comparison with a day that does not exist.
absl::StatusOr<PredicateValue> DateOperand(const ValuePredicate& p, const PredicateValue& v) {
  std::optional<int64_t> date;
  if (const int64_t* i = std::get_if<int64_t>(&v)) date = *i;
  if (const std::string* s = std::get_if<std::string>(&v)) {
    date = DateFromText(*s);
    int64_t i = 0;
    if (!date.has_value() && absl::SimpleAtoi(absl::StripAsciiWhitespace(*s), &i)) date = i;
  }
  if (!date.has_value() || !IsCalendarDate(*date)) {
    const std::string given = std::visit(
        [](const auto& x) -> std::string {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::string>) return absl::StrCat("'", x, "'");
          if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
          if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, bool>) return absl::StrCat(x);
        },
        v);
    return Mismatch(p, DataType::kDate, absl::StrCat("and ", given, " is not a date YYYY-MM-DD or YYYYMMDD"));
  }
  return PredicateValue(*date);
}

// The operand as a number for a numeric column (a string is parsed), or an error.
absl::StatusOr<PredicateValue> NumericOperand(const ValuePredicate& p, DataType type, const PredicateValue& v) {
  if (type == DataType::kDate) return DateOperand(p, v);
  if (std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v)) return v;
  if (const std::string* s = std::get_if<std::string>(&v)) {
    if (std::optional<PredicateValue> number = NumberFromText(*s); number.has_value()) return *number;
    return Mismatch(p, type, absl::StrCat("and '", *s, "' is not a number"));
  }
  return Mismatch(p, type, "not BOOLEAN");
}

// x op d for integer x and a number d between the integers lo (its floor) and hi (its ceiling;
// lo == hi when d is one), as x op' n with an integer n: the same rows. An operand beyond INT64
// makes every non-null row match (kIsNotNull) or none (an empty kEq list).
void BindIntegerToBounds(CompareOp op, absl::int128 lo, absl::int128 hi, BoundPredicate& out) {
  constexpr absl::int128 kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  auto none = [&] { out.op = CompareOp::kEq; };
  auto all = [&] { out.op = CompareOp::kIsNotNull; };
  const bool integral = lo == hi && lo >= kMin && lo <= kMax;
  switch (op) {
    case CompareOp::kEq:
      if (integral) out.ints.push_back(static_cast<int64_t>(lo));
      return;
    case CompareOp::kNe:
      if (integral) {
        out.ints.push_back(static_cast<int64_t>(lo));
        return;
      }
      return all();
    case CompareOp::kLt:  // x < d  <=>  x < ceil(d)
    case CompareOp::kGe:  // x >= d <=>  x >= ceil(d)
      if (hi > kMax) return op == CompareOp::kLt ? all() : none();
      if (hi < kMin) return op == CompareOp::kLt ? none() : all();
      out.ints.push_back(static_cast<int64_t>(hi));
      return;
    case CompareOp::kLe:  // x <= d <=>  x <= floor(d)
    case CompareOp::kGt:  // x > d  <=>  x > floor(d)
      if (lo > kMax) return op == CompareOp::kLe ? all() : none();
      if (lo < kMin) return op == CompareOp::kLe ? none() : all();
      out.ints.push_back(static_cast<int64_t>(lo));
      return;
    default: return;
  }
}

// An integral double as an absl::int128, saturated at ±2^100 (far beyond INT64 either way).
absl::int128 SaturatedInteger(double integral) {
  constexpr double kCap = 1267650600228229401496703205376.0;  // 2^100
  if (integral >= kCap) return absl::MakeInt128(1LL << 36, 0);
  if (integral <= -kCap) return -(absl::MakeInt128(1LL << 36, 0));
  return static_cast<absl::int128>(integral);
}

void BindIntegerToDouble(CompareOp op, double d, BoundPredicate& out) {
  if (std::isnan(d)) {
    if (op == CompareOp::kNe) {
      out.op = CompareOp::kIsNotNull;
    } else {
      out.op = CompareOp::kEq;  // nothing matches
    }
    return;
  }
  BindIntegerToBounds(op, SaturatedInteger(std::floor(d)), SaturatedInteger(std::ceil(d)), out);
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
    if (type != DataType::kBlob || !HasHexPrefix(*s)) {
      out.bytes.push_back(*s);
      return absl::OkStatus();
    }
    // 0x... is a BLOB's bytes in hex, the form `cat` prints them in.
    std::optional<std::string> bytes = HexBytes(*s);
    if (!bytes.has_value()) {
      return Mismatch(p, type, absl::StrCat("and '", *s, "' is not hex: 0x and two hex digits a byte"));
    }
    out.bytes.push_back(*std::move(bytes));
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
    return absl::OkStatus();
  }
  // A fraction written as text compares exactly: 9223372036854775806.5 lies below INT64_MAX,
  // though as a double it is 2^63, above it.
  if (const std::string* text = std::get_if<std::string>(&v)) {
    if (std::optional<DecimalBounds> exact = DecimalFromText(*text); exact.has_value()) {
      BindIntegerToBounds(out.op, exact->floor, exact->ceil, out);
      return absl::OkStatus();
    }
  }
  BindIntegerToDouble(out.op, std::get<double>(*number), out);
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

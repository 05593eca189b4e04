// The rows of a decoded page a predicate keeps (bound_predicate.h). Each comparison runs as one
// loop over the column's dense values (which the compiler vectorises: the operator is chosen
// outside the loop), then nulls are cleared from the result by the validity bitmap — a null row's
// slot holds 0, which may compare true.
#include <algorithm>
#include <functional>
#include <string_view>

#include "tsread/read/bound_predicate.h"

namespace tsread {
namespace {

template <typename T, typename Compare>
void AndEach(const T* values, size_t n, T operand, Compare compare, uint8_t* keep) {
  for (size_t r = 0; r < n; ++r) keep[r] &= static_cast<uint8_t>(compare(values[r], operand));
}

// keep[r] &= (values[r] op operand) for a single operand.
template <typename T>
void AndCompare(CompareOp op, const T* values, size_t n, T operand, uint8_t* keep) {
  switch (op) {
    case CompareOp::kNe: return AndEach(values, n, operand, std::not_equal_to<T>(), keep);
    case CompareOp::kLt: return AndEach(values, n, operand, std::less<T>(), keep);
    case CompareOp::kLe: return AndEach(values, n, operand, std::less_equal<T>(), keep);
    case CompareOp::kGt: return AndEach(values, n, operand, std::greater<T>(), keep);
    case CompareOp::kGe: return AndEach(values, n, operand, std::greater_equal<T>(), keep);
    default: return AndEach(values, n, operand, std::equal_to<T>(), keep);
  }
}

// keep[r] &= values[r] is any of `operands` (kEq), or `op` against the one operand.
template <typename T, typename Operand>
void AndMatches(CompareOp op, const T* values, size_t n, const std::vector<Operand>& operands, uint8_t* keep) {
  if (op != CompareOp::kEq || operands.size() == 1) {
    if (operands.empty()) return std::fill(keep, keep + n, 0);
    return AndCompare<T>(op, values, n, static_cast<T>(operands.front()), keep);
  }
  for (size_t r = 0; r < n; ++r) {
    const Operand v = static_cast<Operand>(values[r]);
    keep[r] &= static_cast<uint8_t>(std::find(operands.begin(), operands.end(), v) != operands.end());
  }
}

bool CompareText(CompareOp op, std::string_view value, std::string_view operand) {
  const int c = value.compare(operand);  // char_traits<char>: unsigned bytes
  switch (op) {
    case CompareOp::kNe: return c != 0;
    case CompareOp::kLt: return c < 0;
    case CompareOp::kLe: return c <= 0;
    case CompareOp::kGt: return c > 0;
    case CompareOp::kGe: return c >= 0;
    default: return c == 0;
  }
}

bool TextMatches(const BoundPredicate& p, std::string_view value) {
  if (p.bytes.empty()) return false;  // bound to another type, or an empty any-of list
  if (p.op != CompareOp::kEq) return CompareText(p.op, value, p.bytes.front());
  return std::find(p.bytes.begin(), p.bytes.end(), value) != p.bytes.end();
}

void AndValues(const BoundPredicate& p, const ColumnVector& c, uint8_t* keep) {
  const size_t n = c.size();
  switch (p.type) {
    case DataType::kBoolean: return AndMatches<uint8_t>(p.op, c.bools.data(), n, p.ints, keep);
    case DataType::kInt32:
    case DataType::kDate:  // operands lie in the INT32 range (BindPredicate)
      return AndMatches<int32_t>(p.op, c.int32s.data(), n, p.ints, keep);
    case DataType::kInt64:
    case DataType::kTimestamp: return AndMatches<int64_t>(p.op, c.int64s.data(), n, p.ints, keep);
    case DataType::kFloat: return AndMatches<float>(p.op, c.floats.data(), n, p.floats, keep);
    case DataType::kDouble: return AndMatches<double>(p.op, c.doubles.data(), n, p.floats, keep);
    default:
      for (size_t r = 0; r < n; ++r) keep[r] &= static_cast<uint8_t>(TextMatches(p, c.binary(r)));
      return;
  }
}

// keep[r] &= (row r is null) == `null`.
void AndNullness(const ColumnVector& c, bool null, uint8_t* keep) {
  const size_t n = c.size();
  if (c.null_count == 0 || c.null_count == n) {
    const bool all_null = c.null_count == n && n > 0;
    if (all_null != null) std::fill(keep, keep + n, 0);
    return;
  }
  for (size_t r = 0; r < n; ++r) keep[r] &= static_cast<uint8_t>(c.IsValid(r) != null);
}

}  // namespace

void KeepMatches(const BoundPredicate& p, const ColumnVector& column, std::vector<uint8_t>& keep) {
  uint8_t* out = keep.data();
  if (p.op == CompareOp::kIsNull) return AndNullness(column, true, out);
  if (p.op == CompareOp::kIsNotNull) return AndNullness(column, false, out);
  if (column.null_count == column.size()) return std::fill(keep.begin(), keep.end(), 0);
  AndValues(p, column, out);
  if (column.null_count > 0) AndNullness(column, false, out);
}

bool MatchesText(const BoundPredicate& p, std::optional<std::string_view> value) {
  if (p.op == CompareOp::kIsNull) return !value.has_value();
  if (p.op == CompareOp::kIsNotNull) return value.has_value();
  if (!value.has_value()) return false;
  return TextMatches(p, *value);
}

}  // namespace tsread

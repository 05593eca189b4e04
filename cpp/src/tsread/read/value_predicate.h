// ValuePredicate: a condition on one column's values that a scan keeps rows by — `s_double > 380`,
// `s_int32 = 1, 2` (any of), `s_text IS NULL` — on FIELD columns (decided page by page, from
// statistics where they settle it, by decoding the column where not) and on TAG columns (decided
// device by device, before anything of the device is read). ScanOptions ANDs them with its time
// range and tag predicates.
//
// Semantics are SQL's: a null value satisfies only IS NULL; FLOAT/DOUBLE compare as IEEE numbers
// (NaN satisfies only `!=`; -0.0 equals 0.0), in the column's own type (an operand is first
// rounded to FLOAT for a FLOAT column); TEXT/STRING/BLOB compare as unsigned bytes; BOOLEAN false
// < true; DATE compares its YYYYMMDD integer, TIMESTAMP its integer in the file's time unit.
#ifndef TSREAD_READ_VALUE_PREDICATE_H_
#define TSREAD_READ_VALUE_PREDICATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tsread {

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe, kIsNull, kIsNotNull };

// An operand as the caller has it. A string converts to the column's type by parsing it (a number
// for numeric columns, `true`/`false` for BOOLEAN, YYYYMMDD or YYYY-MM-DD for DATE), so text from
// any front end binds the same way; a number or a boolean binds only to a column of its kind.
using PredicateValue = std::variant<bool, int64_t, double, std::string>;

struct ValuePredicate {
  std::string column;
  CompareOp op = CompareOp::kEq;
  // kEq: one or more values, any of which matches (`IN`); kIsNull/kIsNotNull: none; every other
  // operator: exactly one.
  std::vector<PredicateValue> values;
};

// A condition built of comparisons with AND and OR — `region = east OR (s_double > 380 AND s_int32
// IS NULL)`. A ValuePredicate converts to one implicitly, so a list of comparisons still reads as
// their AND wherever a list of expressions is taken (ScanOptions::value_predicates).
struct PredicateExpr {
  enum class Kind : uint8_t { kComparison, kAnd, kOr };

  PredicateExpr() = default;
  PredicateExpr(ValuePredicate comparison) : comparison(std::move(comparison)) {}  // NOLINT: implicit by design
  static PredicateExpr And(std::vector<PredicateExpr> operands) { return Of(Kind::kAnd, std::move(operands)); }
  static PredicateExpr Or(std::vector<PredicateExpr> operands) { return Of(Kind::kOr, std::move(operands)); }

  Kind kind = Kind::kComparison;
  ValuePredicate comparison;            // kComparison
  std::vector<PredicateExpr> operands;  // kAnd, kOr: one or more

 private:
  static PredicateExpr Of(Kind kind, std::vector<PredicateExpr> operands) {
    PredicateExpr e;
    e.kind = kind;
    e.operands = std::move(operands);
    return e;
  }
};

// "=", "!=", "<", ..., "IS NULL", "IS NOT NULL".
std::string_view CompareOpText(CompareOp op);
// `column op value[, value...]`, for messages.
std::string DescribePredicate(const ValuePredicate& predicate);
// The expression in the grammar's form (predicate_text.h), parenthesized where it nests.
std::string DescribePredicate(const PredicateExpr& expr);
// Calls visit(comparison) for every comparison of `expr`, left to right.
template <typename Visit>
void ForEachComparison(const PredicateExpr& expr, Visit&& visit) {
  if (expr.kind == PredicateExpr::Kind::kComparison) {
    visit(expr.comparison);
    return;
  }
  for (const PredicateExpr& operand : expr.operands) ForEachComparison(operand, visit);
}

}  // namespace tsread

#endif  // TSREAD_READ_VALUE_PREDICATE_H_

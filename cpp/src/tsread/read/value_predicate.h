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

// "=", "!=", "<", ..., "IS NULL", "IS NOT NULL".
std::string_view CompareOpText(CompareOp op);
// `column op value[, value...]`, for messages.
std::string DescribePredicate(const ValuePredicate& predicate);

}  // namespace tsread

#endif  // TSREAD_READ_VALUE_PREDICATE_H_

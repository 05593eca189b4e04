// TagAlternatives: a condition that names devices by one TAG column's values — `tag = a`, `tag IN
// (a, b)`, `tag IS NULL`, and ORs of those on one tag — as the TagPredicate it is. A scan looks
// devices up by a tag predicate and decides it before reading a device, so statistics stay usable
// (the table scanner binds such ORs so; aggregates split them from the value predicates).
#ifndef TSREAD_READ_TAG_ALTERNATIVES_H_
#define TSREAD_READ_TAG_ALTERNATIVES_H_

#include <optional>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/value_predicate.h"

namespace tsread {

// `expr` as a tag predicate when it is a comparison, or an OR of comparisons, each `=`/IN or IS
// NULL on the same column, one `is_tag` says is a TAG column the rows have; nullopt for anything
// else (another operator or column, an AND, a value that does not bind as text).
std::optional<TagPredicate> TagAlternatives(const PredicateExpr& expr,
                                            absl::FunctionRef<bool(std::string_view column)> is_tag);

}  // namespace tsread

#endif  // TSREAD_READ_TAG_ALTERNATIVES_H_

// The predicate grammar every front end that takes text shares (CLI --where, SQL filter :=):
//
//   predicates := conjunction { OR conjunction }         AND binds tighter than OR; both in any case
//   conjunction:= primary { AND primary }
//   primary    := '(' predicates ')' | comparison
//   comparison := name op value | name '=' list | name '=' | name IS [NOT] NULL
//   op         := = | == | != | <> | < | <= | > | >=
//   name       := a bare name (up to a space or an operator) | "double quoted" ("" is a quote)
//   value      := 'single quoted' ('' is a quote) | bare text up to the next AND or OR (trimmed)
//                 or an unmatched ')' (parentheses opened in a bare value or name close in it)
//   list       := value { , value }                         any of them (IN)
//
// AND and OR are keywords only as words of their own outside quotes (`brand = ANDROID` and
// `s = 'salt OR pepper'` are values). `name=` (nothing after) matches a null value, as
// `--where tag=` always has. Values stay text:
// the scan converts them to the column's type (value_predicate.h), so `s_double > 380`,
// `s_bool = true`, `d >= 2024-01-31` and `region = east,west` all read as one would expect.
#ifndef TSREAD_READ_PREDICATE_TEXT_H_
#define TSREAD_READ_PREDICATE_TEXT_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/value_predicate.h"

namespace tsread {

// The conditions of `text` that must all hold (its top-level AND operands, in order; an OR is one
// of them); InvalidArgument quoting the text and saying where it stopped making sense.
absl::StatusOr<std::vector<PredicateExpr>> ParsePredicates(std::string_view text);

}  // namespace tsread

#endif  // TSREAD_READ_PREDICATE_TEXT_H_

// ScanArgs: the scan arguments of read_table, iter_batches and the Dask splits, and MakeArgs,
// which builds them from a binding's arguments.
#ifndef TSREAD_PYTHON_SCAN_ARGS_H_
#define TSREAD_PYTHON_SCAN_ARGS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/value_predicate.h"

namespace tsread::python {

using Tags = std::map<std::string, std::vector<std::optional<std::string>>>;
// One comparison as python/tsread/_args.py normalizes it: (column, op, [values]), op one of = != <
// <= > >= "IS NULL" "IS NOT NULL", values bool/int/float/str.
using Filter = std::tuple<std::string, std::string, std::vector<PredicateValue>>;
// filters= as _args.filters normalizes them: conjunctions (ORed) of clauses (ANDed) of
// alternatives (ORed).
using Filters = std::vector<std::vector<std::vector<Filter>>>;

// The library's predicate for one normalized filter (its op as CompareOpText spells it); nullopt
// for an unknown operator (which _args.py never passes).
inline std::optional<ValuePredicate> PredicateOf(const Filter& f) {
  for (CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt, CompareOp::kGe,
                       CompareOp::kIsNull, CompareOp::kIsNotNull}) {
    if (CompareOpText(op) == std::get<1>(f)) return ValuePredicate{std::get<0>(f), op, std::get<2>(f)};
  }
  return std::nullopt;
}

// One expression of `operands`, joined by `kind` (one operand: itself).
inline PredicateExpr Joined(PredicateExpr::Kind kind, std::vector<PredicateExpr> operands) {
  if (operands.size() == 1) return std::move(operands.front());
  return kind == PredicateExpr::Kind::kAnd ? PredicateExpr::And(std::move(operands))
                                           : PredicateExpr::Or(std::move(operands));
}

// The scan's conditions (ANDed, as ScanOptions::value_predicates takes them) from normalized
// filters: one conjunction gives its clauses, several one OR of their ANDs.
inline std::vector<PredicateExpr> PredicatesOf(const Filters& filters) {
  std::vector<PredicateExpr> disjuncts;
  for (const auto& conjunction : filters) {
    std::vector<PredicateExpr> clauses;
    for (const auto& clause : conjunction) {
      std::vector<PredicateExpr> alternatives;
      for (const Filter& f : clause) {
        if (std::optional<ValuePredicate> p = PredicateOf(f)) alternatives.emplace_back(*std::move(p));
      }
      if (!alternatives.empty()) clauses.push_back(Joined(PredicateExpr::Kind::kOr, std::move(alternatives)));
    }
    disjuncts.push_back(PredicateExpr::And(std::move(clauses)));
  }
  if (disjuncts.size() == 1) return std::move(disjuncts.front().operands);
  return {Joined(PredicateExpr::Kind::kOr, std::move(disjuncts))};
}

// The scan arguments of read_table, iter_batches and the Dask splits (already normalized by
// python/tsread/_args.py: times in ms, tag values as lists).
struct ScanArgs {
  std::optional<std::string> table;
  std::optional<std::vector<std::string>> columns;
  std::optional<int64_t> start;
  std::optional<int64_t> end;
  Tags tags;
  std::vector<PredicateExpr> filters;
  int threads = 1;
  size_t batch_rows = 0;
  bool ordered = true;  // with several threads: batches in scan order (false: as decoded)

  DatasetScanOptions ToOptions() const {
    DatasetScanOptions o;
    if (table) o.table = *table;
    if (columns) o.columns = *columns;
    if (start) o.time_range.start = *start;
    if (end) o.time_range.end = *end;
    for (const auto& [column, values] : tags) o.tag_predicates.push_back({column, values});
    o.value_predicates = filters;
    o.num_threads = std::max(threads, 1);
    o.ordered = ordered;
    o.batch_size = batch_rows;
    return o;
  }
};

inline ScanArgs MakeArgs(std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
                         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags,
                         int threads, size_t batch_rows, const std::optional<Filters>& filters = std::nullopt) {
  std::vector<PredicateExpr> predicates = filters.has_value() ? PredicatesOf(*filters) : std::vector<PredicateExpr>{};
  return {std::move(table), std::move(columns), start, end, tags ? std::move(*tags) : Tags{}, std::move(predicates),
          threads, batch_rows};
}

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_SCAN_ARGS_H_

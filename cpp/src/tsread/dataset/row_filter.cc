// Value predicates on rows in memory (row_filter.h).
#include "tsread/dataset/row_filter.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/bound_predicate.h"

namespace tsread {

absl::StatusOr<RowFilter> RowFilter::Bind(const std::vector<PredicateExpr>& predicates,
                                          const std::vector<ProjectedColumn>& projection) {
  RowFilter filter;
  for (const PredicateExpr& expr : predicates) TSREAD_RETURN_IF_ERROR(filter.BindUnder(0, expr, projection));
  filter.leaf_verdicts_.assign(filter.filter_.leaves().size(), Verdict::kSome);
  return filter;
}

absl::Status RowFilter::BindUnder(size_t parent, const PredicateExpr& expr,
                                  const std::vector<ProjectedColumn>& projection) {
  if (expr.kind != PredicateExpr::Kind::kComparison) {
    const size_t node = filter_.AddNode(parent, expr.kind);
    for (const PredicateExpr& operand : expr.operands) TSREAD_RETURN_IF_ERROR(BindUnder(node, operand, projection));
    return absl::OkStatus();
  }
  const ValuePredicate& comparison = expr.comparison;
  const auto column = std::find_if(projection.begin(), projection.end(),
                                   [&](const ProjectedColumn& c) { return c.name == comparison.column; });
  if (column == projection.end()) {
    return absl::InvalidArgumentError(absl::StrCat("predicate on \"", comparison.column, "\": not a column of the read"));
  }
  const size_t index = static_cast<size_t>(column - projection.begin());
  if (column->category == ColumnCategory::kTag) {
    TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(comparison, DataType::kString, index));
    filter_.AddLeaf(parent, std::move(bound), column->tag_segment);
    return absl::OkStatus();
  }
  if (column->category != ColumnCategory::kField) {
    return absl::InvalidArgumentError(absl::StrCat("predicate on \"", comparison.column, "\": not a TAG or FIELD column"));
  }
  TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(comparison, column->data_type, index));
  filter_.AddLeaf(parent, std::move(bound));
  return absl::OkStatus();
}

absl::Status RowFilter::Apply(TableBatch& batch) {
  if (filter_.empty() || batch.num_rows() == 0) return absl::OkStatus();
  std::fill(leaf_verdicts_.begin(), leaf_verdicts_.end(), Verdict::kSome);
  filter_.DecideTagLeaves([&](size_t segment) { return batch.device->segment(segment); }, leaf_verdicts_);
  node_verdicts_.assign(filter_.nodes().size(), Verdict::kSome);
  const Verdict verdict = filter_.Combine(leaf_verdicts_, node_verdicts_);
  if (verdict == Verdict::kAll) return absl::OkStatus();
  keep_.assign(batch.num_rows(), verdict == Verdict::kNone ? 0 : 1);
  if (verdict != Verdict::kNone) {
    TSREAD_RETURN_IF_ERROR(filter_.AndRows(
        node_verdicts_,
        [&](size_t leaf, std::vector<uint8_t>& keep) {
          const BoundPredicate& predicate = filter_.leaves()[leaf];
          KeepMatches(predicate, batch.columns[predicate.index], keep);
          return absl::OkStatus();
        },
        keep_, scratch_));
  }
  KeepEntries(batch.times, keep_);
  for (ColumnVector& column : batch.columns) {
    if (column.size() == keep_.size()) column.KeepRows(keep_);
  }
  return absl::OkStatus();
}

}  // namespace tsread

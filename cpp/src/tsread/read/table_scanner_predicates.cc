// TableScanner's value predicates (ScanOptions::value_predicates): bound against the table's
// schema, FIELD ones to the columns the device readers read, TAG ones to conditions on a device's
// id segments (format reference §12), ORs to the device readers' filter with both kinds inside.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tag_alternatives.h"

namespace tsread {
namespace {

TagPredicate AsTagPredicate(const BoundPredicate& bound) {
  TagPredicate p{bound.column, {}};
  if (bound.op == CompareOp::kIsNull) p.values.push_back(std::nullopt);
  for (const std::string& value : bound.bytes) p.values.emplace_back(value);
  return p;
}

}  // namespace

absl::Status TableScanner::BindValuePredicates(const TableSchema& schema) {
  std::vector<const PredicateExpr*> pending;
  for (const PredicateExpr& expr : options_.value_predicates) pending.push_back(&expr);
  for (size_t i = 0; i < pending.size(); ++i) {
    const PredicateExpr& expr = *pending[i];
    switch (expr.kind) {
      case PredicateExpr::Kind::kAnd:  // its operands are conditions of the scan like any other
        for (const PredicateExpr& operand : expr.operands) pending.push_back(&operand);
        break;
      case PredicateExpr::Kind::kOr: {
        // `tag = a OR tag = b OR tag IS NULL` names devices: a tag predicate, which can look them up.
        if (std::optional<TagPredicate> tag = TagAlternatives(expr, schema); tag.has_value()) {
          options_.tag_predicates.push_back(*std::move(tag));
          break;
        }
        TSREAD_RETURN_IF_ERROR(BindUnder(0, expr, schema));
        break;
      }
      case PredicateExpr::Kind::kComparison: {
        TSREAD_ASSIGN_OR_RETURN(ProjectedColumn column, PredicateColumn(expr.comparison, schema));
        if (column.category != ColumnCategory::kTag) {
          TSREAD_RETURN_IF_ERROR(BindLeaf(0, expr.comparison, schema));
          break;
        }
        TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(expr.comparison, DataType::kString, 0));
        if (column.tag_segment != ProjectedColumn::kAbsentSegment &&
            (bound.op == CompareOp::kEq || bound.op == CompareOp::kIsNull)) {
          // "Any of these values" is a tag predicate, which can look devices up by id.
          options_.tag_predicates.push_back(AsTagPredicate(bound));
        } else {
          tag_conditions_.emplace_back(column.tag_segment, std::move(bound));
        }
        break;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TableScanner::BindUnder(size_t parent, const PredicateExpr& expr, const TableSchema& schema) {
  if (expr.kind == PredicateExpr::Kind::kComparison) return BindLeaf(parent, expr.comparison, schema);
  const size_t node = filter_.AddNode(parent, expr.kind);
  for (const PredicateExpr& operand : expr.operands) TSREAD_RETURN_IF_ERROR(BindUnder(node, operand, schema));
  return absl::OkStatus();
}

absl::Status TableScanner::BindLeaf(size_t parent, const ValuePredicate& predicate, const TableSchema& schema) {
  TSREAD_ASSIGN_OR_RETURN(ProjectedColumn column, PredicateColumn(predicate, schema));
  if (column.category == ColumnCategory::kTag) {
    TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(predicate, DataType::kString, 0));
    filter_.AddLeaf(parent, std::move(bound), column.tag_segment);
    return absl::OkStatus();
  }
  auto read = std::find_if(columns_.begin(), columns_.end(), [&](const AlignedColumn& c) {
    return c.stored && c.measurement == column.name;
  });
  const size_t index = static_cast<size_t>(read - columns_.begin());
  if (read == columns_.end()) columns_.push_back(AlignedColumn{column.name, column.data_type, true});
  TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(predicate, column.data_type, index));
  filter_.AddLeaf(parent, std::move(bound));
  return absl::OkStatus();
}

absl::StatusOr<ProjectedColumn> TableScanner::PredicateColumn(const ValuePredicate& predicate,
                                                              const TableSchema& schema) const {
  // Resolved as a projection of one column: a dataset's column the file lacks reads as null.
  absl::StatusOr<std::vector<ProjectedColumn>> resolved =
      ResolveProjection(schema, {predicate.column}, options_.columns_if_absent);
  if (!resolved.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("predicate ", DescribePredicate(predicate), ": ", resolved.status().message()));
  }
  ProjectedColumn column = resolved->front();
  if (column.category != ColumnCategory::kTag && column.category != ColumnCategory::kField) {
    return absl::InvalidArgumentError(absl::StrCat("predicate ", DescribePredicate(predicate), ": \"", column.name,
                                                   "\" is an ATTRIBUTE column, which TsFile does not store"));
  }
  return column;
}

std::optional<TagPredicate> TagAlternatives(const PredicateExpr& expr,
                                            absl::FunctionRef<bool(std::string_view column)> is_tag) {
  const bool single = expr.kind == PredicateExpr::Kind::kComparison;
  if (!single && (expr.kind != PredicateExpr::Kind::kOr || expr.operands.empty())) return std::nullopt;
  TagPredicate tag;
  for (size_t i = 0; i < (single ? 1 : expr.operands.size()); ++i) {
    const PredicateExpr& operand = single ? expr : expr.operands[i];
    if (operand.kind != PredicateExpr::Kind::kComparison) return std::nullopt;
    const ValuePredicate& p = operand.comparison;
    if ((!tag.column.empty() && p.column != tag.column) || !is_tag(p.column)) return std::nullopt;
    absl::StatusOr<BoundPredicate> bound = BindPredicate(p, DataType::kString, 0);
    if (!bound.ok() || (bound->op != CompareOp::kEq && bound->op != CompareOp::kIsNull)) return std::nullopt;
    tag.column = p.column;
    for (std::optional<std::string>& value : AsTagPredicate(*bound).values) tag.values.push_back(std::move(value));
  }
  return tag;
}

std::optional<TagPredicate> TableScanner::TagAlternatives(const PredicateExpr& expr, const TableSchema& schema) const {
  if (expr.kind != PredicateExpr::Kind::kOr) return std::nullopt;
  return tsread::TagAlternatives(expr, [&](std::string_view name) {
    // A TAG column this file has (one only the dataset's other files have reads as null).
    absl::StatusOr<ProjectedColumn> column = PredicateColumn(ValuePredicate{std::string(name), {}, {}}, schema);
    return column.ok() && column->category == ColumnCategory::kTag &&
           column->tag_segment != ProjectedColumn::kAbsentSegment;
  });
}

bool TableScanner::DeviceSatisfiesTagConditions(const DeviceId& device) const {
  // segment() is null for a null tag and for kAbsentSegment (a TAG column the file lacks) alike.
  const bool tags_match = std::all_of(tag_conditions_.begin(), tag_conditions_.end(), [&](const auto& condition) {
    return MatchesText(condition.second, device.segment(condition.first));
  });
  if (!tags_match || !filter_.HasTagLeaves()) return tags_match;
  // An OR whose operands on the device's tags all fail (and whose others the statistics may
  // still decide): the device is out before anything of it is read.
  std::vector<Verdict> leaves(filter_.leaves().size(), Verdict::kSome), nodes;
  filter_.DecideTagLeaves([&](size_t segment) { return device.segment(segment); }, leaves);
  return filter_.Combine(leaves, nodes) != Verdict::kNone;
}

}  // namespace tsread

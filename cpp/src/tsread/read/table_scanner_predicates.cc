// TableScanner's value predicates (ScanOptions::value_predicates): bound against the table's
// schema, FIELD ones to the columns the device readers read, TAG ones to conditions on a device's
// id segments (format reference §12).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_scanner.h"

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
  for (const ValuePredicate& predicate : options_.value_predicates) {
    // Resolved as a projection of one column: a dataset's column the file lacks reads as null.
    absl::StatusOr<std::vector<ProjectedColumn>> resolved =
        ResolveProjection(schema, {predicate.column}, options_.columns_if_absent);
    if (!resolved.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("predicate ", DescribePredicate(predicate), ": ", resolved.status().message()));
    }
    const ProjectedColumn& column = resolved->front();
    switch (column.category) {
      case ColumnCategory::kTag: {
        TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(predicate, DataType::kString, 0));
        if (column.tag_segment != ProjectedColumn::kAbsentSegment &&
            (bound.op == CompareOp::kEq || bound.op == CompareOp::kIsNull)) {
          // "Any of these values" is a tag predicate, which can look devices up by id.
          options_.tag_predicates.push_back(AsTagPredicate(bound));
        } else {
          tag_conditions_.emplace_back(column.tag_segment, std::move(bound));
        }
        break;
      }
      case ColumnCategory::kField: {
        auto read = std::find_if(columns_.begin(), columns_.end(), [&](const AlignedColumn& c) {
          return c.stored && c.measurement == column.name;
        });
        const size_t index = static_cast<size_t>(read - columns_.begin());
        if (read == columns_.end()) columns_.push_back(AlignedColumn{column.name, column.data_type, true});
        TSREAD_ASSIGN_OR_RETURN(BoundPredicate bound, BindPredicate(predicate, column.data_type, index));
        field_predicates_.push_back(std::move(bound));
        break;
      }
      default:
        return absl::InvalidArgumentError(absl::StrCat("predicate ", DescribePredicate(predicate), ": \"",
                                                       column.name, "\" is an ATTRIBUTE column, which TsFile ",
                                                       "does not store"));
    }
  }
  return absl::OkStatus();
}

bool TableScanner::DeviceSatisfiesTagConditions(const DeviceId& device) const {
  // segment() is null for a null tag and for kAbsentSegment (a TAG column the file lacks) alike.
  return std::all_of(tag_conditions_.begin(), tag_conditions_.end(), [&](const auto& condition) {
    return MatchesText(condition.second, device.segment(condition.first));
  });
}

}  // namespace tsread

#include "tsread/read/projection.h"

#include "absl/strings/str_cat.h"

namespace tsread {

absl::StatusOr<std::vector<ProjectedColumn>> ResolveProjection(const TableSchema& schema,
                                                               const std::vector<std::string>& columns) {
  std::vector<size_t> indexes;
  if (columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) indexes.push_back(i);
  } else {
    for (const std::string& name : columns) {
      std::optional<size_t> index = schema.FindColumn(name);
      if (!index.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat("table \"", schema.name, "\" has no column \"", name, "\""));
      }
      indexes.push_back(*index);
    }
  }
  std::vector<ProjectedColumn> projection;
  for (size_t index : indexes) {
    const ColumnSchema& column = schema.columns[index];
    ProjectedColumn p;
    p.name = column.name;
    p.category = column.category;
    p.data_type = column.data_type;
    if (std::optional<size_t> ordinal = schema.TagOrdinal(index)) p.tag_segment = *ordinal + 1;
    projection.push_back(std::move(p));
  }
  return projection;
}

std::vector<AlignedColumn> AlignedColumnsOf(const std::vector<ProjectedColumn>& projection) {
  std::vector<AlignedColumn> columns;
  for (const ProjectedColumn& p : projection) {
    columns.push_back(AlignedColumn{p.name, p.data_type, p.category == ColumnCategory::kField});
  }
  return columns;
}

}  // namespace tsread

#include "tsread/read/projection.h"

#include "absl/strings/str_cat.h"

namespace tsread {

namespace {

const ColumnSchema* FindAbsentColumn(const std::vector<ColumnSchema>& columns, std::string_view name) {
  for (const ColumnSchema& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<std::vector<ProjectedColumn>> ResolveProjection(const TableSchema& schema,
                                                               const std::vector<std::string>& columns,
                                                               const std::vector<ColumnSchema>& columns_if_absent) {
  std::vector<std::string> names = columns;
  if (names.empty()) {
    for (const ColumnSchema& column : schema.columns) names.push_back(column.name);
  }
  std::vector<ProjectedColumn> projection;
  for (const std::string& name : names) {
    ProjectedColumn p;
    p.name = name;
    if (std::optional<size_t> index = schema.FindColumn(name)) {
      const ColumnSchema& column = schema.columns[*index];
      p.category = column.category;
      p.data_type = column.data_type;
      if (std::optional<size_t> ordinal = schema.TagOrdinal(*index)) p.tag_segment = *ordinal + 1;
    } else if (const ColumnSchema* absent = FindAbsentColumn(columns_if_absent, name)) {
      // Not in this file: a FIELD has no chunk in any device (all null), a TAG no segment.
      p.category = absent->category;
      p.data_type = absent->data_type;
      if (p.category == ColumnCategory::kTag) p.tag_segment = ProjectedColumn::kAbsentSegment;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("table \"", schema.name, "\" has no column \"", name, "\""));
    }
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

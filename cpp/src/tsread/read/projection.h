// Projection: the output columns of a table read, resolved against its schema (§12): FIELD
// columns are read from value chunks, TAG columns from device-id segments, ATTRIBUTE columns
// are not stored in TsFile.
#ifndef TSREAD_READ_PROJECTION_H_
#define TSREAD_READ_PROJECTION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/table_schema.h"
#include "tsread/read/aligned_device_reader.h"

namespace tsread {

struct ProjectedColumn {
  std::string name;
  ColumnCategory category = ColumnCategory::kField;
  DataType data_type = DataType::kInt64;
  // For a TAG column: the device-id segment holding its value (segment 0 is the table);
  // kAbsentSegment for a TAG column the file's table lacks (a dataset's), whose value is null.
  size_t tag_segment = 0;

  static constexpr size_t kAbsentSegment = static_cast<size_t>(-1);
};

// `columns` resolved in order (empty = every column in schema order). InvalidArgument for an
// unknown column — unless `columns_if_absent` (a dataset's schema reconciled across files) has
// it: then the column reads as null, with that column's category and type.
absl::StatusOr<std::vector<ProjectedColumn>> ResolveProjection(const TableSchema& schema,
                                                               const std::vector<std::string>& columns,
                                                               const std::vector<ColumnSchema>& columns_if_absent = {});

// The value columns an AlignedDeviceReader reads for a projection (TAG/ATTRIBUTE not stored).
std::vector<AlignedColumn> AlignedColumnsOf(const std::vector<ProjectedColumn>& projection);

}  // namespace tsread

#endif  // TSREAD_READ_PROJECTION_H_

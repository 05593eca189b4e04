// FileSummary: what `tsread info` reports, computed from metadata alone (no page is read):
// per table its device and row counts, and the tree-model devices, series and points.
#ifndef TSREAD_AGGREGATE_FILE_SUMMARY_H_
#define TSREAD_AGGREGATE_FILE_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct TableSummary {
  const TableSchema* schema = nullptr;
  uint64_t devices = 0;
  // Sum over the table's devices of the time column's statistics count (all-null rows count).
  uint64_t rows = 0;
  // Time range of those rows, from the same statistics; meaningless when rows == 0.
  int64_t start_time = 0;
  int64_t end_time = 0;
};

struct TreeSummary {
  uint64_t devices = 0;
  // Value series, including those with zero points; never the aligned time column.
  uint64_t series = 0;
  // Sum of the value series' statistics counts (non-null points).
  uint64_t points = 0;
};

struct FileSummary {
  uint8_t version = 0;
  std::vector<TableSummary> tables;  // by table name in byte order
  std::optional<TreeSummary> tree;   // present only when the file has tree-model devices
};

absl::StatusOr<FileSummary> SummarizeFile(const TsFileReader& reader);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_FILE_SUMMARY_H_

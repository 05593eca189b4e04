// read_tsfile's planning step: the scan state DuckDB keeps (GlobalState, one LocalState per
// thread), the cardinality estimate from metadata, the Init body that plans the projection and
// the splits, and NextBatch, which walks a thread through its splits.
#ifndef TSREAD_DUCKDB_READ_TSFILE_PLAN_H_
#define TSREAD_DUCKDB_READ_TSFILE_PLAN_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/aggregate/row_counter.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/dataset/shared_group_plans.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/read/table_reader.h"
#include "tsread/read/table_scanner.h"

namespace tsread::duckdb_ext::read_tsfile_internal {

// What an output column of the chunk holds.
struct OutColumn {
  enum Kind { kTime, kSchema, kFilename, kOther } kind = kOther;
  size_t scan_index = 0;    // kSchema: index into the scanner's projection
  size_t schema_index = 0;  // kSchema: index into the bind's schema
};

struct GlobalState {
  std::unique_ptr<DatasetScanner> scanner;
  // IoTDB data: the merged scan, read in items — share `item % merged_parts` of group
  // `item / merged_parts`'s devices — that threads take in turn, group by group, so that a group's
  // files, planned once for all its parts, are let go once its last item is read, however many
  // threads DuckDB runs.
  std::unique_ptr<MergedScanner> merged;
  std::unique_ptr<SharedGroupPlans> merged_plans;
  size_t merged_parts = 1;
  std::atomic<size_t> next_item{0};
  std::vector<DatasetSplit> splits;
  std::atomic<size_t> next_split{0};
  std::vector<OutColumn> out;
  // No time or table column is asked for (`count(*)`, or only filename): rows are counted, from
  // statistics where the range covers them (RowCounter), and delivered without values.
  bool rows_only = false;
  TimeRange range;
};

// A scanning thread's position: the plan of the file it is in (kept while its next splits are of
// the same file: planning walks the file's device index), a cursor over its current split, and
// the cursor's current batch — one page of rows, read in place (no copy) and handed to DuckDB one
// window of at most duckdb_vector_size() rows per call.
struct LocalState {
  std::optional<size_t> plan_file;
  std::optional<DatasetScanner::FileScan> plan;
  // Moved from split to split (and file to file) keeping its buffers; reads a split while in_split.
  std::optional<TableScanner::Cursor> cursor;
  bool in_split = false;
  const std::string* path = nullptr;
  const TableBatch* batch = nullptr;  // valid until the cursor's next call
  size_t offset = 0;                  // the batch's first row not yet delivered
  // IoTDB data: the cursor over the thread's current item.
  std::optional<MergedScanner::Cursor> merged_cursor;
  // rows_only: the filter of this thread's file scans, and the rows counted but not delivered
  // (all of the file at `path`).
  RowCounter counter;
  uint64_t pending_rows = 0;
};

// Cardinality from metadata: the estimated rows of up to kEstimateFiles files, scaled by bytes to
// the whole dataset. Not exact (ignores the time range).
absl::StatusOr<uint64_t> EstimateRows(const Dataset& dataset, const DatasetScanner& scanner);

// read_tsfile's init: the scanner over the projected columns and its splits, in a GlobalState.
absl::Status Init(duckdb_init_info info);

// Moves the thread to its next non-empty batch (local.batch nullptr when every split is done),
// taking splits as needed; rows_only: to its next rows (local.pending_rows 0 when done).
absl::Status NextBatch(GlobalState& global, LocalState& local);

}  // namespace tsread::duckdb_ext::read_tsfile_internal

#endif  // TSREAD_DUCKDB_READ_TSFILE_PLAN_H_

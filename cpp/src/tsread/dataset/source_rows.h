// SourceRows: one device's rows from one source (a file, or a run of its chunks) held in memory
// for a merge (merged_scan.h), and the steps of that merge — masking deleted rows and cells,
// cutting a file's rows into runs of increasing time, and merging runs by priority per column.
#ifndef TSREAD_DATASET_SOURCE_ROWS_H_
#define TSREAD_DATASET_SOURCE_ROWS_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tsread/format/timeseries_metadata.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/table_reader.h"

namespace tsread {

struct SourceRows {
  std::vector<int64_t> times;
  // One per output column; TAG and ATTRIBUTE columns (values from the device id) stay empty.
  std::vector<ColumnVector> columns;

  size_t num_rows() const { return times.size(); }
};

// What a caller removes from a source's rows of one device before the merge (IoTDB's deletions):
// rows whose time is in `rows`, and per output column the values whose time is in `cells[j]`
// (they become null). Ranges are inclusive, in any order.
struct SourceMask {
  std::vector<TimeRange> rows;
  std::vector<std::vector<TimeRange>> cells;  // empty, or one list per output column

  bool empty() const;
};

// `batch`'s rows as `rows` (its first `column_count` columns), buffers swapped rather than copied:
// the batch gets rows' old buffers (a cursor refills them). For a source whose device fits one
// batch, the usual case, nothing is copied.
void TakeRows(TableBatch& batch, size_t column_count, SourceRows& rows);
// Appends `times` and the first rows.columns.size() of `columns` (one row each per time).
void AppendRows(std::span<const int64_t> times, std::span<const ColumnVector> columns, SourceRows& rows);
// Appends the rows of `batch`'s first rows.columns.size() columns.
inline void AppendRows(const TableBatch& batch, SourceRows& rows) { AppendRows(batch.times, batch.columns, rows); }
// Whether a series' chunks follow each other in time (each starts after every earlier one ends):
// its rows then come out of the file in time order, each time once (no run of SplitRuns but one).
bool ChunksInTimeOrder(const TimeseriesMetadata& series);
// Removes masked rows and nulls masked cells.
void ApplyMask(const SourceMask& mask, SourceRows& rows);
// Cuts rows read chunk after chunk into runs whose times strictly increase: a time not above the
// one before it starts a new run, so the rows of one time in several chunks land in different
// runs, a later chunk's in a later run (a chunk's own times always increase).
std::vector<SourceRows> SplitRuns(SourceRows rows);
// The merge of `runs` (lowest priority first): a row at every time any run has, each value from
// the highest-priority run whose value at that time is not null (IoTDB's per-column merge: a null
// never hides a value of a lower-priority run).
SourceRows MergeRuns(const std::vector<const SourceRows*>& runs);
// The same into `out`, keeping its buffers' capacity. Rows that one run alone has are copied in
// ranges; only times several runs share are decided column by column.
void MergeRunsInto(const std::vector<const SourceRows*>& runs, SourceRows& out);
// A merge's working memory, kept by a caller that merges device after device.
struct MergePlan;
struct MergeScratch {
  MergeScratch();
  ~MergeScratch();
  MergeScratch(MergeScratch&&) noexcept;
  MergeScratch& operator=(MergeScratch&&) noexcept;
  std::unique_ptr<MergePlan> plan;
};
void MergeRunsInto(const std::vector<const SourceRows*>& runs, SourceRows& out, MergeScratch& scratch);
// Moves rows [begin, begin + count) of `rows` into `batch` (times and the columns; TAG/ATTRIBUTE
// columns left empty).
void CopyRowsToBatch(const SourceRows& rows, size_t begin, size_t count, TableBatch& batch);
// Moves all of `rows` into `batch` (buffers swapped, no copy); `rows` is left empty (with the
// batch's old buffers, for reuse).
void MoveRowsToBatch(SourceRows& rows, TableBatch& batch);

}  // namespace tsread

#endif  // TSREAD_DATASET_SOURCE_ROWS_H_

// Tree-model points as the batches of the Arrow tree export (arrow_stream.h, ExportTreeArrowStream):
// long form, one series per batch — `device` and `measurement` as TAG-like constant columns (their
// values the batch's device id segments 0 and 1), time, and one value column per data type of the
// selected series, only the series' own filled (the others are marked null on every row without
// buffers: BuildBatch exports such a column from a block of zeros). Internal to the Arrow export.
#ifndef TSREAD_ARROW_TREE_BATCHES_H_
#define TSREAD_ARROW_TREE_BATCHES_H_

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/format/device_id.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace arrow_internal {

// The tree export's columns after time: device, measurement, then "value_<type>" (lower case) for
// each of `value_types` in code order, each type once.
std::vector<ProjectedColumn> TreeProjection(std::vector<DataType> value_types);

// Gathers a series' non-null points into batches of at most `batch_rows` rows and hands each to
// `deliver` (which may move its buffers out).
class TreeBatcher {
 public:
  using Deliver = std::function<absl::Status(TableBatch&)>;
  // `projection` (a TreeProjection) must outlive this.
  TreeBatcher(const std::vector<ProjectedColumn>* projection, size_t batch_rows, Deliver deliver);

  // Rows [begin, end) of a series' points (dataset/tree_points.h, TreePointsFn); null slots are
  // left out. Unimplemented when the values' type has no column (the metadata said otherwise).
  absl::Status Add(std::string_view device, std::string_view measurement, const std::vector<int64_t>& times,
                   const ColumnVector& values, size_t begin, size_t end);
  // Delivers the rows gathered (the end of the scan).
  absl::Status Flush();

 private:
  absl::Status StartSeries(std::string_view device, std::string_view measurement, DataType type);
  // Appends rows [begin, end) of `values` (a range fitting the batch) and their times.
  void Append(const std::vector<int64_t>& times, const ColumnVector& values, size_t begin, size_t end);

  const std::vector<ProjectedColumn>* const projection_;
  const size_t batch_rows_;
  const Deliver deliver_;
  bool open_ = false;   // a series has been started
  DeviceId id_;         // segments: the series' device path and measurement
  size_t column_ = 0;   // the projection column of the series' type
  TableBatch batch_;
};

// The arrays of a tree export: `step`'s pieces taken on the consumer's thread as get_next needs
// them, gathered by a TreeBatcher and built into arrays (BuildBatch) as batches fill.
class TreeArrays {
 public:
  // `projection` (a TreeProjection) must outlive this.
  TreeArrays(TreeStepFn step, const std::vector<ProjectedColumn>* projection, size_t batch_rows,
             ArrowExportOptions options, std::shared_ptr<BufferPool> pool);
  // Releases the arrays built and not taken.
  ~TreeArrays();
  TreeArrays(const TreeArrays&) = delete;
  TreeArrays& operator=(const TreeArrays&) = delete;

  // Fills `out` with the next array (out->release == nullptr at the end).
  absl::Status Next(ArrowArray* out);

 private:
  absl::Status Build(TableBatch& batch);

  const TreeStepFn step_;
  const std::vector<ProjectedColumn>* const projection_;
  const ArrowExportOptions options_;
  const std::shared_ptr<BufferPool> pool_;
  TreeBatcher batcher_;
  std::deque<ArrowArray> ready_;  // built, in order (a step may fill several)
  bool done_ = false;
};

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_TREE_BATCHES_H_

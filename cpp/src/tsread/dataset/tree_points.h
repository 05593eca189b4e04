// Tree-model points of files as written (format reference §8): every selected series of a file,
// devices in path order, a device's measurements in name order, a series' points page by page in
// time order. What `cat --tree`, Python's read_tree and the Arrow tree export read from plain
// files; IoTDB data merges the same kind of points across files (iotdb/iotdb_dataset.h, ScanTree,
// with the same options and callback).
#ifndef TSREAD_DATASET_TREE_POINTS_H_
#define TSREAD_DATASET_TREE_POINTS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/aligned_device_reader.h"  // TimeRange
#include "tsread/read/column_vector.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct TreeScanOptions {
  // Whether a device (its path, "root.sg.d1") is read; empty: every device.
  std::function<bool(std::string_view device)> select_device;
  // Measurements to read; empty: every one.
  std::vector<std::string> measurements;
  TimeRange time_range;
};

// A series' points: rows [begin, end) of `times` and `values` (one slot per time, null where the
// series has no value there — an aligned device's rows), all inside the scan's time range, times
// ascending.
using TreePointsFn = std::function<absl::Status(std::string_view device, std::string_view measurement,
                                                const std::vector<int64_t>& times, const ColumnVector& values,
                                                size_t begin, size_t end)>;

// Whether `selection` selects `device` (its path as printed): each entry one device or, as a
// prefix ending at a segment ("root.sg"), every device below it; empty selects every device. What
// `cat --tree --devices`, `agg --tree` and the tree scans of the C ABI and Python take.
bool TreeDeviceSelected(const std::vector<std::string>& selection, std::string_view device);

// Whether `options` select measurement `measurement` (its list names it, or is empty).
bool TreeMeasurementSelected(const TreeScanOptions& options, std::string_view measurement);

// A selected series and the type its metadata gives.
struct TreeSeriesInfo {
  std::string device;  // as `cat --tree` prints it
  std::string measurement;
  DataType type = DataType::kInt64;
};

// The selected series of one file, in scan order (the time range is not consulted).
absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOfFile(const TsFileReader& reader, const TreeScanOptions& options);
// Every selected series' points of one file, in scan order.
absl::Status ScanTreePointsOfFile(const TsFileReader& reader, const TreeScanOptions& options,
                                  const TreePointsFn& consume);

// The same over every file of `dataset` holding tree-model data, file after file (a series in
// several files comes once per file); errors name the file. A file whose metadata could not be
// read (DatasetFile::status) fails them with its error.
absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOf(const Dataset& dataset, const TreeScanOptions& options);
absl::Status ScanTreePoints(const Dataset& dataset, const TreeScanOptions& options, const TreePointsFn& consume);

// The points of a scan a piece at a time, for a reader that pulls: each call delivers the next
// piece to `consume` (files as written: a page of a series; IoTDB data: a device's merged series)
// and returns whether there was one (false after the last).
using TreeStepFn = std::function<absl::StatusOr<bool>(const TreePointsFn& consume)>;

// ScanTreePoints' points as steps of a page each (the dataset, or the reader, must outlive the
// function); errors name the file (`path` for a lone reader).
TreeStepFn TreeStepsOf(const Dataset& dataset, TreeScanOptions options);
TreeStepFn TreeStepsOf(std::shared_ptr<const TsFileReader> reader, std::string path, TreeScanOptions options);

// Whether a file of `dataset` holds tree-model data or could not be read (and may: a scan then
// reports why) — false means the input has none.
bool MayHoldTreeModel(const Dataset& dataset);

}  // namespace tsread

#endif  // TSREAD_DATASET_TREE_POINTS_H_

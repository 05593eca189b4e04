// Export of a table scan as an Arrow C stream (ArrowArrayStream): one struct array per batch
// with a child per output column — time first, then the projection.
//
// Types: time -> timestamp (unit option, ms by default; or int64), TAG -> utf8 (or, as options,
// dictionary<int32, utf8>: per batch a one-entry dictionary, the device's value; or
// run_end_encoded<int32, utf8>: per batch one run, the device's value), ATTRIBUTE ->
// utf8 (all null), BOOLEAN -> bool, INT32 -> int32, INT64 -> int64, FLOAT -> float32,
// DOUBLE -> float64, TEXT/STRING -> utf8, BLOB -> binary, DATE -> date32 (days since the epoch,
// from the stored yyyyMMdd), TIMESTAMP -> timestamp (same unit as time). TsFile does not store the
// timestamp unit, hence the option.
//
// The scan's batches already have Arrow's layout, so value buffers, validity bitmaps and
// string offsets/bytes are handed over without copying (moved out of the batch); only BOOLEAN
// (one byte per row in a batch) is packed into bits, and DATE converted in place. TEXT/STRING
// values that are not valid UTF-8 fail the stream (get_next returns EIO, get_last_error names the
// column and row) rather than producing invalid utf8; BLOB is exported as binary unchecked.
#ifndef TSREAD_ARROW_ARROW_STREAM_H_
#define TSREAD_ARROW_ARROW_STREAM_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

enum class ArrowTimeUnit { kSecond, kMillisecond, kMicrosecond, kNanosecond };

struct ArrowExportOptions {
  // Unit of time and TIMESTAMP columns; nullopt exports them as plain int64.
  std::optional<ArrowTimeUnit> time_unit = ArrowTimeUnit::kMillisecond;
  // TAG columns as dictionary<int32, utf8> instead of utf8: no per-row copy of the tag value.
  bool tags_as_dictionary = false;
  // TAG columns as run_end_encoded<int32, utf8> instead: a batch (one device's rows) is one run, so
  // a TAG column costs two one-element arrays whatever the batch's rows. Not with
  // tags_as_dictionary (which then wins).
  bool tags_as_run_end = false;
  // When not empty: a last utf8 column of this name with the path of the file each row comes
  // from (useful for datasets).
  std::string file_column;
};

// Fills `out` with a stream over every batch of `scanner`. One thread (the scanner's
// num_threads): each get_next decodes the next batch on the caller's thread, in device order.
// Several: the scan runs on its own threads while the consumer works, a few built arrays queued
// ahead, in device order or, unordered, as decoded (the scanner's `ordered`); releasing the stream
// stops it. The stream keeps `reader` and `scanner` alive; the caller releases it with
// out->release.
absl::Status ExportArrowStream(std::shared_ptr<const TsFileReader> reader, std::shared_ptr<const TableScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out);
// The same over every file of a dataset scan (file order, then device order; threads as above).
// A file that fails ends the stream with its error, naming the file.
absl::Status ExportArrowStream(std::shared_ptr<const Dataset> dataset, std::shared_ptr<const DatasetScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out);

// The same over a merged scan (overlapping sources merged by priority, dataset/merged_scan.h; one
// thread). `owner` keeps alive what the scanner reads (its dataset, e.g. an IoTDB data set).
absl::Status ExportArrowStream(std::shared_ptr<const void> owner, std::shared_ptr<const MergedScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out);

// Tree-model points (dataset/tree_points.h) in long form: time, device (utf8, the path as
// `cat --tree` prints it), measurement (utf8; both dictionary<int32, utf8> with
// tags_as_dictionary), then one column per data type among `value_types` (the selected series'
// types, TreeSeriesOf / IotdbDataset::TreeSeries), named "value_<type>" in lower case and in type
// code order ("value_int64", "value_double", ...); each row is one non-null point and fills the
// column of its series' type, the others null. Batches hold one series each, at most `batch_rows`
// points (0: 65536). Each get_next takes `step`'s pieces (TreeStepsOf over files as written, or an
// IoTDB data set's TreeSteps) on the caller's thread until a batch is ready; `owner` keeps alive
// what `step` reads. options.file_column is not supported (InvalidArgument).
absl::Status ExportTreeArrowStream(std::shared_ptr<const void> owner, TreeStepFn step, std::vector<DataType> value_types,
                                   size_t batch_rows, const ArrowExportOptions& options, ArrowArrayStream* out);

}  // namespace tsread

#endif  // TSREAD_ARROW_ARROW_STREAM_H_

// DatasetScanner: one table scan over every file of a Dataset, with the options of a
// single-file scan (ScanOptions: projection, time range, tag predicates, threads, ordered or
// unordered delivery, batch size).
//
// Files are visited in dataset order; within a file, devices in index order. Before a file's
// data section is touched the file must be able to contribute rows: it has the table; a tag
// predicate on a TAG column the file lacks (read as null) accepts null; the table's time range in
// the file (from its series metadata) overlaps the scan's; and its device index holds a device
// that passes the tag predicates (looked up, not walked, when they pin every TAG column).
//
// Batches carry their file (TableBatch::file) and that file's projection (TableBatch::projection,
// for TAG segments); their columns are the dataset's projection() in order, a column the file
// lacks all null.
#ifndef TSREAD_DATASET_DATASET_SCANNER_H_
#define TSREAD_DATASET_DATASET_SCANNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

struct DatasetScanOptions : ScanOptions {
  // A file whose scan fails (its metadata unreadable, a corrupt page...) is left out from that
  // point on and listed in skipped_files(), instead of ending the scan with its error. Rows it
  // delivered before the failure stay delivered.
  bool skip_failed_files = false;
};

// A split of a dataset scan: a range of one file's planned devices.
struct DatasetSplit {
  size_t file = 0;  // index into Dataset::files()
  ScanSplit devices;
};

class DatasetScanner {
 public:
  using Consumer = std::function<absl::Status(int worker, TableBatch&)>;

  // Resolves the table (options.table may be empty when the dataset has one table), the
  // reconciled schema and the projection. InvalidArgument for an unknown column, a tag predicate
  // on a column that is not a TAG column, a value predicate that does not bind to its column
  // (ScanOptions::value_predicates), or a schema conflict between files. The dataset must
  // outlive the scanner.
  static absl::StatusOr<std::unique_ptr<DatasetScanner>> Create(const Dataset& dataset, DatasetScanOptions options);

  const Dataset& dataset() const { return *dataset_; }
  const DatasetScanOptions& options() const { return options_; }
  // The table's schema reconciled across the files.
  const TableSchema& schema() const { return schema_; }
  // The output columns (names, categories, types). Their TAG segments are the reconciled
  // schema's: read tags through TableBatch::tag(j), which uses the batch's file's segments.
  const std::vector<ProjectedColumn>& projection() const { return projection_; }

  // Every batch of every file. One thread (or ordered): consume(0, batch) on the calling thread
  // in file order, then device order, each device's rows in time order; a failing file stops the
  // scan after everything before it was delivered. Unordered with N threads: consume(worker,
  // batch) from the workers concurrently, files and splits of files taken as workers free up;
  // at most N files are in use at once. Stops at the first error (the consumer's or a file's,
  // named by path), unless skip_failed_files. The consumer may move buffers out of a batch (as
  // TableScanner::Scan's).
  absl::Status Scan(const Consumer& consume) const;

  // What the value predicates have spared so far, in every file scanned.
  PredicateCounts predicate_counts() const { return options_.predicate_work->counts(); }

  // Files left out by the last Scan with skip_failed_files, and the dataset's skipped files.
  std::vector<SkippedFile> skipped_files() const;

  // Splits of about `target_bytes` of projected chunks each, covering every device of every file
  // that can contribute rows, in dataset order. Reads every such file's index (not its data).
  absl::StatusOr<std::vector<DatasetSplit>> Splits(uint64_t target_bytes) const;
  // Reads one split on the calling thread (batches as in Scan). Safe to call concurrently.
  absl::Status ScanSplitRows(const DatasetSplit& split, const std::function<absl::Status(TableBatch&)>& consume) const;

  // The split as bytes another process can execute (SplitReader) without this dataset: the file's
  // path and size, the table, the reconciled projection (names, categories, types), the time
  // range, the tag predicates and the device range.
  std::string SerializeSplit(const DatasetSplit& split) const;

  // A pull-based read of every file in order on the calling thread.
  class Cursor {
   public:
    // The next non-empty batch, or nullptr at the end; valid until the next call. The caller
    // may move buffers out of it.
    absl::StatusOr<TableBatch*> Next();

   private:
    friend class DatasetScanner;
    explicit Cursor(const DatasetScanner* scanner) : scanner_(scanner) {}
    const DatasetScanner* scanner_;
    size_t next_file_ = 0;
    std::shared_ptr<const TsFileReader> reader_;
    std::unique_ptr<TableScanner> file_scanner_;
    // Moved from file to file, keeping its buffers; reads the current file while in_file_.
    std::optional<TableScanner::Cursor> cursor_;
    bool in_file_ = false;
  };
  Cursor OpenCursor() const { return Cursor(this); }

  // A file's part of the scan: its reader (kept open while this lives) and its planned scanner.
  struct FileScan {
    std::shared_ptr<const TsFileReader> reader;
    std::unique_ptr<TableScanner> scanner;
  };
  // Plans file `index`: nullopt when the file cannot contribute rows (see above); errors name
  // the file. `threads` is the file scanner's num_threads; a `filter` replaces the options'
  // statistics_filter for this file's scan (one per thread that scans it: filters keep state).
  absl::StatusOr<std::optional<FileScan>> PlanFile(size_t index, int threads, StatisticsFilter* filter = nullptr) const;

 private:
  friend class SplitReader;
  DatasetScanner(const Dataset& dataset, DatasetScanOptions options, TableSchema schema,
                 std::vector<ProjectedColumn> projection);
  static absl::StatusOr<std::unique_ptr<DatasetScanner>> CreateWithSchema(const Dataset& dataset,
                                                                          DatasetScanOptions options,
                                                                          TableSchema schema);

  // The scan's tag predicates for a file whose table is `table`; nullopt when the file cannot
  // match (a predicate on a TAG column it lacks that does not accept null).
  std::optional<std::vector<TagPredicate>> PredicatesFor(const TableSchema& table) const;
  // Whether the file's rows of the table may fall in the time range (series metadata only).
  absl::StatusOr<bool> MayHaveRowsInRange(const TsFileReader& reader) const;
  // A file's failure: kept for skipped_files() and OK with skip_failed_files, else returned.
  absl::Status FileFailed(size_t file, absl::Status status) const;

  absl::Status ScanOrdered(const Consumer& consume) const;
  absl::Status ScanUnordered(const Consumer& consume) const;

  const Dataset* dataset_;
  DatasetScanOptions options_;
  TableSchema schema_;
  std::vector<ProjectedColumn> projection_;
  mutable std::mutex skipped_mutex_;
  mutable std::vector<SkippedFile> skipped_;
};

// Executes a serialized split (DatasetScanner::SerializeSplit) in any process: opens only the
// split's file, checks that its size is the one planned, and scans the device range with the
// original scan's projection and filters.
class SplitReader {
 public:
  // InvalidArgument for bytes that are not a serialized split; FailedPrecondition when the file
  // changed size since the split was made. `columns`, when set, narrows the split's projection
  // to these of its columns, in this order (InvalidArgument for one it does not project): a
  // reader that needs fewer columns than were planned (Dask's column projection) decodes only
  // those.
  static absl::StatusOr<std::unique_ptr<SplitReader>> Open(std::string_view serialized, size_t batch_size = 0,
                                                           ReadLimits limits = {},
                                                           std::optional<std::vector<std::string>> columns = {});

  const std::string& path() const { return dataset_->files()[0].path; }
  const DatasetSplit& split() const { return split_; }
  const DatasetScanner& scanner() const { return *scanner_; }
  const std::vector<ProjectedColumn>& projection() const { return scanner_->projection(); }
  absl::Status Scan(const std::function<absl::Status(TableBatch&)>& consume) const {
    return scanner_->ScanSplitRows(split_, consume);
  }

 private:
  SplitReader() = default;
  std::unique_ptr<Dataset> dataset_;
  std::unique_ptr<DatasetScanner> scanner_;
  DatasetSplit split_;
};

}  // namespace tsread

#endif  // TSREAD_DATASET_DATASET_SCANNER_H_

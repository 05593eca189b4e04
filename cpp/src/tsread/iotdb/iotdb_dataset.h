// IotdbDataset: TsFiles read as IoTDB answers them — an IoTDB data directory's files merged by
// IoTDB's priority and its deletion files applied (iotdb-data-directories.md), or plain files with
// their own deletion files applied.
//
// Open finds the layout (data_directory.h), opens every file's metadata once (a Dataset) and
// parses every deletion file. Scans then go group by group (one region's time partition; a plain
// file is its own group):
//   - ScanTable: a table's rows, merged per column by priority, deleted rows and cells removed
//     (dataset/merged_scan.h does the merge, FileDeletions says what is deleted);
//   - ScanTree: the tree model's points per series, the highest-priority non-null value at each
//     time, deleted points removed.
// Both read only the files of the database that holds the table or the devices asked for.
#ifndef TSREAD_IOTDB_IOTDB_DATASET_H_
#define TSREAD_IOTDB_IOTDB_DATASET_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/iotdb/data_directory.h"
#include "tsread/iotdb/file_deletions.h"
#include "tsread/iotdb/unsealed_files.h"

namespace tsread::iotdb {

// Whether reading `layout` with IoTDB's rules changes anything: it is a data directory, or a file
// has a deletion file.
inline bool AppliesRules(const IotdbLayout& layout) { return layout.recognized || layout.deletion_files() > 0; }

struct IotdbOptions {
  DatasetOptions dataset;
  // The database whose table or devices to read; empty: the one that has them.
  std::string database;
  // A deletion file with an entry this reader does not know: the entries before it apply (a
  // warning) instead of failing Open.
  bool ignore_errors = false;
};

// A deletion file and what reading it found.
struct DeletionFileReport {
  DeletionFileRef file;
  size_t entries = 0;
  absl::Status damage;  // DataLoss naming the file and offset, or OK
};

// The tree scan's options and callback are those of plain files (dataset/tree_points.h).
using ::tsread::TreePointsFn;
using ::tsread::TreeScanOptions;
using ::tsread::TreeSeriesInfo;

// A tree device and where it is: the files that hold it (layout order), its id and index entry there.
struct TreeDeviceFiles {
  struct Place {
    size_t file = 0;
    DeviceId id;
    DeviceLocation location;
  };
  std::string name;  // as `cat --tree` prints it
  std::vector<Place> places;
};

class IotdbDataset {
 public:
  // NotFound when the inputs name no TsFile; Unimplemented naming the file and offset when a
  // deletion file holds an entry of an unknown kind (unless ignore_errors).
  static absl::StatusOr<std::unique_ptr<IotdbDataset>> Open(const std::vector<std::string>& inputs,
                                                            IotdbOptions options = {});
  // Open with the layout found already (FindLayout).
  static absl::StatusOr<std::unique_ptr<IotdbDataset>> OpenLayout(IotdbLayout layout, IotdbOptions options = {});

  // What a front end opens first: the inputs as IoTDB answers them when they hold IoTDB data (a
  // data directory, or files with deletion files beside them: FindLayout, AppliesRules) and `raw`
  // is false; nullptr when they are to be read as written (Dataset::Open) — also when listing
  // them fails, which opening them as written then reports.
  static absl::StatusOr<std::unique_ptr<IotdbDataset>> OpenIfIotdbData(const std::vector<std::string>& inputs, bool raw,
                                                                       IotdbOptions options = {});

  const IotdbLayout& layout() const { return layout_; }
  // Whether the inputs hold database `database` (a front end checks IotdbOptions::database).
  bool HoldsDatabase(std::string_view database) const;
  // Every file, in layout order (Dataset file i is layout().files[i]).
  const Dataset& dataset() const { return *dataset_; }
  const IotdbOptions& options() const { return options_; }
  // Whether IoTDB's rules change anything: a data directory was recognized or a file has deletions.
  bool applies_rules() const { return AppliesRules(layout_); }
  const FileDeletions& deletions(size_t file) const { return deletions_[file]; }
  // The deletion file of each file that has one (by file index).
  const std::map<size_t, DeletionFileReport>& deletion_reports() const { return reports_; }
  // The files read in place for want of a valid tail (a crashed server's: unsealed_files.h), by
  // file index; files with nothing to read are left out of the layout (a warning names them).
  const std::map<size_t, UnsealedFile>& unsealed_files() const { return unsealed_; }
  // What a front end should warn about: layout notes, unsealed files, damaged deletion files,
  // unknown entries skipped.
  std::vector<std::string> Warnings() const;

  // The databases holding table `table` (files that have it).
  std::vector<std::string> DatabasesOf(std::string_view table) const;
  // The table a scan reads (`table`, or the only table) and its database (options().database, or
  // the one holding the table; InvalidArgument listing them when several do).
  absl::StatusOr<std::pair<std::string, std::string>> TableAndDatabase(std::string_view table) const;

  // A merged scan of a table (options as DatasetScanner's; its cursors read on one thread each).
  // An aggregate gives each cursor its statistics filter (MergedScanner::OpenCursor), asked only
  // about devices whose files' statistics describe IoTDB's rows; the filter's file indexes are the
  // scanner's dataset's (MergedScanner::inner()).
  absl::StatusOr<std::unique_ptr<MergedScanner>> ScanTable(DatasetScanOptions options) const;
  // Every selected series' merged points: devices in path order, a device's measurements in name
  // order, a series' points group by group in time order.
  absl::Status ScanTree(const TreeScanOptions& options, const TreePointsFn& consume) const;
  // ScanTree in two steps, for a reader that takes one device at a time: the selected tree
  // devices (of the chosen database) by path, each with the files that hold it; then one device's
  // series (thread-safe: devices may be read concurrently).
  absl::StatusOr<std::vector<TreeDeviceFiles>> TreeDevices(const TreeScanOptions& options) const;
  absl::Status ScanTreeDevice(const TreeDeviceFiles& device, const TreeScanOptions& options,
                              const TreePointsFn& consume) const;
  // ScanTree over `devices` (TreeDevices) a device at a time, for a reader that pulls
  // (dataset/tree_points.h); this data set must outlive the function.
  TreeStepFn TreeSteps(std::vector<TreeDeviceFiles> devices, TreeScanOptions options) const;
  // The series of `devices` (TreeDevices) ScanTree reads, in its order, each with the type its
  // files' metadata give (a series stored with different types in different files comes once per
  // type).
  absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeries(const std::vector<TreeDeviceFiles>& devices,
                                                         const TreeScanOptions& options) const;

 private:
  IotdbDataset() = default;
  // The dataset holding exactly `database`'s files (the whole one when no other database has the
  // table), and the layout file index of each of its files.
  absl::StatusOr<std::pair<const Dataset*, const std::vector<size_t>*>> DatasetOf(const std::string& database,
                                                                                   std::string_view table) const;

  // Finds the files dataset_ could not open for want of a valid tail, reopens dataset_ reading
  // them in place (`options` gains the opener) and leaves out those with nothing to read.
  absl::Status ReadUnsealedFilesInPlace(DatasetOptions& options);

  IotdbOptions options_;
  IotdbLayout layout_;
  std::map<size_t, UnsealedFile> unsealed_;
  std::vector<std::string> unsealed_warnings_;
  std::unique_ptr<Dataset> dataset_;
  std::vector<FileDeletions> deletions_;
  std::map<size_t, DeletionFileReport> reports_;
  std::vector<std::string> skipped_unknown_;
  std::vector<size_t> identity_;  // 0..n-1: the whole dataset's file -> layout index
  std::vector<size_t> group_of_;  // per file, its group in layout_.groups
  struct SubDataset {
    std::unique_ptr<Dataset> dataset;
    std::vector<size_t> files;  // its file i is layout file files[i]
  };
  mutable std::mutex sub_mutex_;
  mutable std::map<std::string, SubDataset> sub_datasets_;
};

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_IOTDB_DATASET_H_

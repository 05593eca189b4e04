// MergedScanner: a table scan over files whose rows overlap, merged by a priority the caller
// supplies — how IoTDB answers from a data directory, where an out-of-order write lands in a
// newer file and a timestamp written again replaces the older value (iotdb/ holds those rules and
// builds the groups and masks; this file knows nothing of IoTDB).
//
// The caller groups the dataset's files: files of one group may hold rows of the same device at
// the same time, files of different groups never do (IoTDB: one time partition of a region).
// Within a group, a device's rows from every file that has it are merged:
//   - a row exists at every time some source has (after its mask);
//   - each column takes the value of the highest-priority source whose value there is not null
//     (a later file over an earlier one in the group's order; inside one file a later chunk over
//     an earlier one), so a null never hides an older value;
//   - the value predicates are decided on the merged rows (a source's value may be replaced).
// A device with a single source, no mask and chunks in time order is streamed as the plain scan
// reads it. Batches come out group by group, in device order within a group, each device's rows in
// time order. A cursor may read one part of every group's devices (a contiguous share of their
// order): parts read on threads at once cover every row once (ScanMergedOnThreads).
#ifndef TSREAD_DATASET_MERGED_SCAN_H_
#define TSREAD_DATASET_MERGED_SCAN_H_

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <memory>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/shared_group_plans.h"
#include "tsread/dataset/row_filter.h"
#include "tsread/dataset/source_rows.h"
#include "tsread/io/read_ahead.h"
#include "tsread/read/statistics_filter.h"

namespace tsread {

// Files whose rows may meet, by index into Dataset::files(), lowest priority first, and for each
// whether the mask function may remove any of its rows (else it is not asked).
struct MergeGroup {
  std::vector<size_t> files;
  std::vector<bool> masked;  // empty: every file may be masked
};

// What to remove from file `file`'s rows of `device` before the merge, given the device's series
// metadata in that file and the scan's read columns (SourceMask::cells follows their order).
using SourceMaskFn = std::function<absl::StatusOr<SourceMask>(
    size_t file, const DeviceId& device, const std::vector<TimeseriesMetadata>& series,
    const std::vector<ProjectedColumn>& read_columns)>;

// Statistics in a merged scan (an aggregate's, given to each cursor): the rows of a device whose
// sources are streamed — nothing masked, their times never meeting — may be taken from statistics
// as in a plain scan; a merged device's never are (its files' statistics describe rows the merge
// replaces).
struct MergedStatistics {
  StatisticsFilter* filter = nullptr;
  // Called before the filter is asked about rows of dataset file `file` (a filter with per-file
  // state, such as an aggregate's, switches to that file).
  std::function<void(size_t file)> before_file;
};

// Which rows a cursor reads: the part-th of `parts` equal shares of each group's devices (by
// their merge order), in groups [first_group, end_group) (SIZE_MAX: to the last). The parts of a
// group together hold its every row once, each device in one part.
struct MergedPart {
  size_t part = 0, parts = 1;
  size_t first_group = 0, end_group = SIZE_MAX;
};

class MergedScanner {
 public:
  // `options` as DatasetScanner's (threads and ordering do not apply: a cursor reads on one
  // thread, in group order; statistics come with a cursor: OpenCursor); `mask` may be empty
  // (nothing removed). Errors as DatasetScanner::Create.
  static absl::StatusOr<std::unique_ptr<MergedScanner>> Create(const Dataset& dataset, DatasetScanOptions options,
                                                               std::vector<MergeGroup> groups, SourceMaskFn mask);

  // The output columns (as DatasetScanner::projection()).
  const std::vector<ProjectedColumn>& projection() const { return projection_; }
  const TableSchema& schema() const { return inner_->schema(); }
  const DatasetScanner& inner() const { return *inner_; }

  // A pull-based read of the merged rows on the calling thread: batches in group order, devices
  // in order within a group, a device's rows in time order. A batch's `columns` hold the
  // projection's columns first (and may hold more, the predicates' columns); its `file` is the
  // highest-priority source's.
  class Cursor {
   public:
    // The next non-empty batch, or nullptr at the end; valid until the next call (the caller may
    // move buffers out of it).
    absl::StatusOr<TableBatch*> Next();

   private:
    friend class MergedScanner;
    // One device of a group in one of its files.
    struct Entry {
      const DeviceId* id = nullptr;
      size_t rank = 0;    // the file's place in the group: its priority
      size_t device = 0;  // planned device index in the file's scanner
    };
    // One file of the group being read: its plan, and a cursor over all its planned devices that
    // the group's devices take their batches from in turn (its read-ahead windows then serve
    // device after device), or — when the file's devices are not in the merge's order — reopened
    // on each device.
    // The statistics filter a file's scan asks: the scanner's, for the devices streamed only.
    class GatedFilter : public StatisticsFilter {
     public:
      GatedFilter(const MergedStatistics* statistics, size_t file) : statistics_(statistics), file_(file) {}
      void Open(const DeviceId* device) { open_.push_back(device); }
      // After the Opens: the devices searchable.
      void Sort() { std::sort(open_.begin(), open_.end()); }
      absl::StatusOr<bool> Take(const RowStatistics& rows) override;
      absl::StatusOr<std::optional<size_t>> TailStart(const RowStatistics& rows, std::span<const int64_t> times) override;
      absl::StatusOr<bool> TakeTail(const RowStatistics& rows, std::span<const int64_t> times, size_t tail,
                                    std::vector<ColumnVector>& head,
                                    absl::FunctionRef<absl::Status(size_t)> decode_whole) override;

     private:
      bool IsOpen(const DeviceId* device);
      const MergedStatistics* statistics_;
      size_t file_;
      std::vector<const DeviceId*> open_;  // the streamed devices' ids (planned in the file), sorted
    };
    // What StartGroup decided for a device (the entries_ from `first` on with its id).
    struct DevicePlan {
      size_t first = 0, end = 0;
      bool stream = false;
      std::vector<std::pair<size_t, size_t>> order;  // streamed: (rank, device) by time
      std::vector<SourceMask> masks;                 // merged: per source
    };
    struct FileRead {
      size_t file = 0;  // in the dataset
      std::unique_ptr<GatedFilter> gate;  // declared before plan: the scanner points to it
      std::optional<DatasetScanner::FileScan> own_plan;  // without shared plans
      const DatasetScanner::FileScan* plan = nullptr;  // own_plan's, or the shared one; null: no rows
      bool masked = false;
      // Read columns this file stores with another type than the scan's (a type the dataset
      // unified: DatasetOptions::unify_types): cast in each batch, never from statistics.
      std::vector<size_t> recast;
      bool in_order = true;
      std::optional<TableScanner::Cursor> cursor;
      TableBatch* pending = nullptr;  // the cursor's batch not yet taken (a later device's)
      size_t reopened_at = SIZE_MAX;  // !in_order: the device the cursor was opened on
      ReadAhead metadata{ReadAhead::kMetadataWindowBytes};  // the devices' series metadata, in order
    };
    Cursor(const MergedScanner* scanner, RowFilter filter, const MergedPart& part, SharedGroupPlans* shared,
           const MergedStatistics* statistics);
    // Drops the group's files (and tells `shared_` so).
    void LeaveGroup();
    // Plans the next group's files and lists their devices (this cursor's part of them).
    absl::Status StartGroup();
    // Sorts entries_ by device then rank (the files' lists merged where each is in order).
    void SortEntries();
    // Keeps in entries_ this cursor's part of the group's devices.
    void KeepPart();
    // Opens each in-order file's cursor over its devices left in entries_.
    absl::Status OpenFileCursors();
    // Plans every device of the group (PlanDevice) and opens the statistics of those streamed.
    absl::Status PlanDevices();
    // Whether a device's sources stream, their order, or their masks (series metadata read here).
    absl::StatusOr<DevicePlan> PlanDevice(size_t first, size_t end);
    // Starts the next device of the group: streamed as its sources read it, or merged.
    absl::Status StartDevice();
    // The next batch of planned device `device` of the group's file `rank`; nullptr after its last.
    absl::StatusOr<TableBatch*> DeviceBatch(size_t rank, size_t device);

    const MergedScanner* scanner_;
    RowFilter filter_;
    size_t part_ = 0, parts_ = 1;  // which share of each group's devices this cursor reads
    SharedGroupPlans* shared_ = nullptr;  // the files' plans, when parts read at once
    const MergedStatistics* statistics_;  // null: none
    size_t next_group_ = 0, end_group_ = 0;
    std::optional<size_t> group_;  // the group whose files are planned
    std::vector<std::unique_ptr<FileRead>> files_;  // the group's files, by rank
    std::vector<Entry> entries_;                    // the group's devices, by id then rank
    std::vector<DevicePlan> devices_;               // the group's devices, planned
    size_t next_device_ = 0;
    enum class Mode { kNone, kStream, kMerged } mode_ = Mode::kNone;
    // kStream: the sources still to stream, in time order (front first): (rank, device).
    std::vector<std::pair<size_t, size_t>> stream_;
    size_t stream_next_ = 0;
    std::vector<TimeseriesMetadata> series_;  // a source's series while a device is planned (objects reused)
    std::vector<SourceRows> runs_;  // a merged device's runs (buffers kept from device to device)
    SourceRows merged_;
    MergeScratch scratch_;
    size_t merged_next_ = 0;
    TableBatch out_;
  };
  // Errors: a predicate that does not bind (as Create's); InvalidArgument for a part that does not
  // exist. `shared` (made for part.parts parts, outliving the cursor): the files' plans, made once
  // for all parts. `statistics` (outliving the cursor; none: every row decoded): the cursor's own,
  // so that parts with a filter each may be read at once, and then no shared plans (a file's plan
  // asks its cursor's filter).
  absl::StatusOr<Cursor> OpenCursor(const MergedPart& part = {}, SharedGroupPlans* shared = nullptr,
                                    const MergedStatistics* statistics = nullptr) const;
  const std::vector<MergeGroup>& groups() const { return groups_; }
  // Every batch of OpenCursor, to `consume`; stops at the consumer's first error.
  absl::Status Scan(const std::function<absl::Status(TableBatch&)>& consume) const;

 private:
  MergedScanner() = default;

  const Dataset* dataset_ = nullptr;
  std::unique_ptr<DatasetScanner> inner_;  // reads the sources: no value predicates but the tags'
  std::vector<PredicateExpr> row_predicates_;  // decided after the merge
  std::vector<ProjectedColumn> projection_;
  std::vector<MergeGroup> groups_;
  SourceMaskFn mask_;
  size_t batch_rows_ = 0;
};

// Devices in a stable order for merging across files: segment by segment, a null segment first.
bool DeviceIdPrecedes(const DeviceId& a, const DeviceId& b);

}  // namespace tsread

#endif  // TSREAD_DATASET_MERGED_SCAN_H_

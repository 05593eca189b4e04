// TableScanner: the scan engine a query engine drives. From scan options (table, projection,
// time range, tag predicates) it plans the devices to read — pruning by tag before any chunk is
// read — and produces column batches, on one thread or several, or split by split for an
// external engine that distributes a file's splits itself.
#ifndef TSREAD_READ_TABLE_SCANNER_H_
#define TSREAD_READ_TABLE_SCANNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/bound_filter.h"
#include "tsread/read/bound_predicate.h"
#include "tsread/read/predicate_work.h"
#include "tsread/read/table_reader.h"
#include "tsread/read/value_predicate.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

// `column IN (values)` on a TAG column; a nullopt value matches a null tag.
struct TagPredicate {
  std::string column;
  std::vector<std::optional<std::string>> values;
};

struct ScanOptions {
  std::string table;
  // Columns to produce, in order; empty = every column in schema order.
  std::vector<std::string> columns;
  TimeRange time_range;
  // ANDed together.
  std::vector<TagPredicate> tag_predicates;
  // Conditions on column values (value_predicate.h; comparisons, or ANDs and ORs of them), ANDed
  // with each other and the rest. On a FIELD column they are
  // decided from statistics where those settle them — a device, chunk group or page no row of
  // which can match is not read or decompressed — and otherwise by decoding the predicate columns
  // of a page first and the other projected columns only when some row matches; the column need
  // not be projected. On a TAG column they are decided per device before it is read. An OR is
  // ruled out by statistics only where each of its operands is.
  // InvalidArgument for an unknown column, an ATTRIBUTE column or a value of the wrong type.
  std::vector<PredicateExpr> value_predicates;
  // Counts what the value predicates spared; set when empty (share one across a dataset's files).
  std::shared_ptr<PredicateWork> predicate_work;
  // Threads that decode in Scan(), the calling thread included; 1 = the calling thread only.
  int num_threads = 1;
  // With several threads: deliver batches in device-index order on the calling thread (the
  // others decode at most num_threads + 1 small splits ahead and queue a few groups of batches
  // each). false = every thread hands its batches over as it decodes them, concurrently and in
  // no global order (nothing is queued).
  bool ordered = true;
  // Most rows per batch; 0 = one batch per page (no copy). Larger pages are cut into slices
  // (copied), so a batch never holds more than this.
  size_t batch_size = 0;
  ReadLimits limits;
  // Columns the file's table may lack (a dataset's schema reconciled by name across files): a
  // projected column absent from the file reads as null with this column's category and type.
  std::vector<ColumnSchema> columns_if_absent;
  // Most bytes the whole scan (all its threads) holds at once in loaded chunks and page working
  // memory (estimated from page headers), on top of `limits`; 0 = no budget. A thread that would
  // exceed it waits for the others; a page or chunk group that alone needs more fails with
  // ResourceExhausted. An ordered scan with several threads also accounts the decoded batches it
  // queues for delivery (a batch that alone holds more: ResourceExhausted). See memory_budget.h.
  uint64_t memory_budget = 0;
  // The budget object itself, to share one budget between scanners (a dataset's files); set from
  // memory_budget when empty.
  std::shared_ptr<MemoryBudget> shared_memory_budget;
  // Asked before rows are loaded or decoded whether it takes them from their statistics
  // (statistics_filter.h); what it takes is not in the batches. Not owned; with several threads it
  // is called from each.
  StatisticsFilter* statistics_filter = nullptr;
};

// A device that passed the tag predicates, and where its series metadata is.
struct PlannedDevice {
  DeviceId id;
  DeviceLocation location;
};

// A contiguous range of planned devices (in index order) and the bytes of their projected chunks.
// Splits() also fills in what the devices' time series metadata announces (§5): their rows (time
// column counts, ignoring the scan's time range, so a bound on the rows the split yields with
// one) and the time range they span; EvenSplits(), which reads no metadata, leaves these 0.
struct ScanSplit {
  size_t first_device = 0;
  size_t device_count = 0;
  uint64_t bytes = 0;
  uint64_t rows = 0;
  // With rows > 0: the earliest and latest time of the devices' rows.
  int64_t min_time = 0;
  int64_t max_time = 0;
};

class TableScanner {
 public:
  // Plans the scan: resolves the projection (InvalidArgument for an unknown table, column or
  // tag predicate column), walks the device index and applies tag predicates. A device's series
  // metadata is read when the device is scanned — by the worker that scans it, so that planning,
  // the one step that cannot run in parallel, stays a walk of the device index.
  static absl::StatusOr<std::unique_ptr<TableScanner>> Create(const TsFileReader& reader, ScanOptions options);

  const ScanOptions& options() const { return options_; }
  const std::vector<ProjectedColumn>& projection() const { return projection_; }
  size_t device_count() const { return devices_.size(); }
  // Planned device `i` (i < device_count()), in index order: its id and where its series are.
  const PlannedDevice& planned_device(size_t i) const { return devices_[i]; }
  // What the value predicates have spared so far.
  PredicateCounts predicate_counts() const { return options_.predicate_work->counts(); }
  // Rows of the planned devices from metadata alone (time column counts; ignores the time
  // range). The first call of this or Splits reads every planned device's series metadata
  // (once; thread-safe).
  absl::StatusOr<uint64_t> planned_rows() const;

  // Every planned device as one split, with its rows and time range as Splits(1) gives them but
  // bytes left 0: only each device's time column metadata is decoded (the other series are
  // skipped by their sizes), a fraction of Splits' work on devices of few rows. Not cached.
  absl::StatusOr<ScanSplit> WholeSplit() const;
  // Up to `max_splits` splits of roughly equal bytes covering every planned device in order.
  absl::StatusOr<std::vector<ScanSplit>> Splits(size_t max_splits) const;
  // Up to `max_splits` splits of about equal device counts (bytes left 0), without reading any
  // device's metadata: what scan workers claim.
  std::vector<ScanSplit> EvenSplits(size_t max_splits) const;
  // Splits for `workers` that claim them in order from a shared queue, without reading any
  // device's metadata: each holds about 1 / (2 x workers) of the devices no earlier split holds
  // (guided scheduling), so the first are large and the last hold a device each. A worker that
  // finishes early, or one the system stalls, then leaves at most a device or two to the other
  // workers' end instead of an even split's share.
  std::vector<ScanSplit> ShrinkingSplits(size_t workers) const;

  // Reads one split on the calling thread: batches in device order, each device's rows in time
  // order. The batch is valid only during the callback; the consumer may move buffers out of
  // it (the scan refills them). Safe to call concurrently for different splits.
  absl::Status ScanSplitRows(const ScanSplit& split,
                             const std::function<absl::Status(TableBatch&)>& consume) const;

  // Reads every planned device with options.num_threads workers. Ordered (the default, and
  // always with one thread): consume(0, batch) is called on the calling thread for every batch in
  // device-index order, each device's rows in time order. Unordered: consume(worker, batch) is
  // called from worker `worker` (0 <= worker < num_threads) for that worker's batches, calls from
  // different workers concurrently — keep per-worker state. Stops at the first error. A batch is
  // valid during its call; the consumer may move buffers out of it (an Arrow export hands them
  // over without copying): the scan does not read them again.
  absl::Status Scan(const std::function<absl::Status(int worker, TableBatch&)>& consume) const;

  // A pull-based read of one split (all planned devices by default) on the calling thread.
  class Cursor {
   public:
    // The next non-empty batch in device order, or nullptr at the end. The caller may move
    // buffers out of the batch; it is refilled by the next call.
    absl::StatusOr<TableBatch*> Next();
    // Calls consume for every remaining batch of the split; stops at the first error.
    absl::Status ForEachBatch(const std::function<absl::Status(TableBatch&)>& consume);
    // With a memory budget: gives back what the cursor holds (before a wait; the next call of
    // Next reloads). Without one: nothing.
    void ReleaseMemory() { device_reader_.ReleaseMemory(); }
    // Moves the cursor to `split` of `scanner` (its own or another one, e.g. the same table in
    // the next file of a dataset), keeping its buffers: a worker that reads many splits then
    // allocates, and page-faults, its chunk and page buffers once instead of once per split.
    // `scanner` must outlive the cursor's use of the split. InvalidArgument for a split outside
    // its plan.
    absl::Status Reopen(const TableScanner& scanner, const ScanSplit& split);

   private:
    friend class TableScanner;
    Cursor(const TableScanner* scanner, ScanSplit split)
        : scanner_(scanner), split_(split), next_device_(split.first_device),
          series_(std::make_unique<std::vector<TimeseriesMetadata>>()) {}
    // Moves the cursor to another split of the same scanner, keeping its buffers (a worker reads
    // many splits with one cursor, so its page buffers are allocated once).
    void Restart(const ScanSplit& split);
    // Points the cursor at `scanner` (its windows forget the old file); Restart() follows.
    void MoveTo(const TableScanner& scanner);
    absl::Status StartDevice(const PlannedDevice& device);
    // The device reader's next page into batch_ (its projected columns; a predicate's column the
    // projection lacks is read into hidden_columns_).
    absl::StatusOr<bool> NextPage();
    TableBatch* NextSlice(size_t limit);
    const TableScanner* scanner_;
    ScanSplit split_;
    size_t next_device_;
    bool in_device_ = false;
    // The current device's time and projected series; on the heap because device_reader_ points
    // to it and a cursor may be moved.
    std::unique_ptr<std::vector<TimeseriesMetadata>> series_;
    ReadAhead index_reads_{ReadAhead::kMetadataWindowBytes};  // the split's devices' series metadata, in index order
    AlignedDeviceReader device_reader_;
    TableBatch batch_;
    // With predicate columns outside the projection: every read column of a page, whose projected
    // ones are then swapped into batch_.
    std::vector<ColumnVector> page_columns_;
    // With batch_size: the page being cut into slices, and the next row to hand out.
    TableBatch slice_;
    size_t slice_begin_ = 0;
  };
  // The scanner must outlive the cursor. InvalidArgument for a split outside the plan.
  absl::StatusOr<Cursor> OpenCursor(std::optional<ScanSplit> split = std::nullopt) const;
  // Opens `split` in `cursor`: the cursor there is reopened (Cursor::Reopen, keeping its buffers)
  // or, the first time, made. For a worker that reads many splits, of this scanner or of others.
  absl::Status OpenCursorInto(const ScanSplit& split, std::optional<Cursor>& cursor) const;
  // ScanSplitRows through the worker's `cursor` (OpenCursorInto).
  absl::Status ScanSplitRows(const ScanSplit& split, std::optional<Cursor>& cursor,
                             const std::function<absl::Status(TableBatch&)>& consume) const;

  // What a caller that scans many scanners in turn (the files of a dataset) keeps from one Scan to
  // the next: every decoding thread's cursor and the ordered scan's batch buffers. A scan then
  // reuses the previous scan's memory instead of allocating, and page-faulting, its own. The
  // scanners may differ in file, projection and thread count; one scan at a time.
  class Workspace {
   public:
    // Batch groups kept for the next ordered scan (bounded by what one scan has in flight).
    size_t kept_batch_groups() const { return batch_groups_.size(); }
    // Batch buffers the ordered scans with this workspace have made in all. Each is reused once
    // delivered, so what one scan makes is the most it holds at once, queued or being filled.
    size_t batches_made() const { return batches_made_; }
    // With a memory budget: the most bytes of decoded batches an ordered scan with this workspace
    // held queued for delivery at once (accounted in the budget; 0 without one).
    uint64_t queued_bytes_peak() const { return queued_bytes_peak_; }

   private:
    friend class TableScanner;
    std::vector<std::optional<Cursor>> cursors_;             // one per decoding thread
    std::vector<std::vector<TableBatch>> batch_groups_;  // delivered batch groups of ordered scans
    size_t batches_made_ = 0;
    uint64_t queued_bytes_peak_ = 0;
  };
  // Scan() with `workspace`'s buffers; afterwards they are the workspace's again.
  absl::Status Scan(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                    Workspace& workspace) const;

 private:
  // Bytes of a device's projected chunks and its rows, from its series metadata.
  struct DeviceSize {
    uint64_t bytes = 0;
    uint64_t rows = 0;
    int64_t min_time = 0;  // with rows > 0: the time column's statistics
    int64_t max_time = 0;
  };

  // The ordered multi-threaded scan (ordered_scan.cc).
  class OrderedScan;

  TableScanner(const TsFileReader& reader, ScanOptions options, std::vector<ProjectedColumn> projection);
  // A cursor for Restart() onto splits, keeping its buffers across them.
  Cursor NewCursor() const { return Cursor(this, ScanSplit{}); }
  absl::Status PlanDevices();
  // Binds options_.value_predicates: FIELD ones to read columns (adding the columns a predicate
  // needs beyond the projection), TAG ones to device conditions (tag predicates where they name
  // values), ORs to the filter the device readers evaluate.
  absl::Status BindValuePredicates(const TableSchema& schema);
  // Binds one condition under node `parent` of filter_.
  absl::Status BindUnder(size_t parent, const PredicateExpr& expr, const TableSchema& schema);
  // Binds one comparison as a leaf under node `parent` of filter_.
  absl::Status BindLeaf(size_t parent, const ValuePredicate& predicate, const TableSchema& schema);
  // The TAG or FIELD column a comparison names; InvalidArgument naming it otherwise.
  absl::StatusOr<ProjectedColumn> PredicateColumn(const ValuePredicate& predicate, const TableSchema& schema) const;
  // An OR of `=` and IS NULL on one TAG column as the tag predicate it is; nullopt for any other.
  std::optional<TagPredicate> TagAlternatives(const PredicateExpr& expr, const TableSchema& schema) const;
  // Whether a planned device satisfies the TAG value predicates (and its id leaves the filter open).
  bool DeviceSatisfiesTagConditions(const DeviceId& device) const;
  // InvalidArgument unless `split` lies inside the planned devices.
  absl::Status CheckSplit(const ScanSplit& split) const;
  // Whether the scan reads `series`: the time column and the projected FIELD columns.
  bool IsProjected(const TimeseriesMetadata& series) const;
  // Every planned device's DeviceSize, computed on first use.
  absl::StatusOr<const std::vector<DeviceSize>*> DeviceSizes() const;
  absl::Status ComputeDeviceSizes() const;
  // Adds a device's rows and time range to the split's.
  static void AddDeviceRows(const DeviceSize& size, ScanSplit& split);
  // A device's rows and time range from its time column's statistics (none when they are empty).
  static DeviceSize RowsOfTimeColumn(const TimeseriesMetadata& time);
  // The workspace's cursors for `threads` decoding threads, moved onto this scanner (made on first
  // use); each is Restart()ed onto its splits.
  std::vector<Cursor*> WorkspaceCursors(Workspace& workspace, int threads) const;
  absl::Status ScanUnordered(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                             const std::vector<Cursor*>& cursors) const;
  // With `workspace`'s batch groups (and its count of batches made).
  absl::Status ScanOrdered(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                           const std::vector<Cursor*>& cursors, Workspace& workspace) const;

  const TsFileReader* reader_;
  ScanOptions options_;
  std::vector<ProjectedColumn> projection_;
  // The columns each device reader reads: the projection's, then any a predicate adds.
  std::vector<AlignedColumn> columns_;
  // The value predicates the device readers evaluate: FIELD comparisons bound to columns_, and ORs
  // (with TAG comparisons among their operands).
  BoundFilter filter_;
  // TAG value predicates, each with the device-id segment of its column (kAbsentSegment: null).
  std::vector<std::pair<size_t, BoundPredicate>> tag_conditions_;
  std::vector<PlannedDevice> devices_;
  mutable std::once_flag sizes_once_;
  mutable absl::Status sizes_status_;
  mutable std::vector<DeviceSize> sizes_;
};

}  // namespace tsread

#endif  // TSREAD_READ_TABLE_SCANNER_H_

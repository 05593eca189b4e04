// AlignedDeviceReader: the rows of one aligned device (every table-model device, and aligned
// tree-model devices) page by page (format reference §5 pairing, §8.2, §8.3, §12): the k-th
// page of each time chunk with the k-th page of the value chunks of the same chunk group.
#ifndef TSREAD_READ_ALIGNED_DEVICE_READER_H_
#define TSREAD_READ_ALIGNED_DEVICE_READER_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/io/buffer.h"
#include "tsread/read/bound_filter.h"
#include "tsread/read/bound_predicate.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/lossless_chunks.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/predicate_work.h"
#include "tsread/read/statistics_filter.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

// An inclusive time range.
struct TimeRange {
  int64_t start = std::numeric_limits<int64_t>::min();
  int64_t end = std::numeric_limits<int64_t>::max();

  bool Contains(int64_t t) const { return t >= start && t <= end; }
  // Whether statistics with values may hold a time in the range.
  bool Overlaps(const Statistics& s) const { return s.count > 0 && s.end_time >= start && s.start_time <= end; }
  bool Covers(const Statistics& s) const { return s.start_time >= start && s.end_time <= end; }
};

// A value column to read; `stored` false for columns without chunks (TAG, ATTRIBUTE), whose
// ColumnVector is left empty.
struct AlignedColumn {
  std::string measurement;
  DataType data_type = DataType::kInt64;
  bool stored = true;
};

class AlignedDeviceReader {
 public:
  // Starts reading a device from its series metadata. `series`, `columns`, `range` and `limits`
  // must outlive the reader's use of this device; `device_name` is for error messages. With a
  // `budget`, the loaded chunks and the page working memory are accounted in it (memory_budget.h).
  absl::Status Reset(const TsFileReader& reader, std::string device_name,
                     const std::vector<TimeseriesMetadata>& series, const std::vector<AlignedColumn>& columns,
                     const TimeRange& range, const ReadLimits& limits, MemoryBudget* budget = nullptr);
  // The same for a device named by its id (which must outlive the reader's use of the device):
  // the name is made only for an error (a table scan starts tens of thousands of small devices).
  absl::Status Reset(const TsFileReader& reader, const DeviceId& device,
                     const std::vector<TimeseriesMetadata>& series, const std::vector<AlignedColumn>& columns,
                     const TimeRange& range, const ReadLimits& limits, MemoryBudget* budget = nullptr);

  // Asks `filter` (nullptr: none) about the rows of `device` (the next Reset's) before they are
  // loaded and decoded (statistics_filter.h). Both must outlive the reader's use of the device.
  void SetStatisticsFilter(StatisticsFilter* filter, const DeviceId* device) {
    filter_ = filter;
    device_ = device;
  }

  // Keeps only the rows that satisfy `predicates` (nullptr or empty: all rows): value predicates
  // whose FIELD comparisons are bound to this reader's columns (BoundPredicate::index) and whose
  // TAG comparisons are decided by `device`'s id, counting what they spared in `work` (may be
  // nullptr). Their statistics rule out a device, a chunk group or a page before it is loaded or
  // decompressed, or settle that every row matches; otherwise the page's predicate columns are
  // decoded first and the others only when some row matches (aligned_device_predicates.cc). All
  // three must outlive the reader's use of them.
  void SetPredicates(const BoundFilter* predicates, const DeviceId* device, PredicateWork* work) {
    predicates_ = predicates != nullptr && !predicates->empty() ? predicates : nullptr;
    predicate_device_ = device;
    predicate_work_ = work;
  }

  // With a budget: frees the loaded chunks and page buffers and gives their bytes back, before the
  // caller waits for something else (the next NextPage reloads the current chunk group). Without
  // one: nothing (buffers are kept for reuse).
  void ReleaseMemory();

  // Before a Reset onto a device of another file: forgets the chunk windows read from the old
  // one, keeping the buffers.
  void ForgetFile() {
    chunk_reads_.ForgetFile();
    header_reads_.ForgetFile();
  }

  // Fills `times` and one ColumnVector per column with the rows of the next page in range
  // (possibly none); false when the device has no more pages.
  absl::StatusOr<bool> NextPage(std::vector<int64_t>& times, std::vector<ColumnVector>& columns);

 private:
  // One time chunk and, per column, the value chunk of the same chunk group (nullptr: all null).
  struct ChunkGroupPlan {
    const ChunkMetadata* time_chunk = nullptr;
    std::vector<const ChunkMetadata*> value_chunks;
  };

  // Each column's series (nullptr: the device has none), into column_series_.
  void FindColumnSeries();
  absl::Status PlanChunkGroups(const TimeseriesMetadata& time);
  // Whether the filter takes the whole device / the chunk group `plan` / page k of plan_.
  absl::StatusOr<bool> FilterTakesDevice(const TimeseriesMetadata& time);
  absl::StatusOr<bool> FilterTakesChunkGroup(const ChunkGroupPlan& plan);
  absl::StatusOr<bool> FilterTakesPage(size_t k, const Statistics& time);
  void StartFilterView(StatisticsLevel level, const Statistics& time);
  // Column j's statistics over page k of the loaded chunk group: nullptr when it has no value
  // there (no chunk in the group, an empty page), nullopt when the page carries none to go by.
  std::optional<const Statistics*> PageValueStatistics(size_t j, size_t k) const;
  // Whether the predicates' statistics show that no row of the device / chunk group `plan` / page
  // k (of `rows` rows) matches; each also notes what its statistics settle of each comparison.
  absl::StatusOr<bool> PredicatesRuleOutDevice(const TimeseriesMetadata& time);
  absl::StatusOr<bool> PredicatesRuleOutChunkGroup(const ChunkGroupPlan& plan);
  absl::StatusOr<bool> PredicatesRuleOutPage(size_t k, uint64_t rows);
  // Decodes the columns of the page's unsettled predicates into `columns` and evaluates them into
  // keep_: the rows kept, or nullopt when the statistics settle that every row matches.
  absl::StatusOr<std::optional<size_t>> EvaluatePredicates(size_t k, uint32_t rows, std::vector<ColumnVector>& columns);
  // Decodes column j of page k (`rows` rows) into `column`, once per page (decoded_): its first
  // `head` rows only when fewer.
  absl::Status DecodeColumn(size_t j, size_t k, uint32_t rows, ColumnVector& column, uint32_t head = UINT32_MAX);
  // Without predicates, page k's times decoded: its columns decoded and its rows kept to the
  // range — only up to the range's end, or only the head before a tail the filter takes.
  absl::Status DecodeRowsInRange(size_t k, uint32_t rows, bool cut, std::vector<int64_t>& times,
                                 std::vector<ColumnVector>& columns);
  // Whether the filter takes page k's rows from some row on (statistics_filter.h TailStart):
  // then `times` and `columns` hold the rows before it.
  absl::StatusOr<bool> FilterTakesTail(size_t k, uint32_t rows, std::vector<int64_t>& times,
                                       std::vector<ColumnVector>& columns);
  // Keeps the rows of keep_ in `times` and every decoded column.
  void KeepSelectedRows(std::vector<int64_t>& times, std::vector<ColumnVector>& columns);
  // Moves plan_ to the next chunk group (not loaded yet); false after the last.
  absl::StatusOr<bool> StartNextChunkGroup();
  // Loads plan_'s chunks within the budget, backing off and reloading while it is busy.
  absl::Status LoadPlannedGroup();
  absl::Status LoadChunksOfPlan();
  // Accounts for page k's working memory (its estimate above the high-water mark kept so far).
  absl::Status ReservePageWork(size_t k);
  // Page k's decode memory, estimated from the page headers: uncompressed bodies and decoded rows.
  uint64_t PageWorkBytes(size_t k) const;
  // Releases everything held and waits for what the failed request showed is needed.
  void BackOff();
  void FreeBuffers();
  void ReleaseChunks();
  // `status` with the device and chunk group named (a budget error says what needed the bytes).
  absl::Status InGroup(absl::Status status) const;

  const TsFileReader* reader_ = nullptr;
  const std::vector<AlignedColumn>* columns_ = nullptr;
  const TimeRange* range_ = nullptr;
  const ReadLimits* limits_ = nullptr;
  // Reset's work, the device's name set.
  absl::Status Start(const TsFileReader& reader, const std::vector<TimeseriesMetadata>& series,
                     const std::vector<AlignedColumn>& columns, const TimeRange& range, const ReadLimits& limits,
                     MemoryBudget* budget);
  // The device's name for an error message.
  std::string DeviceName() const;

  std::string device_name_;
  const DeviceId* named_device_ = nullptr;  // set: device_name_ is its ToString(), made when needed
  const std::vector<TimeseriesMetadata>* series_ = nullptr;
  const TimeseriesMetadata* time_series_ = nullptr;
  std::vector<const TimeseriesMetadata*> column_series_;
  StatisticsFilter* filter_ = nullptr;
  const DeviceId* device_ = nullptr;
  RowStatistics filter_view_;  // reused for every question to the filter
  const BoundFilter* predicates_ = nullptr;
  const DeviceId* predicate_device_ = nullptr;
  PredicateWork* predicate_work_ = nullptr;
  // Per comparison: what the statistics of the current device / chunk group / page settle (kSome:
  // nothing; each level starts from the coarser one's); per node of the filter, its verdict for
  // the current page (BoundFilter::Combine), and the page's.
  std::vector<Verdict> device_leaves_, group_leaves_, page_leaves_, node_verdicts_;
  Verdict page_verdict_ = Verdict::kSome;
  std::vector<std::vector<uint8_t>> keep_scratch_;  // BoundFilter::AndRows's masks
  std::vector<uint8_t> decoded_;  // per column: decoded for the current page
  std::vector<uint8_t> keep_;     // per row of the current page: it satisfies the predicates
  ChunkHeaderReads header_reads_;  // chunk headers read to learn a FLOAT/DOUBLE chunk's encoding
  std::vector<ChunkGroupPlan> plans_;  // the first plan_count_ are the device's
  size_t plan_count_ = 0;
  size_t next_plan_ = 0;
  const ChunkGroupPlan* plan_ = nullptr;
  // Chunks are read through one window for all devices this reader visits: a device's chunks
  // and the next device's usually lie next to each other in the data section.
  ReadAhead chunk_reads_;
  ChunkData time_chunk_;
  // Per column: its chunk of the loaded group in value_store_[j], nullptr when it has none (all
  // null). The store keeps its objects' page lists from group to group (no allocation per chunk).
  std::vector<ChunkData*> value_chunks_;
  std::vector<ChunkData> value_store_;
  size_t next_page_ = 0;
  std::optional<int64_t> chunk_last_time_;  // the last time of the chunk's last decoded page
  bool group_loaded_ = false;  // plan_'s chunks are in time_chunk_ / value_chunks_
  bool holds_chunks_ = false;  // a load began since the last ReleaseChunks (bytes may be held)
  MemoryHold memory_;
  uint64_t chunk_bytes_ = 0;  // accounted for the loaded chunks
  uint64_t page_bytes_ = 0;   // accounted for page buffers: the largest page work so far
  PageScratch time_scratch_;
  std::vector<PageScratch> value_scratch_;
};

}  // namespace tsread

#endif  // TSREAD_READ_ALIGNED_DEVICE_READER_H_

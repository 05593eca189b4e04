// GroupBuilder: the groups of one Aggregate call (table_aggregate.h) as a scan delivers their
// rows — as statistics its filter takes (StatisticsFilter::Take, when they answer exactly and lie
// in one group) or as decoded batches (AddBatch) — keyed by device (or the whole table) and time
// bucket. Used by one scanning thread.
#ifndef TSREAD_AGGREGATE_GROUP_BUILDER_H_
#define TSREAD_AGGREGATE_GROUP_BUILDER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/aggregate/time_bucket.h"
#include "tsread/read/lossless_chunks.h"
#include "tsread/read/statistics_filter.h"

namespace tsread {

class GroupBuilder : public StatisticsFilter {
 public:
  // `shape` holds the aggregated columns and the TAG columns; it must outlive the builder.
  GroupBuilder(const TableAggregate& shape, const AggregateOptions& options);

  // Before the scan of a file: its reader (for chunk headers) and its own schema of the table
  // (where the TAG values are in its device ids). Both must outlive the file's scan.
  void StartFile(const TsFileReader& reader, const TableSchema& own);
  // Before merged rows of a device (iotdb_aggregate.h): the table's schema in a file they come
  // from (where its TAG values are). No statistics are taken from merged rows.
  void StartMergedRows(const TableSchema& own);

  absl::StatusOr<bool> Take(const RowStatistics& rows) override;
  // A page's rows from the first in the group of its last row (inside the range) on, when they
  // are not all of it and its statistics are exact.
  absl::StatusOr<std::optional<size_t>> TailStart(const RowStatistics& rows, std::span<const int64_t> times) override;
  absl::StatusOr<bool> TakeTail(const RowStatistics& rows, std::span<const int64_t> times, size_t tail,
                                std::vector<ColumnVector>& head,
                                absl::FunctionRef<absl::Status(size_t)> decode_whole) override;
  // Adds a decoded batch's rows (in the time range) to their groups.
  void AddBatch(const TableBatch& batch);

  const AggregateWork& work() const { return work_; }
  // The groups in output order (table_aggregate.h); the builder is empty afterwards.
  std::vector<GroupAggregate> TakeGroups();

 private:
  struct Device {
    std::string id;
    std::vector<std::optional<std::string>> tags;
  };
  // Whether statistics over rows with time statistics `time` fall inside the range and one bucket.
  bool InOneGroup(const Statistics& time) const;
  // Whether every aggregated column's statistics in `rows` are exact (exact_statistics.h).
  absl::StatusOr<bool> Exact(const RowStatistics& rows);
  void Count(const RowStatistics& rows, bool taken);
  // The group of `device`'s rows in bucket `bucket` (made empty when new).
  GroupAggregate& Group(const DeviceId& device, int64_t bucket);
  size_t DeviceOrder(const DeviceId& device);
  static void AddTimes(GroupAggregate& group, uint64_t rows, int64_t first, int64_t last);

  const TableAggregate& shape_;
  TimeRange range_;
  TimeBuckets buckets_;
  bool by_device_;
  const TsFileReader* reader_ = nullptr;
  const TableSchema* own_ = nullptr;
  std::vector<Device> devices_;                             // by first-seen order
  std::map<std::string, size_t, std::less<>> device_order_;  // id -> position in devices_
  std::unordered_map<const DeviceId*, size_t> file_devices_;  // this file's ids -> position
  std::map<std::pair<size_t, int64_t>, GroupAggregate> groups_;  // (device order, bucket index)
  // The group used last: batches of a device come one after another.
  const DeviceId* last_device_ = nullptr;
  int64_t last_bucket_ = 0;
  GroupAggregate* last_group_ = nullptr;
  AggregateWork work_;
  ChunkHeaderReads header_reads_;  // chunk headers read for their encodings
  std::vector<ColumnAggregate> tails_;  // per column, a page's tail (TakeTail)
};

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_GROUP_BUILDER_H_

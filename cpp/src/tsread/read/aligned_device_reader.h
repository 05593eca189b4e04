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
#include "tsread/read/chunk_data.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/page_decoder.h"
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
  // must outlive the reader's use of this device; `device_name` is for error messages.
  absl::Status Reset(const TsFileReader& reader, std::string device_name,
                     const std::vector<TimeseriesMetadata>& series, const std::vector<AlignedColumn>& columns,
                     const TimeRange& range, const ReadLimits& limits);

  // Fills `times` and one ColumnVector per column with the rows of the next page in range
  // (possibly none); false when the device has no more pages.
  absl::StatusOr<bool> NextPage(std::vector<int64_t>& times, std::vector<ColumnVector>& columns);

 private:
  // One time chunk and, per column, the value chunk of the same chunk group (nullptr: all null).
  struct ChunkGroupPlan {
    const ChunkMetadata* time_chunk = nullptr;
    std::vector<const ChunkMetadata*> value_chunks;
  };

  absl::Status PlanChunkGroups();
  absl::StatusOr<bool> StartNextChunkGroup();
  void KeepRowsInRange(std::vector<int64_t>& times, std::vector<ColumnVector>& columns);

  const TsFileReader* reader_ = nullptr;
  const std::vector<AlignedColumn>* columns_ = nullptr;
  const TimeRange* range_ = nullptr;
  const ReadLimits* limits_ = nullptr;
  std::string device_name_;
  const std::vector<TimeseriesMetadata>* series_ = nullptr;
  std::vector<ChunkGroupPlan> plans_;
  size_t next_plan_ = 0;
  const ChunkGroupPlan* plan_ = nullptr;
  // Chunks are read through one window for all devices this reader visits: a device's chunks
  // and the next device's usually lie next to each other in the data section.
  ReadAhead chunk_reads_;
  ChunkData time_chunk_;
  std::vector<std::optional<ChunkData>> value_chunks_;
  size_t next_page_ = 0;
  PageScratch time_scratch_;
  std::vector<PageScratch> value_scratch_;
  std::vector<uint8_t> keep_;
};

}  // namespace tsread

#endif  // TSREAD_READ_ALIGNED_DEVICE_READER_H_

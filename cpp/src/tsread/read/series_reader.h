// SeriesReader: the points of one tree-model series, page by page — a non-aligned series'
// chunks (format reference §8.1) or one value column of an aligned device (§8.2, §8.3).
#ifndef TSREAD_READ_SERIES_READER_H_
#define TSREAD_READ_SERIES_READER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct SeriesBatch {
  std::vector<int64_t> times;
  // One slot per time; an aligned device's rows where this series has no value are invalid.
  ColumnVector values;
};

class SeriesReader {
 public:
  // `device_series` is every TimeseriesMetadata of the device (TsFileReader::ReadTimeseries).
  // NotFound if the device has no series `measurement`.
  static absl::StatusOr<std::unique_ptr<SeriesReader>> Create(const TsFileReader& reader, std::string device_name,
                                                              std::vector<TimeseriesMetadata> device_series,
                                                              const std::string& measurement, TimeRange range = {},
                                                              ReadLimits limits = {});

  // The next page's points (possibly none), or nullptr after the last page. Valid until the next call.
  absl::StatusOr<const SeriesBatch*> Next();

 private:
  SeriesReader() = default;
  absl::StatusOr<bool> NextNonAlignedPage();

  const TsFileReader* reader_ = nullptr;
  TimeRange range_;
  ReadLimits limits_;
  bool aligned_ = false;
  // Aligned: the device reader over this one column.
  std::vector<TimeseriesMetadata> device_series_;
  std::vector<AlignedColumn> columns_;
  AlignedDeviceReader aligned_reader_;
  std::vector<ColumnVector> aligned_columns_;
  // Non-aligned: the series' chunks.
  TimeseriesMetadata series_;
  size_t next_chunk_ = 0;
  const ChunkMetadata* chunk_meta_ = nullptr;
  ReadAhead chunk_reads_;  // the series' chunks lie in file order
  ChunkData chunk_;
  size_t next_page_ = 0;
  std::optional<int64_t> chunk_last_time_;  // the last time of the chunk's last decoded page
  PageScratch scratch_;
  SeriesBatch batch_;
};

}  // namespace tsread

#endif  // TSREAD_READ_SERIES_READER_H_

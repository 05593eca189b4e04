// TableReader: reads the rows of one table-model table (format reference §12) — devices in index
// order, each device's rows in time order — as batches of one time page each: timestamps plus a
// ColumnVector per projected FIELD column. TAG columns come from the device id; ATTRIBUTE columns
// are not stored in TsFile and read as null.
#ifndef TSREAD_READ_TABLE_READER_H_
#define TSREAD_READ_TABLE_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/projection.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct TableReadOptions {
  // Columns to read, in output order; empty = every column in schema order.
  std::vector<std::string> columns;
  TimeRange time_range;
  ReadLimits limits;
};

struct TableBatch {
  const DeviceId* device = nullptr;  // the rows' device; its segments hold the tag values
  // The projection of the file's scan that made the batch. Across a dataset the columns are the
  // same, but a TAG column's segment is the file's own.
  const std::vector<ProjectedColumn>* projection = nullptr;
  const std::string* file = nullptr;  // the path (name) of the file the rows come from
  std::vector<int64_t> times;
  // One per projected column; only FIELD columns are filled (TAG/ATTRIBUTE ones stay empty).
  std::vector<ColumnVector> columns;

  size_t num_rows() const { return times.size(); }
  // The value of TAG column `column` for this batch's device; nullopt for null.
  std::optional<std::string_view> tag(const ProjectedColumn& column) const {
    return device->segment(column.tag_segment);
  }
  // The value of the j-th projected column when it is a TAG column; nullopt for null.
  std::optional<std::string_view> tag(size_t j) const { return tag((*projection)[j]); }
};

class TableReader {
 public:
  // InvalidArgument for an unknown table or column.
  static absl::StatusOr<std::unique_ptr<TableReader>> Create(const TsFileReader& reader, const std::string& table,
                                                             TableReadOptions options);

  const std::vector<ProjectedColumn>& projection() const { return projection_; }

  // The next non-empty batch, or nullptr after the last one. The batch stays valid until the
  // next call.
  absl::StatusOr<const TableBatch*> Next();

 private:
  TableReader(const TsFileReader& reader, TableReadOptions options, std::vector<ProjectedColumn> projection,
              std::optional<DeviceIterator> devices);
  absl::StatusOr<bool> StartNextDevice();

  const TsFileReader* reader_;
  TableReadOptions options_;
  std::vector<ProjectedColumn> projection_;
  std::vector<AlignedColumn> columns_;
  std::optional<DeviceIterator> devices_;
  bool in_device_ = false;
  DeviceId device_;
  std::vector<TimeseriesMetadata> series_;
  ReadAhead index_reads_{ReadAhead::kMetadataWindowBytes};  // devices' series metadata, in index order
  AlignedDeviceReader device_reader_;
  TableBatch batch_;
};

}  // namespace tsread

#endif  // TSREAD_READ_TABLE_READER_H_

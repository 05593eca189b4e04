// TsFileWriter: writes a version-4 table-model TsFile (format reference §1-§8) for one table.
// Each WriteRows call becomes one chunk group of that device (§2.2, §2.3); a device may get any
// number of chunk groups as long as its timestamps keep increasing. Close() writes the index
// (§5, §6) and TsFileMetadata (§7.1). Encodings are Java's defaults per type (value_encoding.h).
//
//   tsread::TableSchema schema = ...;                 // TAG columns STRING, FIELD columns any type
//   auto writer = tsread::TsFileWriter::Create("out.tsfile", schema, {});
//   (*writer)->WriteRows((*writer)->MakeDeviceId({"region_0", "dev_000"}), times, fields);
//   (*writer)->Close();
#ifndef TSREAD_WRITE_TSFILE_WRITER_H_
#define TSREAD_WRITE_TSFILE_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/device_id.h"
#include "tsread/format/table_schema.h"
#include "tsread/write/chunk_group_encoder.h"
#include "tsread/write/column_values.h"
#include "tsread/write/device_order.h"
#include "tsread/write/output_sink.h"

namespace tsread {

struct TableWriterOptions {
  // UNCOMPRESSED, LZ4 or ZSTD.
  Compression compression = Compression::kLz4;
  // A page ends after this many rows (TSFileConfig.maxNumberOfPointsInPage)...
  size_t max_points_per_page = 10000;
  // ... or once its estimated uncompressed size reaches this (TSFileConfig.pageSizeInByte).
  size_t max_page_bytes = 64 * 1024;
  // Fan-out of the index tree (TSFileConfig.maxDegreeOfIndexNode), at least 2.
  int max_index_degree = 256;
  // Whether a device's chunk group may hold times at or before its earlier ones (each chunk group's
  // own times still increase): IoTDB's unsequence files, one chunk group per flush of out-of-order
  // writes, where a later chunk's value of a time replaces an earlier chunk's. Java's table writer
  // refuses them.
  bool chunk_groups_in_any_order = false;
};

class TsFileWriter {
 public:
  // Writes to a new file at `path` (truncated if it exists).
  static absl::StatusOr<std::unique_ptr<TsFileWriter>> Create(std::string_view path, TableSchema schema,
                                                              TableWriterOptions options = {});
  // Writes into `*buffer` (cleared first; must outlive the writer).
  static absl::StatusOr<std::unique_ptr<TsFileWriter>> CreateInMemory(std::string* buffer, TableSchema schema,
                                                                      TableWriterOptions options = {});
  // Writes to any sink. InvalidArgument for an unusable schema or options: names must be
  // non-empty, lower case (Java lower-cases them, §2.2) and unique; TAG columns STRING; FIELD
  // columns a value type (not VECTOR/UNKNOWN); compression UNCOMPRESSED, LZ4 or ZSTD.
  static absl::StatusOr<std::unique_ptr<TsFileWriter>> Create(std::unique_ptr<OutputSink> sink, TableSchema schema,
                                                              TableWriterOptions options = {});

  // The schema as it will be stored (encoding and compression bytes filled in).
  const TableSchema& schema() const { return schema_; }
  // The FIELD columns in schema order: what WriteRows expects, one ColumnValues each.
  const std::vector<WriterColumn>& field_columns() const { return fields_; }
  // The id of the device with these TAG values (schema TAG order; nullopt = null tag).
  DeviceId MakeDeviceId(const std::vector<std::optional<std::string>>& tags) const;

  // Writes rows of `device` (segment 0 = the table, then at most one segment per TAG column) as
  // one chunk group. `times` must increase strictly and follow the device's earlier rows;
  // `fields[c]` holds column field_columns()[c] with one slot per row. InvalidArgument (and
  // nothing written) if not; after an I/O error the writer refuses further calls.
  absl::Status WriteRows(const DeviceId& device, std::span<const int64_t> times,
                         const std::vector<ColumnValues>& fields);

  // Writes the index and tail and closes the sink. The writer accepts nothing afterwards.
  absl::Status Close();

  uint64_t bytes_written() const { return sink_->position(); }

 private:
  // Lets Create() use std::make_unique while keeping the constructor out of the public API.
  struct ConstructionKey {};

 public:
  TsFileWriter(ConstructionKey, std::unique_ptr<OutputSink> sink, TableSchema schema, TableWriterOptions options,
               std::vector<WriterColumn> fields);

 private:
  struct DeviceState {
    int64_t last_time = 0;
    std::vector<ChunkRecord> time_chunks;
    std::vector<std::vector<ChunkRecord>> field_chunks;  // per FIELD column, schema order
  };

  absl::Status CheckRows(const DeviceId& device, std::span<const int64_t> times,
                         const std::vector<ColumnValues>& fields) const;

  std::unique_ptr<OutputSink> sink_;
  TableSchema schema_;
  TableWriterOptions options_;
  std::vector<WriterColumn> fields_;
  size_t tag_count_ = 0;
  ChunkGroupEncoder encoder_;
  std::map<DeviceId, DeviceState, DeviceIdLess> devices_;
  std::string group_bytes_;
  bool closed_ = false;
  bool failed_ = false;
};

}  // namespace tsread

#endif  // TSREAD_WRITE_TSFILE_WRITER_H_

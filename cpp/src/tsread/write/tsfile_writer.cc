#include "tsread/write/tsfile_writer.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "tsread/format/string_order.h"
#include "tsread/io/status_macros.h"
#include "tsread/write/index_writer.h"
#include "tsread/write/page_compressor.h"
#include "tsread/write/value_encoding.h"

namespace tsread {
namespace {

// §1: magic + version byte 4.
constexpr char kHead[] = {'T', 's', 'F', 'i', 'l', 'e', 0x04};

absl::Status CheckName(std::string_view what, std::string_view name) {
  if (name.empty()) return absl::InvalidArgumentError(absl::StrCat(ToAbsl(what), " name is empty"));
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      return absl::InvalidArgumentError(absl::StrCat(ToAbsl(what), " name \"", ToAbsl(name),
                                                     "\" has upper-case letters (TsFile names are lower case, §2.2)"));
    }
  }
  return absl::OkStatus();
}

bool IsValueType(DataType type) { return type != DataType::kVector && type != DataType::kUnknown; }

absl::Status CheckSchema(const TableSchema& schema) {
  TSREAD_RETURN_IF_ERROR(CheckName("table", schema.name));
  std::set<std::string> names;
  for (const ColumnSchema& column : schema.columns) {
    TSREAD_RETURN_IF_ERROR(CheckName("column", column.name));
    if (!names.insert(column.name).second) {
      return absl::InvalidArgumentError(absl::StrCat("duplicate column ", column.name));
    }
    if (!IsValueType(column.data_type) || DataTypeFromByte(static_cast<uint8_t>(column.data_type)) == std::nullopt) {
      return absl::InvalidArgumentError(absl::StrCat("column ", column.name, " has no storable data type"));
    }
    if (column.category == ColumnCategory::kTag && column.data_type != DataType::kString) {
      return absl::InvalidArgumentError(absl::StrCat("TAG column ", column.name, " must be STRING"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckColumn(const WriterColumn& column, const ColumnValues& values, size_t rows) {
  if (values.type != column.type) {
    return absl::InvalidArgumentError(absl::StrCat("column ", column.name, " is ", ToAbsl(DataTypeName(column.type)),
                                                   ", values are ", ToAbsl(DataTypeName(values.type))));
  }
  if (values.value_slots() != rows || (!values.valid.empty() && values.valid.size() != rows)) {
    return absl::InvalidArgumentError(absl::StrCat("column ", column.name, ": ", values.value_slots(), " values and ",
                                                   values.valid.size(), " validity bytes for ", rows, " rows"));
  }
  return absl::OkStatus();
}

}  // namespace

TsFileWriter::TsFileWriter(ConstructionKey, std::unique_ptr<OutputSink> sink, TableSchema schema,
                           TableWriterOptions options, std::vector<WriterColumn> fields)
    : sink_(std::move(sink)),
      schema_(std::move(schema)),
      options_(options),
      fields_(fields),
      encoder_(std::move(fields), options.compression,
               PageLimits{options.max_points_per_page, options.max_page_bytes}) {
  for (const ColumnSchema& column : schema_.columns) tag_count_ += column.category == ColumnCategory::kTag;
}

absl::StatusOr<std::unique_ptr<TsFileWriter>> TsFileWriter::Create(std::string_view path, TableSchema schema,
                                                                   TableWriterOptions options) {
  TSREAD_RETURN_IF_ERROR(CheckSchema(schema));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<OutputSink> sink, FileOutputSink(std::string(path)));
  return Create(std::move(sink), std::move(schema), options);
}

absl::StatusOr<std::unique_ptr<TsFileWriter>> TsFileWriter::CreateInMemory(std::string* buffer, TableSchema schema,
                                                                           TableWriterOptions options) {
  return Create(StringOutputSink(buffer), std::move(schema), options);
}

absl::StatusOr<std::unique_ptr<TsFileWriter>> TsFileWriter::Create(std::unique_ptr<OutputSink> sink, TableSchema schema,
                                                                   TableWriterOptions options) {
  TSREAD_RETURN_IF_ERROR(CheckSchema(schema));
  if (!WriterSupportsCompression(options.compression)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the writer does not produce compression ", ToAbsl(CompressionName(options.compression))));
  }
  if (options.max_index_degree < 2) return absl::InvalidArgumentError("max_index_degree must be at least 2");
  if (options.max_points_per_page == 0) return absl::InvalidArgumentError("max_points_per_page must be positive");
  std::vector<WriterColumn> fields;
  for (ColumnSchema& column : schema.columns) {
    // Informational in the schema (§7.1); set to what the chunks really use.
    column.encoding_byte = static_cast<uint8_t>(
        column.category == ColumnCategory::kField ? WriterEncodingFor(column.data_type) : Encoding::kPlain);
    column.compression_byte = static_cast<uint8_t>(options.compression);
    if (column.category == ColumnCategory::kField) fields.push_back(WriterColumn{column.name, column.data_type});
  }
  TSREAD_RETURN_IF_ERROR(sink->Append(std::string_view(kHead, sizeof(kHead))));
  return std::make_unique<TsFileWriter>(ConstructionKey{}, std::move(sink), std::move(schema), options,
                                        std::move(fields));
}

DeviceId TsFileWriter::MakeDeviceId(const std::vector<std::optional<std::string>>& tags) const {
  std::vector<std::optional<std::string>> segments;
  segments.reserve(tags.size() + 1);
  segments.emplace_back(schema_.name);
  segments.insert(segments.end(), tags.begin(), tags.end());
  return DeviceId(std::move(segments));
}

absl::Status TsFileWriter::CheckRows(const DeviceId& device, std::span<const int64_t> times,
                                     const std::vector<ColumnValues>& fields) const {
  if (closed_) return absl::FailedPreconditionError("the writer is closed");
  if (failed_) return absl::FailedPreconditionError("the writer failed earlier");
  if (device.is_plain() || device.segment(0) != std::optional<std::string_view>(schema_.name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("device ", device.ToString(), " does not start with table ", schema_.name));
  }
  if (device.segment_count() > tag_count_ + 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("device ", device.ToString(), " has more segments than the table has TAG columns"));
  }
  if (fields.size() != fields_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(fields.size(), " field columns given, table ", schema_.name, " has ", fields_.size()));
  }
  for (size_t c = 0; c < fields_.size(); ++c) TSREAD_RETURN_IF_ERROR(CheckColumn(fields_[c], fields[c], times.size()));
  // Java rejects non-increasing times per device (AlignedChunkGroupWriterImpl.checkIsHistoryData).
  auto it = devices_.find(device);
  for (size_t r = 0; r < times.size(); ++r) {
    const bool ordered = r > 0 ? times[r] > times[r - 1]
                               : (it == devices_.end() || options_.chunk_groups_in_any_order || times[0] > it->second.last_time);
    if (!ordered) {
      return absl::InvalidArgumentError(absl::StrCat("device ", device.ToString(), ": time ", times[r], " at row ", r,
                                                     " does not follow the previous time"));
    }
  }
  return absl::OkStatus();
}

absl::Status TsFileWriter::WriteRows(const DeviceId& device, std::span<const int64_t> times,
                                     const std::vector<ColumnValues>& fields) {
  TSREAD_RETURN_IF_ERROR(CheckRows(device, times, fields));
  if (times.empty()) return absl::OkStatus();
  ChunkRecord time_record;
  std::vector<ChunkRecord> field_records;
  group_bytes_.clear();
  absl::Status status = encoder_.Encode(device, times.data(), times.size(), fields, sink_->position(), group_bytes_,
                                        time_record, field_records);
  if (status.ok()) status = sink_->Append(group_bytes_);
  if (!status.ok()) {
    failed_ = true;
    return status;
  }
  DeviceState& state = devices_[device];
  state.last_time = times.back();
  state.time_chunks.push_back(std::move(time_record));
  state.field_chunks.resize(fields_.size());
  for (size_t c = 0; c < fields_.size(); ++c) state.field_chunks[c].push_back(std::move(field_records[c]));
  return absl::OkStatus();
}

absl::Status TsFileWriter::Close() {
  if (closed_) return absl::FailedPreconditionError("the writer is closed");
  if (failed_) return absl::FailedPreconditionError("the writer failed earlier");
  closed_ = true;
  // Value columns in Java String order of their names; the time column "" sorts first (§5).
  std::vector<size_t> order(fields_.size());
  for (size_t c = 0; c < order.size(); ++c) order[c] = c;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return CompareJavaStrings(fields_[a].name, fields_[b].name) < 0; });
  std::vector<IndexedDevice> devices;
  devices.reserve(devices_.size());
  for (const auto& [id, state] : devices_) {
    IndexedDevice device;
    device.id = &id;
    device.series.reserve(fields_.size() + 1);
    device.series.push_back(IndexedSeries{"", DataType::kVector, kTimeColumnMask, &state.time_chunks});
    for (size_t c : order) {
      device.series.push_back(
          IndexedSeries{fields_[c].name, fields_[c].type, kValueColumnMask, &state.field_chunks[c]});
    }
    devices.push_back(std::move(device));
  }
  std::string index;
  AppendIndexAndTail(devices, schema_, options_.max_index_degree, sink_->position(), index);
  TSREAD_RETURN_IF_ERROR(sink_->Append(index));
  return sink_->Close();
}

}  // namespace tsread

// AggregateByDevice (device_aggregate.h): per file, per planned device, statistics or decoding.
#include "tsread/aggregate/device_aggregate.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/format/chunk_header.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/read_ahead.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// The FIELD columns asked for, from the reconciled schema.
absl::StatusOr<std::vector<ColumnSchema>> FieldColumns(const TableSchema& schema, const std::vector<std::string>& names) {
  std::vector<ColumnSchema> out;
  if (names.empty()) {
    for (const ColumnSchema& c : schema.columns) {
      if (c.category == ColumnCategory::kField) out.push_back(c);
    }
    return out;
  }
  for (const std::string& name : names) {
    const ColumnSchema* found = nullptr;
    for (const ColumnSchema& c : schema.columns) {
      if (c.name == name) found = &c;
    }
    if (found == nullptr || found->category != ColumnCategory::kField) {
      return absl::InvalidArgumentError(
          absl::StrCat("table \"", schema.name, "\" has no FIELD column \"", name, "\" to aggregate"));
    }
    out.push_back(*found);
  }
  return out;
}

// Whether every chunk of a FLOAT/DOUBLE series is written with an encoding that keeps the values
// exactly (PLAIN, GORILLA_V1, GORILLA, CHIMP): TS_2DIFF and RLE (scaled to a precision), SPRINTZ
// and RLBE on floats do not, and their statistics describe the values before encoding. The
// encoding is in each chunk's header (§3.1), read here (a few dozen bytes per chunk).
absl::StatusOr<bool> LosslessChunks(const TsFileReader& reader, const TimeseriesMetadata& series) {
  for (const ChunkMetadata& chunk : series.chunks) {
    const uint64_t offset = static_cast<uint64_t>(chunk.offset);
    const uint64_t size = reader.file().size();
    if (offset >= size) return false;
    // Marker, name (varint length + bytes), data size, type, compression, encoding: the name's
    // length plus a few varints.
    const uint64_t want = std::min<uint64_t>(size - offset, series.measurement.size() + 32);
    TSREAD_ASSIGN_OR_RETURN(Buffer bytes, reader.file().Read(offset, want));
    ByteStream in(bytes.bytes(), offset);
    absl::StatusOr<ChunkHeader> header = ReadChunkHeader(in);
    if (!header.ok()) return false;  // let the decoding report what is wrong
    const std::optional<Encoding> encoding = EncodingFromByte(header->encoding_byte);
    if (!encoding || header->data_type != series.data_type ||
        (*encoding != Encoding::kPlain && *encoding != Encoding::kGorillaV1 && *encoding != Encoding::kGorilla &&
         *encoding != Encoding::kChimp)) {
      return false;
    }
  }
  return true;
}

// What one file's device contributes, and how it was answered.
struct DevicePart {
  DeviceAggregate group;
  uint64_t chunks = 0;
  bool decoded = false;
};

class FileAggregator {
 public:
  FileAggregator(const TableAggregate& shape, const TableSchema& own, const TimeRange& range)
      : shape_(shape), own_(own), range_(range) {}

  // Device `i` of `scanner` (planned over `reader`), from its statistics; or, when they cannot
  // answer, an empty group marked `decoded` for DecodeRun. rows == 0 when it has none.
  absl::StatusOr<DevicePart> Aggregate(const TsFileReader& reader, const TableScanner& scanner, size_t i,
                                       ReadAhead& ahead) const {
    const PlannedDevice& device = scanner.planned_device(i);
    TSREAD_ASSIGN_OR_RETURN(std::vector<TimeseriesMetadata> series, reader.ReadTimeseries(device.location, &ahead));
    DevicePart part;
    part.group = Fresh(device.id);
    const TimeseriesMetadata* time = nullptr;
    std::vector<const TimeseriesMetadata*> columns(shape_.columns.size(), nullptr);
    for (const TimeseriesMetadata& s : series) {
      if (s.is_time_column()) time = &s;
      for (size_t j = 0; j < columns.size(); ++j) {
        if (!s.is_time_column() && s.measurement == shape_.columns[j].name) columns[j] = &s;
      }
    }
    part.chunks = time == nullptr ? 0 : time->chunks.size();
    for (const TimeseriesMetadata* s : columns) part.chunks += s == nullptr ? 0 : s->chunks.size();
    if (time != nullptr && time->statistics.count == 0) return part;  // no rows at all
    bool answer = time != nullptr && StatisticsAnswer(*time, columns);
    for (size_t j = 0; answer && j < columns.size(); ++j) {
      const DataType type = shape_.columns[j].data_type;
      if (columns[j] == nullptr || (type != DataType::kFloat && type != DataType::kDouble)) continue;
      TSREAD_ASSIGN_OR_RETURN(answer, LosslessChunks(reader, *columns[j]));
    }
    if (answer) {
      part.group.rows = time->statistics.count;
      part.group.first_time = time->statistics.start_time;
      part.group.last_time = time->statistics.end_time;
      for (size_t j = 0; j < columns.size(); ++j) {
        if (columns[j] != nullptr) part.group.columns[j].AddStatistics(columns[j]->statistics);
      }
      return part;
    }
    part.decoded = true;
    return part;
  }

  // Decodes devices [first, first + parts.size()) of `scanner` in one split (every part marked
  // decoded), each batch's rows into its device's group.
  absl::Status DecodeRun(const TableScanner& scanner, size_t first, std::vector<DevicePart*>& parts) const {
    std::map<std::string, DeviceAggregate*, std::less<>> by_id;
    for (DevicePart* part : parts) by_id.emplace(part->group.device, &part->group);
    ScanSplit split;
    split.first_device = first;
    split.device_count = parts.size();
    const DeviceId* last_device = nullptr;
    DeviceAggregate* group = nullptr;
    return scanner.ScanSplitRows(split, cursor_, [&](const TableBatch& batch) {
      const size_t n = batch.num_rows();
      if (n == 0) return absl::OkStatus();
      if (batch.device != last_device || group == nullptr) {
        auto it = by_id.find(batch.device->ToString());
        if (it == by_id.end()) return absl::InternalError("a decoded batch of a device not in its split");
        group = it->second;
        last_device = batch.device;
      }
      if (group->rows == 0) group->first_time = batch.times.front();
      group->last_time = batch.times.back();
      group->rows += n;
      for (size_t j = 0; j < group->columns.size(); ++j) group->columns[j].AddRows(batch.columns[j], batch.times.data());
      return absl::OkStatus();
    });
  }

 private:
  DeviceAggregate Fresh(const DeviceId& id) const {
    DeviceAggregate group;
    group.device = id.ToString();
    // TAG column k of the file's own schema is segment k + 1 (segment 0 is the table).
    const std::vector<std::optional<std::string>>& segments = id.segments();
    group.tags.resize(shape_.tag_columns.size());
    size_t k = 0;
    for (const ColumnSchema& c : own_.columns) {
      if (c.category != ColumnCategory::kTag) continue;
      ++k;
      for (size_t t = 0; t < shape_.tag_columns.size(); ++t) {
        if (shape_.tag_columns[t] == c.name && k < segments.size()) group.tags[t] = segments[k];
      }
    }
    for (const ColumnSchema& c : shape_.columns) group.columns.emplace_back(c.data_type);
    return group;
  }

  // Whether the device's statistics give exactly what decoding its rows in the range would.
  bool StatisticsAnswer(const TimeseriesMetadata& time, const std::vector<const TimeseriesMetadata*>& columns) const {
    const Statistics& rows = time.statistics;
    if (rows.start_time < range_.start || rows.end_time > range_.end) return false;  // the range cuts it
    for (size_t j = 0; j < columns.size(); ++j) {
      if (columns[j] == nullptr) continue;  // the device lacks the column: all null
      const Statistics& s = columns[j]->statistics;
      const DataType type = shape_.columns[j].data_type;
      if (columns[j]->data_type != type) return false;  // the scan decides what a mismatch is
      // FLOAT/DOUBLE: their chunks' encodings are checked next (LosslessChunks).
      if (s.count == 0) continue;
      if (type == DataType::kBlob) return false;  // BLOB statistics hold only a count (§4)
      if (s.count > rows.count || s.start_time < rows.start_time || s.end_time > rows.end_time) return false;
      if (!ColumnAggregate(type).StatisticsAreExact(s)) return false;
    }
    return true;
  }

  const TableAggregate& shape_;
  const TableSchema& own_;
  const TimeRange& range_;
  // One cursor for the file's decoded devices: its page buffers are allocated once.
  mutable std::optional<TableScanner::Cursor> cursor_;
};

// Adds one file's group of a device to the result (merging it into the device's group).
void MergeGroup(DeviceAggregate part, TableAggregate& out, std::map<std::string, size_t>& index) {
  auto [it, added] = index.emplace(part.device, out.devices.size());
  if (added) {
    out.devices.push_back(std::move(part));
    return;
  }
  DeviceAggregate& group = out.devices[it->second];
  group.first_time = std::min(group.first_time, part.first_time);
  group.last_time = std::max(group.last_time, part.last_time);
  group.rows += part.rows;
  for (size_t j = 0; j < group.columns.size(); ++j) group.columns[j].Merge(part.columns[j]);
}

}  // namespace

absl::StatusOr<TableAggregate> AggregateByDevice(const Dataset& dataset, const AggregateOptions& options) {
  TableAggregate out;
  if (options.table.empty()) {
    TSREAD_ASSIGN_OR_RETURN(out.table, dataset.OnlyTable());
  } else {
    out.table = options.table;
  }
  TSREAD_ASSIGN_OR_RETURN(TableSchema schema, dataset.ReconciledSchema(out.table));
  TSREAD_ASSIGN_OR_RETURN(out.columns, FieldColumns(schema, options.columns));
  for (const ColumnSchema& c : schema.columns) {
    if (c.category == ColumnCategory::kTag) out.tag_columns.push_back(c.name);
  }

  DatasetScanOptions scan;
  scan.table = out.table;
  scan.time_range = options.time_range;
  scan.tag_predicates = options.tag_predicates;
  for (const ColumnSchema& c : out.columns) scan.columns.push_back(c.name);
  // Without FIELD columns the scan still needs a column to read rows by: a TAG column costs no
  // chunk (its values come from the device id); it is not aggregated.
  if (scan.columns.empty() && !out.tag_columns.empty()) scan.columns.push_back(out.tag_columns[0]);
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<DatasetScanner> scanner, DatasetScanner::Create(dataset, scan));

  std::map<std::string, size_t> index;  // device id -> position in out.devices
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    const std::string& path = dataset.files()[f].path;
    TSREAD_ASSIGN_OR_RETURN(std::optional<DatasetScanner::FileScan> plan, scanner->PlanFile(f, 1));
    if (!plan.has_value()) continue;
    const TableSchema* own = dataset.files()[f].FindTable(out.table);
    if (own == nullptr) continue;
    const FileAggregator aggregator(out, *own, options.time_range);
    ReadAhead ahead;  // the devices' series metadata, in index order
    std::vector<DevicePart> parts;
    for (size_t i = 0; i < plan->scanner->device_count(); ++i) {
      absl::StatusOr<DevicePart> part = aggregator.Aggregate(*plan->reader, *plan->scanner, i, ahead);
      if (!part.ok()) return WithFileName(part.status(), path);
      (part->decoded ? out.chunks_decoded : out.chunks_from_statistics) += part->chunks;
      parts.push_back(*std::move(part));
    }
    // Devices the statistics could not answer, decoded in runs of neighbours: one split each, so a
    // range that cuts every device costs one scan, not one per device.
    for (size_t i = 0; i < parts.size();) {
      if (!parts[i].decoded) {
        ++i;
        continue;
      }
      std::vector<DevicePart*> run;
      const size_t first = i;
      for (; i < parts.size() && parts[i].decoded; ++i) run.push_back(&parts[i]);
      if (absl::Status s = aggregator.DecodeRun(*plan->scanner, first, run); !s.ok()) return WithFileName(s, path);
    }
    for (DevicePart& part : parts) {
      if (part.group.rows > 0) MergeGroup(std::move(part.group), out, index);
    }
  }
  return out;
}

}  // namespace tsread

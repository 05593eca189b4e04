#include "tsread/check/sealed_copy.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tsread/format/file_layout.h"
#include "tsread/format/string_order.h"
#include "tsread/io/status_macros.h"
#include "tsread/write/chunk_group_encoder.h"
#include "tsread/write/device_order.h"
#include "tsread/write/index_writer.h"
#include "tsread/write/statistics_builder.h"

namespace tsread {
namespace {

// Bytes copied from the input per read.
constexpr uint64_t kCopyBlock = uint64_t{1} << 20;

// The non-null values of a page and their times, in the form StatisticsBuilder::Add takes.
void AddPageValues(const SalvagedPage& page, StatisticsBuilder& stats) {
  const ColumnVector& v = page.values;
  std::vector<int64_t> times;
  std::vector<size_t> rows;
  for (size_t r = 0; r < v.size(); ++r) {
    if (!v.IsValid(r)) continue;
    times.push_back(page.times[r]);
    rows.push_back(r);
  }
  if (rows.empty()) return;
  auto gather = [&rows](const auto& values) {
    std::vector<std::decay_t<decltype(values[0])>> out;
    out.reserve(rows.size());
    for (size_t r : rows) out.push_back(values[r]);
    return out;
  };
  switch (PhysicalTypeOf(v.type)) {
    case PhysicalType::kBoolean: stats.Add(times.data(), gather(v.bools).data(), rows.size()); break;
    case PhysicalType::kInt32: stats.Add(times.data(), gather(v.int32s).data(), rows.size()); break;
    case PhysicalType::kInt64: stats.Add(times.data(), gather(v.int64s).data(), rows.size()); break;
    case PhysicalType::kFloat: stats.Add(times.data(), gather(v.floats).data(), rows.size()); break;
    case PhysicalType::kDouble: stats.Add(times.data(), gather(v.doubles).data(), rows.size()); break;
    case PhysicalType::kBinary: {
      std::vector<std::string_view> values;
      values.reserve(rows.size());
      for (size_t r : rows) values.push_back(v.binary(r));
      stats.Add(times.data(), values.data(), rows.size());
      break;
    }
  }
}

// A chunk's statistics merge its pages' (Java: ChunkWriterImpl / mergeStatistics).
StatisticsBuilder ChunkStatistics(const SalvagedChunk& chunk) {
  StatisticsBuilder total(chunk.type);
  for (const SalvagedPage& page : chunk.pages) {
    StatisticsBuilder stats(chunk.type);
    if (chunk.role == ChunkRole::kTime) {
      stats.AddTimes(page.times.data(), page.times.size());
    } else {
      AddPageValues(page, stats);
    }
    total.Merge(stats);
  }
  return total;
}

struct SeriesState {
  DataType type = DataType::kVector;
  uint8_t mask = 0;
  std::vector<ChunkRecord> chunks;
};

struct DeviceState {
  bool aligned = false;
  uint8_t time_mask = 0;
  std::vector<ChunkRecord> time_chunks;
  std::map<std::string, SeriesState> series;
};

// A FIELD column as the kept chunks show it: name, type, and the first chunk's encoding and codec.
struct SeenField {
  std::string name;
  DataType type;
  uint8_t encoding_byte;
  uint8_t compression_byte;
};

struct TableState {
  std::map<DeviceId, DeviceState, DeviceIdLess> devices;
  size_t max_tags = 0;  // most TAG segments of any device (segments after the table name)
  std::vector<SeenField> fields;  // in the order first seen
};

// Table-model devices are those whose segment 0 is neither "root" nor starts with "root." (§2.2):
// a tree device of two levels (`root.a`) splits into ["root", "a"], so its segment 0 is "root"
// itself. Without the lost tail's schemas this is the only sign of the model.
bool IsTableModel(std::string_view table) {
  return table != "root" && !absl::StartsWith(ToAbsl(table), "root.");
}

class SealedIndexBuilder {
 public:
  explicit SealedIndexBuilder(uint8_t version) : version_(version) {}

  absl::Status Add(const SalvagedGroup& group) {
    // A group header with no chunk after it is legal (§2.3) but gives its device nothing to index
    // (a measurement node needs an entry); its bytes stay in the data section, unreferenced.
    if (group.chunks.empty()) return absl::OkStatus();
    const std::string table(version_ == kVersion3 ? "" : group.device.table_name());
    TableState& state = tables_[table];
    if (group.device.segment_count() > 0) state.max_tags = std::max(state.max_tags, group.device.segment_count() - 1);
    DeviceState& device = state.devices[group.device];
    device.aligned = group.aligned;
    for (const SalvagedChunk& chunk : group.chunks) {
      ChunkRecord record;
      record.offset = static_cast<int64_t>(chunk.offset);
      record.statistics = ChunkStatistics(chunk);
      // TimeseriesMetadata masks come from the first chunk's marker, as Java's TSMIterator takes
      // them (§5): Java-written files set them, the C++ writer's do not, and the copy keeps each.
      const uint8_t mask = chunk.marker & (kTimeColumnMask | kValueColumnMask);
      if (chunk.role == ChunkRole::kTime) {
        if (device.time_chunks.empty()) device.time_mask = mask;
        device.time_chunks.push_back(std::move(record));
        continue;
      }
      SeriesState& series = device.series[chunk.measurement];
      if (series.chunks.empty()) series.mask = mask;
      series.type = chunk.type;
      series.chunks.push_back(std::move(record));
      const bool seen = std::any_of(state.fields.begin(), state.fields.end(),
                                    [&](const SeenField& f) { return f.name == chunk.measurement; });
      if (!seen) state.fields.push_back({chunk.measurement, chunk.type, chunk.encoding_byte, chunk.compression_byte});
    }
    return absl::OkStatus();
  }

  bool empty() const { return tables_.empty(); }

  // The index and tail after a data section that ends at `separator_offset`.
  std::string Build(const std::vector<TableSchema>& given, int max_degree, uint64_t separator_offset,
                    std::vector<std::string>& warnings) {
    std::string out;
    if (version_ == kVersion3) {
      std::vector<IndexedDevice> devices = Devices(tables_[""]);
      // V3 orders plain ids by their path bytes (§7.3, §13 item 11).
      std::sort(devices.begin(), devices.end(), [](const IndexedDevice& a, const IndexedDevice& b) {
        return a.id->table_name() < b.id->table_name();
      });
      AppendV3IndexAndTail(devices, max_degree, separator_offset, out);
      return out;
    }
    std::vector<IndexedTable> tables;
    for (auto& [name, state] : tables_) {
      if (state.devices.empty()) continue;
      tables.push_back(IndexedTable{name, Devices(state)});
      if (IsTableModel(name)) schemas_.push_back(SchemaFor(name, state, given, warnings));
    }
    std::vector<const TableSchema*> schemas;
    for (const TableSchema& schema : schemas_) schemas.push_back(&schema);
    std::sort(schemas.begin(), schemas.end(),
              [](const TableSchema* a, const TableSchema* b) { return a->name < b->name; });
    AppendIndexAndTail(tables, schemas, max_degree, separator_offset, out);
    return out;
  }

 private:
  // The devices of a table in index order, each with its series: the time column first, then by
  // measurement name in Java String order (§5).
  static std::vector<IndexedDevice> Devices(const TableState& state) {
    std::vector<IndexedDevice> devices;
    for (const auto& [id, device] : state.devices) {
      IndexedDevice& indexed = devices.emplace_back();
      indexed.id = &id;
      if (device.aligned) {
        indexed.series.push_back(IndexedSeries{"", DataType::kVector, device.time_mask, &device.time_chunks});
      }
      const size_t first = indexed.series.size();
      for (const auto& [name, series] : device.series) {
        indexed.series.push_back(IndexedSeries{name, series.type, series.mask, &series.chunks});
      }
      std::sort(indexed.series.begin() + static_cast<std::ptrdiff_t>(first), indexed.series.end(),
                [](const IndexedSeries& a, const IndexedSeries& b) { return CompareJavaStrings(a.name, b.name) < 0; });
    }
    return devices;
  }

  // The schema of table-model table `name`: the given one, completed with what the data needs,
  // or one with positional TAG names.
  static TableSchema SchemaFor(const std::string& name, const TableState& state, const std::vector<TableSchema>& given,
                               std::vector<std::string>& warnings) {
    TableSchema schema;
    schema.name = name;
    size_t tags = 0;
    const auto found = std::find_if(given.begin(), given.end(), [&](const TableSchema& s) { return s.name == name; });
    if (found != given.end()) {
      schema = *found;
      for (const ColumnSchema& column : schema.columns) tags += column.category == ColumnCategory::kTag;
    } else {
      warnings.push_back(absl::StrCat("table ", name, ": its schema was in the lost tail; TAG columns are named by "
                                      "position (tag0, tag1, ...); --schema-from FILE takes the names from another "
                                      "file of the same table"));
    }
    for (size_t t = tags; t < state.max_tags; ++t) {
      ColumnSchema column;
      column.name = absl::StrCat("tag", t);
      column.data_type = DataType::kString;
      column.category = ColumnCategory::kTag;
      if (found != given.end()) {
        warnings.push_back(absl::StrCat("table ", name, ": devices have more TAG segments than the given schema has "
                                        "TAG columns; added ", column.name));
      }
      // New TAG columns go after the existing ones: segment i + 1 is the i-th TAG column (§12).
      size_t at = 0, seen = 0;
      for (; at < schema.columns.size() && seen < t; ++at) seen += schema.columns[at].category == ColumnCategory::kTag;
      schema.columns.insert(schema.columns.begin() + static_cast<std::ptrdiff_t>(at), std::move(column));
    }
    for (const SeenField& field : state.fields) {
      const std::optional<size_t> index = schema.FindColumn(field.name);
      if (!index.has_value()) {
        ColumnSchema column;
        column.name = field.name;
        column.data_type = field.type;
        column.encoding_byte = field.encoding_byte;
        column.compression_byte = field.compression_byte;
        column.category = ColumnCategory::kField;
        schema.columns.push_back(std::move(column));
        if (found != given.end()) {
          warnings.push_back(absl::StrCat("table ", name, ": column ", field.name, " is not in the given schema; "
                                          "added as a FIELD column"));
        }
        continue;
      }
      ColumnSchema& column = schema.columns[*index];
      if (column.category != ColumnCategory::kField || column.data_type != field.type) {
        warnings.push_back(absl::StrCat("table ", name, ": column ", field.name, " is a ",
                                        ToAbsl(ColumnCategoryName(column.category)), " ",
                                        ToAbsl(DataTypeName(column.data_type)), " in the given schema but ",
                                        ToAbsl(DataTypeName(field.type)), " chunks in the file; the chunks win"));
        column.category = ColumnCategory::kField;
        column.data_type = field.type;
      }
    }
    return schema;
  }

  uint8_t version_;
  std::map<std::string, TableState> tables_;  // by table name (V3: one entry, "")
  std::vector<TableSchema> schemas_;
};

// Copies [0, end) of `in` to `out`.
absl::Status CopyPrefix(const RandomAccessFile& in, uint64_t end, OutputSink& out) {
  Buffer block;
  for (uint64_t at = 0; at < end; at += kCopyBlock) {
    TSREAD_RETURN_IF_ERROR(in.ReadInto(at, std::min(kCopyBlock, end - at), block));
    TSREAD_RETURN_IF_ERROR(out.Append(block.bytes()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SealedIndex> BuildSealedIndex(const RandomAccessFile& in, const SealedCopyOptions& options) {
  if (options.max_index_degree < 2) {
    return absl::InvalidArgumentError(absl::StrCat("index degree ", options.max_index_degree, " is below 2"));
  }
  SalvageOptions salvage;
  salvage.limits = options.limits;
  salvage.keep_values = true;
  salvage.walk = options.walk;
  // The version byte picks the index form; SalvageDataSection validates the head itself.
  uint8_t version = kVersion4;
  if (in.size() >= kHeadSize) {
    TSREAD_ASSIGN_OR_RETURN(Buffer head, in.Read(0, kHeadSize));
    version = static_cast<uint8_t>(head.data()[6]);
  }
  SealedIndexBuilder builder(version);
  SealedIndex result;
  TSREAD_ASSIGN_OR_RETURN(result.report, SalvageDataSection(in, salvage, [&builder](const SalvagedGroup& group) {
                            return builder.Add(group);
                          }));
  // An index needs at least one device (a V3 root node with no entry is not a valid node).
  if (builder.empty()) return result;
  result.bytes = builder.Build(options.schemas, options.max_index_degree, result.report.data_end, result.warnings);
  return result;
}

absl::StatusOr<SealedCopyResult> WriteSealedCopy(const RandomAccessFile& in, OutputSink& out,
                                                 const SealedCopyOptions& options) {
  TSREAD_ASSIGN_OR_RETURN(SealedIndex index, BuildSealedIndex(in, options));
  if (index.bytes.empty()) {
    return absl::DataLossError(absl::StrCat(in.name(), ": no chunk group with data can be kept, so there is nothing ",
                                            "to seal: the walk stopped at offset ", index.report.stop_offset, ": ",
                                            index.report.stop_reason));
  }
  TSREAD_RETURN_IF_ERROR(CopyPrefix(in, index.report.data_end, out));
  TSREAD_RETURN_IF_ERROR(out.Append(index.bytes));
  TSREAD_RETURN_IF_ERROR(out.Close());
  SealedCopyResult result;
  result.report = std::move(index.report);
  result.warnings = std::move(index.warnings);
  result.bytes_written = out.position();
  return result;
}

}  // namespace tsread

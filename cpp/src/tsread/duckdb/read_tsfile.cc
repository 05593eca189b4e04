#include "tsread/duckdb/read_tsfile.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/common/calendar.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/tag_enums.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::duckdb_ext {
namespace {

constexpr const char* kFunction = "read_tsfile";

struct BindData {
  std::unique_ptr<Dataset> dataset;
  std::string table;
  TableSchema schema;  // reconciled across the files
  TimeRange range;
  std::vector<TagPredicate> predicates;
  bool filename = false;
  // binary_as_blob: TAG, TEXT and STRING columns as BLOB (their bytes unchecked) instead of
  // VARCHAR (checked UTF-8, an error naming file and column otherwise).
  bool binary_as_blob = false;
  // tags_as_enum: per schema column, the ENUM of a TAG column (tag_enums.h); empty when not asked.
  std::vector<std::optional<TagEnum>> tag_enums;
  TimeUnit unit = TimeUnit::kMs;
  // Output columns: 0 = time, 1..n = schema columns, n + 1 = filename (when asked for).
};

// What an output column of the chunk holds.
struct OutColumn {
  enum Kind { kTime, kSchema, kFilename, kOther } kind = kOther;
  size_t scan_index = 0;    // kSchema: index into the scanner's projection
  size_t schema_index = 0;  // kSchema: index into the bind's schema
};

struct GlobalState {
  std::unique_ptr<DatasetScanner> scanner;
  std::vector<DatasetSplit> splits;
  std::atomic<size_t> next_split{0};
  std::vector<OutColumn> out;
};

// A scanning thread's position: the plan of the file it is in (kept while its next splits are of
// the same file: planning walks the file's device index), a cursor over its current split, and
// the cursor's current batch — one page of rows, read in place (no copy) and handed to DuckDB one
// window of at most duckdb_vector_size() rows per call.
struct LocalState {
  std::optional<size_t> plan_file;
  std::optional<DatasetScanner::FileScan> plan;
  // Moved from split to split (and file to file) keeping its buffers; reads a split while in_split.
  std::optional<TableScanner::Cursor> cursor;
  bool in_split = false;
  const std::string* path = nullptr;
  const TableBatch* batch = nullptr;  // valid until the cursor's next call
  size_t offset = 0;                  // the batch's first row not yet delivered
};

// The ENUM of schema column `c` with tags_as_enum, else nullptr.
const TagEnum* EnumOf(const BindData& bind, size_t c) {
  return c < bind.tag_enums.size() && bind.tag_enums[c].has_value() ? &*bind.tag_enums[c] : nullptr;
}

bool IsStringType(DataType type) { return type == DataType::kText || type == DataType::kString; }

duckdb_type OutputType(DataType type, const BindData& bind) {
  switch (type) {
    case DataType::kBoolean: return DUCKDB_TYPE_BOOLEAN;
    case DataType::kInt32: return DUCKDB_TYPE_INTEGER;
    case DataType::kInt64: return DUCKDB_TYPE_BIGINT;
    case DataType::kFloat: return DUCKDB_TYPE_FLOAT;
    case DataType::kDouble: return DUCKDB_TYPE_DOUBLE;
    case DataType::kTimestamp: return TimestampType(bind.unit);
    case DataType::kDate: return DUCKDB_TYPE_DATE;
    case DataType::kBlob: return DUCKDB_TYPE_BLOB;
    default:  // TEXT, STRING
      return bind.binary_as_blob ? DUCKDB_TYPE_BLOB : DUCKDB_TYPE_VARCHAR;
  }
}

absl::Status ParseTags(duckdb_bind_info info, std::vector<TagPredicate>& predicates) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, "tags");
  if (!v) return absl::OkStatus();
  if (!duckdb_is_null_value(v)) {
    const idx_t n = duckdb_get_map_size(v);
    for (idx_t i = 0; i < n; ++i) {
      duckdb_value key = duckdb_get_map_key(v, i);
      duckdb_value list = duckdb_get_map_value(v, i);
      TagPredicate predicate;
      predicate.column = ValueToString(key);
      if (!duckdb_is_null_value(list)) {
        const idx_t m = duckdb_get_list_size(list);
        for (idx_t j = 0; j < m; ++j) {
          duckdb_value item = duckdb_get_list_child(list, j);
          if (duckdb_is_null_value(item)) {
            predicate.values.push_back(std::nullopt);
          } else {
            predicate.values.push_back(ValueToString(item));
          }
          duckdb_destroy_value(&item);
        }
      }
      duckdb_destroy_value(&key);
      duckdb_destroy_value(&list);
      predicates.push_back(std::move(predicate));
    }
  }
  duckdb_destroy_value(&v);
  return absl::OkStatus();
}

// The table to read: `table_name` or the dataset's only one (an error says why there is none).
absl::StatusOr<std::string> ChooseTable(const Dataset& dataset, const std::optional<std::string>& table_name) {
  if (table_name && !table_name->empty()) return *table_name;
  absl::StatusOr<std::string> only = dataset.OnlyTable();
  if (only.ok()) return only;
  const std::vector<std::string> names = dataset.TableNames();
  if (names.empty()) {
    const bool tree = std::any_of(dataset.files().begin(), dataset.files().end(),
                                  [](const DatasetFile& f) { return f.has_tree_model; });
    const std::string where =
        absl::StrCat(dataset.files()[0].path, dataset.files().size() > 1 ? " (and others)" : "");
    if (tree) {
      return absl::InvalidArgumentError(absl::StrCat(
          "read_tsfile: ", where, " holds tree-model data only: read it with read_tsfile_tree"));
    }
    return absl::InvalidArgumentError(absl::StrCat("read_tsfile: ", where, ": no table-model table"));
  }
  return absl::InvalidArgumentError(absl::StrCat("read_tsfile: the input has ", names.size(),
                                                 " tables; name one with table_name := '...': ",
                                                 absl::StrJoin(names, ", ")));
}

// A file's rows estimated from a few devices: the planned device count times the mean row count
// (time column statistics) of the table's first kSampleDevices devices. Reading every device's
// series metadata would cost as much as a tenth of a full scan.
absl::StatusOr<uint64_t> EstimateFileRows(const TsFileReader& reader, const std::string& table, size_t devices) {
  constexpr size_t kSampleDevices = 8;
  absl::StatusOr<DeviceIterator> it = reader.Devices(table);
  if (!it.ok()) return absl::IsNotFound(it.status()) ? absl::StatusOr<uint64_t>(0) : it.status();
  uint64_t rows = 0;
  size_t sampled = 0;
  while (sampled < kSampleDevices) {
    absl::StatusOr<const DeviceEntry*> device = it->Next();
    if (!device.ok()) return device.status();
    if (*device == nullptr) break;
    absl::StatusOr<std::optional<TimeseriesMetadata>> time = reader.FindTimeseries((*device)->location, "");
    if (!time.ok()) return time.status();
    if (time->has_value() && (*time)->is_time_column()) rows += (*time)->statistics.count;
    ++sampled;
  }
  return sampled == 0 ? 0 : rows * devices / sampled;
}

// Cardinality from metadata: the estimated rows of up to kEstimateFiles files, scaled by bytes to
// the whole dataset. Not exact (ignores the time range).
absl::StatusOr<uint64_t> EstimateRows(const Dataset& dataset, const DatasetScanner& scanner) {
  constexpr size_t kEstimateFiles = 32;
  const auto& files = dataset.files();
  uint64_t rows = 0, sampled_bytes = 0, total_bytes = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    total_bytes += files[i].size;
    if (i >= kEstimateFiles) continue;
    absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = scanner.PlanFile(i, 1);
    if (!plan.ok()) return plan.status();
    sampled_bytes += files[i].size;
    if (!plan->has_value()) continue;
    absl::StatusOr<uint64_t> file_rows =
        EstimateFileRows(*(*plan)->reader, scanner.options().table, (*plan)->scanner->device_count());
    if (!file_rows.ok()) return WithFileName(file_rows.status(), files[i].path);
    rows += *file_rows;
  }
  if (sampled_bytes > 0 && total_bytes > sampled_bytes) {
    rows = static_cast<uint64_t>(static_cast<double>(rows) * total_bytes / sampled_bytes);
  }
  return rows;
}

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<BindData>();
  absl::StatusOr<TimeUnit> unit = NamedTimeUnit(info, kFunction);
  if (!unit.ok()) return unit.status();
  bind->unit = *unit;
  bind->range = NamedTimeRange(info, bind->unit);
  bind->filename = NamedBool(info, "filename");
  bind->binary_as_blob = NamedBool(info, "binary_as_blob");
  const bool tags_as_enum = NamedBool(info, "tags_as_enum");
  if (tags_as_enum && bind->binary_as_blob) {
    return absl::InvalidArgumentError("read_tsfile: tags_as_enum and binary_as_blob exclude each other");
  }
  if (absl::Status s = ParseTags(info, bind->predicates); !s.ok()) return s;

  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenDatasetParameter(info, kFunction);
  if (!dataset.ok()) return dataset.status();
  bind->dataset = std::move(*dataset);
  absl::StatusOr<std::string> table = ChooseTable(*bind->dataset, NamedString(info, "table_name"));
  if (!table.ok()) return table.status();
  bind->table = std::move(*table);
  absl::StatusOr<TableSchema> schema = bind->dataset->ReconciledSchema(bind->table);
  if (!schema.ok()) return schema.status();
  bind->schema = std::move(*schema);
  if (tags_as_enum) {
    absl::StatusOr<std::vector<std::optional<TagEnum>>> enums =
        CollectTagEnums(*bind->dataset, bind->table, bind->schema);
    if (!enums.ok()) return enums.status();
    bind->tag_enums = std::move(*enums);
  }

  // Check the scan options (unknown tag predicate columns...) at bind time.
  DatasetScanOptions options;
  options.table = bind->table;
  options.time_range = bind->range;
  options.tag_predicates = bind->predicates;
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(*bind->dataset, options);
  if (!scanner.ok()) return scanner.status();
  absl::StatusOr<uint64_t> rows = EstimateRows(*bind->dataset, **scanner);
  if (!rows.ok()) return rows.status();
  duckdb_bind_set_cardinality(info, *rows, /*is_exact=*/false);

  AddResultColumn(info, "time", TimestampType(bind->unit));
  for (size_t c = 0; c < bind->schema.columns.size(); ++c) {
    const ColumnSchema& column = bind->schema.columns[c];
    if (const TagEnum* tag_enum = EnumOf(*bind, c)) {
      AddResultColumn(info, column.name.c_str(), tag_enum->type());
      continue;
    }
    duckdb_type type = column.category == ColumnCategory::kField ? OutputType(column.data_type, *bind)
                       : bind->binary_as_blob                    ? DUCKDB_TYPE_BLOB
                                                                 : DUCKDB_TYPE_VARCHAR;
    AddResultColumn(info, column.name.c_str(), type);
  }
  if (bind->filename) AddResultColumn(info, "filename", DUCKDB_TYPE_VARCHAR);
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
  return absl::OkStatus();
}

// The scan's splits: per file that can contribute rows, one split per kSplitBytes of file (at
// least one), of equal device counts. Only the device indexes are read: byte-balanced splits
// (DatasetScanner::Splits) would read every device's series metadata here, on one thread, before
// DuckDB's threads start. Splits are small (1 MB of file) so that the threads finish together:
// a split costs a cursor and one read-ahead window of series metadata.
absl::StatusOr<std::vector<DatasetSplit>> PlanSplits(const DatasetScanner& scanner) {
  constexpr uint64_t kSplitBytes = uint64_t{1} << 20;
  const Dataset& dataset = scanner.dataset();
  std::vector<DatasetSplit> splits;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = scanner.PlanFile(f, 1);
    if (!plan.ok()) return WithFileName(plan.status(), dataset.files()[f].path);
    if (!plan->has_value()) continue;
    const size_t count =
        static_cast<size_t>(std::max<uint64_t>(1, (dataset.files()[f].size + kSplitBytes - 1) / kSplitBytes));
    for (const ScanSplit& split : (*plan)->scanner->EvenSplits(count)) splits.push_back(DatasetSplit{f, split});
  }
  return splits;
}

absl::Status Init(duckdb_init_info info) {
  auto* bind = static_cast<BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState>();
  const size_t n_schema = bind->schema.columns.size();
  DatasetScanOptions options;
  options.table = bind->table;
  options.time_range = bind->range;
  options.tag_predicates = bind->predicates;
  options.batch_size = 0;  // one batch per page, read in place (Scan cuts it into vectors)
  const idx_t count = duckdb_init_get_column_count(info);
  for (idx_t i = 0; i < count; ++i) {
    const idx_t id = duckdb_init_get_column_index(info, i);
    OutColumn out;
    if (id == 0) {
      out.kind = OutColumn::kTime;
    } else if (id <= n_schema) {
      out.kind = OutColumn::kSchema;
      out.scan_index = options.columns.size();
      out.schema_index = id - 1;
      options.columns.push_back(bind->schema.columns[id - 1].name);
    } else if (id == n_schema + 1 && bind->filename) {
      out.kind = OutColumn::kFilename;
    }
    state->out.push_back(out);
  }
  if (options.columns.empty() && !bind->schema.columns.empty()) {
    // Only time, filename or a row count: read the cheapest column (a TAG if any). Empty would mean all.
    const ColumnSchema* pick = &bind->schema.columns[0];
    for (const ColumnSchema& c : bind->schema.columns) {
      if (c.category == ColumnCategory::kTag) {
        pick = &c;
        break;
      }
    }
    options.columns.push_back(pick->name);
  }
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(*bind->dataset, options);
  if (!scanner.ok()) return scanner.status();
  state->scanner = std::move(*scanner);
  absl::StatusOr<std::vector<DatasetSplit>> splits = PlanSplits(*state->scanner);
  if (!splits.ok()) return splits.status();
  state->splits = std::move(*splits);
  duckdb_init_set_max_threads(info, std::max<idx_t>(1, state->splits.size()));
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState>);
  return absl::OkStatus();
}

// Moves the thread to its next non-empty batch (local.batch nullptr when every split is done),
// taking splits as needed.
absl::Status NextBatch(GlobalState& global, LocalState& local) {
  const Dataset& dataset = global.scanner->dataset();
  local.batch = nullptr;
  local.offset = 0;
  while (true) {
    if (local.in_split) {
      absl::StatusOr<TableBatch*> batch = local.cursor->Next();
      if (!batch.ok()) return WithFileName(batch.status(), *local.path);
      if (*batch != nullptr && (*batch)->num_rows() > 0) {
        local.batch = *batch;
        return absl::OkStatus();
      }
      if (*batch != nullptr) continue;
      local.in_split = false;
    }
    const size_t index = global.next_split.fetch_add(1);
    if (index >= global.splits.size()) return absl::OkStatus();
    const DatasetSplit& split = global.splits[index];
    local.path = &dataset.files()[split.file].path;
    if (local.plan_file != split.file) {
      local.plan.reset();
      local.plan_file.reset();
      absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = global.scanner->PlanFile(split.file, 1);
      if (!plan.ok()) return WithFileName(plan.status(), *local.path);
      if (!plan->has_value()) {
        return absl::FailedPreconditionError(absl::StrCat(*local.path, ": the file has no rows for this split any more"));
      }
      local.plan = std::move(**plan);
      local.plan_file = split.file;
    }
    if (absl::Status s = local.plan->scanner->OpenCursorInto(split.devices, local.cursor); !s.ok()) {
      return WithFileName(s, *local.path);
    }
    local.in_split = true;
  }
}

absl::Status InvalidUtf8(const std::string& file, const std::string& column) {
  return absl::DataLossError(absl::StrCat(file, ": column \"", column,
                                          "\": a value is not valid UTF-8 (binary_as_blob := true reads it as BLOB)"));
}

// Every row of `vector` set to `value`: written once, then its 16-byte string record (inline
// bytes, or a pointer into the vector's own string heap) copied to the other rows. No per-row
// copy of the bytes: the C API at v1.2.0 has no constant or dictionary vectors (docs/duckdb.md).
void FillConstantString(duckdb_vector vector, size_t rows, std::string_view value) {
  if (rows == 0) return;
  SetString(vector, 0, value);
  auto* records = static_cast<duckdb_string_t*>(duckdb_vector_get_data(vector));
  std::fill(records + 1, records + rows, records[0]);
}

void FillNull(duckdb_vector vector, size_t rows) {
  duckdb_vector_ensure_validity_writable(vector);
  std::memset(duckdb_vector_get_validity(vector), 0, (rows + 63) / 64 * 8);
}

// The validity of rows [offset, offset + rows) of `values` (windows start at multiples of the
// vector size, so the bitmap is copied bytewise).
void CopyValidity(const ColumnVector& values, size_t offset, duckdb_vector vector, size_t rows) {
  if (values.null_count == 0) {
    SetAllValid(vector, rows);
    return;
  }
  duckdb_vector_ensure_validity_writable(vector);
  uint64_t* validity = duckdb_vector_get_validity(vector);
  std::memset(validity, 0, (rows + 63) / 64 * 8);
  if (offset % 8 == 0) {
    // Both bitmaps are little-endian: bit r of byte r / 8 is row r; bits past the batch are zero.
    std::memcpy(validity, values.validity.data() + offset / 8, (rows + 7) / 8);
    return;
  }
  for (size_t r = 0; r < rows; ++r) {
    if (values.IsValid(offset + r)) validity[r / 64] |= uint64_t{1} << (r % 64);
  }
}

// Stored times (in `unit`) as TIMESTAMP values; OutOfRange naming `what` when one overflows.
absl::Status WriteTimes(const int64_t* in, size_t rows, TimeUnit unit, int64_t* out, const std::string& file,
                        const std::string& what) {
  if (unit != TimeUnit::kMs) {
    std::memcpy(out, in, rows * sizeof(int64_t));
    return absl::OkStatus();
  }
  // Range check first (vectorizes), then scale: ms -> micros.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 1000;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / 1000;
  int64_t lo = 0, hi = 0;
  for (size_t r = 0; r < rows; ++r) {
    lo = std::min(lo, in[r]);
    hi = std::max(hi, in[r]);
  }
  if (lo < kMin || hi > kMax) {
    return absl::OutOfRangeError(
        absl::StrCat(file, ": ", what, ": time ", lo < kMin ? lo : hi, " is out of range of TIMESTAMP (try time_unit)"));
  }
  for (size_t r = 0; r < rows; ++r) out[r] = in[r] * 1000;
  return absl::OkStatus();
}

absl::Status WriteTag(const BindData& bind, const ProjectedColumn& column, const TagEnum* tag_enum,
                      std::optional<std::string_view> tag, size_t rows, const std::string& file,
                      duckdb_vector vector) {
  if (!tag) {
    FillNull(vector, rows);
    return absl::OkStatus();
  }
  if (tag_enum != nullptr) {
    std::optional<uint32_t> code = tag_enum->Code(*tag);
    if (!code) {
      return absl::FailedPreconditionError(
          absl::StrCat(file, ": column \"", column.name, "\": a tag value that was not in the file when the query was bound"));
    }
    SetAllValid(vector, rows);
    tag_enum->Fill(vector, *code, rows);
    return absl::OkStatus();
  }
  if (!bind.binary_as_blob && !ValidUtf8(*tag)) return InvalidUtf8(file, column.name);
  SetAllValid(vector, rows);
  FillConstantString(vector, rows, *tag);
  return absl::OkStatus();
}

// Rows [offset, offset + rows) of a FIELD column into `vector`.
absl::Status WriteField(const BindData& bind, const ProjectedColumn& column, const ColumnVector& values, size_t offset,
                        size_t rows, const std::string& file, duckdb_vector vector) {
  if (values.size() < offset + rows) {
    return absl::InternalError(absl::StrCat(file, ": column ", column.name, ": ", values.size(), " values for ",
                                            offset + rows, " rows"));
  }
  CopyValidity(values, offset, vector, rows);
  void* data = duckdb_vector_get_data(vector);
  switch (column.data_type) {
    case DataType::kBoolean:
      std::memcpy(data, values.bools.data() + offset, rows);
      return absl::OkStatus();
    case DataType::kInt32:
      std::memcpy(data, values.int32s.data() + offset, rows * sizeof(int32_t));
      return absl::OkStatus();
    case DataType::kInt64:
      std::memcpy(data, values.int64s.data() + offset, rows * sizeof(int64_t));
      return absl::OkStatus();
    case DataType::kFloat:
      std::memcpy(data, values.floats.data() + offset, rows * sizeof(float));
      return absl::OkStatus();
    case DataType::kDouble:
      std::memcpy(data, values.doubles.data() + offset, rows * sizeof(double));
      return absl::OkStatus();
    case DataType::kTimestamp: {
      auto* out = static_cast<int64_t*>(data);
      if (values.null_count == 0) {
        return WriteTimes(values.int64s.data() + offset, rows, bind.unit, out, file,
                          absl::StrCat("column \"", column.name, "\""));
      }
      // A null slot's value is unspecified: only valid ones are converted (and checked).
      for (size_t r = 0; r < rows; ++r) {
        out[r] = 0;
        if (!values.IsValid(offset + r)) continue;
        std::optional<int64_t> t = ToOutputTime(values.int64s[offset + r], bind.unit);
        if (!t) {
          return absl::OutOfRangeError(absl::StrCat(file, ": column \"", column.name, "\": timestamp ",
                                                    values.int64s[offset + r], " is out of range"));
        }
        out[r] = *t;
      }
      return absl::OkStatus();
    }
    case DataType::kDate: {
      auto* out = static_cast<int32_t*>(data);
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(offset + r)) {
          out[r] = 0;
          continue;
        }
        std::optional<int32_t> d = DaysFromYyyyMmDd(values.int32s[offset + r]);
        if (!d) {
          return absl::DataLossError(absl::StrCat(file, ": column \"", column.name, "\": ", values.int32s[offset + r],
                                                  " is not a yyyyMMdd date"));
        }
        out[r] = *d;
      }
      return absl::OkStatus();
    }
    case DataType::kText:
    case DataType::kString:
    case DataType::kBlob: {
      const bool check = IsStringType(column.data_type) && !bind.binary_as_blob;
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(offset + r)) continue;
        std::string_view value = values.binary(offset + r);
        if (check && !ValidUtf8(value)) return InvalidUtf8(file, column.name);
        SetString(vector, r, value);
      }
      return absl::OkStatus();
    }
    default:
      return absl::UnimplementedError(absl::StrCat(file, ": column \"", column.name, "\": unsupported data type"));
  }
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  auto* bind = static_cast<BindData*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  if (local->batch == nullptr || local->offset >= local->batch->num_rows()) {
    if (absl::Status s = NextBatch(*global, *local); !s.ok()) return s;
    if (local->batch == nullptr) {
      duckdb_data_chunk_set_size(output, 0);
      return absl::OkStatus();
    }
  }
  const TableBatch& batch = *local->batch;
  const std::string& file = *local->path;
  const size_t offset = local->offset;
  const size_t rows = std::min<size_t>(duckdb_vector_size(), batch.num_rows() - offset);
  local->offset += rows;
  const std::vector<ProjectedColumn>& projection = *batch.projection;
  for (size_t i = 0; i < global->out.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    const OutColumn& out = global->out[i];
    switch (out.kind) {
      case OutColumn::kTime:
        SetAllValid(vector, rows);
        if (absl::Status s = WriteTimes(batch.times.data() + offset, rows, bind->unit,
                                        static_cast<int64_t*>(duckdb_vector_get_data(vector)), file, "time");
            !s.ok()) {
          return s;
        }
        break;
      case OutColumn::kSchema: {
        const size_t j = out.scan_index;
        const ProjectedColumn& column = projection[j];
        absl::Status s;
        if (column.category == ColumnCategory::kField) {
          s = WriteField(*bind, column, batch.columns[j], offset, rows, file, vector);
        } else if (column.category == ColumnCategory::kTag) {
          s = WriteTag(*bind, column, EnumOf(*bind, out.schema_index), batch.tag(j), rows, file, vector);
        } else {
          FillNull(vector, rows);  // ATTRIBUTE: never stored in TsFile
        }
        if (!s.ok()) return s;
        break;
      }
      case OutColumn::kFilename:
        SetAllValid(vector, rows);
        FillConstantString(vector, rows, file);
        break;
      case OutColumn::kOther:
        // A row id or another virtual column: zeros.
        std::memset(duckdb_vector_get_data(vector), 0, rows * sizeof(int64_t));
        break;
    }
  }
  duckdb_data_chunk_set_size(output, rows);
  return absl::OkStatus();
}

}  // namespace

bool RegisterReadTsfile(duckdb_connection connection) {
  duckdb_table_function function = NewRowScanTableFunction("read_tsfile", InitCallback<InitThreadState<LocalState>>);
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "binary_as_blob", DUCKDB_TYPE_BOOLEAN);
  AddNamedParameter(function, "tags_as_enum", DUCKDB_TYPE_BOOLEAN);
  {
    duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type list = duckdb_create_list_type(varchar);
    duckdb_logical_type map = duckdb_create_map_type(varchar, list);
    duckdb_table_function_add_named_parameter(function, "tags", map);
    duckdb_destroy_logical_type(&map);
    duckdb_destroy_logical_type(&list);
    duckdb_destroy_logical_type(&varchar);
  }
  return RegisterTableFunction(connection, function, BindCallback<Bind>, InitCallback<Init>, ScanCallback<Scan>);
}

}  // namespace tsread::duckdb_ext

// The tsread DuckDB extension: read_tsfile(path, ...) and the `FROM 'x.tsfile'` replacement
// scan, built on DuckDB's stable C extension API (C_STRUCT ABI, minimum C API v1.2.0). A front
// end over tsread's public read API (Dataset, DatasetScanner): nothing here parses TsFile bytes.
//
// Every callback DuckDB makes into this file catches everything: a tsread error, a bad argument
// or an exception becomes an ordinary SQL error naming the file; nothing escapes into the host.
#define DUCKDB_EXTENSION_NAME tsread
#include "duckdb_extension.h"

// The API table (defined by the entry-point macro at the end of this file).
DUCKDB_EXTENSION_EXTERN

#include <atomic>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/common/calendar.h"
#include "tsread/read/dataset.h"
#include "tsread/read/dataset_scanner.h"

namespace {

using tsread::ColumnCategory;
using tsread::ColumnVector;
using tsread::DataType;

enum class TimeUnit { kMs, kUs, kNs };

// ---- small helpers ------------------------------------------------------------------------

std::string ValueToString(duckdb_value value) {
  char* text = duckdb_get_varchar(value);
  std::string out = text ? text : "";
  if (text) duckdb_free(text);
  return out;
}

bool ValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

// A file time (in `unit`) as the output TIMESTAMP value (micros; nanos for kNs); nullopt on overflow.
std::optional<int64_t> ToOutputTime(int64_t t, TimeUnit unit) {
  if (unit != TimeUnit::kMs) return t;
  int64_t out;
  if (__builtin_mul_overflow(t, int64_t{1000}, &out)) return std::nullopt;
  return out;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

// A TIMESTAMP parameter (micros) as a bound in the file's unit.
int64_t BoundFromMicros(int64_t micros, TimeUnit unit, bool is_start) {
  switch (unit) {
    case TimeUnit::kMs:
      return is_start ? CeilDiv(micros, 1000) : FloorDiv(micros, 1000);
    case TimeUnit::kUs:
      return micros;
    case TimeUnit::kNs: {
      int64_t out;
      if (__builtin_mul_overflow(micros, int64_t{1000}, &out)) {
        return micros < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
      }
      return out;
    }
  }
  return micros;
}

duckdb_logical_type OutputType(DataType type, TimeUnit unit) {
  switch (type) {
    case DataType::kBoolean:
      return duckdb_create_logical_type(DUCKDB_TYPE_BOOLEAN);
    case DataType::kInt32:
      return duckdb_create_logical_type(DUCKDB_TYPE_INTEGER);
    case DataType::kInt64:
      return duckdb_create_logical_type(DUCKDB_TYPE_BIGINT);
    case DataType::kFloat:
      return duckdb_create_logical_type(DUCKDB_TYPE_FLOAT);
    case DataType::kDouble:
      return duckdb_create_logical_type(DUCKDB_TYPE_DOUBLE);
    case DataType::kTimestamp:
      return duckdb_create_logical_type(unit == TimeUnit::kNs ? DUCKDB_TYPE_TIMESTAMP_NS : DUCKDB_TYPE_TIMESTAMP);
    case DataType::kDate:
      return duckdb_create_logical_type(DUCKDB_TYPE_DATE);
    case DataType::kBlob:
      return duckdb_create_logical_type(DUCKDB_TYPE_BLOB);
    default:  // TEXT, STRING
      return duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
  }
}

// ---- read_tsfile state ----------------------------------------------------------------------

struct BindData {
  std::unique_ptr<tsread::Dataset> dataset;
  std::string table;
  tsread::TableSchema schema;  // reconciled across the files
  tsread::TimeRange range;
  std::vector<tsread::TagPredicate> predicates;
  bool filename = false;
  TimeUnit unit = TimeUnit::kMs;
  // Output columns: 0 = time, 1..n = schema columns, n + 1 = filename (when asked for).
};

// What an output column of the chunk holds.
struct OutColumn {
  enum Kind { kTime, kSchema, kFilename, kOther } kind = kOther;
  size_t scan_index = 0;  // kSchema: index into the scanner's projection
};

struct GlobalState {
  std::unique_ptr<tsread::DatasetScanner> scanner;
  std::vector<tsread::DatasetSplit> splits;
  std::atomic<size_t> next_split{0};
  std::vector<OutColumn> out;
};

// A batch owned by the scanning thread (TableBatch is only valid during the callback).
struct OwnedBatch {
  std::vector<int64_t> times;
  std::vector<ColumnVector> columns;
  std::vector<std::optional<std::string>> tags;  // per scanner projection column (TAG ones)
  std::string file;
};

struct LocalState {
  std::deque<OwnedBatch> batches;
};

template <typename T>
void DeleteAs(void* p) {
  delete static_cast<T*>(p);
}

absl::Status ParseNamedParameters(duckdb_bind_info info, BindData& bind, std::string& table_name) {
  if (duckdb_value v = duckdb_bind_get_named_parameter(info, "time_unit")) {
    std::string unit = ValueToString(v);
    duckdb_destroy_value(&v);
    if (unit == "ms") {
      bind.unit = TimeUnit::kMs;
    } else if (unit == "us") {
      bind.unit = TimeUnit::kUs;
    } else if (unit == "ns") {
      bind.unit = TimeUnit::kNs;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("read_tsfile: time_unit must be 'ms', 'us' or 'ns', not '", unit, "'"));
    }
  }
  if (duckdb_value v = duckdb_bind_get_named_parameter(info, "table_name")) {
    if (!duckdb_is_null_value(v)) table_name = ValueToString(v);
    duckdb_destroy_value(&v);
  }
  if (duckdb_value v = duckdb_bind_get_named_parameter(info, "filename")) {
    bind.filename = !duckdb_is_null_value(v) && duckdb_get_bool(v);
    duckdb_destroy_value(&v);
  }
  for (bool is_start : {true, false}) {
    if (duckdb_value v = duckdb_bind_get_named_parameter(info, is_start ? "start_time" : "end_time")) {
      if (!duckdb_is_null_value(v)) {
        int64_t micros = duckdb_get_timestamp(v).micros;
        (is_start ? bind.range.start : bind.range.end) = BoundFromMicros(micros, bind.unit, is_start);
      }
      duckdb_destroy_value(&v);
    }
  }
  if (duckdb_value v = duckdb_bind_get_named_parameter(info, "tags")) {
    if (!duckdb_is_null_value(v)) {
      idx_t n = duckdb_get_map_size(v);
      for (idx_t i = 0; i < n; ++i) {
        duckdb_value key = duckdb_get_map_key(v, i);
        duckdb_value list = duckdb_get_map_value(v, i);
        tsread::TagPredicate predicate;
        predicate.column = ValueToString(key);
        if (!duckdb_is_null_value(list)) {
          idx_t m = duckdb_get_list_size(list);
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
        bind.predicates.push_back(std::move(predicate));
      }
    }
    duckdb_destroy_value(&v);
  }
  return absl::OkStatus();
}

absl::Status PathsOf(duckdb_value v, std::vector<std::string>& paths) {
  duckdb_logical_type type = duckdb_get_value_type(v);
  duckdb_type id = duckdb_get_type_id(type);
  if (id == DUCKDB_TYPE_VARCHAR) {
    paths.push_back(ValueToString(v));
  } else if (id == DUCKDB_TYPE_LIST) {
    idx_t n = duckdb_get_list_size(v);
    for (idx_t i = 0; i < n; ++i) {
      duckdb_value item = duckdb_get_list_child(v, i);
      if (!duckdb_is_null_value(item)) paths.push_back(ValueToString(item));
      duckdb_destroy_value(&item);
    }
  } else {
    return absl::InvalidArgumentError("read_tsfile: the path must be a VARCHAR or a VARCHAR[] list");
  }
  if (paths.empty()) return absl::InvalidArgumentError("read_tsfile: no path given");
  return absl::OkStatus();
}

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<BindData>();
  std::vector<std::string> paths;
  if (duckdb_bind_get_parameter_count(info) < 1) return absl::InvalidArgumentError("read_tsfile: missing path");
  duckdb_value path_value = duckdb_bind_get_parameter(info, 0);
  if (duckdb_is_null_value(path_value)) {
    duckdb_destroy_value(&path_value);
    return absl::InvalidArgumentError("read_tsfile: the path is NULL");
  }
  absl::Status status = PathsOf(path_value, paths);
  duckdb_destroy_value(&path_value);
  if (!status.ok()) return status;
  std::string table_name;
  if (absl::Status s = ParseNamedParameters(info, *bind, table_name); !s.ok()) return s;

  auto dataset = tsread::Dataset::Open(paths);
  if (!dataset.ok()) return dataset.status();
  bind->dataset = std::move(*dataset);
  // A file whose metadata is unreadable is kept with its error: fail now, naming it.
  for (const tsread::DatasetFile& file : bind->dataset->files()) {
    if (!file.status.ok()) return tsread::WithFileName(file.status, file.path);
  }
  if (table_name.empty()) {
    auto only = bind->dataset->OnlyTable();
    if (!only.ok()) {
      bool tree = false;
      for (const auto& file : bind->dataset->files()) tree |= file.has_tree_model;
      if (tree && bind->dataset->TableNames().empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "read_tsfile: ", bind->dataset->files()[0].path,
            " holds tree-model data only; read_tsfile reads table-model tables (tree-model reading is not supported)"));
      }
      std::vector<std::string> names = bind->dataset->TableNames();
      if (names.empty()) {
        return absl::InvalidArgumentError(absl::StrCat("read_tsfile: ", bind->dataset->files()[0].path,
                                                       (bind->dataset->files().size() > 1 ? " (and others)" : ""),
                                                       ": no table-model table"));
      }
      return absl::InvalidArgumentError(absl::StrCat("read_tsfile: the input has ", names.size(),
                                                     " tables; name one with table_name := '...': ",
                                                     absl::StrJoin(names, ", ")));
    }
    table_name = *only;
  }
  bind->table = table_name;
  auto schema = bind->dataset->ReconciledSchema(table_name);
  if (!schema.ok()) return schema.status();
  bind->schema = std::move(*schema);

  // Check the scan options (unknown tag predicate columns...) at bind time.
  {
    tsread::DatasetScanOptions options;
    options.table = bind->table;
    options.time_range = bind->range;
    options.tag_predicates = bind->predicates;
    auto scanner = tsread::DatasetScanner::Create(*bind->dataset, options);
    if (!scanner.ok()) return scanner.status();
    // Cardinality from metadata: the planned rows (time column counts) of up to kEstimateFiles
    // files, scaled by bytes to the whole dataset. Not exact (ignores the time range).
    constexpr size_t kEstimateFiles = 32;
    const auto& files = bind->dataset->files();
    uint64_t rows = 0, sampled_bytes = 0, total_bytes = 0;
    for (size_t i = 0; i < files.size(); ++i) {
      total_bytes += files[i].size;
      if (i >= kEstimateFiles) continue;
      auto plan = (*scanner)->PlanFile(i, 1);
      if (!plan.ok()) return plan.status();
      sampled_bytes += files[i].size;
      if (!plan->has_value()) continue;
      auto planned = (*plan)->scanner->planned_rows();
      if (!planned.ok()) return tsread::WithFileName(planned.status(), files[i].path);
      rows += *planned;
    }
    if (sampled_bytes > 0 && total_bytes > sampled_bytes) {
      rows = static_cast<uint64_t>(static_cast<double>(rows) * total_bytes / sampled_bytes);
    }
    duckdb_bind_set_cardinality(info, rows, /*is_exact=*/false);
  }

  duckdb_logical_type time_type =
      duckdb_create_logical_type(bind->unit == TimeUnit::kNs ? DUCKDB_TYPE_TIMESTAMP_NS : DUCKDB_TYPE_TIMESTAMP);
  duckdb_bind_add_result_column(info, "time", time_type);
  duckdb_destroy_logical_type(&time_type);
  for (const tsread::ColumnSchema& column : bind->schema.columns) {
    duckdb_logical_type type = OutputType(column.data_type, bind->unit);
    duckdb_bind_add_result_column(info, column.name.c_str(), type);
    duckdb_destroy_logical_type(&type);
  }
  if (bind->filename) {
    duckdb_logical_type type = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_bind_add_result_column(info, "filename", type);
    duckdb_destroy_logical_type(&type);
  }
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
  return absl::OkStatus();
}

absl::Status Init(duckdb_init_info info) {
  auto* bind = static_cast<BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState>();
  const size_t n_schema = bind->schema.columns.size();
  tsread::DatasetScanOptions options;
  options.table = bind->table;
  options.time_range = bind->range;
  options.tag_predicates = bind->predicates;
  options.batch_size = duckdb_vector_size();
  idx_t count = duckdb_init_get_column_count(info);
  for (idx_t i = 0; i < count; ++i) {
    idx_t id = duckdb_init_get_column_index(info, i);
    OutColumn out;
    if (id == 0) {
      out.kind = OutColumn::kTime;
    } else if (id <= n_schema) {
      out.kind = OutColumn::kSchema;
      out.scan_index = options.columns.size();
      options.columns.push_back(bind->schema.columns[id - 1].name);
    } else if (id == n_schema + 1 && bind->filename) {
      out.kind = OutColumn::kFilename;
    }
    state->out.push_back(out);
  }
  if (options.columns.empty() && !bind->schema.columns.empty()) {
    // Only time, filename or a row count: read the cheapest column (a TAG if any). Empty would mean all.
    const tsread::ColumnSchema* pick = &bind->schema.columns[0];
    for (const auto& c : bind->schema.columns) {
      if (c.category == ColumnCategory::kTag) {
        pick = &c;
        break;
      }
    }
    options.columns.push_back(pick->name);
  }
  auto scanner = tsread::DatasetScanner::Create(*bind->dataset, options);
  if (!scanner.ok()) return scanner.status();
  state->scanner = std::move(*scanner);
  auto splits = state->scanner->Splits(uint64_t{4} << 20);
  if (!splits.ok()) return splits.status();
  state->splits = std::move(*splits);
  duckdb_init_set_max_threads(info, std::max<idx_t>(1, state->splits.size()));
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState>);
  return absl::OkStatus();
}

absl::Status LocalInit(duckdb_init_info info) {
  duckdb_init_set_init_data(info, new LocalState(), DeleteAs<LocalState>);
  return absl::OkStatus();
}

absl::Status FillSplit(GlobalState& global, LocalState& local) {
  const auto& projection = global.scanner->projection();
  while (local.batches.empty()) {
    size_t index = global.next_split.fetch_add(1);
    if (index >= global.splits.size()) return absl::OkStatus();
    absl::Status status =
        global.scanner->ScanSplitRows(global.splits[index], [&](const tsread::TableBatch& batch) -> absl::Status {
          if (batch.num_rows() == 0) return absl::OkStatus();
          OwnedBatch owned;
          owned.times = batch.times;
          owned.columns = batch.columns;
          owned.tags.resize(projection.size());
          for (size_t j = 0; j < projection.size(); ++j) {
            if (projection[j].category != ColumnCategory::kTag) continue;
            std::optional<std::string_view> tag = batch.tag(j);
            if (tag) owned.tags[j] = std::string(*tag);
          }
          owned.file = batch.file ? *batch.file : std::string();
          local.batches.push_back(std::move(owned));
          return absl::OkStatus();
        });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

void SetAllValid(duckdb_vector vector, size_t rows) {
  uint64_t* validity = duckdb_vector_get_validity(vector);
  if (validity) std::memset(validity, 0xFF, (rows + 63) / 64 * 8);
}

absl::Status WriteString(duckdb_vector vector, size_t row, std::string_view value, bool check_utf8,
                         const std::string& file, const std::string& column) {
  if (check_utf8 && !ValidUtf8(value)) {
    return absl::DataLossError(absl::StrCat(file, ": column ", column, ": a value is not valid UTF-8"));
  }
  duckdb_vector_assign_string_element_len(vector, row, value.data(), value.size());
  return absl::OkStatus();
}

absl::Status WriteColumn(const BindData& bind, const tsread::ProjectedColumn& column, const ColumnVector& values,
                         const std::optional<std::string>& tag, const OwnedBatch& batch, duckdb_vector vector) {
  const size_t rows = batch.times.size();
  if (column.category != ColumnCategory::kField) {
    // TAG: one value for the whole batch (one device); ATTRIBUTE: never stored, null.
    if (column.category == ColumnCategory::kTag && tag) {
      if (!ValidUtf8(*tag)) {
        return absl::DataLossError(absl::StrCat(batch.file, ": column ", column.name, ": a tag value is not valid UTF-8"));
      }
      SetAllValid(vector, rows);
      for (size_t r = 0; r < rows; ++r) duckdb_vector_assign_string_element_len(vector, r, tag->data(), tag->size());
    } else {
      duckdb_vector_ensure_validity_writable(vector);
      uint64_t* validity = duckdb_vector_get_validity(vector);
      std::memset(validity, 0, (rows + 63) / 64 * 8);
    }
    return absl::OkStatus();
  }
  if (values.size() != rows) {
    return absl::InternalError(absl::StrCat(batch.file, ": column ", column.name, ": ", values.size(),
                                            " values for ", rows, " rows"));
  }
  if (values.null_count > 0) {
    duckdb_vector_ensure_validity_writable(vector);
    uint64_t* validity = duckdb_vector_get_validity(vector);
    std::memset(validity, 0, (rows + 63) / 64 * 8);
    std::memcpy(validity, values.validity.data(), (rows + 7) / 8);
  } else {
    SetAllValid(vector, rows);
  }
  void* data = duckdb_vector_get_data(vector);
  switch (column.data_type) {
    case DataType::kBoolean:
      std::memcpy(data, values.bools.data(), rows);
      break;
    case DataType::kInt32:
      std::memcpy(data, values.int32s.data(), rows * sizeof(int32_t));
      break;
    case DataType::kInt64:
      std::memcpy(data, values.int64s.data(), rows * sizeof(int64_t));
      break;
    case DataType::kFloat:
      std::memcpy(data, values.floats.data(), rows * sizeof(float));
      break;
    case DataType::kDouble:
      std::memcpy(data, values.doubles.data(), rows * sizeof(double));
      break;
    case DataType::kTimestamp: {
      auto* out = static_cast<int64_t*>(data);
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(r)) {
          out[r] = 0;
          continue;
        }
        auto t = ToOutputTime(values.int64s[r], bind.unit);
        if (!t) {
          return absl::OutOfRangeError(absl::StrCat(batch.file, ": column ", column.name, ": timestamp ",
                                                    values.int64s[r], " is out of range"));
        }
        out[r] = *t;
      }
      break;
    }
    case DataType::kDate: {
      auto* out = static_cast<int32_t*>(data);
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(r)) {
          out[r] = 0;
          continue;
        }
        auto d = tsread::DaysFromYyyyMmDd(values.int32s[r]);
        if (!d) {
          return absl::DataLossError(absl::StrCat(batch.file, ": column ", column.name, ": ", values.int32s[r],
                                                  " is not a yyyyMMdd date"));
        }
        out[r] = *d;
      }
      break;
    }
    case DataType::kText:
    case DataType::kString:
    case DataType::kBlob: {
      bool check = column.data_type != DataType::kBlob;
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(r)) continue;
        if (absl::Status s = WriteString(vector, r, values.binary(r), check, batch.file, column.name); !s.ok()) {
          return s;
        }
      }
      break;
    }
    default:
      return absl::UnimplementedError(absl::StrCat(batch.file, ": column ", column.name, ": unsupported data type"));
  }
  return absl::OkStatus();
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  auto* bind = static_cast<BindData*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  if (absl::Status s = FillSplit(*global, *local); !s.ok()) return s;
  if (local->batches.empty()) {
    duckdb_data_chunk_set_size(output, 0);
    return absl::OkStatus();
  }
  OwnedBatch batch = std::move(local->batches.front());
  local->batches.pop_front();
  const size_t rows = batch.times.size();
  const auto& projection = global->scanner->projection();
  for (size_t i = 0; i < global->out.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    const OutColumn& out = global->out[i];
    switch (out.kind) {
      case OutColumn::kTime: {
        auto* data = static_cast<int64_t*>(duckdb_vector_get_data(vector));
        for (size_t r = 0; r < rows; ++r) {
          auto t = ToOutputTime(batch.times[r], bind->unit);
          if (!t) {
            return absl::OutOfRangeError(
                absl::StrCat(batch.file, ": time ", batch.times[r], " is out of range of TIMESTAMP (try time_unit)"));
          }
          data[r] = *t;
        }
        SetAllValid(vector, rows);
        break;
      }
      case OutColumn::kSchema: {
        size_t j = out.scan_index;
        if (absl::Status s = WriteColumn(*bind, projection[j], batch.columns[j], batch.tags[j], batch, vector);
            !s.ok()) {
          return s;
        }
        break;
      }
      case OutColumn::kFilename:
        SetAllValid(vector, rows);
        for (size_t r = 0; r < rows; ++r) {
          duckdb_vector_assign_string_element_len(vector, r, batch.file.data(), batch.file.size());
        }
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

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// ---- C callbacks: nothing escapes ---------------------------------------------------------------

void BindCallback(duckdb_bind_info info) {
  try {
    absl::Status s = Bind(info);
    if (!s.ok()) duckdb_bind_set_error(info, Message(s).c_str());
  } catch (const std::exception& e) {
    duckdb_bind_set_error(info, absl::StrCat("read_tsfile: ", e.what()).c_str());
  } catch (...) {
    duckdb_bind_set_error(info, "read_tsfile: unknown error");
  }
}

void InitCallback(duckdb_init_info info) {
  try {
    absl::Status s = Init(info);
    if (!s.ok()) duckdb_init_set_error(info, Message(s).c_str());
  } catch (const std::exception& e) {
    duckdb_init_set_error(info, absl::StrCat("read_tsfile: ", e.what()).c_str());
  } catch (...) {
    duckdb_init_set_error(info, "read_tsfile: unknown error");
  }
}

void LocalInitCallback(duckdb_init_info info) {
  try {
    absl::Status s = LocalInit(info);
    if (!s.ok()) duckdb_init_set_error(info, Message(s).c_str());
  } catch (...) {
    duckdb_init_set_error(info, "read_tsfile: out of memory");
  }
}

void ScanCallback(duckdb_function_info info, duckdb_data_chunk output) {
  try {
    absl::Status s = Scan(info, output);
    if (!s.ok()) {
      duckdb_data_chunk_set_size(output, 0);
      duckdb_function_set_error(info, Message(s).c_str());
    }
  } catch (const std::exception& e) {
    duckdb_data_chunk_set_size(output, 0);
    duckdb_function_set_error(info, absl::StrCat("read_tsfile: ", e.what()).c_str());
  } catch (...) {
    duckdb_data_chunk_set_size(output, 0);
    duckdb_function_set_error(info, "read_tsfile: unknown error");
  }
}

bool EndsWithTsfile(std::string_view name) {
  constexpr std::string_view kExt = ".tsfile";
  if (name.size() < kExt.size()) return false;
  for (size_t i = 0; i < kExt.size(); ++i) {
    char c = name[name.size() - kExt.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != kExt[i]) return false;
  }
  return true;
}

void ReplacementScan(duckdb_replacement_scan_info info, const char* table_name, void*) {
  try {
    if (!table_name || !EndsWithTsfile(table_name)) return;
    duckdb_replacement_scan_set_function_name(info, "read_tsfile");
    duckdb_value path = duckdb_create_varchar(table_name);
    duckdb_replacement_scan_add_parameter(info, path);
    duckdb_destroy_value(&path);
  } catch (...) {
    duckdb_replacement_scan_set_error(info, "read_tsfile: replacement scan failed");
  }
}

bool RegisterReadTsfile(duckdb_connection connection) {
  duckdb_table_function function = duckdb_create_table_function();
  duckdb_table_function_set_name(function, "read_tsfile");
  duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
  duckdb_table_function_add_parameter(function, any);
  duckdb_destroy_logical_type(&any);
  auto named = [&](const char* name, duckdb_type id) {
    duckdb_logical_type type = duckdb_create_logical_type(id);
    duckdb_table_function_add_named_parameter(function, name, type);
    duckdb_destroy_logical_type(&type);
  };
  named("table_name", DUCKDB_TYPE_VARCHAR);
  named("start_time", DUCKDB_TYPE_TIMESTAMP);
  named("end_time", DUCKDB_TYPE_TIMESTAMP);
  named("filename", DUCKDB_TYPE_BOOLEAN);
  named("time_unit", DUCKDB_TYPE_VARCHAR);
  {
    duckdb_logical_type varchar = duckdb_create_logical_type(DUCKDB_TYPE_VARCHAR);
    duckdb_logical_type list = duckdb_create_list_type(varchar);
    duckdb_logical_type map = duckdb_create_map_type(varchar, list);
    duckdb_table_function_add_named_parameter(function, "tags", map);
    duckdb_destroy_logical_type(&map);
    duckdb_destroy_logical_type(&list);
    duckdb_destroy_logical_type(&varchar);
  }
  duckdb_table_function_set_bind(function, BindCallback);
  duckdb_table_function_set_init(function, InitCallback);
  duckdb_table_function_set_local_init(function, LocalInitCallback);
  duckdb_table_function_set_function(function, ScanCallback);
  duckdb_table_function_supports_projection_pushdown(function, true);
  bool ok = duckdb_register_table_function(connection, function) == DuckDBSuccess;
  duckdb_destroy_table_function(&function);
  return ok;
}

}  // namespace

DUCKDB_EXTENSION_ENTRYPOINT_CUSTOM(duckdb_extension_info info, struct duckdb_extension_access* access) {
  try {
    duckdb_database* db = access->get_database(info);
    duckdb_connection connection;
    if (duckdb_connect(*db, &connection) == DuckDBError) {
      access->set_error(info, "tsread: failed to open a connection");
      return false;
    }
    bool ok = RegisterReadTsfile(connection);
    duckdb_disconnect(&connection);
    if (!ok) {
      access->set_error(info, "tsread: failed to register read_tsfile");
      return false;
    }
    duckdb_add_replacement_scan(*db, ReplacementScan, nullptr, nullptr);
    return true;
  } catch (...) {
    access->set_error(info, "tsread: initialization failed");
    return false;
  }
}

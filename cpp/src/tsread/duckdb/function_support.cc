#include "tsread/duckdb/function_support.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace tsread::duckdb_ext {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

// A TIMESTAMP parameter (micros) as an inclusive bound in the files' unit: a start rounds up, an
// end down, so that the range holds exactly the stored times inside the given instants.
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

absl::Status PathsOf(duckdb_value v, const char* function, std::vector<std::string>& paths) {
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
    return absl::InvalidArgumentError(absl::StrCat(function, ": the path must be a VARCHAR or a VARCHAR[] list"));
  }
  if (paths.empty()) return absl::InvalidArgumentError(absl::StrCat(function, ": no path given"));
  return absl::OkStatus();
}

}  // namespace

std::string ValueToString(duckdb_value value) {
  char* text = duckdb_get_varchar(value);
  std::string out = text ? text : "";
  if (text) duckdb_free(text);
  return out;
}

bool ValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
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

absl::StatusOr<TimeUnit> ParseTimeUnit(std::string_view text, const char* function) {
  if (text == "ms") return TimeUnit::kMs;
  if (text == "us") return TimeUnit::kUs;
  if (text == "ns") return TimeUnit::kNs;
  return absl::InvalidArgumentError(absl::StrCat(function, ": time_unit must be 'ms', 'us' or 'ns', not '", std::string(text), "'"));
}

std::optional<std::string> NamedString(duckdb_bind_info info, const char* name) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, name);
  if (!v) return std::nullopt;
  std::optional<std::string> out;
  if (!duckdb_is_null_value(v)) out = ValueToString(v);
  duckdb_destroy_value(&v);
  return out;
}

bool NamedBool(duckdb_bind_info info, const char* name) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, name);
  if (!v) return false;
  const bool out = !duckdb_is_null_value(v) && duckdb_get_bool(v);
  duckdb_destroy_value(&v);
  return out;
}

absl::StatusOr<TimeUnit> NamedTimeUnit(duckdb_bind_info info, const char* function) {
  std::optional<std::string> text = NamedString(info, "time_unit");
  return text ? ParseTimeUnit(*text, function) : TimeUnit::kMs;
}

TimeRange NamedTimeRange(duckdb_bind_info info, TimeUnit unit) {
  TimeRange range;
  for (bool is_start : {true, false}) {
    duckdb_value v = duckdb_bind_get_named_parameter(info, is_start ? "start_time" : "end_time");
    if (!v) continue;
    if (!duckdb_is_null_value(v)) {
      const int64_t micros = duckdb_get_timestamp(v).micros;
      (is_start ? range.start : range.end) = BoundFromMicros(micros, unit, is_start);
    }
    duckdb_destroy_value(&v);
  }
  return range;
}

absl::StatusOr<std::unique_ptr<Dataset>> OpenDatasetParameter(duckdb_bind_info info, const char* function) {
  if (duckdb_bind_get_parameter_count(info) < 1) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": missing path"));
  }
  duckdb_value path_value = duckdb_bind_get_parameter(info, 0);
  if (duckdb_is_null_value(path_value)) {
    duckdb_destroy_value(&path_value);
    return absl::InvalidArgumentError(absl::StrCat(function, ": the path is NULL"));
  }
  std::vector<std::string> paths;
  absl::Status status = PathsOf(path_value, function, paths);
  duckdb_destroy_value(&path_value);
  if (!status.ok()) return status;
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(paths);
  if (!dataset.ok()) return dataset.status();
  for (const DatasetFile& file : (*dataset)->files()) {
    if (!file.status.ok()) return WithFileName(file.status, file.path);
  }
  return dataset;
}

std::optional<int64_t> ToOutputTime(int64_t t, TimeUnit unit) {
  if (unit != TimeUnit::kMs) return t;
  int64_t out;
  if (__builtin_mul_overflow(t, int64_t{1000}, &out)) return std::nullopt;
  return out;
}

duckdb_type TimestampType(TimeUnit unit) {
  return unit == TimeUnit::kNs ? DUCKDB_TYPE_TIMESTAMP_NS : DUCKDB_TYPE_TIMESTAMP;
}

void AddResultColumn(duckdb_bind_info info, const char* name, duckdb_type type) {
  duckdb_logical_type logical = duckdb_create_logical_type(type);
  duckdb_bind_add_result_column(info, name, logical);
  duckdb_destroy_logical_type(&logical);
}

void AddResultColumn(duckdb_bind_info info, const char* name, duckdb_logical_type type) {
  duckdb_bind_add_result_column(info, name, type);
}

void AddNamedParameter(duckdb_table_function function, const char* name, duckdb_type type) {
  duckdb_logical_type logical = duckdb_create_logical_type(type);
  duckdb_table_function_add_named_parameter(function, name, logical);
  duckdb_destroy_logical_type(&logical);
}

duckdb_table_function NewDatasetTableFunction(const char* name) {
  duckdb_table_function function = duckdb_create_table_function();
  duckdb_table_function_set_name(function, name);
  duckdb_logical_type any = duckdb_create_logical_type(DUCKDB_TYPE_ANY);
  duckdb_table_function_add_parameter(function, any);
  duckdb_destroy_logical_type(&any);
  AddNamedParameter(function, "time_unit", DUCKDB_TYPE_VARCHAR);
  return function;
}

duckdb_table_function NewRowScanTableFunction(const char* name, duckdb_table_function_init_t local_init) {
  duckdb_table_function function = NewDatasetTableFunction(name);
  AddNamedParameter(function, "start_time", DUCKDB_TYPE_TIMESTAMP);
  AddNamedParameter(function, "end_time", DUCKDB_TYPE_TIMESTAMP);
  AddNamedParameter(function, "filename", DUCKDB_TYPE_BOOLEAN);
  duckdb_table_function_set_local_init(function, local_init);
  duckdb_table_function_supports_projection_pushdown(function, true);
  return function;
}

bool RegisterTableFunction(duckdb_connection connection, duckdb_table_function function,
                           duckdb_table_function_bind_t bind, duckdb_table_function_init_t init,
                           duckdb_table_function_t scan) {
  duckdb_table_function_set_bind(function, bind);
  duckdb_table_function_set_init(function, init);
  duckdb_table_function_set_function(function, scan);
  const bool ok = duckdb_register_table_function(connection, function) == DuckDBSuccess;
  duckdb_destroy_table_function(&function);
  return ok;
}

void SetAllValid(duckdb_vector vector, size_t rows) {
  uint64_t* validity = duckdb_vector_get_validity(vector);
  if (validity) std::memset(validity, 0xFF, (rows + 63) / 64 * 8);
}

void SetNull(duckdb_vector vector, size_t row) {
  duckdb_vector_ensure_validity_writable(vector);
  duckdb_validity_set_row_invalid(duckdb_vector_get_validity(vector), row);
}

void SetString(duckdb_vector vector, size_t row, std::string_view value) {
  duckdb_vector_assign_string_element_len(vector, row, value.data(), value.size());
}

}  // namespace tsread::duckdb_ext

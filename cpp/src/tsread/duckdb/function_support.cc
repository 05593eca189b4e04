#include "tsread/duckdb/function_support.h"

#include <algorithm>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/duckdb/table_parameters.h"
#include "tsread/duckdb/time_parameters.h"

namespace tsread::duckdb_ext {
namespace {

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

namespace {

// The path parameter's inputs (a VARCHAR or a list of them).
absl::StatusOr<std::vector<std::string>> PathParameter(duckdb_bind_info info, const char* function) {
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
  return paths;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const iotdb::IotdbDataset>> OpenIotdbParameter(duckdb_bind_info info,
                                                                              const char* function) {
  const std::optional<std::string> database = NamedString(info, "database");
  const bool raw = NamedBool(info, "raw");
  absl::StatusOr<std::vector<std::string>> paths = PathParameter(info, function);
  if (!paths.ok()) return paths.status();
  iotdb::IotdbOptions options;
  options.database = database.value_or("");
  options.ignore_errors = NamedBool(info, "ignore_errors");
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> data = iotdb::IotdbDataset::OpenIfIotdbData(*paths, raw, options);
  if (!data.ok()) return data.status();
  if (*data == nullptr) {
    if (database.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(function, raw ? ": database := does not go with raw := true"
                                                                   : ": database := applies to IoTDB data only, and the input holds none"));
    }
    return std::shared_ptr<const iotdb::IotdbDataset>();
  }
  if (database.has_value() && !(*data)->HoldsDatabase(*database)) {
    return absl::InvalidArgumentError(absl::StrCat(function, ": database := '", *database, "': no such database in the input"));
  }
  for (const DatasetFile& file : (*data)->dataset().files()) {
    if (!file.status.ok()) return WithFileName(file.status, file.path);
  }
  return std::shared_ptr<const iotdb::IotdbDataset>(std::move(*data));
}

absl::StatusOr<DataParameter> OpenDataParameter(duckdb_bind_info info, const char* function) {
  DataParameter data;
  absl::StatusOr<std::shared_ptr<const iotdb::IotdbDataset>> iotdb_data = OpenIotdbParameter(info, function);
  if (!iotdb_data.ok()) return iotdb_data.status();
  data.iotdb = std::move(*iotdb_data);
  if (data.iotdb != nullptr) {
    data.dataset = std::shared_ptr<const Dataset>(data.iotdb, &data.iotdb->dataset());
    return data;
  }
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenDatasetParameter(info, function);
  if (!dataset.ok()) return dataset.status();
  data.dataset = std::move(*dataset);
  return data;
}

absl::StatusOr<std::pair<std::string, TableSchema>> TableOfData(const DataParameter& data,
                                                                const std::optional<std::string>& table_name,
                                                                const char* function) {
  if (data.iotdb != nullptr) {
    DatasetScanOptions probe;
    probe.table = table_name.value_or("");
    absl::StatusOr<std::unique_ptr<MergedScanner>> merged = data.iotdb->ScanTable(probe);
    if (!merged.ok()) return absl::Status(merged.status().code(), absl::StrCat(function, ": ", merged.status().message()));
    return std::make_pair((*merged)->inner().options().table, (*merged)->schema());
  }
  absl::StatusOr<std::string> table = ChooseTable(*data.dataset, table_name, function);
  if (!table.ok()) return table.status();
  absl::StatusOr<TableSchema> schema = data.dataset->ReconciledSchema(*table);
  if (!schema.ok()) return schema.status();
  return std::make_pair(*table, std::move(*schema));
}

absl::StatusOr<std::unique_ptr<Dataset>> OpenDatasetParameter(duckdb_bind_info info, const char* function,
                                                              FileOpener opener) {
  absl::StatusOr<std::vector<std::string>> paths = PathParameter(info, function);
  if (!paths.ok()) return paths.status();
  DatasetOptions options;
  options.skip_unreadable_files = NamedBool(info, "ignore_errors");
  options.opener = std::move(opener);
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(*paths, options);
  if (!dataset.ok()) return dataset.status();
  for (const DatasetFile& file : (*dataset)->files()) {
    if (!file.status.ok()) return WithFileName(file.status, file.path);
  }
  return dataset;
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
  AddTimeMappingParameters(function);
  AddNamedParameter(function, "ignore_errors", DUCKDB_TYPE_BOOLEAN);
  // IoTDB data (OpenIotdbParameter): the files as written, and the database to read.
  AddNamedParameter(function, "raw", DUCKDB_TYPE_BOOLEAN);
  AddNamedParameter(function, "database", DUCKDB_TYPE_VARCHAR);
  return function;
}

duckdb_table_function NewRowScanTableFunction(const char* name, duckdb_table_function_init_t local_init) {
  duckdb_table_function function = NewDatasetTableFunction(name);
  AddTimeRangeParameters(function);
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

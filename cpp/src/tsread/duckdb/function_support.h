// What the extension's table functions share: parameter parsing (paths, time unit, time bounds),
// output helpers (validity, strings, timestamps) and the C callbacks that turn an absl::Status or
// any exception into an ordinary SQL error, so that nothing escapes into the host database.
#ifndef TSREAD_DUCKDB_FUNCTION_SUPPORT_H_
#define TSREAD_DUCKDB_FUNCTION_SUPPORT_H_

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/common/utf8.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/dataset/dataset.h"
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread::duckdb_ext {

// A value's text (duckdb_get_varchar), "" for none.
std::string ValueToString(duckdb_value value);

// DuckDB reads an invalid VARCHAR back as NULL, so every string is checked before it is written.
inline bool ValidUtf8(std::string_view s) { return IsValidUtf8(s); }

// The named parameter `name` (a VARCHAR) if given and not NULL.
std::optional<std::string> NamedString(duckdb_bind_info info, const char* name);
// The named BOOLEAN parameter `name`; false when absent or NULL.
bool NamedBool(duckdb_bind_info info, const char* name);
// The dataset named by positional parameter 0 (a path, glob or directory, or a list of them),
// opened; a file whose metadata is unreadable fails here, naming it — or, with
// `ignore_errors := true` (read_csv's spelling), is left out (Dataset::skipped_files(), which
// tsfile_metadata lists with the reason).
// `opener`: how to open the files (empty: the default; IoTDB data: its dataset's, which reads a
// crashed server's unsealed files in place).
absl::StatusOr<std::unique_ptr<Dataset>> OpenDatasetParameter(duckdb_bind_info info, const char* function,
                                                              FileOpener opener = {});
// The path parameter as IoTDB data (tsread/iotdb/iotdb_dataset.h): an IoTDB data directory, or
// files with IoTDB deletion files beside them, read as IoTDB answers. nullptr when `raw := true`
// or the input holds no IoTDB data (read it with OpenDatasetParameter); `database :=` names the
// database, `ignore_errors := true` also applies a deletion file's entries before one of an
// unknown kind. InvalidArgument for database := without IoTDB data.
absl::StatusOr<std::shared_ptr<const iotdb::IotdbDataset>> OpenIotdbParameter(duckdb_bind_info info,
                                                                              const char* function);

// The path parameter as the functions read it: IoTDB data as IoTDB answers (OpenIotdbParameter),
// anything else as written (OpenDatasetParameter).
struct DataParameter {
  std::shared_ptr<const Dataset> dataset;            // the files (IoTDB data: the IoTDB dataset's)
  std::shared_ptr<const iotdb::IotdbDataset> iotdb;  // set for IoTDB data
};
absl::StatusOr<DataParameter> OpenDataParameter(duckdb_bind_info info, const char* function);
// The table a function reads (`table_name`, or the only one: ChooseTable; IoTDB data: in its
// database, iotdb_dataset.h) and its schema (reconciled across the files that have it).
absl::StatusOr<std::pair<std::string, TableSchema>> TableOfData(const DataParameter& data,
                                                                const std::optional<std::string>& table_name,
                                                                const char* function);

// Adds a result column of a primitive type (or a prebuilt `type`).
void AddResultColumn(duckdb_bind_info info, const char* name, duckdb_type type);
void AddResultColumn(duckdb_bind_info info, const char* name, duckdb_logical_type type);

// Registers a named parameter of a primitive type (or ANY) on `function`.
void AddNamedParameter(duckdb_table_function function, const char* name, duckdb_type type);

// A new table function `name` over a dataset: positional parameter 0 is the path (typed ANY
// because it may be a VARCHAR or a VARCHAR[] list; OpenDatasetParameter checks it at bind), and
// `time_unit`, `time_as` and `ignore_errors` are named parameters (time_parameters.h,
// OpenDatasetParameter), as every function of the extension takes them. The caller
// adds its own named parameters and hands it to RegisterTableFunction.
duckdb_table_function NewDatasetTableFunction(const char* name);

// A new dataset table function that scans rows (read_tsfile, read_tsfile_tree): besides the path
// and the time mapping, `start_time` / `end_time` / `end_time_exclusive` (NamedTimeRange) and `filename`
// (BOOLEAN); DuckDB's threads each get their own state from `local_init`, and only the columns
// the query uses are asked for (projection pushdown).
duckdb_table_function NewRowScanTableFunction(const char* name, duckdb_table_function_init_t local_init);

// Whether `function` registered on `connection`, once given its bind, init and scan callbacks
// (each wrapped by BindCallback / InitCallback / ScanCallback); destroys `function` either way.
bool RegisterTableFunction(duckdb_connection connection, duckdb_table_function function,
                           duckdb_table_function_bind_t bind, duckdb_table_function_init_t init,
                           duckdb_table_function_t scan);

// Output vector helpers. Rows are [0, rows) of the chunk being filled.
void SetAllValid(duckdb_vector vector, size_t rows);
void SetNull(duckdb_vector vector, size_t row);
void SetString(duckdb_vector vector, size_t row, std::string_view value);

template <typename T>
void DeleteAs(void* p) {
  delete static_cast<T*>(p);
}

// The local init of a row scan: each of DuckDB's threads gets a fresh State of its own.
template <typename State>
absl::Status InitThreadState(duckdb_init_info info) {
  duckdb_init_set_init_data(info, new State(), DeleteAs<State>);
  return absl::OkStatus();
}

// The C callbacks over a fallible body: a non-OK status or any exception becomes the SQL error
// (prefixed by the function's name when the message does not already name a file).
template <absl::Status (*Body)(duckdb_bind_info)>
void BindCallback(duckdb_bind_info info) {
  try {
    absl::Status s = Body(info);
    if (!s.ok()) duckdb_bind_set_error(info, std::string(s.message()).c_str());
  } catch (const std::exception& e) {
    duckdb_bind_set_error(info, (std::string("tsread: ") + e.what()).c_str());
  } catch (...) {
    duckdb_bind_set_error(info, "tsread: unknown error");
  }
}

template <absl::Status (*Body)(duckdb_init_info)>
void InitCallback(duckdb_init_info info) {
  try {
    absl::Status s = Body(info);
    if (!s.ok()) duckdb_init_set_error(info, std::string(s.message()).c_str());
  } catch (const std::exception& e) {
    duckdb_init_set_error(info, (std::string("tsread: ") + e.what()).c_str());
  } catch (...) {
    duckdb_init_set_error(info, "tsread: unknown error");
  }
}

template <absl::Status (*Body)(duckdb_function_info, duckdb_data_chunk)>
void ScanCallback(duckdb_function_info info, duckdb_data_chunk output) {
  try {
    absl::Status s = Body(info, output);
    if (s.ok()) return;
    duckdb_data_chunk_set_size(output, 0);
    duckdb_function_set_error(info, std::string(s.message()).c_str());
  } catch (const std::exception& e) {
    duckdb_data_chunk_set_size(output, 0);
    duckdb_function_set_error(info, (std::string("tsread: ") + e.what()).c_str());
  } catch (...) {
    duckdb_data_chunk_set_size(output, 0);
    duckdb_function_set_error(info, "tsread: unknown error");
  }
}

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_FUNCTION_SUPPORT_H_

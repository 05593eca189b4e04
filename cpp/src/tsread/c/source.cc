// The C ABI's sources: opening files, directories, globs, IoTDB data or bytes in memory, and
// listing their files, tables and columns (tsread.h, "Opening input" and "Columns of a table").
#include "tsread/c/source.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/c/errors.h"
#include "tsread/c/options.h"
#include "tsread/dataset/deletion_files.h"
#include "tsread/c/table_scan.h"
#include "tsread/io/random_access_file.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/data_directory.h"

namespace tsread::c_api {
namespace {

absl::StatusOr<std::vector<std::string>> InputsOf(const char* const* inputs, size_t n_inputs) {
  if (inputs == nullptr || n_inputs == 0) return absl::InvalidArgumentError("tsread_open: no input given");
  return StringsFrom(inputs, n_inputs, "tsread_open: inputs");
}

// What the other front ends print as warnings (the CLI on stderr, Python as UserWarnings).
std::vector<std::string> WarningsOf(const tsread_source& source) {
  std::vector<std::string> out;
  for (const SkippedFile& f : source.dataset->skipped_files()) {
    out.push_back(absl::StrCat("skipped unreadable file ", f.path, ": ", f.status.message()));
  }
  if (source.iotdb != nullptr) {
    for (std::string& warning : source.iotdb->Warnings()) out.push_back(std::move(warning));
    return out;
  }
  for (const DatasetFile& f : source.dataset->files()) {
    if (f.deletions.has_value()) out.push_back(DeletionWarning(f.path, *f.deletions));
  }
  return out;
}

// Opens IoTDB data as IoTDB answers it, or the files as written (as the other front ends do: the
// layout first, a listing and a stat per file).
absl::Status OpenInputs(const std::vector<std::string>& inputs, const tsread_open_options& o, tsread_source& source) {
  DatasetOptions dataset_options;
  dataset_options.skip_unreadable_files = o.skip_unreadable_files != 0;
  const std::string database = o.database == nullptr ? "" : o.database;
  iotdb::IotdbOptions options;
  options.dataset = dataset_options;
  options.database = database;
  options.ignore_errors = o.ignore_errors != 0;
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<iotdb::IotdbDataset> data,
                          iotdb::IotdbDataset::OpenIfIotdbData(inputs, o.raw != 0, std::move(options)));
  if (data != nullptr) {
    if (!database.empty() && !data->HoldsDatabase(database)) {
      return absl::NotFoundError(absl::StrCat("tsread_open: database ", database, ": no such database in the input"));
    }
    source.iotdb = std::move(data);
    source.dataset = std::shared_ptr<const Dataset>(source.iotdb, &source.iotdb->dataset());
  } else {
    if (!database.empty() || o.ignore_errors != 0) {
      return absl::InvalidArgumentError(o.raw != 0 ? "tsread_open: database and ignore_errors do not go with raw"
                                                   : "tsread_open: database and ignore_errors apply to IoTDB data "
                                                     "only, and the input holds none");
    }
    TSREAD_ASSIGN_OR_RETURN(source.dataset, Dataset::Open(inputs, dataset_options));
  }
  // A file whose metadata could not be read fails here, as opening a single file would.
  for (const DatasetFile& f : source.dataset->files()) TSREAD_RETURN_IF_ERROR(WithFileName(f.status, f.path));
  for (const DatasetFile& f : source.dataset->files()) source.files.push_back(f.path);
  source.tables = source.dataset->TableNames();
  source.warnings = WarningsOf(source);
  return absl::OkStatus();
}

absl::Status OpenMemory(const void* data, size_t size, tsread_source& source) {
  if (data == nullptr && size > 0) return absl::InvalidArgumentError("tsread_open_memory: data is NULL");
  const std::string_view bytes(static_cast<const char*>(data), size);
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  if (!reader.ok()) return WithFileName(reader.status(), "<memory>");
  source.memory = *std::move(reader);
  source.files.push_back("<memory>");
  for (const TableSchema* table : source.memory->Tables()) source.tables.push_back(table->name);
  std::sort(source.tables.begin(), source.tables.end());
  return absl::OkStatus();
}

template <typename Open>
tsread_code OpenSource(tsread_source** out, tsread_error** error, Open&& open) {
  return Guarded(error, [&]() -> absl::Status {
    if (out == nullptr) return absl::InvalidArgumentError("tsread_open: out is NULL");
    *out = nullptr;
    auto source = std::make_unique<tsread_source>();
    TSREAD_RETURN_IF_ERROR(open(*source));
    *out = source.release();
    return absl::OkStatus();
  });
}

const char* At(const std::vector<std::string>& names, size_t index) {
  return index < names.size() ? names[index].c_str() : nullptr;
}

}  // namespace
}  // namespace tsread::c_api

using tsread::c_api::Guarded;

extern "C" {

const char* tsread_version(void) { return TSREAD_VERSION; }

void tsread_open_options_init(tsread_open_options* options) {
  if (options == nullptr) return;
  *options = tsread_open_options{};
  options->struct_size = sizeof(tsread_open_options);
}

tsread_code tsread_open(const char* const* inputs, size_t n_inputs, const tsread_open_options* options,
                        tsread_source** out, tsread_error** error) {
  return tsread::c_api::OpenSource(out, error, [&](tsread_source& source) -> absl::Status {
    TSREAD_ASSIGN_OR_RETURN(const tsread_open_options o,
                            tsread::c_api::OptionsFrom(options, tsread_open_options_init, "tsread_open_options_init"));
    TSREAD_ASSIGN_OR_RETURN(const std::vector<std::string> paths, tsread::c_api::InputsOf(inputs, n_inputs));
    return tsread::c_api::OpenInputs(paths, o, source);
  });
}

tsread_code tsread_open_memory(const void* data, size_t size, tsread_source** out, tsread_error** error) {
  return tsread::c_api::OpenSource(out, error,
                                   [&](tsread_source& source) { return tsread::c_api::OpenMemory(data, size, source); });
}

void tsread_source_free(tsread_source* source) { std::unique_ptr<tsread_source> owned(source); }

size_t tsread_file_count(const tsread_source* source) { return source == nullptr ? 0 : source->files.size(); }

const char* tsread_file_path(const tsread_source* source, size_t index) {
  return source == nullptr ? nullptr : tsread::c_api::At(source->files, index);
}

size_t tsread_warning_count(const tsread_source* source) { return source == nullptr ? 0 : source->warnings.size(); }

const char* tsread_warning(const tsread_source* source, size_t index) {
  return source == nullptr ? nullptr : tsread::c_api::At(source->warnings, index);
}

size_t tsread_table_count(const tsread_source* source) { return source == nullptr ? 0 : source->tables.size(); }

const char* tsread_table_name(const tsread_source* source, size_t index) {
  return source == nullptr ? nullptr : tsread::c_api::At(source->tables, index);
}

const char* tsread_data_type_name(int code) {
  if (code < 0 || code > 255) return "UNKNOWN";
  const std::optional<tsread::DataType> known = tsread::DataTypeFromByte(static_cast<uint8_t>(code));
  if (!known.has_value() || *known == tsread::DataType::kVector || *known == tsread::DataType::kUnknown) return "UNKNOWN";
  return tsread::DataTypeName(*known).data();
}

tsread_code tsread_table_columns(const tsread_source* source, const char* table, tsread_columns** out,
                                 tsread_error** error) {
  return Guarded(error, [&]() -> absl::Status {
    if (source == nullptr || out == nullptr) return absl::InvalidArgumentError("tsread_table_columns: source or out is NULL");
    *out = nullptr;
    auto columns = std::make_unique<tsread_columns>();
    TSREAD_ASSIGN_OR_RETURN(columns->columns, tsread::c_api::ColumnsOf(*source, table == nullptr ? "" : table));
    *out = columns.release();
    return absl::OkStatus();
  });
}

size_t tsread_column_count(const tsread_columns* columns) { return columns == nullptr ? 0 : columns->columns.size(); }

const char* tsread_column_name(const tsread_columns* columns, size_t index) {
  if (columns == nullptr || index >= columns->columns.size()) return nullptr;
  return columns->columns[index].name.c_str();
}

tsread_column_category tsread_column_category_of(const tsread_columns* columns, size_t index) {
  if (columns == nullptr || index >= columns->columns.size()) return TSREAD_FIELD;
  return static_cast<tsread_column_category>(columns->columns[index].category);
}

tsread_data_type tsread_column_type(const tsread_columns* columns, size_t index) {
  if (columns == nullptr || index >= columns->columns.size()) return TSREAD_INT64;
  return static_cast<tsread_data_type>(columns->columns[index].data_type);
}

void tsread_columns_free(tsread_columns* columns) { std::unique_ptr<tsread_columns> owned(columns); }

}  // extern "C"

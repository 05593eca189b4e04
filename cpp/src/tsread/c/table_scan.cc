// The C ABI's table scans: the C options as a dataset scan's, and the scan of whichever source
// was opened exported as an Arrow C stream (arrow/arrow_stream.h).
#include "tsread/c/table_scan.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/c/errors.h"
#include "tsread/c/options.h"
#include "tsread/common/utf8.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/predicate_text.h"

namespace tsread::c_api {
namespace {

// More threads than this is a mistake rather than a machine (and each is a stack).
constexpr int kMostThreads = 256;

absl::StatusOr<DatasetScanOptions> DatasetOptionsOf(const tsread_scan_options& o) {
  DatasetScanOptions out;
  if (o.table != nullptr) out.table = o.table;
  TSREAD_ASSIGN_OR_RETURN(out.columns, StringsFrom(o.columns, o.n_columns, "tsread_scan: columns"));
  out.time_range.start = o.start;
  out.time_range.end = o.end;
  if (o.filter != nullptr) {
    TSREAD_ASSIGN_OR_RETURN(out.value_predicates, ParsePredicates(o.filter));
  }
  out.batch_size = o.batch_rows;
  out.memory_budget = o.memory_budget;
  if (o.threads < 0 || o.threads > kMostThreads) {
    return absl::InvalidArgumentError(absl::StrCat("tsread_scan: threads ", o.threads, " is not between 0 and ", kMostThreads));
  }
  out.num_threads = std::max(o.threads, 1);
  out.ordered = o.unordered == 0;
  return out;
}

absl::StatusOr<ArrowExportOptions> ExportOptionsOf(const tsread_scan_options& o) {
  ArrowExportOptions out;
  TSREAD_ASSIGN_OR_RETURN(out.time_unit, ArrowTimeUnitOf(o.time_unit, "tsread_scan"));
  out.tags_as_dictionary = o.tags_as_dictionary != 0;
  out.tags_as_run_end = o.tags_as_run_end != 0;
  if (out.tags_as_dictionary && out.tags_as_run_end) {
    return absl::InvalidArgumentError("tsread_scan: tags_as_dictionary and tags_as_run_end exclude each other");
  }
  if (o.file_column != nullptr) {
    out.file_column = o.file_column;
    if (out.file_column.empty()) return absl::InvalidArgumentError("tsread_scan: file_column is empty");
  }
  return out;
}

// Arrow names are UTF-8: a table or column name that is not (a hostile or damaged file) fails the
// scan here rather than reaching the consumer.
absl::Status CheckNamesAreUtf8(const std::vector<ProjectedColumn>& projection, const std::string& file_column) {
  for (const ProjectedColumn& column : projection) {
    if (!IsValidUtf8(column.name)) return absl::DataLossError("tsread_scan: a column name is not valid UTF-8");
  }
  if (!IsValidUtf8(file_column)) return absl::InvalidArgumentError("tsread_scan: file_column is not valid UTF-8");
  return absl::OkStatus();
}

// One file in memory: the table asked for, or the only one.
absl::StatusOr<std::string> MemoryTable(const tsread_source& source, const std::string& table) {
  if (!table.empty()) return table;
  if (source.tables.size() == 1) return source.tables.front();
  if (source.tables.empty()) return absl::InvalidArgumentError("the file has no table-model table");
  return absl::InvalidArgumentError(
      absl::StrCat("the file has several tables (", absl::StrJoin(source.tables, ", "), "): name one"));
}

absl::Status ScanMemory(const tsread_source& source, DatasetScanOptions options, const ArrowExportOptions& export_options,
                        ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(options.table, MemoryTable(source, options.table));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<TableScanner> scanner, TableScanner::Create(*source.memory, options));
  TSREAD_RETURN_IF_ERROR(CheckNamesAreUtf8(scanner->projection(), export_options.file_column));
  return ExportArrowStream(source.memory, std::shared_ptr<const TableScanner>(std::move(scanner)), export_options, out);
}

absl::Status ScanIotdb(const tsread_source& source, DatasetScanOptions options, const ArrowExportOptions& export_options,
                       ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<MergedScanner> scanner, source.iotdb->ScanTable(std::move(options)));
  TSREAD_RETURN_IF_ERROR(CheckNamesAreUtf8(scanner->projection(), export_options.file_column));
  return ExportArrowStream(source.iotdb, std::shared_ptr<const MergedScanner>(std::move(scanner)), export_options, out);
}

absl::Status ScanDataset(const tsread_source& source, DatasetScanOptions options, const ArrowExportOptions& export_options,
                         ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<DatasetScanner> scanner, DatasetScanner::Create(*source.dataset, std::move(options)));
  TSREAD_RETURN_IF_ERROR(CheckNamesAreUtf8(scanner->projection(), export_options.file_column));
  return ExportArrowStream(source.dataset, std::shared_ptr<const DatasetScanner>(std::move(scanner)), export_options, out);
}

}  // namespace

absl::StatusOr<std::optional<ArrowTimeUnit>> ArrowTimeUnitOf(int time_unit, std::string_view function) {
  switch (time_unit) {
    case TSREAD_TIME_INT64: return std::nullopt;
    case TSREAD_TIME_SECOND: return ArrowTimeUnit::kSecond;
    case TSREAD_TIME_MILLISECOND: return ArrowTimeUnit::kMillisecond;
    case TSREAD_TIME_MICROSECOND: return ArrowTimeUnit::kMicrosecond;
    case TSREAD_TIME_NANOSECOND: return ArrowTimeUnit::kNanosecond;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(function), ": time_unit ", time_unit, " is not a tsread_time_unit"));
  }
}

absl::StatusOr<std::vector<ColumnSchema>> ColumnsOf(const tsread_source& source, std::string_view table) {
  DatasetScanOptions options;
  options.table = std::string(table);
  if (source.memory != nullptr) {
    TSREAD_ASSIGN_OR_RETURN(const std::string name, MemoryTable(source, options.table));
    const TableSchema* schema = source.memory->FindTable(name);
    if (schema == nullptr) return absl::NotFoundError(absl::StrCat("no table named \"", name, "\""));
    return schema->columns;
  }
  if (source.iotdb != nullptr) {
    TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<MergedScanner> scanner, source.iotdb->ScanTable(std::move(options)));
    return scanner->schema().columns;
  }
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<DatasetScanner> scanner, DatasetScanner::Create(*source.dataset, std::move(options)));
  return scanner->schema().columns;
}

absl::Status ScanTable(const tsread_source& source, const tsread_scan_options* given, ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(const tsread_scan_options o,
                          OptionsFrom(given, tsread_scan_options_init, "tsread_scan_options_init"));
  TSREAD_ASSIGN_OR_RETURN(DatasetScanOptions options, DatasetOptionsOf(o));
  TSREAD_ASSIGN_OR_RETURN(const ArrowExportOptions export_options, ExportOptionsOf(o));
  if (source.memory != nullptr) return ScanMemory(source, std::move(options), export_options, out);
  if (source.iotdb != nullptr) return ScanIotdb(source, std::move(options), export_options, out);
  return ScanDataset(source, std::move(options), export_options, out);
}

}  // namespace tsread::c_api

extern "C" {

void tsread_scan_options_init(tsread_scan_options* options) {
  if (options == nullptr) return;
  *options = tsread_scan_options{};
  options->struct_size = sizeof(tsread_scan_options);
  options->start = INT64_MIN;
  options->end = INT64_MAX;
  options->time_unit = TSREAD_TIME_MILLISECOND;
}

tsread_code tsread_scan(const tsread_source* source, const tsread_scan_options* options, ArrowArrayStream* out,
                        tsread_error** error) {
  return tsread::c_api::Guarded(error, [&]() -> absl::Status {
    if (source == nullptr || out == nullptr) return absl::InvalidArgumentError("tsread_scan: source or out is NULL");
    out->release = nullptr;
    return tsread::c_api::ScanTable(*source, options, out);
  });
}

}  // extern "C"

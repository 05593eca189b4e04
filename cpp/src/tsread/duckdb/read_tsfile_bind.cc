// read_tsfile's bind step: the named parameters (tags map, flags, time range and unit), the
// table to read, the output column types and the BindData handed to DuckDB.
#include "tsread/duckdb/read_tsfile_bind.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/duckdb/read_tsfile_plan.h"
#include "tsread/duckdb/table_parameters.h"
#include "tsread/duckdb/tag_enums.h"

namespace tsread::duckdb_ext::read_tsfile_internal {
namespace {

constexpr const char* kFunction = "read_tsfile";

}  // namespace

absl::Status Bind(duckdb_bind_info info) {
  auto bind = std::make_unique<BindData>();
  absl::StatusOr<TimeMapping> time = NamedTimeMapping(info, kFunction);
  if (!time.ok()) return time.status();
  bind->time = *time;
  absl::StatusOr<TimeRange> range = NamedTimeRange(info, bind->time, kFunction);
  if (!range.ok()) return range.status();
  bind->range = *range;
  bind->filename = NamedBool(info, "filename");
  bind->binary_as_blob = NamedBool(info, "binary_as_blob");
  const bool tags_as_enum = NamedBool(info, "tags_as_enum");
  if (tags_as_enum && bind->binary_as_blob) {
    return absl::InvalidArgumentError("read_tsfile: tags_as_enum and binary_as_blob exclude each other");
  }
  if (absl::Status s = ParseTags(info, kFunction, bind->predicates); !s.ok()) return s;
  if (absl::Status s = ParseFilter(info, kFunction, bind->value_predicates); !s.ok()) return s;

  absl::StatusOr<DataParameter> data = OpenDataParameter(info, kFunction);
  if (!data.ok()) return data.status();
  bind->dataset = data->dataset;
  bind->iotdb = data->iotdb;
  absl::StatusOr<std::pair<std::string, TableSchema>> table = TableOfData(*data, NamedString(info, "table_name"), kFunction);
  if (!table.ok()) return table.status();
  bind->table = std::move(table->first);
  bind->schema = std::move(table->second);
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
  options.value_predicates = bind->value_predicates;
  absl::StatusOr<std::unique_ptr<MergedScanner>> merged;
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner;
  if (bind->iotdb != nullptr) {
    merged = bind->iotdb->ScanTable(options);
    if (!merged.ok()) return absl::Status(merged.status().code(), absl::StrCat(kFunction, ": ", merged.status().message()));
  } else {
    scanner = DatasetScanner::Create(*bind->dataset, options);
    if (!scanner.ok()) return absl::Status(scanner.status().code(), absl::StrCat(kFunction, ": ", scanner.status().message()));
  }
  absl::StatusOr<uint64_t> rows =
      EstimateRows(bind->iotdb != nullptr ? (*merged)->inner().dataset() : *bind->dataset,
                   bind->iotdb != nullptr ? (*merged)->inner() : **scanner);
  if (!rows.ok()) return rows.status();
  duckdb_bind_set_cardinality(info, *rows, /*is_exact=*/false);

  AddResultColumn(info, "time", TimestampType(bind->time));
  for (size_t c = 0; c < bind->schema.columns.size(); ++c) {
    const ColumnSchema& column = bind->schema.columns[c];
    if (const TagEnum* tag_enum = EnumOf(*bind, c)) {
      AddResultColumn(info, column.name.c_str(), tag_enum->type());
      continue;
    }
    duckdb_type type = column.category == ColumnCategory::kField ? FieldType(column.data_type, bind->time, bind->binary_as_blob)
                       : bind->binary_as_blob                    ? DUCKDB_TYPE_BLOB
                                                                 : DUCKDB_TYPE_VARCHAR;
    AddResultColumn(info, column.name.c_str(), type);
  }
  if (bind->filename) AddResultColumn(info, "filename", DUCKDB_TYPE_VARCHAR);
  duckdb_bind_set_bind_data(info, bind.release(), DeleteAs<BindData>);
  return absl::OkStatus();
}

}  // namespace tsread::duckdb_ext::read_tsfile_internal

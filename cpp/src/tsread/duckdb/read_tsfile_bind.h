// read_tsfile's bind step, shared by its other steps: BindData (the dataset, table, reconciled
// schema, pushed-down time range and tag predicates, and the output options) and the Bind body
// that reads the parameters, chooses the table and declares the output columns.
#ifndef TSREAD_DUCKDB_READ_TSFILE_BIND_H_
#define TSREAD_DUCKDB_READ_TSFILE_BIND_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tsread/dataset/dataset.h"
#include "tsread/iotdb/iotdb_dataset.h"
#include "tsread/read/value_predicate.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/duckdb/tag_enums.h"

namespace tsread::duckdb_ext::read_tsfile_internal {

struct BindData {
  // The files; with IoTDB data, the IoTDB dataset's (an alias that keeps `iotdb` alive).
  std::shared_ptr<const Dataset> dataset;
  // IoTDB data read as IoTDB answers (function_support.h, OpenIotdbParameter): the rows are its
  // merged scan's (read_tsfile: in shares of each time partition's devices, on DuckDB's threads);
  // nullptr for files read as written.
  std::shared_ptr<const iotdb::IotdbDataset> iotdb;
  std::string table;
  TableSchema schema;  // reconciled across the files
  TimeRange range;
  std::vector<TagPredicate> predicates;
  // filter := 'text' in the predicate grammar (read/predicate_text.h): DuckDB's C API passes no
  // WHERE clause to a table function, so this is the pushdown path for value predicates.
  std::vector<PredicateExpr> value_predicates;
  bool filename = false;
  // binary_as_blob: TAG, TEXT and STRING columns as BLOB (their bytes unchecked) instead of
  // VARCHAR (checked UTF-8, an error naming file and column otherwise).
  bool binary_as_blob = false;
  // tags_as_enum: per schema column, the ENUM of a TAG column (tag_enums.h); empty when not asked.
  std::vector<std::optional<TagEnum>> tag_enums;
  TimeMapping time;
  // Output columns: 0 = time, 1..n = schema columns, n + 1 = filename (when asked for).
};

// The ENUM of schema column `c` with tags_as_enum, else nullptr.
inline const TagEnum* EnumOf(const BindData& bind, size_t c) {
  return c < bind.tag_enums.size() && bind.tag_enums[c].has_value() ? &*bind.tag_enums[c] : nullptr;
}

// read_tsfile's bind: parameters, table choice, cardinality estimate and output columns; hands
// DuckDB a BindData.
absl::Status Bind(duckdb_bind_info info);

}  // namespace tsread::duckdb_ext::read_tsfile_internal

#endif  // TSREAD_DUCKDB_READ_TSFILE_BIND_H_

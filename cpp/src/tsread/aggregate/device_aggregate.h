// AggregateByDevice: per device of a table (of one file or a dataset), its row count, first and
// last time and, per FIELD column, count, min, max, first, last and sum (column_aggregate.h),
// answered from the series statistics wherever they give exactly what decoding would, decoding
// the device otherwise.
//
// A device's statistics answer when its rows lie entirely inside the time range and, for every
// column asked for, they are exact: a FLOAT/DOUBLE column only when every chunk's header names a
// lossless encoding (PLAIN, GORILLA_V1, GORILLA, CHIMP: the lossy ones keep statistics of the
// values before encoding), not BLOB (its statistics hold no first or last), not an INT64 sum beyond what a double holds exactly, and consistent with the
// device's time column (no more values than rows, inside its time range: what `verify` would
// call inconsistent is decoded). Otherwise the device is decoded (its rows in the range, the
// columns asked for), so the result always equals an aggregation of the rows a scan returns.
// A device in several files of a dataset is one group, merged in file order.
#ifndef TSREAD_AGGREGATE_DEVICE_AGGREGATE_H_
#define TSREAD_AGGREGATE_DEVICE_AGGREGATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/column_aggregate.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

struct AggregateOptions {
  std::string table;  // empty: the dataset's only table
  // FIELD columns, in the order wanted; empty = every FIELD column in schema order.
  std::vector<std::string> columns;
  TimeRange time_range;
  std::vector<TagPredicate> tag_predicates;  // ANDed, as a scan's
};

struct DeviceAggregate {
  std::string device;  // the id as `tsread devices` prints it
  std::vector<std::optional<std::string>> tags;  // per TAG column of TableAggregate::tag_columns
  uint64_t rows = 0;  // rows in the range (all-null rows count)
  int64_t first_time = 0, last_time = 0;
  std::vector<ColumnAggregate> columns;  // per TableAggregate::columns
};

struct TableAggregate {
  std::string table;
  std::vector<ColumnSchema> columns;      // the aggregated FIELD columns
  std::vector<std::string> tag_columns;   // the table's TAG columns (reconciled schema order)
  std::vector<DeviceAggregate> devices;   // devices with rows in the range, first seen first
  // Chunks (of the time column and the columns asked for) answered from statistics / decoded.
  uint64_t chunks_from_statistics = 0;
  uint64_t chunks_decoded = 0;
};

// Errors: InvalidArgument for an unknown table or a column that is not one of its FIELD columns;
// a file's errors name it.
absl::StatusOr<TableAggregate> AggregateByDevice(const Dataset& dataset, const AggregateOptions& options);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_DEVICE_AGGREGATE_H_

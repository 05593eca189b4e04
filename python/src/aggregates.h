// tsread.aggregate and tsread.last: Aggregate (tsread/aggregate/table_aggregate.h) as
// Python lists per output column, which python/tsread/_aggregates.py turns into a DataFrame.
#ifndef TSREAD_PYTHON_AGGREGATES_H_
#define TSREAD_PYTHON_AGGREGATES_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

#include "dataset.h"
#include "scan_args.h"
#include "tsread/aggregate/tree_aggregate.h"
#include "values.h"

namespace tsread::python {

// {"table", "tag_columns": [name], "columns": [(name, type)], "device": [id], "tags": [[value]],
//  "bucket": [start or None], "rows", "first_time", "last_time": [int], "pages_from_statistics",
//  "pages_decoded", "chunks_from_statistics", "chunks_read": int, "aggregates": [{"count", "min", "max", "first",
//  "last", "sum": [value or None], "first_time", "last_time": [int or None]}] per column} with
// values as Python objects of the column's type (DATE and TIMESTAMP as their stored ints; sums as
// int or float), grouped `by` "device" or "table", in buckets of `bucket` (time unit; 0: none).
// ValueError for another `by`. The aggregation runs without the GIL. Needs the GIL.
// The buckets tsread.aggregate asks for: `width` (time unit; 0: none) from `origin` (0 when
// absent), or with `calendar_unit` ("day", "week", "month") `calendar_count` of those in
// `time_zone` (UTC when absent; time_bucket.h), counted from `origin`'s local day.
struct BucketArgs {
  int64_t width = 0;
  std::optional<int64_t> origin;
  std::string calendar_unit;
  int64_t calendar_count = 0;
  std::optional<std::string> time_zone;
};

// The C++ Aggregate as a dict of lists for python/tsread/_aggregates.py (`fill_empty`: buckets
// without rows too). TEXT/STRING values (and TAG values) that are not UTF-8 go as `invalid_utf8`
// says; with `last_only`, min, max and first are left out (None): tsread.last shows only the last
// values. ValueError for an unknown time zone.
pybind11::dict Aggregate(const PyDataset& ds, const ScanArgs& args, const std::string& by, const BucketArgs& buckets,
                         bool fill_empty, InvalidUtf8 invalid_utf8, bool last_only);

// The C++ AggregateTree as a dict of lists (one entry per series: device, measurement,
// data_type, count, min, max, first, last, sum, first_time, last_time) for tsread.aggregate_tree
// and tsread.last_tree; values are Python objects of their series' type (DATE and TIMESTAMP as
// their stored ints), TEXT/STRING as `invalid_utf8` says; with `last_only`, min, max and first
// are None.
pybind11::dict AggregateTree(const PyDataset& ds, const TreeAggregateOptions& options, InvalidUtf8 invalid_utf8,
                             bool last_only);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_AGGREGATES_H_

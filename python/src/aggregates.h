// tsread.aggregate and tsread.last: AggregateByDevice (tsread/aggregate/device_aggregate.h) as
// Python lists per output column, which python/tsread/_aggregates.py turns into a DataFrame.
#ifndef TSREAD_PYTHON_AGGREGATES_H_
#define TSREAD_PYTHON_AGGREGATES_H_

#include <pybind11/pybind11.h>

#include "dataset.h"
#include "scan_args.h"

namespace tsread::python {

// {"table", "tag_columns": [name], "columns": [(name, type)], "device": [id], "tags": [[value]],
//  "rows", "first_time", "last_time": [int], "aggregates": [{"count", "min", "max", "first",
//  "last", "sum": [value or None], "first_time", "last_time": [int or None]}] per column} with
// values as Python objects of the column's type (DATE and TIMESTAMP as their stored ints; sums as
// int or float). The aggregation runs without the GIL. Needs the GIL.
pybind11::dict Aggregate(const PyDataset& ds, const ScanArgs& args);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_AGGREGATES_H_

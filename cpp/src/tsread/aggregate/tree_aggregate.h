// AggregateTree: count, min, max, first, last and sum of every tree-model series (device,
// measurement) of a dataset — IoTDB 1.x's `SELECT last * FROM root.**` and `count(*)`, from
// statistics where they give exactly what decoding would (exact_statistics.h), from the points
// where they do not. A series' points are its non-null values as `cat --tree` reads them: a
// non-aligned series' chunks (format reference §8.1) or one value column of an aligned device
// (§8.2); a series in several files is merged (a later file's last wins on equal times).
#ifndef TSREAD_AGGREGATE_TREE_AGGREGATE_H_
#define TSREAD_AGGREGATE_TREE_AGGREGATE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/column_aggregate.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/tree_points.h"  // TreeDeviceSelected
#include "tsread/read/aligned_device_reader.h"  // TimeRange

namespace tsread {

struct TreeAggregateOptions {
  TimeRange time_range;  // inclusive; the points inside it
  // Devices as `cat --tree` prints them, each one device or, as a prefix ending at a segment
  // (`root.sg`), every device below it (TreeDeviceSelected); empty: every device.
  std::vector<std::string> devices;
  std::set<std::string> measurements;  // empty: every measurement
};

struct SeriesAggregate {
  std::string device;       // as `cat --tree` prints it
  std::string measurement;
  ColumnAggregate values;   // count 0: no point in the range
};

struct TreeAggregateWork {
  uint64_t series_from_statistics = 0;  // answered by their series statistics in a file, not read
  uint64_t series_decoded = 0;          // read point by point in a file
  uint64_t pages_decoded = 0;
};

struct TreeAggregate {
  // Every selected series with a point in the range, ordered by device string, then measurement.
  std::vector<SeriesAggregate> series;
  TreeAggregateWork work;
};

// Errors: InvalidArgument when the dataset holds no tree-model data (naming its tables, read
// with Aggregate) or a series has another data type in another file (naming both); a file's
// errors name it.
absl::StatusOr<TreeAggregate> AggregateTree(const Dataset& dataset, const TreeAggregateOptions& options);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_TREE_AGGREGATE_H_

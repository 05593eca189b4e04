// ScanArgs: the scan arguments of read_table, iter_batches and the Dask splits, and MakeArgs,
// which builds them from a binding's arguments.
#ifndef TSREAD_PYTHON_SCAN_ARGS_H_
#define TSREAD_PYTHON_SCAN_ARGS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tsread/dataset/dataset_scanner.h"

namespace tsread::python {

using Tags = std::map<std::string, std::vector<std::optional<std::string>>>;

// The scan arguments of read_table, iter_batches and the Dask splits (already normalized by
// python/tsread/_args.py: times in ms, tag values as lists).
struct ScanArgs {
  std::optional<std::string> table;
  std::optional<std::vector<std::string>> columns;
  std::optional<int64_t> start;
  std::optional<int64_t> end;
  Tags tags;
  int threads = 1;
  size_t batch_rows = 0;

  DatasetScanOptions ToOptions() const {
    DatasetScanOptions o;
    if (table) o.table = *table;
    if (columns) o.columns = *columns;
    if (start) o.time_range.start = *start;
    if (end) o.time_range.end = *end;
    for (const auto& [column, values] : tags) o.tag_predicates.push_back({column, values});
    o.num_threads = std::max(threads, 1);
    o.batch_size = batch_rows;
    return o;
  }
};

inline ScanArgs MakeArgs(std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
                         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags,
                         int threads, size_t batch_rows) {
  return {std::move(table), std::move(columns), start, end, tags ? std::move(*tags) : Tags{}, threads, batch_rows};
}

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_SCAN_ARGS_H_

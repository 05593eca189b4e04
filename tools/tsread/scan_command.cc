// `tsread scan FILE --table T [--columns ...] [--start] [--end] [--where tag=v1[,v2...]]
// [--threads N] [--json]` (cli-contract.md): a full scan that materialises every projected
// column, timed from open to the last batch, with per-column non-null counts and extremes.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli.h"
#include "iotdb_inputs.h"
#include "progress_bar.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/dataset/merged_threads.h"
#include "tsread/aggregate/file_summary.h"
#include "tsread/aggregate/run_reduce.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

// Non-null count and extremes of one column. Integers are kept exactly; FLOAT/DOUBLE extremes
// skip NaN. A cache line each: two workers' tallies never share one.
struct alignas(64) ColumnStats {
  uint64_t non_null = 0;
  bool has_int = false, has_float = false;
  int64_t int_min = std::numeric_limits<int64_t>::max(), int_max = std::numeric_limits<int64_t>::min();
  double float_min = std::numeric_limits<double>::infinity(), float_max = -std::numeric_limits<double>::infinity();

  void Merge(const ColumnStats& o) {
    non_null += o.non_null;
    has_int |= o.has_int;
    has_float |= o.has_float;
    int_min = std::min(int_min, o.int_min);
    int_max = std::max(int_max, o.int_max);
    float_min = std::min(float_min, o.float_min);
    float_max = std::max(float_max, o.float_max);
  }
};

template <typename T>
void AddInts(const ColumnVector& column, const std::vector<T>& values, ColumnStats& stats) {
  const size_t rows = values.size();
  if (rows == 0) return;
  T lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::min();
  size_t non_null = rows;
  if (column.null_count == 0) {
    ExtendRange(values.data(), rows, lo, hi);
  } else {
    non_null = column.length - column.null_count;
    for (size_t r = 0; r < rows; ++r) {
      if (!column.IsValid(r)) continue;
      lo = std::min(lo, values[r]);
      hi = std::max(hi, values[r]);
    }
  }
  stats.non_null += non_null;
  if (non_null == 0) return;
  stats.has_int = true;
  stats.int_min = std::min<int64_t>(stats.int_min, lo);
  stats.int_max = std::max<int64_t>(stats.int_max, hi);
}

// NaN never wins a comparison, so it never becomes an extreme; all-NaN columns stay at
// +/-infinity, which prints as null.
template <typename T>
void AddFloats(const ColumnVector& column, const std::vector<T>& values, ColumnStats& stats) {
  const size_t rows = values.size();
  if (rows == 0) return;
  T lo = std::numeric_limits<T>::infinity(), hi = -std::numeric_limits<T>::infinity();
  size_t non_null = rows;
  if (column.null_count == 0) {
    ExtendRange(values.data(), rows, lo, hi);
  } else {
    non_null = column.length - column.null_count;
    for (size_t r = 0; r < rows; ++r) {
      if (!column.IsValid(r)) continue;
      lo = values[r] < lo ? values[r] : lo;
      hi = values[r] > hi ? values[r] : hi;
    }
  }
  stats.non_null += non_null;
  stats.has_float = true;
  stats.float_min = std::min<double>(stats.float_min, lo);
  stats.float_max = std::max<double>(stats.float_max, hi);
}

void AddBatch(const std::vector<ProjectedColumn>& projection, const TableBatch& batch, std::vector<ColumnStats>& stats) {
  for (size_t j = 0; j < projection.size(); ++j) {
    if (projection[j].category == ColumnCategory::kTag) {
      if (batch.tag(j).has_value()) stats[j].non_null += batch.num_rows();
      continue;
    }
    if (projection[j].category != ColumnCategory::kField) continue;
    const ColumnVector& column = batch.columns[j];
    switch (column.type) {
      case DataType::kInt32:
      case DataType::kDate: AddInts(column, column.int32s, stats[j]); break;
      case DataType::kInt64:
      case DataType::kTimestamp: AddInts(column, column.int64s, stats[j]); break;
      case DataType::kFloat: AddFloats(column, column.floats, stats[j]); break;
      case DataType::kDouble: AddFloats(column, column.doubles, stats[j]); break;
      default:
        stats[j].non_null += column.length - column.null_count;
    }
  }
}

void PrintExtreme(std::ostream& out, const ProjectedColumn& column, const ColumnStats& s, bool min) {
  if (column.data_type == DataType::kFloat || column.data_type == DataType::kDouble) {
    const double v = min ? s.float_min : s.float_max;
    if (!s.has_float || std::isinf(v)) {
      out << "null";
      return;
    }
    std::string text;
    if (column.data_type == DataType::kFloat) {
      AppendFloat(text, static_cast<float>(v));
    } else {
      AppendDouble(text, v);
    }
    out << text;
    return;
  }
  if (!s.has_int) {
    out << "null";
    return;
  }
  out << (min ? s.int_min : s.int_max);
}

uint64_t AnnouncedRows(const Dataset& dataset, const std::string& table) {
  uint64_t rows = 0;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) continue;  // the scan reports it in its place
    absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
    if (!summary.ok()) continue;
    for (const TableSummary& t : summary->tables) {
      if (t.schema->name == table) rows += t.rows;
    }
  }
  return rows;
}

bool HasExtremes(DataType t) {
  switch (t) {
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kFloat:
    case DataType::kDouble:
    case DataType::kDate:
    case DataType::kTimestamp: return true;
    default: return false;
  }
}

}  // namespace

int RunScan(const Args& args) {
  DatasetScanOptions options;
  options.table = args.Get("table").value_or("");  // empty: the input's only table
  absl::StatusOr<std::vector<std::string>> columns = ColumnsFromArgs(args);
  if (!columns.ok()) return Fail(columns.status());
  options.columns = *columns;
  absl::StatusOr<TimeRange> range = TimeRangeFromArgs(args);
  if (!range.ok()) return Fail(range.status());
  options.time_range = *range;
  absl::StatusOr<std::vector<PredicateExpr>> predicates = PredicatesFromArgs(args);
  if (!predicates.ok()) return Fail(predicates.status());
  options.value_predicates = *predicates;
  absl::StatusOr<uint64_t> memory_budget = MemoryBudgetFromArgs(args);
  if (!memory_budget.ok()) return Fail(memory_budget.status());
  options.memory_budget = *memory_budget;
  // The statistics are order-independent: let each worker hand its batches over directly.
  options.ordered = false;
  absl::StatusOr<int> threads = ThreadsFromArgs(args);
  if (!threads.ok()) return Fail(threads.status());
  options.num_threads = *threads;

  const auto start = std::chrono::steady_clock::now();
  // IoTDB data merged (each thread a part of every time partition's devices), or the files as written.
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> iotdb_data = OpenIotdbInputs(args);
  if (!iotdb_data.ok()) return Fail(iotdb_data.status());
  std::unique_ptr<Dataset> plain;
  std::unique_ptr<DatasetScanner> scanner;
  std::unique_ptr<MergedScanner> merged;
  if (*iotdb_data != nullptr) {
    absl::StatusOr<std::unique_ptr<MergedScanner>> s = (*iotdb_data)->ScanTable(options);
    if (!s.ok()) return Fail(s.status());
    merged = std::move(*s);
  } else {
    if (absl::Status unused = CheckIotdbFlagsUnused(args); !unused.ok()) return Fail(unused);
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenInputs(args);
    if (!dataset.ok()) return Fail(dataset.status());
    plain = std::move(*dataset);
    absl::StatusOr<std::unique_ptr<DatasetScanner>> s = DatasetScanner::Create(*plain, options);
    if (!s.ok()) return Fail(s.status());
    scanner = std::move(*s);
  }
  const std::vector<ProjectedColumn>& projection = merged ? merged->projection() : scanner->projection();
  // Each worker adds to its own tally, on a cache line of its own (workers write theirs after
  // every batch).
  struct alignas(64) WorkerTally {
    uint64_t rows = 0;
    std::vector<ColumnStats> stats;
  };
  std::vector<WorkerTally> tallies(options.num_threads);
  for (WorkerTally& t : tallies) t.stats.resize(projection.size());
  // The bar's total: the rows the files' metadata announces (ignoring the time range and tag
  // predicates), only worth computing for a terminal.
  uint64_t planned_rows = 0;
  if (ProgressBar::OnTerminal()) {
    planned_rows = merged ? AnnouncedRows(merged->inner().dataset(), merged->inner().options().table)
                          : AnnouncedRows(*plain, scanner->options().table);
  }
  ProgressBar progress("scan", planned_rows);
  auto add = [&](int worker, const TableBatch& batch) {
    WorkerTally& tally = tallies[worker];
    tally.rows += batch.num_rows();
    progress.Add(batch.num_rows());
    AddBatch(projection, batch, tally.stats);
    return absl::OkStatus();
  };
  absl::Status status = merged ? ScanMergedOnThreads(*merged, options.num_threads, add) : scanner->Scan(add);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!status.ok()) return Fail(status);
  progress.Finish();
  uint64_t total_rows = 0;
  std::vector<ColumnStats>& stats = tallies[0].stats;  // every worker's, merged
  for (int w = 0; w < options.num_threads; ++w) {
    total_rows += tallies[w].rows;
    if (w > 0) {
      for (size_t j = 0; j < projection.size(); ++j) stats[j].Merge(tallies[w].stats[j]);
    }
  }
  const double rate = seconds > 0 ? static_cast<double>(total_rows) / seconds : 0;
  const bool filtered = !options.value_predicates.empty();
  const PredicateCounts work = merged ? merged->inner().predicate_counts() : scanner->predicate_counts();
  if (!args.Has("json")) {
    std::cout << "rows: " << total_rows << "\nseconds: " << seconds << "\nrows/s: " << static_cast<uint64_t>(rate)
              << "\n";
    if (filtered) {
      std::cout << "skipped by statistics: " << work.devices_skipped << " devices, " << work.chunk_groups_skipped
                << " chunk groups, " << work.pages_skipped << " pages\npages matched by statistics: "
                << work.pages_matched << "\npages evaluated: " << work.pages_evaluated << " (" << work.pages_emptied
                << " without a match)\n";
    }
    return kOk;
  }
  std::cout << "{\"rows\": " << total_rows << ", \"seconds\": " << seconds << ", \"rows_per_second\": " << rate;
  if (filtered) {
    std::cout << ",\n \"predicates\": {\"devices_skipped\": " << work.devices_skipped
              << ", \"chunk_groups_skipped\": " << work.chunk_groups_skipped
              << ", \"pages_skipped\": " << work.pages_skipped << ", \"pages_matched\": " << work.pages_matched
              << ", \"pages_evaluated\": " << work.pages_evaluated << ", \"pages_emptied\": " << work.pages_emptied
              << "}";
  }
  std::cout << ",\n \"columns\": {";
  for (size_t j = 0; j < projection.size(); ++j) {
    std::cout << (j ? ",\n  " : "\n  ") << JsonString(projection[j].name) << ": {\"non_null\": " << stats[j].non_null;
    if (HasExtremes(projection[j].data_type)) {
      std::cout << ", \"min\": ";
      PrintExtreme(std::cout, projection[j], stats[j], true);
      std::cout << ", \"max\": ";
      PrintExtreme(std::cout, projection[j], stats[j], false);
    }
    std::cout << "}";
  }
  std::cout << "}}\n";
  return kOk;
}

}  // namespace tsread::cli

// Aggregates against the scan they replace, on ../shared/bench/table_large.tsfile (3.2M rows, 1000
// devices, one page per series and device), the file opened once: Aggregate (per device, every
// column) from statistics and with a range that cuts every page, and a decoding scan of the same
// columns and range (cut at the start and at the end); RowCounter (`count(*)`) against a scan of the time column.
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/aggregate/row_counter.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/dataset/dataset_scanner.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

// Just after the first time of every device: the range cuts every page.
constexpr int64_t kCutStart = 1700000000500;
// Just before the last time of every device (its 3200th row): the range's end cuts every page.
constexpr int64_t kCutEnd = 1700003198500;

std::unique_ptr<Dataset> OpenBench(benchmark::State& state, FileAccess access = FileAccess::kRead) {
  DatasetOptions options;
  options.access = access;
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({BenchFile()}, options);
  if (!dataset.ok()) state.SkipWithError(std::string(dataset.status().message()).c_str());
  return dataset.ok() ? *std::move(dataset) : nullptr;
}

void AggregateTable(benchmark::State& state, TimeRange range, std::vector<std::string> columns = {},
                    FileAccess access = FileAccess::kRead) {
  std::unique_ptr<Dataset> dataset = OpenBench(state, access);
  if (dataset == nullptr) return;
  AggregateOptions options;
  options.time_range = range;
  options.columns = columns;
  for (auto _ : state) {
    absl::StatusOr<TableAggregate> result = Aggregate(*dataset, options);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(result->groups.data());
    state.counters["pages_decoded"] = static_cast<double>(result->work.pages_decoded);
    state.counters["page_tails_from_statistics"] = static_cast<double>(result->work.page_tails_from_statistics);
  }
}

// A decoding scan of the same rows, each batch's rows counted (the floor of any aggregation).
void ScanTable(benchmark::State& state, TimeRange range, std::vector<std::string> columns,
               StatisticsFilter* filter = nullptr) {
  std::unique_ptr<Dataset> dataset = OpenBench(state);
  if (dataset == nullptr) return;
  int64_t rows = 0;
  for (auto _ : state) {
    DatasetScanOptions options;
    options.time_range = range;
    options.columns = columns;
    options.statistics_filter = filter;
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(*dataset, options);
    if (!scanner.ok()) {
      state.SkipWithError(std::string(scanner.status().message()).c_str());
      return;
    }
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
      rows += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
  }
  state.SetItemsProcessed(rows);
}

void BM_ScanAllColumns(benchmark::State& state) { ScanTable(state, {}, {}); }
BENCHMARK(BM_ScanAllColumns)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AggregateFromStatistics(benchmark::State& state) { AggregateTable(state, {}); }
BENCHMARK(BM_AggregateFromStatistics)->Unit(benchmark::kMillisecond)->UseRealTime();

// Without the FLOAT/DOUBLE columns, whose every chunk header is read for its encoding (2000 reads).
void BM_AggregateFromStatisticsNoFloats(benchmark::State& state) {
  AggregateTable(state, {}, {"s_int64", "s_int32", "s_bool"});
}
BENCHMARK(BM_AggregateFromStatisticsNoFloats)->Unit(benchmark::kMillisecond)->UseRealTime();

// The file memory-mapped: the chunk headers are read without a system call each.
void BM_AggregateFromStatisticsMapped(benchmark::State& state) { AggregateTable(state, {}, {}, FileAccess::kMap); }
BENCHMARK(BM_AggregateFromStatisticsMapped)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanAllColumnsCutEveryPage(benchmark::State& state) { ScanTable(state, TimeRange{kCutStart}, {}); }
BENCHMARK(BM_ScanAllColumnsCutEveryPage)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AggregateCutEveryPage(benchmark::State& state) { AggregateTable(state, TimeRange{kCutStart}); }
BENCHMARK(BM_AggregateCutEveryPage)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanAllColumnsCutEveryPageEnd(benchmark::State& state) {
  ScanTable(state, TimeRange{std::numeric_limits<int64_t>::min(), kCutEnd}, {});
}
BENCHMARK(BM_ScanAllColumnsCutEveryPageEnd)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AggregateCutEveryPageEnd(benchmark::State& state) {
  AggregateTable(state, TimeRange{std::numeric_limits<int64_t>::min(), kCutEnd});
}
BENCHMARK(BM_AggregateCutEveryPageEnd)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanTimeOnly(benchmark::State& state) { ScanTable(state, {}, {"region"}); }
BENCHMARK(BM_ScanTimeOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CountRowsFromStatistics(benchmark::State& state) {
  RowCounter counter;
  ScanTable(state, {}, {"region"}, &counter);
  benchmark::DoNotOptimize(counter.TakeCounted());
}
BENCHMARK(BM_CountRowsFromStatistics)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread

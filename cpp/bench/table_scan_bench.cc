// Full-table-scan benchmarks on ../shared/bench/table_large.tsfile (3.2M rows, 1000 devices,
// LZ4, TS_2DIFF/GORILLA/RLE): every column materialised, and single columns.
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

void ScanTable(benchmark::State& state, std::vector<std::string> columns) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  int64_t rows = 0;
  for (auto _ : state) {
    TableReadOptions options;
    options.columns = columns;
    absl::StatusOr<std::unique_ptr<TableReader>> table = TableReader::Create(**reader, "sensors", options);
    if (!table.ok()) {
      state.SkipWithError(std::string(table.status().message()).c_str());
      return;
    }
    while (true) {
      absl::StatusOr<const TableBatch*> batch = (*table)->Next();
      if (!batch.ok()) {
        state.SkipWithError(std::string(batch.status().message()).c_str());
        return;
      }
      if (*batch == nullptr) break;
      rows += static_cast<int64_t>((*batch)->num_rows());
    }
  }
  state.SetItemsProcessed(rows);
}

void BM_ScanAllColumns(benchmark::State& state) { ScanTable(state, {}); }
BENCHMARK(BM_ScanAllColumns)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanDoubleColumn(benchmark::State& state) { ScanTable(state, {"s_double"}); }
BENCHMARK(BM_ScanDoubleColumn)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanInt64Column(benchmark::State& state) { ScanTable(state, {"s_int64"}); }
BENCHMARK(BM_ScanInt64Column)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanTimeOnly(benchmark::State& state) { ScanTable(state, {"region"}); }
BENCHMARK(BM_ScanTimeOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread

// Full-table-scan benchmarks on ../shared/bench/table_large.tsfile (3.2M rows, 1000 devices,
// LZ4, TS_2DIFF/GORILLA/RLE): every column materialised, and single columns.
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

// The benchmark file read with pread (the default) or, when `mapped`, memory-mapped.
absl::StatusOr<std::unique_ptr<TsFileReader>> OpenBenchFile(bool mapped = false) {
  return TsFileReader::Open(BenchFile(), mapped ? FileAccess::kMap : FileAccess::kRead);
}

void ScanTable(benchmark::State& state, std::vector<std::string> columns, bool mapped = false) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = OpenBenchFile(mapped);
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

// The same, memory-mapped (FileAccess::kMap): what pread costs.
void BM_ScanAllColumnsMapped(benchmark::State& state) { ScanTable(state, {}, /*mapped=*/true); }
BENCHMARK(BM_ScanAllColumnsMapped)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanDoubleColumn(benchmark::State& state) { ScanTable(state, {"s_double"}); }
BENCHMARK(BM_ScanDoubleColumn)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanInt64Column(benchmark::State& state) { ScanTable(state, {"s_int64"}); }
BENCHMARK(BM_ScanInt64Column)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ScanTimeOnly(benchmark::State& state) { ScanTable(state, {"region"}); }
BENCHMARK(BM_ScanTimeOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread

#include "tsread/read/chunk_data.h"
#include "tsread/read/table_scanner.h"

namespace tsread {
namespace {

// The scan engine (TableScanner) with 1 and 2 worker threads, every column materialised; the
// file read with pread (access 0, the default) or memory-mapped (access 1); optionally within a
// memory budget (MiB; 0 = none).
void BM_ScannerAllColumns(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = OpenBenchFile(state.range(2) != 0);
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  int64_t rows = 0;
  for (auto _ : state) {
    ScanOptions options;
    options.table = "sensors";
    options.num_threads = static_cast<int>(state.range(0));
    options.ordered = state.range(1) != 0;
    options.memory_budget = static_cast<uint64_t>(state.range(3)) << 20;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    std::vector<int64_t> per_worker(options.num_threads, 0);
    absl::Status s = (*scanner)->Scan([&](int worker, const TableBatch& batch) {
      per_worker[worker] += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!s.ok()) {
      state.SkipWithError(std::string(s.message()).c_str());
      return;
    }
    for (int64_t n : per_worker) rows += n;
  }
  state.SetItemsProcessed(rows);
}
// Args: threads, ordered, access (0 pread, 1 mmap), memory budget in MiB (0 none).
BENCHMARK(BM_ScannerAllColumns)
    ->Args({1, 1, 0, 0})
    ->Args({1, 1, 1, 0})
    ->Args({2, 0, 0, 0})
    ->Args({2, 0, 1, 0})
    ->Args({2, 1, 0, 0})
    ->Args({2, 1, 1, 0})
    ->Args({2, 1, 0, 64})
    ->Args({2, 1, 0, 4})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Scan planning alone (device index walk + every device's series metadata): the part of a scan
// that does not run on the workers.
void BM_ScannerPlanOnly(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  for (auto _ : state) {
    ScanOptions options;
    options.table = "sensors";
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    benchmark::DoNotOptimize(scanner);
  }
}
BENCHMARK(BM_ScannerPlanOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

// Stage breakdown. Stage 1: metadata + chunk loading + page-header parsing (no decompression).
// Stage 2: stage 1 + LZ4 decompression of every page. Decoding per encoding: decoder_bench.
void VisitAllChunks(benchmark::State& state, bool decompress) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  int64_t pages = 0;
  PageScratch scratch;
  ReadAhead index_reads, chunk_reads;  // as the scan reads metadata and chunks
  for (auto _ : state) {
    absl::StatusOr<DeviceIterator> devices = (*reader)->Devices("sensors");
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok() || *device == nullptr) break;
      absl::StatusOr<std::vector<TimeseriesMetadata>> series =
          (*reader)->ReadTimeseries((*device)->location, &index_reads);
      for (const TimeseriesMetadata& tsm : *series) {
        for (const ChunkMetadata& meta : tsm.chunks) {
          absl::StatusOr<ChunkData> chunk = LoadChunk(**reader, meta.offset, &chunk_reads);
          if (!chunk.ok()) continue;
          for (const PageRef& page : chunk->pages) {
            ++pages;
            if (decompress && !page.header.is_empty()) {
              benchmark::DoNotOptimize(UncompressPage(chunk->header, page, ReadLimits{}, scratch));
            }
          }
        }
      }
    }
  }
  state.counters["pages"] = benchmark::Counter(static_cast<double>(pages), benchmark::Counter::kAvgIterations);
}

void BM_StageLoadChunks(benchmark::State& state) { VisitAllChunks(state, false); }
BENCHMARK(BM_StageLoadChunks)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_StageLoadAndDecompress(benchmark::State& state) { VisitAllChunks(state, true); }
BENCHMARK(BM_StageLoadAndDecompress)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread

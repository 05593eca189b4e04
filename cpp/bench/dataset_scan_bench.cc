// Dataset benchmarks (issue 10). In one run, so that ratios are taken on the same machine state:
// - the benchmark file as a one-file dataset (Dataset::Open + DatasetScanner, as `tsread scan`
//   does) against TableScanner on an open reader (the single-file figure);
// - a directory of many files ($TSREAD_BENCH_DATASET, e.g. made by
//   `tsread gen DIR --files 100 --devices 1000 --rows 320000`), 1 and 2 threads;
// - opening and planning a directory of many small files ($TSREAD_BENCH_SMALL_FILES, e.g.
//   `tsread gen DIR --files 10000 --devices 2 --rows 100000`), and a time range selecting 1% of
//   them, counting the data-section bytes read.
#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/dataset/dataset_scanner.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

std::string EnvDir(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

// Opens `inputs` as a dataset and scans every column of its one table.
// Args: threads, ordered, and (optional) 1 = files mapped instead of read.
void ScanDataset(benchmark::State& state, const std::vector<std::string>& inputs) {
  int64_t rows = 0;
  DatasetOptions dataset_options;
  if (state.range(2) != 0) dataset_options.access = FileAccess::kMap;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open(inputs, dataset_options);
    if (!dataset.ok()) return state.SkipWithError(std::string(dataset.status().message()).c_str());
    DatasetScanOptions options;
    options.num_threads = static_cast<int>(state.range(0));
    options.ordered = state.range(1) != 0;
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, options);
    if (!scanner.ok()) return state.SkipWithError(std::string(scanner.status().message()).c_str());
    std::vector<int64_t> per_worker(options.num_threads, 0);
    absl::Status s = (*scanner)->Scan([&](int worker, const TableBatch& batch) {
      per_worker[worker] += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!s.ok()) return state.SkipWithError(std::string(s.message()).c_str());
    for (int64_t n : per_worker) rows += n;
  }
  state.SetItemsProcessed(rows);
}

// Baseline: TableScanner on an already open reader of the benchmark file.
void BM_FileScanner(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) return state.SkipWithError(std::string(reader.status().message()).c_str());
  int64_t rows = 0;
  for (auto _ : state) {
    ScanOptions options;
    options.table = "sensors";
    options.num_threads = static_cast<int>(state.range(0));
    options.ordered = state.range(1) != 0;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    std::vector<int64_t> per_worker(options.num_threads, 0);
    absl::Status s = (*scanner)->Scan([&](int worker, const TableBatch& batch) {
      per_worker[worker] += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!s.ok()) return state.SkipWithError(std::string(s.message()).c_str());
    for (int64_t n : per_worker) rows += n;
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_FileScanner)->Args({1, 1})->Args({2, 0})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DatasetOfTheBenchFile(benchmark::State& state) { ScanDataset(state, {BenchFile()}); }
BENCHMARK(BM_DatasetOfTheBenchFile)
    ->Args({1, 1, 0})
    ->Args({2, 0, 0})
    ->Args({1, 1, 1})
    ->Args({2, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_DatasetDirectory(benchmark::State& state) {
  const std::string dir = EnvDir("TSREAD_BENCH_DATASET");
  if (dir.empty()) return state.SkipWithError("set TSREAD_BENCH_DATASET to a directory of TsFiles");
  ScanDataset(state, {dir});
}
BENCHMARK(BM_DatasetDirectory)
    ->Args({1, 1, 0})
    ->Args({2, 0, 0})
    ->Args({2, 1, 0})
    ->Args({1, 1, 1})
    ->Args({2, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// Opening a directory of many small files and planning a scan of it.
void BM_SmallFilesOpenAndPlan(benchmark::State& state) {
  const std::string dir = EnvDir("TSREAD_BENCH_SMALL_FILES");
  if (dir.empty()) return state.SkipWithError("set TSREAD_BENCH_SMALL_FILES to a directory of TsFiles");
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir});
    if (!dataset.ok()) return state.SkipWithError(std::string(dataset.status().message()).c_str());
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, DatasetScanOptions{});
    if (!scanner.ok()) return state.SkipWithError(std::string(scanner.status().message()).c_str());
    state.counters["files"] = static_cast<double>((*dataset)->files().size());
  }
}
BENCHMARK(BM_SmallFilesOpenAndPlan)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// Counts every byte read through it (metadata, index and data).
class CountingFile : public RandomAccessFile {
 public:
  CountingFile(std::unique_ptr<RandomAccessFile> file, std::atomic<uint64_t>* bytes)
      : file_(std::move(file)), bytes_(bytes) {}
  uint64_t size() const override { return file_->size(); }
  const std::string& name() const override { return file_->name(); }
  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    *bytes_ += length;
    return file_->ReadInto(offset, length, into);
  }

 private:
  std::unique_ptr<RandomAccessFile> file_;
  std::atomic<uint64_t>* bytes_;
};

// A time range holding 1% of the small files: rows and bytes read (all reads, metadata included)
// against a full scan's.
void BM_SmallFilesOnePercentTimeRange(benchmark::State& state) {
  const std::string dir = EnvDir("TSREAD_BENCH_SMALL_FILES");
  if (dir.empty()) return state.SkipWithError("set TSREAD_BENCH_SMALL_FILES to a directory of TsFiles");
  std::atomic<uint64_t> bytes{0};
  DatasetOptions dataset_options;
  dataset_options.opener = [&bytes](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
    if (!file.ok()) return file.status();
    return std::unique_ptr<RandomAccessFile>(new CountingFile(std::move(*file), &bytes));
  };
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir}, dataset_options);
  if (!dataset.ok()) return state.SkipWithError(std::string(dataset.status().message()).c_str());
  const bool ranged = state.range(0) != 0;
  uint64_t rows = 0;
  for (auto _ : state) {
    bytes = 0;
    rows = 0;
    DatasetScanOptions options;
    // gen's rows are 1 s apart from 1700000000000; the middle 1% of the time span.
    if (ranged) options.time_range = TimeRange{1700000000000 + 49500 * 1000, 1700000000000 + 50499 * 1000};
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, options);
    if (!scanner.ok()) return state.SkipWithError(std::string(scanner.status().message()).c_str());
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
      rows += batch.num_rows();
      return absl::OkStatus();
    });
    if (!s.ok()) return state.SkipWithError(std::string(s.message()).c_str());
  }
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["bytes_read"] = static_cast<double>(bytes.load());
}
BENCHMARK(BM_SmallFilesOnePercentTimeRange)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace tsread

// The C ABI's Arrow stream against the native scan (issue 47's target): the benchmark file
// (../shared/bench/table_large.tsfile, 3.2M rows) scanned with every column, by a consumer that
// reads every byte of every buffer it gets — tsread's batches natively, Arrow arrays through
// tsread_scan's ArrowArrayStream — on one thread and on two (unordered: as fast as each can).
// And the tree model's points (no benchmark file has them: 40 links to a tree fixture):
// ScanTreePoints' pages natively against tsread_scan_tree's long-form stream.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/read/table_scanner.h"
#include "tsread/tsread.h"

namespace tsread {
namespace {

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

// Reads `bytes` bytes at `data`, eight at a time: what a consumer that uses every value pays.
uint64_t Touch(const void* data, size_t bytes) {
  if (data == nullptr) return 0;
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t sum = 0;
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    sum += word;
  }
  for (; i < bytes; ++i) sum += p[i];
  return sum;
}

template <typename T>
uint64_t TouchVector(const std::vector<T>& v) {
  return Touch(v.data(), v.size() * sizeof(T));
}

uint64_t TouchBatch(const TableBatch& batch) {
  uint64_t sum = TouchVector(batch.times);
  for (const ColumnVector& c : batch.columns) {
    sum += TouchVector(c.validity) + TouchVector(c.bools) + TouchVector(c.int32s) + TouchVector(c.int64s) +
           TouchVector(c.floats) + TouchVector(c.doubles) + TouchVector(c.offsets) + TouchVector(c.bytes);
  }
  return sum;
}

// An Arrow child's buffers by its format: validity, then values (bits, fixed width, or offsets
// and bytes); a dictionary's indices and its values.
uint64_t TouchArray(const ArrowArray& a, const char* format) {
  // Run-end encoded (TAG columns with tags_as_run_end): its runs' ends and values, not its rows.
  if (format[0] == '+' && format[1] == 'r') return TouchArray(*a.children[0], "i") + TouchArray(*a.children[1], "u");
  const size_t n = static_cast<size_t>(a.length + a.offset);
  uint64_t sum = a.null_count > 0 ? Touch(a.buffers[0], (n + 7) / 8) : 0;
  switch (format[0]) {
    case 'b': return sum + Touch(a.buffers[1], (n + 7) / 8);
    case 'i':
    case 'f': return sum + Touch(a.buffers[1], 4 * n);
    case 'u':
    case 'z': {
      const auto* offsets = static_cast<const int32_t*>(a.buffers[1]);
      return sum + Touch(offsets, 4 * (n + 1)) + Touch(a.buffers[2], static_cast<size_t>(offsets[n]));
    }
    case 't': return sum + Touch(a.buffers[1], (format[1] == 'd' ? 4 : 8) * n);
    default: return sum + Touch(a.buffers[1], 8 * n);  // l, g
  }
}

// What a consumer of a stream does: reads it to its end, every buffer of every batch, and
// releases it. Counts rows and batches; adds the time spent reading buffers to `touch_seconds`.
struct Drained {
  int64_t rows = 0;
  int64_t batches = 0;
  uint64_t checksum = 0;
  double touch_seconds = 0;
};
void DrainStream(benchmark::State& state, ArrowArrayStream& stream, Drained& out) {
  ArrowSchema schema;
  stream.get_schema(&stream, &schema);
  while (true) {
    ArrowArray batch;
    if (stream.get_next(&stream, &batch) != 0) {
      state.SkipWithError(stream.get_last_error(&stream));
      break;
    }
    if (batch.release == nullptr) break;
    out.rows += batch.length;
    ++out.batches;
    const auto touch_start = std::chrono::steady_clock::now();
    for (int64_t k = 0; k < batch.n_children; ++k) out.checksum += TouchArray(*batch.children[k], schema.children[k]->format);
    out.touch_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - touch_start).count();
    batch.release(&batch);
  }
  schema.release(&schema);
  stream.release(&stream);
}

// Opens `path` through the C ABI and, each iteration, drains the stream `scan` starts on it.
using ScanCall = std::function<tsread_code(const tsread_source*, ArrowArrayStream*, tsread_error**)>;
Drained StreamEachIteration(benchmark::State& state, const std::string& path, const ScanCall& scan) {
  Drained drained;
  const char* inputs[] = {path.c_str()};
  tsread_source* source = nullptr;
  tsread_error* error = nullptr;
  if (tsread_open(inputs, 1, nullptr, &source, &error) != TSREAD_OK) {
    state.SkipWithError(tsread_error_message(error));
    tsread_error_free(error);
    return drained;
  }
  for (auto _ : state) {
    ArrowArrayStream stream;
    if (scan(source, &stream, &error) != TSREAD_OK) {
      state.SkipWithError(tsread_error_message(error));
      tsread_error_free(error);
      break;
    }
    DrainStream(state, stream, drained);
  }
  tsread_source_free(source);
  benchmark::DoNotOptimize(drained.checksum);
  state.SetItemsProcessed(drained.rows);
  return drained;
}

void BM_NativeScan(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  const int threads = static_cast<int>(state.range(0));
  int64_t rows = 0;
  std::atomic<uint64_t> checksum{0};
  for (auto _ : state) {
    ScanOptions options;
    options.table = "sensors";
    options.num_threads = threads;
    options.ordered = false;
    std::unique_ptr<TableScanner> scanner = TableScanner::Create(**reader, options).value();
    std::vector<uint64_t> sums(threads, 0);
    std::vector<int64_t> counts(threads, 0);
    absl::Status status = scanner->Scan([&](int worker, TableBatch& batch) {
      sums[worker] += TouchBatch(batch);
      counts[worker] += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
    for (int w = 0; w < threads; ++w) rows += counts[w], checksum += sums[w];
  }
  benchmark::DoNotOptimize(checksum.load());
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_NativeScan)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CAbiStream(benchmark::State& state) {
  tsread_scan_options options;
  tsread_scan_options_init(&options);
  options.table = "sensors";
  options.threads = static_cast<int>(state.range(0));
  options.unordered = 1;
  options.tags_as_dictionary = state.range(1) == 1;
  options.tags_as_run_end = state.range(1) == 3;
  // range(1) == 2: the FIELD columns only (what the stream costs beyond per-row tags).
  static const char* kFields[] = {"s_int64", "s_double", "s_float", "s_int32", "s_bool"};
  if (state.range(1) == 2) {
    options.columns = kFields;
    options.n_columns = 5;
  }
  // touch_seconds: the consumer's own part, reading every buffer.
  const Drained drained = StreamEachIteration(state, BenchFile(), [&](const tsread_source* source, ArrowArrayStream* out,
                                                                       tsread_error** error) {
    return tsread_scan(source, &options, out, error);
  });
  state.counters["touch_ms"] = benchmark::Counter(1000 * drained.touch_seconds, benchmark::Counter::kAvgIterations);
  state.counters["rows_per_batch"] =
      drained.batches > 0 ? static_cast<double>(drained.rows) / static_cast<double>(drained.batches) : 0;
}
// Args: threads; TAG columns as utf8 (0, the default), as dictionaries (1), left out (2), or run-end
// encoded (3).
BENCHMARK(BM_CAbiStream)
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({1, 2})
    ->Args({2, 2})
    ->Args({1, 3})
    ->Args({2, 3})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// A directory of 40 links to a tree fixture (tree_nonaligned: 0, tree_aligned: 1): a dataset of
// 1.5M points, enough for the streams' steady state (the fixtures alone are 40k points).
std::string TreeDataset(int64_t which) {
  const std::string name = which == 0 ? "tree_nonaligned" : "tree_aligned";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tsread_c_abi_bench_40_" + name);
  const std::filesystem::path target = std::filesystem::absolute(std::string(TSREAD_SOURCE_DIR) + "/../shared/fixtures/" + name + ".tsfile");
  std::filesystem::create_directories(dir);
  for (int i = 0; i < 40; ++i) {
    std::string file = std::to_string(i);  // not "f" + ...: GCC 12 warns falsely (-Wrestrict) on that
    file += ".tsfile";
    const std::filesystem::path link = dir / file;
    std::error_code ignored;
    if (!std::filesystem::exists(link)) std::filesystem::create_symlink(target, link, ignored);
  }
  return dir.string();
}

void BM_NativeTreePoints(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({TreeDataset(state.range(0))});
  if (!dataset.ok()) {
    state.SkipWithError(std::string(dataset.status().message()).c_str());
    return;
  }
  int64_t points = 0;
  uint64_t checksum = 0;
  for (auto _ : state) {
    absl::Status status = ScanTreePoints(**dataset, {}, [&](std::string_view, std::string_view, const std::vector<int64_t>& times,
                                                            const ColumnVector& v, size_t begin, size_t end) {
      checksum += Touch(times.data() + begin, 8 * (end - begin)) + TouchVector(v.validity) + TouchVector(v.bools) +
                  TouchVector(v.int32s) + TouchVector(v.int64s) + TouchVector(v.floats) + TouchVector(v.doubles) +
                  TouchVector(v.offsets) + TouchVector(v.bytes);
      for (size_t r = begin; r < end; ++r) points += v.IsValid(r);
      return absl::OkStatus();
    });
    if (!status.ok()) {
      state.SkipWithError(std::string(status.message()).c_str());
      return;
    }
  }
  benchmark::DoNotOptimize(checksum);
  state.SetItemsProcessed(points);
}
// Arg: tree_nonaligned (0) or tree_aligned (1).
BENCHMARK(BM_NativeTreePoints)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CAbiTreeStream(benchmark::State& state) {
  tsread_tree_scan_options options;
  tsread_tree_scan_options_init(&options);
  options.names_as_dictionary = state.range(1) == 1;
  StreamEachIteration(state, TreeDataset(state.range(0)),
                      [&](const tsread_source* source, ArrowArrayStream* out, tsread_error** error) {
                        return tsread_scan_tree(source, &options, out, error);
                      });
}
// Args: the fixture (as above); device and measurement as utf8 (0) or dictionaries (1).
BENCHMARK(BM_CAbiTreeStream)->Args({0, 0})->Args({0, 1})->Args({1, 0})->Args({1, 1})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace tsread

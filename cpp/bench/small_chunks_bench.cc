// Small chunks (issue 48): the same rows — 1,000 devices of 3,200 rows, the benchmark file's
// schema (2 TAG, 5 FIELD columns) — written as chunks of 8, 32, 256 and 3,200 rows: a file per
// time slice, each holding every device's rows of its slice (what IoTDB's memtable flushes write).
// Each shape is scanned as `tsread scan` does (Dataset::Open + DatasetScanner, one thread) and
// aggregated as `tsread agg` does (from statistics), so that the per-row rate of each shape, next
// to the 3,200-row one, shows the fixed cost per device and chunk.
//
// The shapes are written once into $TSREAD_BENCH_SHAPES (default /tmp/tsread-bench-shapes): a
// folder per shape, reused by later runs.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

constexpr size_t kDevices = 1000;
constexpr size_t kRowsPerDevice = 3200;
constexpr int64_t kFirstTime = 1700000000000;
constexpr int64_t kStep = 1000;

std::string ShapesRoot() {
  const char* root = std::getenv("TSREAD_BENCH_SHAPES");
  return root != nullptr ? root : "/tmp/tsread-bench-shapes";
}

TableSchema ShapeSchema() {
  TableSchema schema;
  schema.name = "sensors";
  schema.columns.push_back(ColumnSchema{"region", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"device", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"s_int64", DataType::kInt64, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"s_double", DataType::kDouble, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"s_float", DataType::kFloat, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"s_int32", DataType::kInt32, 0, 0, {}, ColumnCategory::kField});
  schema.columns.push_back(ColumnSchema{"s_bool", DataType::kBoolean, 0, 0, {}, ColumnCategory::kField});
  return schema;
}

// Rows [first, first + rows) of device d: slow walks, as sensors give (values depend only on the
// device and the row, so every shape holds the same rows).
std::vector<ColumnValues> DeviceRows(size_t d, size_t first, size_t rows) {
  std::vector<ColumnValues> fields(5);
  fields[0].type = DataType::kInt64;
  fields[1].type = DataType::kDouble;
  fields[2].type = DataType::kFloat;
  fields[3].type = DataType::kInt32;
  fields[4].type = DataType::kBoolean;
  for (size_t r = first; r < first + rows; ++r) {
    const uint64_t x = (d * 0x9E3779B97F4A7C15ull) ^ (r * 0xBF58476D1CE4E5B9ull);
    fields[0].int64s.push_back(static_cast<int64_t>(d * 100000 + r * 5 + x % 5));
    fields[1].doubles.push_back(20.0 + static_cast<double>(d % 17) + static_cast<double>(x % 1000) / 1000.0);
    fields[2].floats.push_back(static_cast<float>(static_cast<int>(x % 10000)) / 100.0f);
    fields[3].int32s.push_back(static_cast<int32_t>(d % 1000 + (x % 7 == 0 ? x % 3 : 0)));
    fields[4].bools.push_back((r / 100) % 2 == 0);
  }
  return fields;
}

// The folder of the shape with `chunk_rows` rows a chunk, written if absent.
std::string ShapeDir(size_t chunk_rows) {
  const std::string dir = absl::StrFormat("%s/rows-%d", ShapesRoot(), chunk_rows);
  const std::string done = dir + "/.complete";
  if (std::filesystem::exists(done)) return dir;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const size_t files = (kRowsPerDevice + chunk_rows - 1) / chunk_rows;
  for (size_t f = 0; f < files; ++f) {
    const size_t first = f * chunk_rows;
    const size_t rows = std::min(chunk_rows, kRowsPerDevice - first);
    absl::StatusOr<std::unique_ptr<TsFileWriter>> writer =
        TsFileWriter::Create(absl::StrFormat("%s/part-%05d.tsfile", dir, f), ShapeSchema(), TableWriterOptions{});
    if (!writer.ok()) return "";
    std::vector<int64_t> times(rows);
    for (size_t r = 0; r < rows; ++r) times[r] = kFirstTime + static_cast<int64_t>(first + r) * kStep;
    for (size_t d = 0; d < kDevices; ++d) {
      const DeviceId id = (*writer)->MakeDeviceId({absl::StrFormat("region_%d", d / 100), absl::StrFormat("dev_%03d", d)});
      if (!(*writer)->WriteRows(id, times, DeviceRows(d, first, rows)).ok()) return "";
    }
    if (!(*writer)->Close().ok()) return "";
  }
  std::filesystem::create_directories(done);
  return dir;
}

// Arg: rows a chunk.
void BM_ScanShape(benchmark::State& state) {
  const std::string dir = ShapeDir(static_cast<size_t>(state.range(0)));
  if (dir.empty()) return state.SkipWithError("could not write the shape");
  int64_t rows = 0;
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir}, DatasetOptions{});
    if (!dataset.ok()) return state.SkipWithError(std::string(dataset.status().message()).c_str());
    absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(**dataset, DatasetScanOptions{});
    if (!scanner.ok()) return state.SkipWithError(std::string(scanner.status().message()).c_str());
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
      rows += static_cast<int64_t>(batch.num_rows());
      return absl::OkStatus();
    });
    if (!s.ok()) return state.SkipWithError(std::string(s.message()).c_str());
  }
  state.SetItemsProcessed(rows);
}
BENCHMARK(BM_ScanShape)->Arg(8)->Arg(32)->Arg(256)->Arg(3200)->Unit(benchmark::kMillisecond);

// Per device, from statistics (`tsread agg`), the dataset opened in each iteration as by the CLI.
// Arg: rows a chunk.
void BM_AggregateShape(benchmark::State& state) {
  const std::string dir = ShapeDir(static_cast<size_t>(state.range(0)));
  if (dir.empty()) return state.SkipWithError("could not write the shape");
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({dir}, DatasetOptions{});
    if (!dataset.ok()) return state.SkipWithError(std::string(dataset.status().message()).c_str());
    absl::StatusOr<TableAggregate> result = Aggregate(**dataset, AggregateOptions{});
    if (!result.ok()) return state.SkipWithError(std::string(result.status().message()).c_str());
    benchmark::DoNotOptimize(result->groups.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kDevices * kRowsPerDevice));
}
BENCHMARK(BM_AggregateShape)->Arg(8)->Arg(32)->Arg(256)->Arg(3200)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tsread

// Device-index benchmarks (issue: metadata spine): decoding DeviceMetaIndexEntry as views versus
// into owned ids, and looking up every device of the 1000-device benchmark file by binary search.
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/format/device_id.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

// 256 entries (a full LEAF_DEVICE node) of 3-segment ids "sensors.region_R.device_DDDD" + offset.
std::string SerializedEntries(int count) {
  std::string out;
  auto var_string = [&](const std::string& s) {
    out.push_back(static_cast<char>(s.size() * 2));
    out += s;
  };
  for (int i = 0; i < count; ++i) {
    out.push_back(3);
    var_string("sensors");
    var_string("region_" + std::to_string(i % 10));
    var_string("device_" + std::to_string(1000 + i));
    out.append(8, static_cast<char>(i));
  }
  return out;
}

void BM_DecodeDeviceEntryAsView(benchmark::State& state) {
  const int kEntries = 256;
  const std::string bytes = SerializedEntries(kEntries);
  for (auto _ : state) {
    ByteStream in(bytes, 0);
    for (int i = 0; i < kEntries; ++i) {
      absl::StatusOr<DeviceIdView> id = ReadDeviceIdView(in, 4);
      absl::StatusOr<int64_t> offset = in.ReadI64("offset");
      benchmark::DoNotOptimize(id);
      benchmark::DoNotOptimize(offset);
    }
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_DecodeDeviceEntryAsView);

// Baseline: the same entries decoded into owned DeviceIds (what a reader without views does).
void BM_DecodeDeviceEntryOwned(benchmark::State& state) {
  const int kEntries = 256;
  const std::string bytes = SerializedEntries(kEntries);
  for (auto _ : state) {
    ByteStream in(bytes, 0);
    for (int i = 0; i < kEntries; ++i) {
      absl::StatusOr<DeviceId> id = ReadDeviceId(in, 4);
      absl::StatusOr<int64_t> offset = in.ReadI64("offset");
      benchmark::DoNotOptimize(id);
      benchmark::DoNotOptimize(offset);
    }
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_DecodeDeviceEntryOwned);

std::string BenchFile() { return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile"; }

void BM_LookupAllDevicesOfBenchFile(benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return;
  }
  std::vector<DeviceId> ids;
  absl::StatusOr<DeviceIterator> it = (*reader)->Devices("sensors");
  while (true) {
    absl::StatusOr<const DeviceEntry*> entry = it->Next();
    if (!entry.ok() || *entry == nullptr) break;
    ids.push_back((*entry)->id.ToOwned());
  }
  for (auto _ : state) {
    for (const DeviceId& id : ids) {
      absl::StatusOr<std::optional<DeviceLocation>> found = (*reader)->FindDevice("sensors", id);
      benchmark::DoNotOptimize(found);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ids.size()));
  state.counters["devices"] = static_cast<double>(ids.size());
}
BENCHMARK(BM_LookupAllDevicesOfBenchFile)->Unit(benchmark::kMicrosecond);

void BM_OpenAndIterateDevicesOfBenchFile(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(BenchFile());
    if (!reader.ok()) {
      state.SkipWithError(std::string(reader.status().message()).c_str());
      return;
    }
    absl::StatusOr<DeviceIterator> it = (*reader)->Devices("sensors");
    int n = 0;
    while (true) {
      absl::StatusOr<const DeviceEntry*> entry = it->Next();
      if (!entry.ok() || *entry == nullptr) break;
      ++n;
    }
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(BM_OpenAndIterateDevicesOfBenchFile)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tsread

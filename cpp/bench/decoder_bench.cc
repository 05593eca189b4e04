// Decoder micro-benchmarks: values per second per encoding and type, on the real value streams
// of the Java-written fixtures (../shared/fixtures/table_enc_*.tsfile, table_alltypes) and of the
// benchmark file: every value page of the first devices is decompressed once, its null bitmap
// stripped, and the benchmark decodes the streams in a loop.
#include <map>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "tsread/encoding/value_decoder.h"
#include "tsread/io/byte_stream.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

struct Stream {
  std::string bytes;  // the values of one page (non-null only)
  size_t count = 0;
};

struct StreamSet {
  DataType type = DataType::kInt64;
  Encoding encoding = Encoding::kPlain;
  std::vector<Stream> streams;
  size_t values = 0;
};

// The pages of an aligned time column (§8.2: timestamps only, no row count or bitmap), under
// "time:ENCODING/INT64"; a page's count is its statistics' (or the chunk's, for a chunk of one page).
void CollectTimeStreams(const TsFileReader& reader, const TimeseriesMetadata& tsm,
                        std::map<std::string, StreamSet>& out) {
  for (const ChunkMetadata& meta : tsm.chunks) {
    absl::StatusOr<ChunkData> chunk = LoadChunk(reader, meta.offset);
    if (!chunk.ok()) continue;
    std::optional<Encoding> encoding = EncodingFromByte(chunk->header.encoding_byte);
    if (!encoding.has_value()) continue;
    StreamSet& set = out["time:" + std::string(EncodingName(*encoding)) + "/INT64"];
    set.type = DataType::kInt64;
    set.encoding = *encoding;
    for (const PageRef& page : chunk->pages) {
      const size_t count = page.header.statistics.has_value() ? page.header.statistics->count
                           : chunk->pages.size() == 1      ? meta.statistics.count
                                                           : 0;
      if (count == 0) continue;
      PageScratch scratch;
      absl::StatusOr<std::string_view> bytes = UncompressPage(chunk->header, page, ReadLimits{}, scratch);
      if (!bytes.ok()) continue;
      set.streams.push_back(Stream{std::string(*bytes), count});
      set.values += count;
    }
  }
}

// Value streams of the first `max_devices` devices of every table in `path`, by encoding/type.
void CollectStreams(const std::string& path, size_t max_devices, std::map<std::string, StreamSet>& out) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return;
  for (const TableSchema* table : (*reader)->Tables()) {
    absl::StatusOr<DeviceIterator> devices = (*reader)->Devices(table->name);
    if (!devices.ok()) continue;
    for (size_t d = 0; d < max_devices; ++d) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok() || *device == nullptr) break;
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*device)->location);
      if (!series.ok()) continue;
      for (const TimeseriesMetadata& tsm : *series) {
        if (tsm.is_time_column()) {
          CollectTimeStreams(**reader, tsm, out);
          continue;
        }
        for (const ChunkMetadata& meta : tsm.chunks) {
          absl::StatusOr<ChunkData> chunk = LoadChunk(**reader, meta.offset);
          if (!chunk.ok()) continue;
          std::optional<Encoding> encoding = EncodingFromByte(chunk->header.encoding_byte);
          if (!encoding.has_value()) continue;
          const std::string key = std::string(EncodingName(*encoding)) + "/" + std::string(DataTypeName(tsm.data_type));
          StreamSet& set = out[key];
          set.type = tsm.data_type;
          set.encoding = *encoding;
          for (const PageRef& page : chunk->pages) {
            if (page.header.is_empty()) continue;
            PageScratch scratch;
            absl::StatusOr<std::string_view> bytes = UncompressPage(chunk->header, page, ReadLimits{}, scratch);
            if (!bytes.ok()) continue;
            ByteStream in(*bytes, 0);
            absl::StatusOr<int32_t> rows = in.ReadI32("rows");
            if (!rows.ok() || *rows < 0) continue;
            absl::StatusOr<std::string_view> bitmap = in.ReadBytes((static_cast<size_t>(*rows) + 7) / 8, "bitmap");
            if (!bitmap.ok()) continue;
            size_t count = 0;
            for (int32_t r = 0; r < *rows; ++r) count += ((*bitmap)[r >> 3] >> (7 - (r & 7))) & 1;
            set.streams.push_back(Stream{std::string(in.rest()), count});
            set.values += count;
          }
        }
      }
    }
  }
}

template <typename T, typename Decode>
void RunDecode(benchmark::State& state, const StreamSet& set, Decode decode) {
  std::vector<T> out;
  for (const Stream& s : set.streams) out.resize(std::max(out.size(), s.count));
  for (auto _ : state) {
    for (const Stream& s : set.streams) {
      absl::Status status = decode(set.encoding, s.bytes, s.count, out.data());
      if (!status.ok()) {
        state.SkipWithError(std::string(status.message()).c_str());
        return;
      }
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(set.values));
}

void BenchmarkSet(benchmark::State& state, const StreamSet* set) {
  switch (PhysicalTypeOf(set->type)) {
    case PhysicalType::kBoolean: return RunDecode<uint8_t>(state, *set, DecodeBooleans);
    case PhysicalType::kInt32: return RunDecode<int32_t>(state, *set, DecodeInt32s);
    case PhysicalType::kInt64: return RunDecode<int64_t>(state, *set, DecodeInt64s);
    case PhysicalType::kFloat: return RunDecode<float>(state, *set, DecodeFloats);
    case PhysicalType::kDouble: return RunDecode<double>(state, *set, DecodeDoubles);
    case PhysicalType::kBinary: return RunDecode<std::string_view>(state, *set, DecodeBinaries);
  }
}

const std::map<std::string, StreamSet>& AllStreams() {
  static const std::map<std::string, StreamSet> streams = [] {
    std::map<std::string, StreamSet> s;
    const std::string fixtures = std::string(TSREAD_SOURCE_DIR) + "/../shared/fixtures/";
    for (const char* name : {"PLAIN", "RLE", "TS_2DIFF", "GORILLA", "GORILLA_V1", "ZIGZAG", "CHIMP", "SPRINTZ",
                             "RLBE", "DICTIONARY"}) {
      CollectStreams(fixtures + "table_enc_" + name + ".tsfile", 4, s);
    }
    std::map<std::string, StreamSet> bench;
    CollectStreams(std::string(TSREAD_SOURCE_DIR) + "/../shared/bench/table_large.tsfile", 20, bench);
    for (auto& [key, set] : bench) s["bench:" + key] = std::move(set);
    return s;
  }();
  return streams;
}

const bool kRegistered = [] {
  for (const auto& [key, set] : AllStreams()) {
    benchmark::RegisterBenchmark(("BM_Decode/" + key).c_str(), BenchmarkSet, &set);
  }
  return true;
}();

}  // namespace
}  // namespace tsread

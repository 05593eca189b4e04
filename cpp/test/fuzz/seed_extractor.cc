// Writes fuzzing seeds extracted from real files (tools/fuzz.sh runs it): every value page of
// the given TsFiles as a decoder_fuzzer input (encoding, type, count, stream), every compressed
// page body as a decompress_fuzzer input (codec, size, body), and every index node and the
// metadata as byte_stream_fuzzer inputs. Usage: seed_extractor OUT_DIR FILE...
#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/tsfile_reader.h"

namespace {

int written = 0;

void WriteSeed(const std::string& dir, const std::string& target, const std::string& bytes) {
  if (written >= 3000 || bytes.size() > 64 * 1024) return;
  std::ofstream(absl::StrCat(dir, "/", target, "/seed_", written++), std::ios::binary) << bytes;
}

char TypeSelector(tsread::DataType t) {  // decoder_fuzzer: byte 1 % 6
  switch (tsread::PhysicalTypeOf(t)) {
    case tsread::PhysicalType::kBoolean: return 0;
    case tsread::PhysicalType::kInt32: return 1;
    case tsread::PhysicalType::kInt64: return 2;
    case tsread::PhysicalType::kFloat: return 3;
    case tsread::PhysicalType::kDouble: return 4;
    case tsread::PhysicalType::kBinary: return 5;
  }
  return 2;
}

void ExtractChunk(const std::string& dir, const tsread::TsFileReader& reader, const tsread::ChunkMetadata& meta,
                  bool aligned_value) {
  absl::StatusOr<tsread::ChunkData> chunk = tsread::LoadChunk(reader, meta.offset);
  if (!chunk.ok()) return;
  for (const tsread::PageRef& page : chunk->pages) {
    if (page.header.is_empty()) continue;
    const uint32_t size = page.header.uncompressed_size;
    if (size < (1u << 20)) {
      std::string seed = {static_cast<char>(chunk->header.compression_byte), static_cast<char>(size & 0xFF),
                          static_cast<char>((size >> 8) & 0xFF), static_cast<char>((size >> 16) & 0x0F)};
      seed.append(page.body);
      WriteSeed(dir, "decompress", seed);
    }
    tsread::PageScratch scratch;
    absl::StatusOr<std::string_view> bytes = tsread::UncompressPage(chunk->header, page, tsread::ReadLimits{}, scratch);
    if (!bytes.ok()) continue;
    std::string_view stream = *bytes;
    uint32_t count = tsread::PageRowCount(page, meta.statistics);
    if (aligned_value) {  // strip rowCount and the bitmap: the stream holds the non-null values
      tsread::ByteStream in(stream, 0);
      absl::StatusOr<int32_t> rows = in.ReadI32("rows");
      if (!rows.ok() || *rows < 0 || !in.Skip((static_cast<size_t>(*rows) + 7) / 8, "bitmap").ok()) continue;
      stream = in.rest();
    }
    count = std::min<uint32_t>(count, 0xFFFF);
    std::string seed = {static_cast<char>(chunk->header.encoding_byte), TypeSelector(chunk->header.data_type),
                        static_cast<char>(count & 0xFF), static_cast<char>(count >> 8)};
    seed.append(stream);
    WriteSeed(dir, "decoder", seed);
  }
}

void Extract(const std::string& dir, const std::string& path) {
  absl::StatusOr<std::unique_ptr<tsread::TsFileReader>> reader = tsread::TsFileReader::Open(path);
  if (!reader.ok()) return;
  const tsread::FileLayout& layout = (*reader)->layout();
  // byte_stream_fuzzer: byte 0 picks the structure (1 = V4 TsFileMetadata, 2 = V3).
  absl::StatusOr<tsread::Buffer> meta = (*reader)->file().Read(layout.metadata_offset, layout.metadata_size);
  if (meta.ok()) {
    WriteSeed(dir, "byte_stream", std::string((*reader)->version() == 3 ? "\x02" : "\x01") + std::string(meta->bytes()));
  }
  for (const tsread::TableIndex& index : (*reader)->metadata().table_index) {
    absl::StatusOr<tsread::DeviceIterator> devices = (*reader)->Devices(index.name);
    if (!devices.ok()) continue;
    for (int d = 0; d < 4; ++d) {
      absl::StatusOr<const tsread::DeviceEntry*> device = devices->Next();
      if (!device.ok() || *device == nullptr) break;
      const tsread::DeviceLocation& loc = (*device)->location;
      absl::StatusOr<tsread::Buffer> node = (*reader)->file().Read(
          static_cast<uint64_t>(loc.measurement_root_offset),
          static_cast<uint64_t>(loc.measurement_root_end - loc.measurement_root_offset));
      if (node.ok()) WriteSeed(dir, "byte_stream", "\x04" + std::string(node->bytes()));
      absl::StatusOr<std::vector<tsread::TimeseriesMetadata>> series = (*reader)->ReadTimeseries(loc);
      if (!series.ok()) continue;
      bool aligned = false;
      for (const tsread::TimeseriesMetadata& tsm : *series) aligned |= tsm.is_time_column();
      for (const tsread::TimeseriesMetadata& tsm : *series) {
        for (const tsread::ChunkMetadata& chunk : tsm.chunks) ExtractChunk(dir, **reader, chunk, aligned && !tsm.is_time_column());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: seed_extractor OUT_DIR FILE...\n");
    return 1;
  }
  for (int i = 2; i < argc; ++i) Extract(argv[1], argv[i]);
  std::printf("%d seeds\n", written);
  return 0;
}

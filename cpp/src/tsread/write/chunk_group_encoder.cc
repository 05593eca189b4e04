#include "tsread/write/chunk_group_encoder.h"

#include <algorithm>

#include "tsread/io/status_macros.h"
#include "tsread/write/byte_appender.h"
#include "tsread/write/page_compressor.h"
#include "tsread/write/ts2diff_encoder.h"
#include "tsread/write/value_encoding.h"

namespace tsread {
namespace {

// Markers (§2.1).
constexpr uint8_t kChunkGroupHeader = 0x00;
constexpr uint8_t kTimeChunkMulti = 0x81;
constexpr uint8_t kTimeChunkSingle = 0x85;
constexpr uint8_t kValueChunkMulti = 0x41;
constexpr uint8_t kValueChunkSingle = 0x45;

// The value stream of one page: the column's non-null values of rows [begin, end) and their
// times. Points into the column when the range has no null, else gathers into `scratch`.
template <typename T>
struct PresentValues {
  const T* values = nullptr;
  const int64_t* times = nullptr;
  size_t count = 0;
};

template <typename T>
PresentValues<T> Present(const ColumnValues& column, const std::vector<T>& data, const int64_t* times, size_t begin,
                         size_t end, std::vector<T>& scratch, std::vector<int64_t>& time_scratch) {
  bool all = column.valid.empty();
  if (!all) {
    all = std::all_of(column.valid.begin() + begin, column.valid.begin() + end, [](uint8_t v) { return v != 0; });
  }
  if (all) return {data.data() + begin, times + begin, end - begin};
  scratch.clear();
  time_scratch.clear();
  for (size_t r = begin; r < end; ++r) {
    if (column.valid[r] == 0) continue;
    scratch.push_back(data[r]);
    time_scratch.push_back(times[r]);
  }
  return {scratch.data(), time_scratch.data(), scratch.size()};
}

// §8.3 not-null bitmap: row r <-> byte r/8, mask 0x80 >> (r % 8).
void AppendBitmap(const ColumnValues& column, size_t begin, size_t end, std::string& out) {
  const size_t rows = end - begin;
  const size_t first = out.size();
  out.append((rows + 7) / 8, '\0');
  char* bitmap = out.data() + first;
  for (size_t i = 0; i < rows; ++i) {
    if (column.is_valid(begin + i)) bitmap[i / 8] = static_cast<char>(bitmap[i / 8] | (0x80 >> (i % 8)));
  }
}

}  // namespace

template <typename T>
void ChunkGroupEncoder::EncodeValueBody(size_t slot, DataType type, const ColumnValues& values,
                                        const std::vector<T>& data, const int64_t* times, size_t begin, size_t end) {
  std::string& body = bodies_[slot];
  body.clear();
  statistics_[slot] = StatisticsBuilder(type);
  std::vector<T> scratch;
  const PresentValues<T> present = Present(values, data, times, begin, end, scratch, time_scratch_);
  if (present.count == 0) return;  // the empty page (§8.3)
  // §8.3: i32 rowCount, not-null bitmap, the non-null values' stream.
  AppendI32(body, static_cast<int32_t>(end - begin));
  AppendBitmap(values, begin, end, body);
  EncodeValues(type, present.values, present.count, body, &pack_buffers_[slot]);
  statistics_[slot].Add(present.times, present.values, present.count);
}

void ChunkGroupEncoder::EncodeBodies(const int64_t* times, const std::vector<ColumnValues>& values, size_t begin,
                                     size_t end) {
  // §8.2: the time page body is the time stream alone.
  bodies_[0].clear();
  EncodeTs2DiffInt64s(times + begin, end - begin, bodies_[0], &pack_buffers_[0]);
  statistics_[0] = StatisticsBuilder(DataType::kVector);
  statistics_[0].AddTimes(times + begin, end - begin);
  for (size_t c = 0; c < columns_.size(); ++c) {
    const ColumnValues& v = values[c];
    const DataType type = columns_[c].type;
    switch (PhysicalTypeOf(type)) {
      case PhysicalType::kBoolean:
        EncodeValueBody(c + 1, type, v, v.bools, times, begin, end);
        break;
      case PhysicalType::kInt32:
        EncodeValueBody(c + 1, type, v, v.int32s, times, begin, end);
        break;
      case PhysicalType::kInt64:
        EncodeValueBody(c + 1, type, v, v.int64s, times, begin, end);
        break;
      case PhysicalType::kFloat:
        EncodeValueBody(c + 1, type, v, v.floats, times, begin, end);
        break;
      case PhysicalType::kDouble:
        EncodeValueBody(c + 1, type, v, v.doubles, times, begin, end);
        break;
      case PhysicalType::kBinary:
        EncodeValueBody(c + 1, type, v, v.binaries, times, begin, end);
        break;
    }
  }
}

absl::Status ChunkGroupEncoder::SealPages() {
  for (size_t slot = 0; slot < bodies_.size(); ++slot) {
    Page page;
    page.uncompressed_size = bodies_[slot].size();
    if (page.uncompressed_size > 0) TSREAD_RETURN_IF_ERROR(CompressPage(compression_, bodies_[slot], page.compressed));
    page.statistics = std::move(statistics_[slot]);
    pages_[slot].push_back(std::move(page));
  }
  return absl::OkStatus();
}

void ChunkGroupEncoder::AppendChunk(uint8_t single_marker, uint8_t multi_marker, const WriterColumn& column,
                                    Encoding encoding, const std::vector<Page>& pages, uint64_t base_offset,
                                    std::string& out, ChunkRecord& record) const {
  record.offset = static_cast<int64_t>(base_offset + out.size());
  record.statistics = StatisticsBuilder(column.type);
  for (const Page& page : pages) record.statistics.Merge(page.statistics);
  // §3.1: marker, vstr measurement, uvar dataSize, dataType, compression, encoding.
  auto append_header = [&](uint8_t marker, size_t data_size) {
    AppendU8(out, marker);
    AppendVarString(out, column.name);
    AppendUVarInt(out, static_cast<uint32_t>(data_size));
    AppendU8(out, static_cast<uint8_t>(column.type));
    AppendU8(out, static_cast<uint8_t>(compression_));
    AppendU8(out, static_cast<uint8_t>(encoding));
  };
  if (record.statistics.count() == 0) {
    // Empty value chunk (J: TsFileIOWriter.writeEmptyValueChunk): header only, dataSize 0.
    append_header(single_marker, 0);
    return;
  }
  // Page statistics only in multi-page chunks; empty pages count as pages (§3.2).
  const bool multi_page = pages.size() > 1;
  std::string body;
  for (const Page& page : pages) {
    // §3.2: uvar uncompressedSize (0 = empty page, nothing follows), uvar compressedSize,
    // [Statistics], body.
    AppendUVarInt(body, static_cast<uint32_t>(page.uncompressed_size));
    if (page.uncompressed_size == 0) continue;
    AppendUVarInt(body, static_cast<uint32_t>(page.compressed.size()));
    if (multi_page) page.statistics.SerializeTo(body);
    body.append(page.compressed);
  }
  append_header(multi_page ? multi_marker : single_marker, body.size());
  out.append(body);
}

absl::Status ChunkGroupEncoder::Encode(const DeviceId& device, const int64_t* times, size_t rows,
                                       const std::vector<ColumnValues>& values, uint64_t base_offset, std::string& out,
                                       ChunkRecord& time_record, std::vector<ChunkRecord>& column_records) {
  // §2.2: 0x00 + StringArrayDeviceID (uvar count + nullable vstr segments).
  AppendU8(out, kChunkGroupHeader);
  AppendUVarInt(out, static_cast<uint32_t>(device.segment_count()));
  for (const std::optional<std::string>& segment : device.segments()) AppendNullableVarString(out, segment);

  const size_t slots = columns_.size() + 1;
  bodies_.resize(slots);
  statistics_.assign(slots, StatisticsBuilder(DataType::kVector));
  pages_.assign(slots, {});
  pack_buffers_.assign(slots, Ts2DiffPackBuffer{});
  const size_t max_points = std::max<size_t>(limits_.max_points, 1);
  size_t begin = 0;
  while (begin < rows) {
    size_t end = begin + std::min(max_points, rows - begin);
    pack_buffers_at_page_start_ = pack_buffers_;
    for (;;) {
      EncodeBodies(times, values, begin, end);
      size_t biggest = 0;
      for (const std::string& body : bodies_) biggest = std::max(biggest, body.size());
      if (biggest <= limits_.max_bytes || end - begin == 1) break;
      // Java seals all pages of the group once one column's page passes the byte limit; cut
      // the rows in proportion and encode again.
      const size_t page_rows = end - begin;
      const size_t fit = page_rows * limits_.max_bytes / biggest;
      end = begin + std::clamp<size_t>(fit, 1, page_rows - 1);
      pack_buffers_ = pack_buffers_at_page_start_;
    }
    TSREAD_RETURN_IF_ERROR(SealPages());
    begin = end;
  }

  AppendChunk(kTimeChunkSingle, kTimeChunkMulti, WriterColumn{"", DataType::kVector}, Encoding::kTs2Diff, pages_[0],
              base_offset, out, time_record);
  column_records.resize(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    AppendChunk(kValueChunkSingle, kValueChunkMulti, columns_[c], WriterEncodingFor(columns_[c].type), pages_[c + 1],
                base_offset, out, column_records[c]);
  }
  return absl::OkStatus();
}

}  // namespace tsread

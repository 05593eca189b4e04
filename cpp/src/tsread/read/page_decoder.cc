#include "tsread/read/page_decoder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <span>

#include "absl/strings/str_cat.h"
#include "tsread/compress/decompress.h"
#include "tsread/encoding/value_count.h"
#include "tsread/encoding/value_decoder.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Prefixes an error with the column and page it came from, keeping its code.
absl::Status InPage(const absl::Status& status, const ChunkHeader& chunk, const PageRef& page) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat("column \"", ToAbsl(chunk.measurement), "\" (chunk at offset ",
                                                  chunk.offset, ", page at offset ", page.header.offset,
                                                  "): ", status.message()));
}

absl::StatusOr<Encoding> ChunkEncoding(const ChunkHeader& chunk) {
  std::optional<Encoding> encoding = EncodingFromByte(chunk.encoding_byte);
  if (!encoding.has_value()) {
    return absl::UnimplementedError(absl::StrCat("unsupported encoding id ", chunk.encoding_byte));
  }
  return *encoding;
}

// A count read from the file (statistics, or the set bits of a null bitmap) sizes buffers before
// anything is decoded: it must not exceed what the stream's headers can back (§13 item 1).
absl::Status CheckCount(uint64_t count, Encoding encoding, DataType type, std::string_view stream) {
  const uint64_t most = MaxDecodableValues(encoding, type, stream);
  if (count > most) {
    return absl::DataLossError(absl::StrCat(count, " values expected but the ", stream.size(), "-byte ",
                                            ToAbsl(EncodingName(encoding)), " stream holds at most ", most));
  }
  return absl::OkStatus();
}

// Runs `decode` (which writes `count` values of `stream`) with CheckCount's guarantee, walking the
// headers first only where the count could make buffers outgrow the input: beyond 8 values a byte
// of the stream (what a valid stream can hold at one bit a value) and beyond kUnwalkedValues (a
// page's buffers of that many values are at most 1 MiB). Any other count's walk waits until the
// decode fails, to say why as the walk would have (a count the headers cannot back always fails to
// decode: value_count.h). The walks were 2.6 % of a scan of the benchmark file, whose pages of
// 3,200 values are all under both bounds.
constexpr uint64_t kUnwalkedValues = uint64_t{1} << 16;

template <typename Decode>
absl::Status DecodeCounted(uint64_t count, Encoding encoding, DataType type, std::string_view stream,
                           const Decode& decode) {
  const bool walk_first = count > MaxValuesAtOneBitEach(stream.size()) && count > kUnwalkedValues;
  if (walk_first) TSREAD_RETURN_IF_ERROR(CheckCount(count, encoding, type, stream));
  absl::Status status = decode();
  if (!status.ok() && !walk_first) TSREAD_RETURN_IF_ERROR(CheckCount(count, encoding, type, stream));
  return status;
}

absl::Status CheckRows(uint64_t rows, const ReadLimits& limits) {
  if (rows > limits.max_page_rows) {
    return absl::DataLossError(
        absl::StrCat("page claims ", rows, " rows, over the ", limits.max_page_rows, "-row page limit"));
  }
  return absl::OkStatus();
}

template <typename T>
T* DenseBuffer(PageScratch& scratch, size_t count) {
  scratch.dense.resize((count * sizeof(T) + sizeof(uint64_t) - 1) / sizeof(uint64_t) + 1);
  return reinterpret_cast<T*>(scratch.dense.data());
}

template <typename T>
absl::Status DecodeTyped(Encoding encoding, std::string_view stream, size_t count, T* out);
template <>
absl::Status DecodeTyped(Encoding e, std::string_view s, size_t n, uint8_t* out) { return DecodeBooleans(e, s, n, out); }
template <>
absl::Status DecodeTyped(Encoding e, std::string_view s, size_t n, int32_t* out) { return DecodeInt32s(e, s, n, out); }
template <>
absl::Status DecodeTyped(Encoding e, std::string_view s, size_t n, int64_t* out) { return DecodeInt64s(e, s, n, out); }
template <>
absl::Status DecodeTyped(Encoding e, std::string_view s, size_t n, float* out) { return DecodeFloats(e, s, n, out); }
template <>
absl::Status DecodeTyped(Encoding e, std::string_view s, size_t n, double* out) { return DecodeDoubles(e, s, n, out); }

// Copies the dense non-null values to the rows whose validity bit is set; null slots get T{}.
// Whole bitmap bytes that are all set or all clear take the fast paths.
template <typename T>
void SpreadOverRows(const T* dense, const uint8_t* validity, size_t rows, T* values) {
  size_t j = 0;
  size_t r = 0;
  for (; r + 8 <= rows; r += 8) {
    const uint8_t bits = validity[r >> 3];
    if (bits == 0xFF) {
      std::memcpy(values + r, dense + j, 8 * sizeof(T));
      j += 8;
    } else if (bits == 0) {
      std::fill(values + r, values + r + 8, T{});
    } else {
      for (int b = 0; b < 8; ++b) values[r + b] = ((bits >> b) & 1) ? dense[j++] : T{};
    }
  }
  for (; r < rows; ++r) values[r] = ((validity[r >> 3] >> (r & 7)) & 1) ? dense[j++] : T{};
}

// Decodes `non_null` values into the rows whose validity bit is set.
template <typename T>
absl::Status DecodeIntoRows(Encoding encoding, std::string_view stream, size_t non_null, PageScratch& scratch,
                            const ColumnVector& out, std::vector<T>& values) {
  const size_t rows = out.length;
  if (non_null == rows) return DecodeTyped(encoding, stream, rows, values.data());
  T* dense = DenseBuffer<T>(scratch, non_null);
  TSREAD_RETURN_IF_ERROR(DecodeTyped(encoding, stream, non_null, dense));
  SpreadOverRows(dense, out.validity.data(), rows, values.data());
  return absl::OkStatus();
}

// Decodes `non_null` TEXT/STRING/BLOB values (views into the page) and copies them into the
// column's own bytes, so that the batch outlives the page buffer.
absl::Status DecodeBinariesIntoRows(Encoding encoding, std::string_view stream, size_t non_null,
                                    PageScratch& scratch, ColumnVector& out) {
  scratch.binaries.resize(non_null);
  TSREAD_RETURN_IF_ERROR(DecodeBinaries(encoding, stream, non_null, scratch.binaries.data()));
  size_t total = 0;
  for (std::string_view v : scratch.binaries) total += v.size();
  // Values are views into one page, so they cannot add up to more than the page (≤ 256 MiB by
  // default); the check keeps the int32 offsets exact whatever the limit.
  if (total > static_cast<size_t>(INT32_MAX)) {
    return absl::ResourceExhaustedError(absl::StrCat("a page's binary values add up to ", total,
                                                     " bytes, over the 2 GiB a batch column can hold"));
  }
  out.bytes.resize(total);
  char* bytes = out.bytes.data();
  int32_t* offsets = out.offsets.data();
  int32_t at = 0;
  size_t j = 0;
  for (size_t r = 0; r < out.length; ++r) {
    offsets[r] = at;
    if (!out.IsValid(r)) continue;
    const std::string_view v = scratch.binaries[j++];
    if (!v.empty()) std::memcpy(bytes + at, v.data(), v.size());
    at += static_cast<int32_t>(v.size());
  }
  offsets[out.length] = at;
  return absl::OkStatus();
}

absl::Status DecodeColumnValues(Encoding encoding, std::string_view stream, size_t non_null, PageScratch& scratch,
                                ColumnVector& out) {
  return DecodeCounted(non_null, encoding, out.type, stream, [&]() -> absl::Status {
    switch (PhysicalTypeOf(out.type)) {
      case PhysicalType::kBoolean: return DecodeIntoRows(encoding, stream, non_null, scratch, out, out.bools);
      case PhysicalType::kInt32: return DecodeIntoRows(encoding, stream, non_null, scratch, out, out.int32s);
      case PhysicalType::kInt64: return DecodeIntoRows(encoding, stream, non_null, scratch, out, out.int64s);
      case PhysicalType::kFloat: return DecodeIntoRows(encoding, stream, non_null, scratch, out, out.floats);
      case PhysicalType::kDouble: return DecodeIntoRows(encoding, stream, non_null, scratch, out, out.doubles);
      case PhysicalType::kBinary: return DecodeBinariesIntoRows(encoding, stream, non_null, scratch, out);
    }
    return absl::InternalError("unknown physical type");
  });
}

// kReversedBits[b] is b with its bit order reversed: value-page bitmaps are MSB-first (§8.3),
// batch bitmaps LSB-first (Arrow's layout).
constexpr std::array<uint8_t, 256> MakeReversedBits() {
  std::array<uint8_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    int reversed = 0;
    for (int i = 0; i < 8; ++i) reversed |= ((b >> i) & 1) << (7 - i);
    table[b] = static_cast<uint8_t>(reversed);
  }
  return table;
}
constexpr std::array<uint8_t, 256> kReversedBits = MakeReversedBits();

// Converts a value page's not-null bitmap of `rows` rows into the column's validity bitmap and
// sets its null_count.
// Whole words of set bits (no nulls, the common case) are copied as they are.
void ReadPageBitmap(std::string_view bitmap, ColumnVector& out) {
  const auto* bits = reinterpret_cast<const uint8_t*>(bitmap.data());
  uint8_t* validity = out.validity.data();
  const size_t bytes = out.validity.size();
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t word;
    std::memcpy(&word, bits + i, 8);
    if (word == ~uint64_t{0}) {
      std::memcpy(validity + i, &word, 8);
    } else {
      for (size_t k = i; k < i + 8; ++k) validity[k] = kReversedBits[bits[k]];
    }
  }
  for (; i < bytes; ++i) validity[i] = kReversedBits[bits[i]];
  out.FinishValidity();
}

}  // namespace

uint32_t PageRowCount(const PageRef& page, const Statistics& chunk_statistics) {
  return page.header.statistics.has_value() ? page.header.statistics->count : chunk_statistics.count;
}

absl::StatusOr<std::string_view> UncompressPage(const ChunkHeader& chunk, const PageRef& page,
                                                const ReadLimits& limits, PageScratch& scratch) {
  std::optional<Compression> codec = CompressionFromByte(chunk.compression_byte);
  if (!codec.has_value()) {
    return InPage(absl::UnimplementedError(absl::StrCat("unsupported compression id ", chunk.compression_byte)), chunk,
                  page);
  }
  const uint64_t size = page.header.uncompressed_size;
  if (*codec == Compression::kUncompressed) {
    if (size != page.body.size()) {
      return InPage(absl::DataLossError(absl::StrCat("uncompressed page declares ", size, " bytes but its body has ",
                                                     page.body.size())),
                    chunk, page);
    }
    return page.body;
  }
  if (size > limits.max_page_bytes) {
    return InPage(absl::DataLossError(absl::StrCat("page declares ", size, " uncompressed bytes, over the ",
                                                   limits.max_page_bytes, "-byte page limit")),
                  chunk, page);
  }
  // Refuse bombs before allocating: the codec must be able to produce `size` bytes (§10.1).
  TSREAD_RETURN_IF_ERROR(InPage(CheckDeclaredSize(*codec, page.body, size), chunk, page));
  scratch.uncompressed.resize(size);
  TSREAD_RETURN_IF_ERROR(
      InPage(Decompress(*codec, page.body, std::span<char>(scratch.uncompressed.data(), size)), chunk, page));
  return std::string_view(scratch.uncompressed.data(), size);
}

absl::Status DecodeTimePage(const ChunkHeader& chunk, const PageRef& page, uint32_t count, const ReadLimits& limits,
                            PageScratch& scratch, std::vector<int64_t>& times) {
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(chunk, page, limits, scratch));
  absl::StatusOr<Encoding> encoding = ChunkEncoding(chunk);
  if (!encoding.ok()) return InPage(encoding.status(), chunk, page);
  TSREAD_RETURN_IF_ERROR(InPage(CheckRows(count, limits), chunk, page));
  return InPage(DecodeCounted(count, *encoding, DataType::kVector, bytes,
                              [&] {
                                times.resize(count);
                                return DecodeInt64s(*encoding, bytes, count, times.data());
                              }),
                chunk, page);
}

absl::Status DecodeValuePage(const ChunkHeader& chunk, const PageRef& page, uint32_t rows, const ReadLimits& limits,
                             PageScratch& scratch, ColumnVector& out) {
  return DecodeValuePageHead(chunk, page, rows, rows, limits, scratch, out);
}

absl::Status DecodeValuePageHead(const ChunkHeader& chunk, const PageRef& page, uint32_t rows, uint32_t head,
                                 const ReadLimits& limits, PageScratch& scratch, ColumnVector& out) {
  out.type = chunk.data_type;
  out.Resize(std::min(head, rows));
  if (page.header.is_empty()) {
    out.SetAllNull();
    return absl::OkStatus();
  }
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(chunk, page, limits, scratch));
  ByteStream in(bytes, 0);
  absl::StatusOr<int32_t> row_count = in.ReadI32("value page row count");
  if (!row_count.ok()) return InPage(row_count.status(), chunk, page);
  if (*row_count < 0 || static_cast<uint32_t>(*row_count) != rows) {
    return InPage(absl::DataLossError(absl::StrCat("value page has ", *row_count, " rows, its time page ", rows)),
                  chunk, page);
  }
  absl::StatusOr<std::string_view> bitmap = in.ReadBytes((static_cast<size_t>(rows) + 7) / 8, "value page bitmap");
  if (!bitmap.ok()) return InPage(bitmap.status(), chunk, page);
  ReadPageBitmap(*bitmap, out);  // the first out.length rows' bits
  const size_t non_null = out.length - out.null_count;
  absl::StatusOr<Encoding> encoding = ChunkEncoding(chunk);
  if (!encoding.ok()) return InPage(encoding.status(), chunk, page);
  return InPage(DecodeColumnValues(*encoding, in.rest(), non_null, scratch, out), chunk, page);
}

absl::Status DecodeNonAlignedPage(const ChunkHeader& chunk, const PageRef& page, uint32_t count,
                                  const ReadLimits& limits, PageScratch& scratch, std::vector<int64_t>& times,
                                  ColumnVector& out) {
  out.type = chunk.data_type;
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, UncompressPage(chunk, page, limits, scratch));
  ByteStream in(bytes, 0);
  absl::StatusOr<uint32_t> time_length = in.ReadUVarSize("time stream length");
  if (!time_length.ok()) return InPage(time_length.status(), chunk, page);
  absl::StatusOr<std::string_view> time_stream = in.ReadBytes(*time_length, "time stream");
  if (!time_stream.ok()) return InPage(time_stream.status(), chunk, page);
  // The time encoding of a non-aligned page is not stored: Java's default TS_2DIFF (§3.1).
  TSREAD_RETURN_IF_ERROR(InPage(CheckRows(count, limits), chunk, page));
  TSREAD_RETURN_IF_ERROR(InPage(DecodeCounted(count, Encoding::kTs2Diff, DataType::kVector, *time_stream,
                                              [&] {
                                                times.resize(count);
                                                return DecodeInt64s(Encoding::kTs2Diff, *time_stream, count,
                                                                    times.data());
                                              }),
                                chunk, page));
  out.Resize(count);
  out.SetAllValid();
  absl::StatusOr<Encoding> encoding = ChunkEncoding(chunk);
  if (!encoding.ok()) return InPage(encoding.status(), chunk, page);
  return InPage(DecodeColumnValues(*encoding, in.rest(), count, scratch, out), chunk, page);
}

}  // namespace tsread

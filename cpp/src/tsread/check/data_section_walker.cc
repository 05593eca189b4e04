#include "tsread/check/data_section_walker.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

absl::Status WalkPages(ByteStream& in, const ChunkHeader& chunk, DataSectionVisitor& visitor) {
  const uint64_t pages_offset = in.offset();
  TSREAD_ASSIGN_OR_RETURN(std::string_view pages, in.ReadBytes(chunk.data_size, "chunk pages"));
  ByteStream page_stream(pages, pages_offset);
  while (!page_stream.empty()) {
    TSREAD_ASSIGN_OR_RETURN(PageHeader page, ReadPageHeader(page_stream, chunk.data_type, chunk.has_page_statistics()));
    const uint64_t body_offset = page_stream.offset();
    TSREAD_ASSIGN_OR_RETURN(std::string_view body, page_stream.ReadBytes(page.compressed_size, "page body"));
    TSREAD_RETURN_IF_ERROR(visitor.OnPage(chunk, page, body_offset, body));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WalkDataSection(const RandomAccessFile& file, const DataRange& range, DataSectionVisitor& visitor) {
  const uint64_t begin = kHeadSize;
  if (range.end < begin || range.end > file.size()) {
    return absl::InvalidArgumentError(absl::StrCat("data range [", begin, ", ", range.end, ") is not inside ",
                                                   file.name(), " (", file.size(), " bytes)"));
  }
  TSREAD_ASSIGN_OR_RETURN(Buffer bytes, file.Read(begin, range.end - begin));
  ByteStream in(bytes.bytes(), begin);
  while (true) {
    const uint64_t at = in.offset();
    TSREAD_ASSIGN_OR_RETURN(uint8_t marker, in.ReadU8("data section marker"));
    TSREAD_RETURN_IF_ERROR(visitor.OnMarker(at, marker));
    if (marker == kChunkGroupHeaderMarker) {
      TSREAD_ASSIGN_OR_RETURN(DeviceIdView device, ReadDeviceIdView(in, range.version));
      TSREAD_RETURN_IF_ERROR(visitor.OnChunkGroup(at, device));
    } else if (IsChunkMarker(marker)) {
      ByteStream header_stream(bytes.bytes().substr(at - begin), at);
      TSREAD_ASSIGN_OR_RETURN(ChunkHeader chunk, ReadChunkHeader(header_stream));
      TSREAD_RETURN_IF_ERROR(in.Skip(chunk.header_size - 1, "chunk header"));
      TSREAD_RETURN_IF_ERROR(visitor.OnChunk(chunk));
      TSREAD_RETURN_IF_ERROR(WalkPages(in, chunk, visitor));
    } else if (marker == kOperationIndexRangeMarker) {
      TSREAD_ASSIGN_OR_RETURN(int64_t min_index, in.ReadI64("operation index range"));
      TSREAD_ASSIGN_OR_RETURN(int64_t max_index, in.ReadI64("operation index range"));
      TSREAD_RETURN_IF_ERROR(visitor.OnOperationIndexRange(at, min_index, max_index));
    } else if (marker == kSeparatorMarker) {
      if (range.separator_offset.has_value() && at != *range.separator_offset) {
        return absl::DataLossError(absl::StrCat("corrupt data section: separator at offset ", at,
                                                " before the meta offset ", *range.separator_offset));
      }
      return visitor.OnSeparator(at);
    } else {
      return absl::DataLossError(absl::StrCat("corrupt data section at offset ", at, ": unknown marker 0x",
                                              absl::Hex(marker)));
    }
  }
}

absl::Status WalkDataSection(const TsFileReader& reader, DataSectionVisitor& visitor) {
  const uint64_t meta_offset = reader.metadata().meta_offset;
  DataRange range;
  range.version = reader.version();
  range.end = meta_offset + 1;  // include the separator
  range.separator_offset = meta_offset;
  return WalkDataSection(reader.file(), range, visitor);
}

}  // namespace tsread

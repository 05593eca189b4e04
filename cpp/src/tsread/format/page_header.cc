#include "tsread/format/page_header.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::Status ReadPageHeaderInto(ByteStream& in, DataType type, bool with_statistics, PageHeader& h) {
  h.offset = in.offset();
  h.compressed_size = 0;
  const size_t start = in.position();
  TSREAD_ASSIGN_OR_RETURN(h.uncompressed_size, in.ReadUVarSize("page uncompressed size"));
  if (h.uncompressed_size == 0) {
    h.header_size = 1;
    h.statistics.reset();
    return absl::OkStatus();
  }
  TSREAD_ASSIGN_OR_RETURN(h.compressed_size, in.ReadUVarSize("page compressed size"));
  if (with_statistics) {
    if (!h.statistics.has_value()) h.statistics.emplace();
    TSREAD_RETURN_IF_ERROR(ReadStatisticsInto(in, type, *h.statistics));
  } else {
    h.statistics.reset();
  }
  h.header_size = static_cast<uint32_t>(in.position() - start);
  if (h.compressed_size > in.remaining()) {
    return absl::DataLossError(absl::StrCat("corrupt page header at offset ", h.offset, ": page body of ",
                                            h.compressed_size, " bytes exceeds the ", in.remaining(),
                                            " bytes left in the chunk"));
  }
  return absl::OkStatus();
}

absl::StatusOr<PageHeader> ReadPageHeader(ByteStream& in, DataType type, bool with_statistics) {
  PageHeader h;
  TSREAD_RETURN_IF_ERROR(ReadPageHeaderInto(in, type, with_statistics, h));
  return h;
}

}  // namespace tsread

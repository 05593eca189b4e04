// PageHeader (format reference §3.2).
#ifndef TSREAD_FORMAT_PAGE_HEADER_H_
#define TSREAD_FORMAT_PAGE_HEADER_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/statistics.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

struct PageHeader {
  uint64_t offset = 0;        // file offset of the header
  uint32_t header_size = 0;
  uint32_t uncompressed_size = 0;  // 0: an empty value page, nothing follows (§8.3)
  uint32_t compressed_size = 0;
  std::optional<Statistics> statistics;  // only in multi-page chunks

  bool is_empty() const { return uncompressed_size == 0; }
};

// Reads a page header from a stream over the chunk's page bytes, so the page body must fit in
// what remains; `with_statistics` comes from the chunk's marker (§13 item 6).
absl::StatusOr<PageHeader> ReadPageHeader(ByteStream& in, DataType type, bool with_statistics);
// ReadPageHeader into `out`, whose statistics keep their strings' capacity (a chunk's page list is
// parsed into the same objects chunk after chunk).
absl::Status ReadPageHeaderInto(ByteStream& in, DataType type, bool with_statistics, PageHeader& out);

}  // namespace tsread

#endif  // TSREAD_FORMAT_PAGE_HEADER_H_

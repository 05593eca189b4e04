// Page decoding (format reference §8): decompress a page body, then decode its time stream and/or
// value stream in one batch call per page. Each call is self-contained: nothing carries over
// from one page to the next.
#ifndef TSREAD_READ_PAGE_DECODER_H_
#define TSREAD_READ_PAGE_DECODER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/chunk_data.h"
#include "tsread/read/column_vector.h"

namespace tsread {

struct ReadLimits {
  // Largest uncompressed page accepted; checked before anything is allocated (§13 item 1).
  uint64_t max_page_bytes = uint64_t{256} << 20;
  // Most rows in one page. Encodings can legitimately expand a lot (an RLE run header of a few
  // bytes stands for 32,767 values; a TS_2DIFF block of bit width 0 for as many as its header
  // says), so the stream alone does not bound a page's values; this cap does, like the byte cap
  // for codecs: 2^25 rows = 256 MiB of INT64, far above any writer's page size (Java: 10,000
  // points by default).
  uint64_t max_page_rows = uint64_t{1} << 25;
};

// Reusable memory for decoding one column's pages (nothing in it outlives a page: decoded
// batches own their values).
struct PageScratch {
  std::vector<char> uncompressed;
  std::vector<uint64_t> dense;  // non-null values before they are spread over the rows
  std::vector<std::string_view> binaries;  // binary values as views into the page, before copying
};

// The uncompressed bytes of `page` (§10.1): a view of the body itself when the chunk is
// UNCOMPRESSED, else of scratch.uncompressed.
absl::StatusOr<std::string_view> UncompressPage(const ChunkHeader& chunk, const PageRef& page,
                                                const ReadLimits& limits, PageScratch& scratch);

// Decodes the `count` timestamps of an aligned time page (§8.2) with the time chunk's encoding.
absl::Status DecodeTimePage(const ChunkHeader& chunk, const PageRef& page, uint32_t count, const ReadLimits& limits,
                            PageScratch& scratch, std::vector<int64_t>& times);

// Decodes an aligned value page (§8.3) covering `rows` rows into `out` (resized to `rows`):
// the null bitmap into out.validity, the non-null values into their row slots. An empty page makes
// every row null.
absl::Status DecodeValuePage(const ChunkHeader& chunk, const PageRef& page, uint32_t rows, const ReadLimits& limits,
                             PageScratch& scratch, ColumnVector& out);
// The same for the page's first `head` rows (head <= rows) only: `out` holds those, and the
// values after them are not decoded (a decoder stops after the values asked for: value_decoder.h) — for a
// page of which only a prefix is wanted.
absl::Status DecodeValuePageHead(const ChunkHeader& chunk, const PageRef& page, uint32_t rows, uint32_t head,
                                 const ReadLimits& limits, PageScratch& scratch, ColumnVector& out);

// Decodes a non-aligned page (§8.1) of `count` points: times (TS_2DIFF, §3.1) and values.
absl::Status DecodeNonAlignedPage(const ChunkHeader& chunk, const PageRef& page, uint32_t count,
                                  const ReadLimits& limits, PageScratch& scratch, std::vector<int64_t>& times,
                                  ColumnVector& out);

// Rows in a page: its statistics count (multi-page chunks) or, for the only page of a chunk,
// the chunk's count from its ChunkMetadata.
uint32_t PageRowCount(const PageRef& page, const Statistics& chunk_statistics);

}  // namespace tsread

#endif  // TSREAD_READ_PAGE_DECODER_H_

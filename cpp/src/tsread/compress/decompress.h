// Page-body decompression (format reference §10.1): one function per codec behind one dispatch.
// The output size is always the page header's uncompressedSize, so the caller allocates `out`
// (after checking that size against its cap) and the codec must fill it exactly.
#ifndef TSREAD_COMPRESS_DECOMPRESS_H_
#define TSREAD_COMPRESS_DECOMPRESS_H_

#include <span>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread {

// Decompresses `compressed` into exactly out.size() bytes.
// DataLoss if the payload is malformed or decodes to a different size than out.size();
// Unimplemented for codecs without a decoder (SDT, PAA, PLA: names only upstream).
absl::Status Decompress(Compression codec, std::string_view compressed, std::span<char> out);

// Checks, before the caller allocates `declared` bytes for the output, that `compressed` can
// decode to that size at all: exact for UNCOMPRESSED, SNAPPY (its length header), GZIP (the
// ISIZE trailer) and ZSTD frames that record their content size; within the codec's maximum
// expansion for LZ4 and LZO (255:1: a run-length byte extends a match by at most 255) and GZIP (1032:1). A page that claims more is a decompression bomb or
// corrupt: DataLoss. LZMA2 has no such bound (constant data legitimately expands >1000:1): the
// caller's page-size cap is its only limit.
absl::Status CheckDeclaredSize(Compression codec, std::string_view compressed, uint64_t declared);

}  // namespace tsread

#endif  // TSREAD_COMPRESS_DECOMPRESS_H_

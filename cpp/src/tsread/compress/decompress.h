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
// Unimplemented for codecs tsread cannot read (LZO, SDT, PAA, PLA).
absl::Status Decompress(Compression codec, std::string_view compressed, std::span<char> out);

}  // namespace tsread

#endif  // TSREAD_COMPRESS_DECOMPRESS_H_

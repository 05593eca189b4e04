// Page-body compression (format reference §10.1): UNCOMPRESSED (the bytes as they are), LZ4 (a
// raw block from LZ4_compress_default, no frame, no size prefix) and ZSTD (a standard frame).
#ifndef TSREAD_WRITE_PAGE_COMPRESSOR_H_
#define TSREAD_WRITE_PAGE_COMPRESSOR_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread {

// True for the codecs the writer produces.
bool WriterSupportsCompression(Compression compression);

// Replaces `out` with `input` compressed by `compression`. InvalidArgument for a codec the
// writer does not produce, Internal if the library fails.
absl::Status CompressPage(Compression compression, std::string_view input, std::string& out);

}  // namespace tsread

#endif  // TSREAD_WRITE_PAGE_COMPRESSOR_H_

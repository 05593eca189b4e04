// LZO page-body decoder (format reference §10.1): a raw LZO1X stream as the Apache C++ writer
// produces it (lzokay, LZO1X-999 compatible; no header). Java cannot write or read LZO.
#ifndef TSREAD_COMPRESS_LZO_CODEC_H_
#define TSREAD_COMPRESS_LZO_CODEC_H_

#include <span>
#include <string_view>

#include "absl/status/status.h"

namespace tsread {

// Decodes `compressed` into exactly out.size() bytes, never writing outside `out`.
// DataLoss if the body is malformed, truncated, or decodes to any other size.
absl::Status DecompressLzo(std::string_view compressed, std::span<char> out);

}  // namespace tsread

#endif  // TSREAD_COMPRESS_LZO_CODEC_H_

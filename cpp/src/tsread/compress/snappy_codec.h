// SNAPPY page-body decoder (format reference §10.1): raw Snappy block (leading uvar length),
// not the framing format.
#ifndef TSREAD_COMPRESS_SNAPPY_CODEC_H_
#define TSREAD_COMPRESS_SNAPPY_CODEC_H_

#include <span>
#include <string_view>

#include "absl/status/status.h"

namespace tsread {

// Decodes `compressed` into exactly out.size() bytes, never writing outside `out`.
// DataLoss if the body is malformed, truncated, or decodes to any other size.
absl::Status DecompressSnappy(std::string_view compressed, std::span<char> out);

}  // namespace tsread

#endif  // TSREAD_COMPRESS_SNAPPY_CODEC_H_

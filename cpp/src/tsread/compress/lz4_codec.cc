#include "tsread/compress/lz4_codec.h"

#include <lz4.h>

#include "absl/strings/str_cat.h"

namespace tsread {

absl::Status DecompressLz4(std::string_view compressed, std::span<char> out) {
  // LZ4's block API takes int sizes; no writer can produce a block beyond LZ4_MAX_INPUT_SIZE.
  if (compressed.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE) ||
      out.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    return absl::DataLossError(absl::StrCat("LZ4 page body of ", compressed.size(),
                                            " bytes for ", out.size(),
                                            " bytes exceeds the LZ4 block limit"));
  }
  // §10.1: a raw block with no size prefix, so the page header's uncompressedSize is the only
  // bound. LZ4_decompress_safe decodes straight into `out` and fails rather than write past it.
  const int decoded = LZ4_decompress_safe(compressed.data(), out.data(),
                                          static_cast<int>(compressed.size()),
                                          static_cast<int>(out.size()));
  if (decoded < 0) {
    // The block API cannot tell a corrupt block from one that would overflow `out`.
    return absl::DataLossError(absl::StrCat("LZ4 page body of ", compressed.size(),
                                            " bytes is malformed, truncated or decodes to more than ",
                                            out.size(), " bytes"));
  }
  if (static_cast<size_t>(decoded) != out.size()) {
    return absl::DataLossError(absl::StrCat("LZ4 page body of ", compressed.size(),
                                            " bytes decodes to ", decoded, " bytes, expected ",
                                            out.size()));
  }
  return absl::OkStatus();
}

}  // namespace tsread

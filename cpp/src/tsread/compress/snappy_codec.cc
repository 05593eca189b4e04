#include "tsread/compress/snappy_codec.h"

#include <snappy.h>

#include "absl/strings/str_cat.h"

namespace tsread {

absl::Status DecompressSnappy(std::string_view compressed, std::span<char> out) {
  // §10.1: a raw Snappy block starts with its uncompressed length as a uvar. It is a claim of
  // the payload, so it is compared with out.size() and never used to allocate.
  size_t claimed = 0;
  if (!snappy::GetUncompressedLength(compressed.data(), compressed.size(), &claimed)) {
    return absl::DataLossError(absl::StrCat("SNAPPY page body of ", compressed.size(),
                                            " bytes has no valid length prefix"));
  }
  if (claimed != out.size()) {
    return absl::DataLossError(absl::StrCat("SNAPPY page body of ", compressed.size(),
                                            " bytes declares ", claimed,
                                            " uncompressed bytes, expected ", out.size()));
  }
  // With the claim equal to out.size(), RawUncompress writes at most out.size() bytes and
  // returns false unless the block is well formed and fills exactly that many.
  if (!snappy::RawUncompress(compressed.data(), compressed.size(), out.data())) {
    return absl::DataLossError(absl::StrCat("SNAPPY page body of ", compressed.size(),
                                            " bytes is malformed or truncated"));
  }
  return absl::OkStatus();
}

}  // namespace tsread

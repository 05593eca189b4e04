#include "tsread/compress/lzo_codec.h"

#include <lzo/lzo1x.h>

#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

// lzo_init() only checks the library's build configuration; its result never changes.
bool LzoUsable() {
  static const bool usable = lzo_init() == LZO_E_OK;
  return usable;
}

}  // namespace

absl::Status DecompressLzo(std::string_view compressed, std::span<char> out) {
  if (!LzoUsable()) return absl::InternalError("liblzo2 failed to initialise");
  lzo_uint written = out.size();
  // The _safe decoder checks both the input and the output bounds.
  const int result = lzo1x_decompress_safe(reinterpret_cast<const unsigned char*>(compressed.data()),
                                           compressed.size(), reinterpret_cast<unsigned char*>(out.data()),
                                           &written, nullptr);
  if (result == LZO_E_OUTPUT_OVERRUN) {
    return absl::DataLossError(absl::StrCat("LZO page body of ", compressed.size(), " bytes decodes to more than ",
                                            out.size(), " bytes"));
  }
  if (result != LZO_E_OK) {
    return absl::DataLossError(absl::StrCat("LZO page body of ", compressed.size(),
                                            " bytes is malformed or truncated (liblzo2 error ", result, ")"));
  }
  if (written != out.size()) {
    return absl::DataLossError(absl::StrCat("LZO page body of ", compressed.size(), " bytes decodes to ", written,
                                            " bytes, expected ", out.size()));
  }
  return absl::OkStatus();
}

}  // namespace tsread

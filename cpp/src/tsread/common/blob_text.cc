// BLOB values as text (blob_text.h).
#include "tsread/common/blob_text.h"

namespace tsread {

void AppendBlobHex(std::string& out, std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.reserve(out.size() + 2 + 2 * bytes.size());
  out += "0x";
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
}

}  // namespace tsread

// libFuzzer target: one page body through a codec. Byte 0 picks the codec, bytes 1-3 the
// declared uncompressed size (up to 1 MiB: bombs into small outputs are the interesting case); the rest is the compressed body.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tsread/compress/decompress.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const auto codec = static_cast<tsread::Compression>(data[0] % 10);
  const size_t declared = static_cast<size_t>(data[1]) | (static_cast<size_t>(data[2]) << 8) |
                          ((static_cast<size_t>(data[3]) & 0x0F) << 16);
  std::vector<char> out(declared);
  (void)tsread::Decompress(codec, std::string_view(reinterpret_cast<const char*>(data + 4), size - 4),
                           std::span<char>(out.data(), out.size()));
  return 0;
}

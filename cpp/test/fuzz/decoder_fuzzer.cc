// libFuzzer target: one value stream through the batch decoders. Byte 0 picks the encoding,
// byte 1 the physical type, bytes 2-3 the value count; the rest is the stream.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tsread/encoding/value_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const auto encoding = static_cast<tsread::Encoding>(data[0] % 14);
  const int type = data[1] % 6;
  const size_t count = static_cast<size_t>(data[2]) | (static_cast<size_t>(data[3]) << 8);
  const std::string_view stream(reinterpret_cast<const char*>(data + 4), size - 4);
  switch (type) {
    case 0: {
      std::vector<uint8_t> out(count);
      (void)tsread::DecodeBooleans(encoding, stream, count, out.data());
      break;
    }
    case 1: {
      std::vector<int32_t> out(count);
      (void)tsread::DecodeInt32s(encoding, stream, count, out.data());
      break;
    }
    case 2: {
      std::vector<int64_t> out(count);
      (void)tsread::DecodeInt64s(encoding, stream, count, out.data());
      break;
    }
    case 3: {
      std::vector<float> out(count);
      (void)tsread::DecodeFloats(encoding, stream, count, out.data());
      break;
    }
    case 4: {
      std::vector<double> out(count);
      (void)tsread::DecodeDoubles(encoding, stream, count, out.data());
      break;
    }
    default: {
      std::vector<std::string_view> out(count);
      (void)tsread::DecodeBinaries(encoding, stream, count, out.data());
      break;
    }
  }
  return 0;
}

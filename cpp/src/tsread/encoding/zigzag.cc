#include "tsread/encoding/zigzag.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/plain.h"

namespace tsread {
namespace {

absl::Status Corrupt(const char* type, const char* what, size_t offset, absl::string_view detail) {
  return absl::DataLossError(absl::StrCat(type, " ", what, " at stream offset ", offset, ": ", detail));
}

// The varint form and value conversion per output type: Java's IntZigzagDecoder reads a 32-bit
// unsigned varint, LongZigzagDecoder a 64-bit one.
inline const uint8_t* ParseValue(const uint8_t* p, const uint8_t* end, int32_t* out) {
  uint32_t u;
  p = ParseUVarInt32(p, end, &u);
  if (p != nullptr) *out = ZigZagDecode32(u);
  return p;
}
inline const uint8_t* ParseValue(const uint8_t* p, const uint8_t* end, int64_t* out) {
  uint64_t u;
  p = ParseUVarInt64(p, end, &u);
  if (p != nullptr) *out = ZigZagDecode64(u);
  return p;
}

template <typename T>
absl::StatusOr<size_t> DecodeZigzag(std::string_view stream, size_t count, T* out, const char* type) {
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  auto offset = [begin](const uint8_t* at) { return static_cast<size_t>(at - begin); };
  const uint8_t* p = begin;
  size_t done = 0;
  while (done < count) {
    const uint8_t* const package = p;
    if (p == end) {
      return Corrupt(type, "package", offset(p),
                     absl::StrCat("stream ends after ", done, " of ", count, " values"));
    }
    uint32_t byte_length = 0;
    uint32_t values = 0;
    p = ParseUVarInt32(p, end, &byte_length);
    if (p != nullptr) p = ParseUVarInt32(p, end, &values);
    if (p == nullptr) {
      return Corrupt(type, "package header", offset(package), "truncated varint or longer than 32 bits");
    }
    if (byte_length > static_cast<size_t>(end - p)) {
      return Corrupt(type, "package", offset(package),
                     absl::StrCat("length ", byte_length, " exceeds the ", end - p, " bytes that remain"));
    }
    // Every varint takes at least one byte: this also bounds `values` by the stream.
    if (values > byte_length) {
      return Corrupt(type, "package", offset(package),
                     absl::StrCat(values, " values cannot fit in ", byte_length, " bytes"));
    }
    const uint8_t* const package_end = p + byte_length;
    const size_t take = std::min<size_t>(values, count - done);
    for (size_t i = 0; i < take; ++i) {
      const uint8_t* next = ParseValue(p, package_end, out + done + i);
      if (next == nullptr) {
        return Corrupt(type, "value", offset(p),
                       absl::StrCat("value ", i, " of its package is a truncated varint or too long"));
      }
      p = next;
    }
    done += take;
    p = package_end;
  }
  return offset(p);
}

}  // namespace

absl::StatusOr<size_t> DecodeZigzagInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeZigzag(stream, count, out, "ZIGZAG INT32");
}

absl::StatusOr<size_t> DecodeZigzagInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeZigzag(stream, count, out, "ZIGZAG INT64");
}

}  // namespace tsread

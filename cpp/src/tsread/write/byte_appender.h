// Appending the §0 primitives of the format reference to a byte buffer: big-endian fixed-width
// numbers, `uvar`/`svar` varints and the `vstr`/`istr`/`bin` strings. Header-only: the encoders
// call these in their inner loops.
#ifndef TSREAD_WRITE_BYTE_APPENDER_H_
#define TSREAD_WRITE_BYTE_APPENDER_H_

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tsread {

inline void AppendU8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }

// i32 big-endian (§0).
inline void AppendI32(std::string& out, int32_t v) {
  const uint32_t u = static_cast<uint32_t>(v);
  const char bytes[4] = {static_cast<char>(u >> 24), static_cast<char>(u >> 16), static_cast<char>(u >> 8),
                         static_cast<char>(u)};
  out.append(bytes, 4);
}

// i64 big-endian (§0).
inline void AppendI64(std::string& out, int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(u >> (56 - 8 * i));
  out.append(bytes, 8);
}

// f32/f64: the raw IEEE bits, big-endian (Java floatToIntBits keeps NaN payloads we never make).
inline void AppendF32(std::string& out, float v) { AppendI32(out, std::bit_cast<int32_t>(v)); }
inline void AppendF64(std::string& out, double v) { AppendI64(out, std::bit_cast<int64_t>(v)); }

// uvar: unsigned LEB128 of a 32-bit pattern, least-significant group first (§0).
inline void AppendUVarInt(std::string& out, uint32_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// svar: zig-zag then uvar (§0, Java writeVarInt).
inline void AppendVarInt(std::string& out, int32_t v) {
  AppendUVarInt(out, (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31));
}

// vstr: svar length + bytes; null is length -1 (§0).
inline void AppendVarString(std::string& out, std::string_view s) {
  AppendVarInt(out, static_cast<int32_t>(s.size()));
  out.append(s);
}
inline void AppendNullableVarString(std::string& out, const std::optional<std::string>& s) {
  if (!s.has_value()) {
    AppendVarInt(out, -1);
    return;
  }
  AppendVarString(out, *s);
}

// istr / bin: i32 length + bytes (§0).
inline void AppendIntString(std::string& out, std::string_view s) {
  AppendI32(out, static_cast<int32_t>(s.size()));
  out.append(s);
}

}  // namespace tsread

#endif  // TSREAD_WRITE_BYTE_APPENDER_H_

#include "tsread/encoding/plain.h"

#include "tsread/encoding/stream_error.h"

#include <bit>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

const uint8_t* Bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// The error for a fixed-width value that does not fit: names the first value that is cut off.
absl::Status TruncatedFixedWidth(const char* what, size_t width, size_t stream_size, size_t count) {
  const size_t whole = stream_size / width;
  return StreamCorrupt("", what, whole * width,
                 absl::StrCat("stream ends after ", whole, " of ", count, " values of ", width, " bytes (",
                              stream_size % width, " bytes left over)"));
}

// `count` big-endian values of sizeof(Bits) bytes, bit-cast to T (§0 i64 / f32 / f64).
template <typename T, typename Bits>
absl::StatusOr<size_t> DecodeBigEndian(std::string_view stream, size_t count, T* out, const char* what) {
  static_assert(sizeof(T) == sizeof(Bits));
  if (count > stream.size() / sizeof(T)) return TruncatedFixedWidth(what, sizeof(T), stream.size(), count);
  const uint8_t* p = Bytes(stream);
  for (size_t i = 0; i < count; ++i, p += sizeof(T)) {
    Bits bits;
    std::memcpy(&bits, p, sizeof(bits));
    if constexpr (sizeof(Bits) == 4) {
      bits = __builtin_bswap32(bits);
    } else {
      bits = __builtin_bswap64(bits);
    }
    out[i] = std::bit_cast<T>(bits);
  }
  return count * sizeof(T);
}

}  // namespace

absl::StatusOr<size_t> DecodePlainBooleans(std::string_view stream, size_t count, uint8_t* out) {
  if (count > stream.size()) return TruncatedFixedWidth("PLAIN BOOLEAN value", 1, stream.size(), count);
  const uint8_t* p = Bytes(stream);
  // Java's PlainDecoder.readBoolean: any non-zero byte is true (§0).
  for (size_t i = 0; i < count; ++i) out[i] = p[i] != 0;
  return count;
}

absl::StatusOr<size_t> DecodePlainInt32s(std::string_view stream, size_t count, int32_t* out) {
  const uint8_t* const begin = Bytes(stream);
  const uint8_t* const end = begin + stream.size();
  const uint8_t* p = begin;
  for (size_t i = 0; i < count; ++i) {
    uint32_t u;
    const uint8_t* next = ParseUVarInt32(p, end, &u);
    if (next == nullptr) {
      return StreamCorrupt("", 
          "PLAIN INT32 value", static_cast<size_t>(p - begin),
          absl::StrCat("value ", i, " of ", count, " is a truncated varint or longer than 32 bits"));
    }
    out[i] = ZigZagDecode32(u);
    p = next;
  }
  return static_cast<size_t>(p - begin);
}

absl::StatusOr<size_t> DecodePlainInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeBigEndian<int64_t, uint64_t>(stream, count, out, "PLAIN INT64 value");
}

absl::StatusOr<size_t> DecodePlainFloats(std::string_view stream, size_t count, float* out) {
  return DecodeBigEndian<float, uint32_t>(stream, count, out, "PLAIN FLOAT value");
}

absl::StatusOr<size_t> DecodePlainDoubles(std::string_view stream, size_t count, double* out) {
  return DecodeBigEndian<double, uint64_t>(stream, count, out, "PLAIN DOUBLE value");
}

absl::StatusOr<size_t> DecodePlainBinaries(std::string_view stream, size_t count, std::string_view* out) {
  const uint8_t* const begin = Bytes(stream);
  const uint8_t* const end = begin + stream.size();
  const uint8_t* p = begin;
  for (size_t i = 0; i < count; ++i) {
    uint32_t u;
    const uint8_t* data = ParseUVarInt32(p, end, &u);
    if (data == nullptr) {
      return StreamCorrupt("", "PLAIN binary length", static_cast<size_t>(p - begin),
                     absl::StrCat("length of value ", i, " of ", count,
                                  " is a truncated varint or longer than 32 bits"));
    }
    const int32_t length = ZigZagDecode32(u);
    if (length < 0) {
      return StreamCorrupt("", "PLAIN binary length", static_cast<size_t>(p - begin),
                     absl::StrCat("negative length ", length, " of value ", i));
    }
    const size_t n = static_cast<size_t>(length);
    if (n > static_cast<size_t>(end - data)) {
      return StreamCorrupt("", 
          "PLAIN binary value", static_cast<size_t>(data - begin),
          absl::StrCat("value ", i, " of ", n, " bytes exceeds the ", end - data, " bytes that remain"));
    }
    out[i] = std::string_view(reinterpret_cast<const char*>(data), n);
    p = data + n;
  }
  return static_cast<size_t>(p - begin);
}

}  // namespace tsread

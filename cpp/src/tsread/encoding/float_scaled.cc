#include "tsread/encoding/float_scaled.h"

#include "tsread/encoding/stream_error.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/plain.h"
#include "tsread/encoding/rle.h"
#include "tsread/encoding/ts2diff.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// First-header values that announce bitmaps (Java FloatEncoder.flush when some value overflowed
// the scaled integer range): Integer.MAX_VALUE = scaled bitmap only, MAX_VALUE - 1 = scaled and
// raw-bits bitmaps.
constexpr uint32_t kScaledBitmapOnly = 0x7FFFFFFF;
constexpr uint32_t kScaledAndRawBitmaps = 0x7FFFFFFE;

struct ScaledHeader {
  double divisor = 1;                        // 10^m, or 1 when m <= 0
  const uint8_t* scaled_bitmap = nullptr;    // bit i clear: value i is stored unscaled
  const uint8_t* raw_bits_bitmap = nullptr;  // bit i set: value i is the raw IEEE bit pattern
  size_t size = 0;                           // header bytes before the inner stream
};

absl::Status Corrupt(const char* type, const char* what, size_t offset, absl::string_view detail) {
  return StreamCorrupt(absl::StrCat("FloatDecoder ", type), what, offset, detail);
}

// 10^m as Java's Math.pow(10, m): powers of ten up to 10^22 are exact doubles, so both give
// exactly these; beyond that the libm result may differ from Java's in the last bit.
double PowerOfTen(int32_t m) {
  static constexpr double kExact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (m < static_cast<int32_t>(std::size(kExact))) return kExact[m];
  return std::pow(10.0, m);
}

absl::StatusOr<ScaledHeader> ParseHeader(std::string_view stream, size_t count, const char* type) {
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  const uint8_t* p = begin;
  auto offset = [begin](const uint8_t* at) { return static_cast<size_t>(at - begin); };
  auto read_uvar = [&](const char* what, uint32_t* v) -> absl::Status {
    const uint8_t* next = ParseUVarInt32(p, end, v);
    if (next == nullptr) return Corrupt(type, what, offset(p), "truncated varint or longer than 32 bits");
    p = next;
    return absl::OkStatus();
  };

  ScaledHeader header;
  uint32_t m = 0;
  TSREAD_RETURN_IF_ERROR(read_uvar("precision", &m));
  if (m == kScaledBitmapOnly || m == kScaledAndRawBitmaps) {
    const uint8_t* const count_at = p;
    uint32_t bitmap_values = 0;
    TSREAD_RETURN_IF_ERROR(read_uvar("bitmap value count", &bitmap_values));
    if (bitmap_values > 0x7FFFFFFFu) {
      return Corrupt(type, "bitmap value count", offset(count_at),
                     absl::StrCat(bitmap_values, " is negative as a Java int"));
    }
    // Java BitMap(size) holds size/8 + 1 bytes.
    const size_t bitmap_bytes = bitmap_values / 8 + 1;
    const size_t bitmaps = m == kScaledAndRawBitmaps ? 2 : 1;
    if (bitmaps * bitmap_bytes > static_cast<size_t>(end - p)) {
      return Corrupt(type, "bitmap", offset(p),
                     absl::StrCat(bitmaps, " bitmap(s) of ", bitmap_bytes, " bytes exceed the ", end - p,
                                  " bytes that remain"));
    }
    if ((count - 1) / 8 >= bitmap_bytes) {
      return Corrupt(type, "bitmap", offset(p),
                     absl::StrCat("bitmap of ", bitmap_values, " values cannot cover ", count, " values"));
    }
    header.scaled_bitmap = p;
    if (m == kScaledAndRawBitmaps) header.raw_bits_bitmap = p + bitmap_bytes;
    p += bitmaps * bitmap_bytes;
    TSREAD_RETURN_IF_ERROR(read_uvar("precision", &m));
  }
  // Java keeps m in an int and treats m <= 0 as "no scaling".
  const auto precision = static_cast<int32_t>(m);
  header.divisor = precision <= 0 ? 1.0 : PowerOfTen(precision);
  header.size = offset(p);
  return header;
}

template <typename Int>
absl::StatusOr<size_t> DecodeInner(Encoding inner, std::string_view stream, size_t count, Int* out,
                                   size_t stream_offset) {
  if constexpr (sizeof(Int) == 4) {
    return inner == Encoding::kRle ? DecodeRleInt32s(stream, count, out, stream_offset)
                                   : DecodeTs2DiffInt32s(stream, count, out, stream_offset);
  } else {
    return inner == Encoding::kRle ? DecodeRleInt64s(stream, count, out, stream_offset)
                                   : DecodeTs2DiffInt64s(stream, count, out, stream_offset);
  }
}

// Java FloatDecoder: `double result = value / maxPointValue;` then `(float) result` for FLOAT.
template <typename Int, typename Real>
void Unscale(const ScaledHeader& header, const Int* ints, size_t count, Real* out) {
  const double divisor = header.divisor;
  if (header.scaled_bitmap == nullptr) {
    for (size_t i = 0; i < count; ++i) out[i] = static_cast<Real>(static_cast<double>(ints[i]) / divisor);
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t byte = i / 8;
    const uint8_t mask = static_cast<uint8_t>(1u << (i % 8));
    if (header.raw_bits_bitmap != nullptr && (header.raw_bits_bitmap[byte] & mask) != 0) {
      out[i] = std::bit_cast<Real>(ints[i]);
    } else if ((header.scaled_bitmap[byte] & mask) == 0) {
      out[i] = static_cast<Real>(static_cast<double>(ints[i]));
    } else {
      out[i] = static_cast<Real>(static_cast<double>(ints[i]) / divisor);
    }
  }
}

template <typename Int, typename Real>
absl::StatusOr<size_t> DecodeScaled(Encoding inner, std::string_view stream, size_t count, Real* out,
                                    const char* type) {
  static_assert(sizeof(Int) == sizeof(Real));
  if (inner != Encoding::kRle && inner != Encoding::kTs2Diff) {
    return absl::InvalidArgumentError(
        absl::StrCat("the FloatDecoder wrapper takes RLE or TS_2DIFF, not ", ToAbsl(EncodingName(inner))));
  }
  if (count == 0) return 0;
  TSREAD_ASSIGN_OR_RETURN(const ScaledHeader header, ParseHeader(stream, count, type));
  // One buffer per page (count is the caller's, already backed by `out`).
  const auto ints = std::make_unique_for_overwrite<Int[]>(count);
  TSREAD_ASSIGN_OR_RETURN(const size_t inner_bytes,
                          DecodeInner(inner, stream.substr(header.size), count, ints.get(), header.size));
  Unscale(header, ints.get(), count, out);
  return header.size + inner_bytes;
}

}  // namespace

absl::StatusOr<size_t> DecodeScaledFloats(Encoding inner, std::string_view stream, size_t count, float* out) {
  return DecodeScaled<int32_t>(inner, stream, count, out, "FLOAT");
}

absl::StatusOr<size_t> DecodeScaledDoubles(Encoding inner, std::string_view stream, size_t count,
                                           double* out) {
  return DecodeScaled<int64_t>(inner, stream, count, out, "DOUBLE");
}

}  // namespace tsread

// ZIGZAG (format reference §9.8), for INT32/DATE and INT64/TIMESTAMP: packages of zig-zag varints.
//   package := uvar byteLen ; uvar count ; u8[byteLen] = `count` zig-zag varints
//              (at most 5 bytes each for INT32, 10 for INT64; v = (u >>> 1) ^ -(u & 1))
// Packages follow each other until the stream ends. A package is consumed whole even if `count`
// ends inside it (Java copies it whole before decoding).
#ifndef TSREAD_ENCODING_ZIGZAG_H_
#define TSREAD_ENCODING_ZIGZAG_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Decode exactly `count` values into `out` and return the bytes consumed. DataLoss on truncated or
// malformed packages (a varint crossing its package, more values claimed than bytes) or if the
// packages hold fewer than `count` values.
absl::StatusOr<size_t> DecodeZigzagInt32s(std::string_view stream, size_t count, int32_t* out);
absl::StatusOr<size_t> DecodeZigzagInt64s(std::string_view stream, size_t count, int64_t* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_ZIGZAG_H_

// Batch decoding of one page's value stream (format reference §9): one call per page, no virtual
// call or allocation per value. Each function decodes exactly `count` values from the start of
// `stream` into `out` (room for `count` values, owned by the caller) and dispatches once on the
// encoding. Binary values come back as views into `stream`.
//
// Errors: DataLoss when the stream is truncated or malformed (message gives the byte offset within
// the stream); Unimplemented when the encoding does not apply to the type (e.g. GORILLA on TEXT)
// or is not supported (DIFF, BITMAP, FREQ). Trailing bytes after the `count` values are ignored.
#ifndef TSREAD_ENCODING_VALUE_DECODER_H_
#define TSREAD_ENCODING_VALUE_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread {

// BOOLEAN values as 0/1 bytes.
absl::Status DecodeBooleans(Encoding encoding, std::string_view stream, size_t count, uint8_t* out);
// INT32 and DATE.
absl::Status DecodeInt32s(Encoding encoding, std::string_view stream, size_t count, int32_t* out);
// INT64, TIMESTAMP and time streams.
absl::Status DecodeInt64s(Encoding encoding, std::string_view stream, size_t count, int64_t* out);
absl::Status DecodeFloats(Encoding encoding, std::string_view stream, size_t count, float* out);
absl::Status DecodeDoubles(Encoding encoding, std::string_view stream, size_t count, double* out);
// TEXT, STRING and BLOB: views into `stream`.
absl::Status DecodeBinaries(Encoding encoding, std::string_view stream, size_t count, std::string_view* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_VALUE_DECODER_H_

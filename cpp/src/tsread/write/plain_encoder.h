// PLAIN encoding (format reference §9.2; J: encoding.encoder.PlainEncoder): values one after
// another. Binary values (TEXT, STRING, BLOB) are `svar length` + bytes; INT32/DATE are svar
// (zig-zag varints, not 4 bytes); INT64 and FLOAT/DOUBLE big-endian; BOOLEAN one byte.
#ifndef TSREAD_WRITE_PLAIN_ENCODER_H_
#define TSREAD_WRITE_PLAIN_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tsread {

void EncodePlainBinaries(const std::string_view* values, size_t count, std::string& out);
void EncodePlainInt32s(const int32_t* values, size_t count, std::string& out);
void EncodePlainInt64s(const int64_t* values, size_t count, std::string& out);
void EncodePlainDoubles(const double* values, size_t count, std::string& out);

}  // namespace tsread

#endif  // TSREAD_WRITE_PLAIN_ENCODER_H_

// GORILLA (v2) encoding (format reference §9.6; J: encoding.encoder.GorillaEncoderV2,
// IntGorillaEncoder, LongGorillaEncoder, SinglePrecisionEncoderV2, DoublePrecisionEncoderV2).
// XOR of each value with the previous one: '0' same; '10' + bits in the stored window;
// '11' + L (5/6 bits) + (S - 1) (5/6 bits) + S bits. After the values Java encodes the sentinel
// (INT_MIN / LONG_MIN / NaN bits 0x7FC00000 / 0x7FF8000000000000) as one more value and then
// flushes the current byte unconditionally: a partly filled byte is written zero-padded, and a
// stream that ended on a byte boundary gets an extra 0x00 byte. Total: floor(bits / 8) + 1 bytes.
#ifndef TSREAD_WRITE_GORILLA_ENCODER_H_
#define TSREAD_WRITE_GORILLA_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tsread {

// Appends the GORILLA stream of values[0, count) to `out`. count == 0 writes only the sentinel
// stream (Java never does that: empty value pages have no stream).
void EncodeGorillaInt32s(const int32_t* values, size_t count, std::string& out);
void EncodeGorillaInt64s(const int64_t* values, size_t count, std::string& out);
void EncodeGorillaFloats(const float* values, size_t count, std::string& out);
void EncodeGorillaDoubles(const double* values, size_t count, std::string& out);

}  // namespace tsread

#endif  // TSREAD_WRITE_GORILLA_ENCODER_H_

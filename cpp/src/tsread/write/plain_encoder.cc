#include "tsread/write/plain_encoder.h"

#include "tsread/write/byte_appender.h"

namespace tsread {

void EncodePlainBinaries(const std::string_view* values, size_t count, std::string& out) {
  for (size_t i = 0; i < count; ++i) AppendVarString(out, values[i]);
}

void EncodePlainInt32s(const int32_t* values, size_t count, std::string& out) {
  for (size_t i = 0; i < count; ++i) AppendVarInt(out, values[i]);
}

void EncodePlainInt64s(const int64_t* values, size_t count, std::string& out) {
  for (size_t i = 0; i < count; ++i) AppendI64(out, values[i]);
}

void EncodePlainDoubles(const double* values, size_t count, std::string& out) {
  for (size_t i = 0; i < count; ++i) AppendF64(out, values[i]);
}

}  // namespace tsread

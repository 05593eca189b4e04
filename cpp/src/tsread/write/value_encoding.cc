#include "tsread/write/value_encoding.h"

#include "tsread/write/gorilla_encoder.h"
#include "tsread/write/plain_encoder.h"
#include "tsread/write/rle_encoder.h"
#include "tsread/write/ts2diff_encoder.h"

namespace tsread {

Encoding WriterEncodingFor(DataType type) {
  switch (type) {
    case DataType::kBoolean:
      return Encoding::kRle;
    case DataType::kInt32:
    case DataType::kDate:
    case DataType::kInt64:
    case DataType::kTimestamp:
    case DataType::kVector:
      return Encoding::kTs2Diff;
    case DataType::kFloat:
    case DataType::kDouble:
      return Encoding::kGorilla;
    default:
      return Encoding::kPlain;
  }
}

void EncodeValues(DataType, const uint8_t* values, size_t count, std::string& out, Ts2DiffPackBuffer*) {
  EncodeRleBooleans(values, count, out);
}
void EncodeValues(DataType, const int32_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  EncodeTs2DiffInt32s(values, count, out, pack_buffer);
}
void EncodeValues(DataType, const int64_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  EncodeTs2DiffInt64s(values, count, out, pack_buffer);
}
void EncodeValues(DataType, const float* values, size_t count, std::string& out, Ts2DiffPackBuffer*) {
  EncodeGorillaFloats(values, count, out);
}
void EncodeValues(DataType, const double* values, size_t count, std::string& out, Ts2DiffPackBuffer*) {
  EncodeGorillaDoubles(values, count, out);
}
void EncodeValues(DataType, const std::string_view* values, size_t count, std::string& out, Ts2DiffPackBuffer*) {
  EncodePlainBinaries(values, count, out);
}

}  // namespace tsread

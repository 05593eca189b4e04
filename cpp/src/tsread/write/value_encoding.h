// The encoding the writer uses per data type — Java's defaults (format reference §9.1,
// J: common.conf.TSFileConfig): time and INT32/DATE/INT64/TIMESTAMP TS_2DIFF, FLOAT/DOUBLE
// GORILLA, BOOLEAN RLE, TEXT/STRING/BLOB PLAIN — and the dispatch to the encoders.
#ifndef TSREAD_WRITE_VALUE_ENCODING_H_
#define TSREAD_WRITE_VALUE_ENCODING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tsread/common/tsfile_enums.h"
#include "tsread/write/ts2diff_encoder.h"

namespace tsread {

// The encoding of value columns of `type` (time column: TS_2DIFF).
Encoding WriterEncodingFor(DataType type);

// Appends the encoded stream of `count` non-null values (the array of the type's physical type).
// `pack_buffer` is the chunk's TS_2DIFF packing buffer (see ts2diff_encoder.h); other encodings
// ignore it.
void EncodeValues(DataType type, const uint8_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer);
void EncodeValues(DataType type, const int32_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer);
void EncodeValues(DataType type, const int64_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer);
void EncodeValues(DataType type, const float* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer);
void EncodeValues(DataType type, const double* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer);
void EncodeValues(DataType type, const std::string_view* values, size_t count, std::string& out,
                  Ts2DiffPackBuffer* pack_buffer);

}  // namespace tsread

#endif  // TSREAD_WRITE_VALUE_ENCODING_H_

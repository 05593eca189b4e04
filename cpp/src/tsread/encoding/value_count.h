// How many values a page's value stream can yield at most (format reference §9), found by walking
// the stream's headers only: RLE packages and runs (§9.3), DICTIONARY entries and index runs
// (§9.7), TS_2DIFF blocks (§9.4), the FloatDecoder header (§9.5) and REGULAR blocks (§9.9).
//
// Use: a value count read from the file (page or chunk statistics, the number of set bits in a
// null bitmap) sizes a buffer before anything is decoded. Checking it against this bound first
// means a corrupt count cannot make the reader allocate more values than the stream can back:
// without the walk, one 5-byte RLE run header alone can announce 2^33 values.
#ifndef TSREAD_ENCODING_VALUE_COUNT_H_
#define TSREAD_ENCODING_VALUE_COUNT_H_

#include <cstdint>
#include <string_view>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

// An upper bound on the number of values of `type` (by its physical type; VECTOR is the INT64
// time stream) that the decoders of value_decoder.h can decode from `stream` in `encoding`:
//
//   if Decode<Type>s(encoding, stream, count, out) succeeds, then
//   count <= MaxDecodableValues(encoding, type, stream).
//
// So a larger count can be rejected as corrupt before any allocation, and a valid stream is never
// rejected. The walk costs O(headers) (runs, packages, blocks, dictionary entries; for REGULAR also
// one popcount per bitmap byte), never O(values); it allocates nothing, every step consumes input,
// and it stops at the first header the decoder would reject, returning what was counted before it.
//
// Per encoding:
//  - RLE (BOOLEAN, INT32/DATE, INT64/TIMESTAMP): exactly the values of the runs that precede the
//    first malformed package or run, so decoding `bound` values succeeds and `bound + 1` fails.
//  - RLE and TS_2DIFF on FLOAT/DOUBLE (the FloatDecoder wrapper): the inner stream's count, capped
//    at the values the wrapper's bitmaps cover; 0 if the wrapper header is malformed. Exact too.
//  - TS_2DIFF on integers: the sum of n + 1 over the well-formed blocks. Exact.
//  - DICTIONARY (TEXT/STRING/BLOB): 0 if the dictionary is malformed or empty, else the index runs'
//    count, ending before the first RLE run whose index is outside the dictionary. Bit-packed
//    indices are not inspected, so this one is an upper bound rather than exact.
//  - REGULAR (INT32/DATE, INT64/TIMESTAMP): the sum of the well-formed blocks' values (n, or 1 plus
//    the marked grid points after the first when points are missing). Exact.
//  - Every other encoding, and encodings that do not apply to `type` (whose decoders fail anyway):
//    MaxValuesAtOneBitEach(stream.size()). PLAIN, GORILLA, GORILLA_V1, CHIMP, ZIGZAG and RLBE spend
//    at least one bit per value after the first; SPRINTZ at least 2 bytes per 9-value block plus
//    one tail of at most 127 values.
uint64_t MaxDecodableValues(Encoding encoding, DataType type, std::string_view stream);

// The bound for encodings that spend at least one bit on every value: 8 per byte, plus slack for
// a fixed-size tail (SPRINTZ's) or a first value.
constexpr uint64_t MaxValuesAtOneBitEach(uint64_t bytes) { return bytes * 8 + 256; }

}  // namespace tsread

#endif  // TSREAD_ENCODING_VALUE_COUNT_H_

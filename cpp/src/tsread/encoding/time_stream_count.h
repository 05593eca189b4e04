// How many timestamps a time stream holds when nothing outside it says so (format reference §3.2,
// §8.2): the only page of a single-page chunk carries no statistics, and without the file's index
// (an unsealed file, salvage) its ChunkMetadata count is gone too.
#ifndef TSREAD_ENCODING_TIME_STREAM_COUNT_H_
#define TSREAD_ENCODING_TIME_STREAM_COUNT_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "tsread/common/tsfile_enums.h"

namespace tsread {

// The number of INT64 values the writer put into `stream` (a whole time stream, nothing after
// it), for the encodings whose stream tells: TS_2DIFF, RLE and REGULAR count their blocks or runs
// (value_count.h, exact for them); PLAIN is 8 bytes a value; GORILLA and CHIMP end with the
// sentinel Long.MIN_VALUE (J: GorillaEncoderV2/LongChimpEncoder.flush), which a timestamp never
// is, so the values before the first decoded sentinel are the stream's. nullopt for a stream that
// does not decode that far, for more than `max_values` values, and for the encodings whose stream
// does not say (ZIGZAG, SPRINTZ, RLBE: the count must come from elsewhere).
std::optional<uint64_t> TimeStreamCount(Encoding encoding, std::string_view stream, uint64_t max_values);

}  // namespace tsread

#endif  // TSREAD_ENCODING_TIME_STREAM_COUNT_H_

// DICTIONARY (format reference §9.7), for TEXT and STRING values.
//   svar entryCount ; entryCount x { svar len ; u8[len] }    the page's dictionary
//   an RLE stream (§9.3, INT32) of `count` indices into the dictionary
// Values come back as views into the stream (entries are not copied).
#ifndef TSREAD_ENCODING_DICTIONARY_H_
#define TSREAD_ENCODING_DICTIONARY_H_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"

namespace tsread {

// Decode exactly `count` values into `out` (views into `stream`) and return the bytes consumed.
// DataLoss on a truncated or malformed dictionary (negative counts or lengths, entries past the
// end), a malformed index stream or an index outside the dictionary.
absl::StatusOr<size_t> DecodeDictionaryBinaries(std::string_view stream, size_t count, std::string_view* out);

}  // namespace tsread

#endif  // TSREAD_ENCODING_DICTIONARY_H_

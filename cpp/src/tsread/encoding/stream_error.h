// The DataLoss error every decoder reports for a malformed or truncated value stream:
// "<subject> <what> at stream offset N: <detail>" (the offset is within the page's stream; the
// read layer adds the column and the page's file offset).
#ifndef TSREAD_ENCODING_STREAM_ERROR_H_
#define TSREAD_ENCODING_STREAM_ERROR_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tsread {

inline absl::Status StreamCorrupt(absl::string_view subject, absl::string_view what, size_t offset,
                                  absl::string_view detail) {
  return absl::DataLossError(absl::StrCat(subject, subject.empty() ? "" : " ", what, " at stream offset ", offset,
                                          ": ", detail));
}

}  // namespace tsread

#endif  // TSREAD_ENCODING_STREAM_ERROR_H_

#include "tsread/encoding/value_decoder.h"

#include "absl/strings/str_cat.h"
#include "tsread/encoding/chimp.h"
#include "tsread/encoding/dictionary.h"
#include "tsread/encoding/float_scaled.h"
#include "tsread/encoding/gorilla.h"
#include "tsread/encoding/gorilla_v1.h"
#include "tsread/encoding/plain.h"
#include "tsread/encoding/regular.h"
#include "tsread/encoding/rlbe.h"
#include "tsread/encoding/rle.h"
#include "tsread/encoding/sprintz.h"
#include "tsread/encoding/ts2diff.h"
#include "tsread/encoding/zigzag.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

absl::Status NotApplicable(Encoding encoding, std::string_view type) {
  return absl::UnimplementedError(absl::StrCat("encoding ", ToAbsl(EncodingName(encoding)),
                                               " is not supported for ", ToAbsl(type), " values"));
}

// Drops the byte count of a per-encoding decoder: the dispatch reports only success.
absl::Status Done(const absl::StatusOr<size_t>& consumed) { return consumed.status(); }

}  // namespace

absl::Status DecodeBooleans(Encoding encoding, std::string_view stream, size_t count, uint8_t* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainBooleans(stream, count, out));
    case Encoding::kRle: return Done(DecodeRleBooleans(stream, count, out));
    default: return NotApplicable(encoding, "BOOLEAN");
  }
}

absl::Status DecodeInt32s(Encoding encoding, std::string_view stream, size_t count, int32_t* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainInt32s(stream, count, out));
    case Encoding::kRle: return Done(DecodeRleInt32s(stream, count, out));
    case Encoding::kTs2Diff: return Done(DecodeTs2DiffInt32s(stream, count, out));
    case Encoding::kGorilla: return Done(DecodeGorillaInt32s(stream, count, out));
    case Encoding::kZigzag: return Done(DecodeZigzagInt32s(stream, count, out));
    case Encoding::kRegular: return Done(DecodeRegularInt32s(stream, count, out));
    case Encoding::kChimp: return Done(DecodeChimpInt32s(stream, count, out));
    case Encoding::kSprintz: return Done(DecodeSprintzInt32s(stream, count, out));
    case Encoding::kRlbe: return Done(DecodeRlbeInt32s(stream, count, out));
    default: return NotApplicable(encoding, "INT32");
  }
}

absl::Status DecodeInt64s(Encoding encoding, std::string_view stream, size_t count, int64_t* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainInt64s(stream, count, out));
    case Encoding::kRle: return Done(DecodeRleInt64s(stream, count, out));
    case Encoding::kTs2Diff: return Done(DecodeTs2DiffInt64s(stream, count, out));
    case Encoding::kGorilla: return Done(DecodeGorillaInt64s(stream, count, out));
    case Encoding::kZigzag: return Done(DecodeZigzagInt64s(stream, count, out));
    case Encoding::kRegular: return Done(DecodeRegularInt64s(stream, count, out));
    case Encoding::kChimp: return Done(DecodeChimpInt64s(stream, count, out));
    case Encoding::kSprintz: return Done(DecodeSprintzInt64s(stream, count, out));
    case Encoding::kRlbe: return Done(DecodeRlbeInt64s(stream, count, out));
    default: return NotApplicable(encoding, "INT64");
  }
}

absl::Status DecodeFloats(Encoding encoding, std::string_view stream, size_t count, float* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainFloats(stream, count, out));
    case Encoding::kRle:
    case Encoding::kTs2Diff: return Done(DecodeScaledFloats(encoding, stream, count, out));
    case Encoding::kGorilla: return Done(DecodeGorillaFloats(stream, count, out));
    case Encoding::kGorillaV1: return Done(DecodeGorillaV1Floats(stream, count, out));
    case Encoding::kChimp: return Done(DecodeChimpFloats(stream, count, out));
    case Encoding::kSprintz: return Done(DecodeSprintzFloats(stream, count, out));
    case Encoding::kRlbe: return Done(DecodeRlbeFloats(stream, count, out));
    default: return NotApplicable(encoding, "FLOAT");
  }
}

absl::Status DecodeDoubles(Encoding encoding, std::string_view stream, size_t count, double* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainDoubles(stream, count, out));
    case Encoding::kRle:
    case Encoding::kTs2Diff: return Done(DecodeScaledDoubles(encoding, stream, count, out));
    case Encoding::kGorilla: return Done(DecodeGorillaDoubles(stream, count, out));
    case Encoding::kGorillaV1: return Done(DecodeGorillaV1Doubles(stream, count, out));
    case Encoding::kChimp: return Done(DecodeChimpDoubles(stream, count, out));
    case Encoding::kSprintz: return Done(DecodeSprintzDoubles(stream, count, out));
    case Encoding::kRlbe: return Done(DecodeRlbeDoubles(stream, count, out));
    default: return NotApplicable(encoding, "DOUBLE");
  }
}

absl::Status DecodeBinaries(Encoding encoding, std::string_view stream, size_t count, std::string_view* out) {
  switch (encoding) {
    case Encoding::kPlain: return Done(DecodePlainBinaries(stream, count, out));
    case Encoding::kDictionary: return Done(DecodeDictionaryBinaries(stream, count, out));
    default: return NotApplicable(encoding, "TEXT/STRING/BLOB");
  }
}

}  // namespace tsread

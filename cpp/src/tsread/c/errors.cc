// The C ABI's errors: codes, messages and their release (tsread.h, "Errors").
#include "tsread/c/errors.h"

#include <memory>

namespace tsread::c_api {

tsread_code CodeOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk: return TSREAD_OK;
    case absl::StatusCode::kInvalidArgument: return TSREAD_INVALID_ARGUMENT;
    case absl::StatusCode::kNotFound: return TSREAD_NOT_FOUND;
    case absl::StatusCode::kDataLoss:
    case absl::StatusCode::kOutOfRange: return TSREAD_CORRUPT;
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kUnknown: return TSREAD_IO;
    case absl::StatusCode::kResourceExhausted: return TSREAD_RESOURCE_EXHAUSTED;
    case absl::StatusCode::kUnimplemented: return TSREAD_UNSUPPORTED;
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kAborted: return TSREAD_CHANGED;
    default: return TSREAD_INTERNAL;
  }
}

tsread_code Fail(tsread_error** error, const absl::Status& status) {
  const tsread_code code = CodeOf(status);
  if (code == TSREAD_OK || error == nullptr) return code;
  auto made = std::make_unique<tsread_error>();
  made->code = code;
  made->message = std::string(status.message());
  *error = made.release();
  return code;
}

}  // namespace tsread::c_api

extern "C" {

tsread_code tsread_error_code(const tsread_error* error) { return error == nullptr ? TSREAD_OK : error->code; }

const char* tsread_error_message(const tsread_error* error) { return error == nullptr ? "" : error->message.c_str(); }

void tsread_error_free(tsread_error* error) { std::unique_ptr<tsread_error> owned(error); }

}  // extern "C"

// The C ABI's errors (tsread.h): tsread_error, the tsread_code of an absl::Status, and the guard
// that keeps C++ exceptions from unwinding into C callers.
#ifndef TSREAD_C_ERRORS_H_
#define TSREAD_C_ERRORS_H_

#include <exception>
#include <new>
#include <string>

#include "absl/status/status.h"
#include "tsread/tsread.h"

struct tsread_error {
  tsread_code code = TSREAD_OK;
  std::string message;
};

namespace tsread::c_api {

// The C code of a status: DataLoss and OutOfRange (bytes that are not a TsFile) -> TSREAD_CORRUPT,
// FailedPrecondition and Aborted (a file that changed) -> TSREAD_CHANGED, and so on.
tsread_code CodeOf(const absl::Status& status);

// The code of `status`, and, when it is an error and `error` is not NULL, *error set to a new
// tsread_error the caller frees (whatever *error held is not read: it may be uninitialized).
tsread_code Fail(tsread_error** error, const absl::Status& status);

// Runs `body` (returning absl::Status) and reports its outcome through `error`; an exception
// (out of memory, a bug) becomes an error instead of unwinding through C.
template <typename Body>
tsread_code Guarded(tsread_error** error, Body&& body) {
  try {
    return Fail(error, body());
  } catch (const std::bad_alloc&) {
    return Fail(error, absl::ResourceExhaustedError("tsread: out of memory"));
  } catch (const std::exception& e) {
    return Fail(error, absl::InternalError(std::string("tsread: unexpected exception: ") + e.what()));
  } catch (...) {
    return Fail(error, absl::InternalError("tsread: unexpected exception"));
  }
}

}  // namespace tsread::c_api

#endif  // TSREAD_C_ERRORS_H_

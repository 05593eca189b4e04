// Status plumbing shared by every layer: early-return macros and the std <-> absl string_view
// bridge (Debian's Abseil 20220623 keeps its own absl::string_view).
#ifndef TSREAD_IO_STATUS_MACROS_H_
#define TSREAD_IO_STATUS_MACROS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tsread {

inline absl::string_view ToAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }
inline std::string_view ToStd(absl::string_view s) { return std::string_view(s.data(), s.size()); }

}  // namespace tsread

#define TSREAD_STATUS_CONCAT_INNER_(a, b) a##b
#define TSREAD_STATUS_CONCAT_(a, b) TSREAD_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define TSREAD_RETURN_IF_ERROR(expr)                   \
  do {                                                 \
    ::absl::Status tsread_status_ = (expr);            \
    if (!tsread_status_.ok()) return tsread_status_;   \
  } while (0)

// `lhs = value of expr` where expr is an absl::StatusOr<T>; returns its status on error.
#define TSREAD_ASSIGN_OR_RETURN(lhs, expr) \
  TSREAD_ASSIGN_OR_RETURN_IMPL_(TSREAD_STATUS_CONCAT_(tsread_statusor_, __LINE__), lhs, expr)
#define TSREAD_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // TSREAD_IO_STATUS_MACROS_H_

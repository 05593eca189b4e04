// The C ABI's options structs as the caller's struct gives them (tsread.h: `struct_size` first,
// fields only ever added at the end): a caller built against an older, smaller struct gets the
// defaults for the fields it does not know.
#ifndef TSREAD_C_OPTIONS_H_
#define TSREAD_C_OPTIONS_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace tsread::c_api {

// `given` (NULL: the defaults) over what `init` (its ..._init function, named `init_name` in the
// error for a struct whose size was never set) makes.
template <typename Options>
absl::StatusOr<Options> OptionsFrom(const Options* given, void (*init)(Options*), std::string_view init_name) {
  Options options;
  init(&options);
  if (given == nullptr) return options;
  if (given->struct_size < sizeof(uint32_t)) {
    return absl::InvalidArgumentError(
        absl::StrCat("options->struct_size is not set (call ", absl::string_view(init_name.data(), init_name.size()), ")"));
  }
  std::memcpy(&options, given, std::min<size_t>(given->struct_size, sizeof(options)));
  options.struct_size = sizeof(options);
  return options;
}

// A C array of `n` strings (`what` names it in errors, e.g. "tsread_scan: columns"): NULL with
// n > 0, or a NULL entry, is InvalidArgument.
inline absl::StatusOr<std::vector<std::string>> StringsFrom(const char* const* values, size_t n, std::string_view what) {
  const absl::string_view name(what.data(), what.size());
  if (values == nullptr && n > 0) return absl::InvalidArgumentError(absl::StrCat(name, " is NULL"));
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    if (values[i] == nullptr) return absl::InvalidArgumentError(absl::StrCat(name, "[", i, "] is NULL"));
    out.emplace_back(values[i]);
  }
  return out;
}

}  // namespace tsread::c_api

#endif  // TSREAD_C_OPTIONS_H_

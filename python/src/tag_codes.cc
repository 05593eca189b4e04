#include "tag_codes.h"

#include <algorithm>
#include <limits>

#include "text_values.h"
#include "values.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// Calls fn(T{}) with T the signed integer type of `width` bytes.
template <typename Fn>
void WithCodeType(size_t width, Fn&& fn) {
  if (width == 1) {
    fn(int8_t{});
  } else if (width == 2) {
    fn(int16_t{});
  } else {
    fn(int32_t{});
  }
}

template <typename From, typename To>
py::array NarrowCodes(Buffer& codes) {
  const size_t rows = codes.size() / sizeof(From);
  const auto* from = reinterpret_cast<const From*>(codes.data());
  auto* to = reinterpret_cast<To*>(codes.data());
  // Front to back: code i is written over bytes of codes <= i that were already read.
  for (size_t i = 0; i < rows; ++i) to[i] = static_cast<To>(from[i]);
  codes.SetSize(rows * sizeof(To));
  return codes.Release(py::dtype::of<To>());
}

}  // namespace

size_t TagCodeWidth(size_t categories) {
  if (categories < 127) return sizeof(int8_t);
  if (categories < 32767) return sizeof(int16_t);
  return sizeof(int32_t);
}

int32_t MaxTagCode(size_t width) {
  int32_t max = 0;
  WithCodeType(width, [&](auto code) { max = std::numeric_limits<decltype(code)>::max(); });
  return max;
}

void FillTagCodes(char* to, size_t width, int32_t code, size_t rows) {
  WithCodeType(width, [&](auto type) {
    using T = decltype(type);
    std::fill(reinterpret_cast<T*>(to), reinterpret_cast<T*>(to) + rows, static_cast<T>(code));
  });
}

void RemapTagCodes(char* codes, size_t width, size_t rows, const std::vector<int32_t>& global) {
  WithCodeType(width, [&](auto type) {
    using T = decltype(type);
    T* c = reinterpret_cast<T*>(codes);
    for (size_t r = 0; r < rows; ++r) {
      if (c[r] >= 0) c[r] = static_cast<T>(global[static_cast<size_t>(c[r])]);
    }
  });
}

py::array ReleaseTagCodes(Buffer& codes, size_t width, size_t categories) {
  const size_t want = TagCodeWidth(categories);
  if (width == 4 && want == 2) return NarrowCodes<int32_t, int16_t>(codes);
  if (width == 4 && want == 1) return NarrowCodes<int32_t, int8_t>(codes);
  if (width == 2 && want == 1) return NarrowCodes<int16_t, int8_t>(codes);
  py::array out;
  WithCodeType(width, [&](auto type) { out = codes.Release(py::dtype::of<decltype(type)>()); });
  return out;
}

py::list CategoriesOf(const std::vector<std::string>& values, std::string_view column, InvalidUtf8 invalid_utf8) {
  py::list categories;
  for (const std::string& value : values) {
    categories.append(py::reinterpret_steal<py::object>(DecodeTag(value, column, invalid_utf8)));
  }
  return categories;
}

absl::StatusOr<int32_t> TagDictionary::CodeOf(std::optional<std::string_view> value, size_t width) {
  if (!value.has_value()) return -1;
  if (last_code_ >= 0 && values_[static_cast<size_t>(last_code_)] == *value) return last_code_;
  auto [it, added] = codes_.try_emplace(std::string(*value), static_cast<int32_t>(values_.size()));
  if (added) {
    if (it->second > MaxTagCode(width)) return absl::InternalError("more TAG values than the scan's devices");
    values_.emplace_back(*value);
  }
  last_code_ = it->second;
  return it->second;
}

}  // namespace tsread::python

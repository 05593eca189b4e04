// TAG columns reach pandas as Categoricals: integer codes into the column's categories, -1 for
// null, as wide as pandas itself makes them for that many categories (coerce_indexer_dtype:
// int8 below 127 categories, int16 below 32767, else int32). With codes wider than pandas' own,
// its groupby converts them first (measured: 26.5 against 15-17.6 ms per million rows).
//
// Readers write the codes at the width for a bound on the categories — the scan's devices, since
// each device has one value per TAG column — and narrow them at the end when fewer occurred.
#ifndef TSREAD_PYTHON_TAG_CODES_H_
#define TSREAD_PYTHON_TAG_CODES_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "buffer.h"
#include "values.h"

namespace tsread::python {

// Bytes per code pandas uses for `categories` categories: 1, 2 or 4.
size_t TagCodeWidth(size_t categories);
// The largest code a `width`-byte code holds.
int32_t MaxTagCode(size_t width);
// Writes `rows` copies of `code` (-1 .. MaxTagCode(width)) at `to`, `width` bytes each.
void FillTagCodes(char* to, size_t width, int32_t code, size_t rows);
// Replaces each code c >= 0 of the `rows` codes at `codes` by global[c] (<= MaxTagCode(width)).
void RemapTagCodes(char* codes, size_t width, size_t rows, const std::vector<int32_t>& global);
// The codes (`width` bytes each, the buffer's whole size) as the numpy array pandas makes for
// `categories` categories, narrowed in place when written wider. Needs the GIL.
pybind11::array ReleaseTagCodes(Buffer& codes, size_t width, size_t categories);
// The values of TAG column `column` as the Python list of a Categorical's categories (str;
// DecodeTag says what becomes of bytes that are not UTF-8). Needs the GIL.
pybind11::list CategoriesOf(const std::vector<std::string>& values, std::string_view column, InvalidUtf8 invalid_utf8);

// A TAG column's values in the order first seen, each coded by its position.
class TagDictionary {
 public:
  // The code of `value` (-1 for null), added when new. InternalError when a new code would not
  // fit `width` bytes: cannot happen while the width is for the scan's devices.
  absl::StatusOr<int32_t> CodeOf(std::optional<std::string_view> value, size_t width);
  const std::vector<std::string>& values() const { return values_; }

 private:
  std::unordered_map<std::string, int32_t> codes_;
  std::vector<std::string> values_;
  // The last value asked for and its code (-1: none yet): batches of one device, and devices of
  // one region, ask for the same value in a row.
  int32_t last_code_ = -1;
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_TAG_CODES_H_

// Test helper (header-only): a canonical text of one row of a batch — device, time, then every
// projected cell (floats by their bits) — to compare scans whose batch boundaries or order differ.
#ifndef TSREAD_TESTING_ROW_KEY_H_
#define TSREAD_TESTING_ROW_KEY_H_

#include <bit>
#include <string>

#include "absl/strings/str_cat.h"
#include "tsread/read/table_reader.h"

namespace tsread::testing {

// With `with_file`, the row's file path comes first (datasets).
inline std::string RowKey(const TableBatch& batch, size_t r, bool with_file = false) {
  std::string key = absl::StrCat(with_file ? *batch.file + "|" : "", batch.device->ToString(), "|", batch.times[r]);
  for (size_t j = 0; j < batch.projection->size(); ++j) {
    key += "|";
    const ProjectedColumn& p = (*batch.projection)[j];
    if (p.category == ColumnCategory::kTag) {
      std::optional<std::string_view> tag = batch.tag(j);
      key += tag.has_value() ? absl::StrCat("'", std::string(*tag)) : "<null>";
      continue;
    }
    if (p.category != ColumnCategory::kField) continue;
    const ColumnVector& c = batch.columns[j];
    if (!c.IsValid(r)) {
      key += "<null>";
      continue;
    }
    switch (PhysicalTypeOf(c.type)) {
      case PhysicalType::kBoolean: absl::StrAppend(&key, c.bools[r]); break;
      case PhysicalType::kInt32: absl::StrAppend(&key, c.int32s[r]); break;
      case PhysicalType::kInt64: absl::StrAppend(&key, c.int64s[r]); break;
      case PhysicalType::kFloat: absl::StrAppend(&key, std::bit_cast<uint32_t>(c.floats[r])); break;
      case PhysicalType::kDouble: absl::StrAppend(&key, std::bit_cast<uint64_t>(c.doubles[r])); break;
      case PhysicalType::kBinary: key.append(c.binary(r)); break;
    }
  }
  return key;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_ROW_KEY_H_

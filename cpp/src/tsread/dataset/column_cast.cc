#include "tsread/dataset/column_cast.h"

#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/common/java_number_text.h"

namespace tsread {
namespace {

// Row r of `from` as String.valueOf writes it (a valid row of a non-binary type).
void AppendText(const ColumnVector& from, size_t r, std::string& out) {
  switch (from.type) {
    case DataType::kBoolean: out += from.bools[r] ? "true" : "false"; return;
    case DataType::kInt32: absl::StrAppend(&out, from.int32s[r]); return;
    case DataType::kInt64:
    case DataType::kTimestamp: absl::StrAppend(&out, from.int64s[r]); return;
    case DataType::kFloat: AppendJavaFloat(out, from.floats[r]); return;
    case DataType::kDouble: AppendJavaDouble(out, from.doubles[r]); return;
    case DataType::kDate: {
      // yyyyMMdd (§11) as LocalDate.toString's yyyy-MM-dd.
      const int32_t v = from.int32s[r];
      char text[32];
      std::snprintf(text, sizeof text, "%04d-%02d-%02d", v / 10000, (v / 100) % 100, v % 100);
      out += text;
      return;
    }
    default: return;
  }
}

bool IsBinary(DataType type) { return PhysicalTypeOf(type) == PhysicalType::kBinary; }

// `from`'s values as text (binary kinds keep their bytes).
ColumnVector ToText(const ColumnVector& from, DataType to) {
  ColumnVector out;
  out.type = to;
  out.length = from.length;
  out.null_count = from.null_count;
  out.validity = from.validity;
  out.offsets.reserve(from.length + 1);
  out.offsets.push_back(0);
  std::string text;
  for (size_t r = 0; r < from.length; ++r) {
    if (from.IsValid(r)) {
      if (IsBinary(from.type)) {
        const std::string_view bytes = from.binary(r);
        out.bytes.insert(out.bytes.end(), bytes.begin(), bytes.end());
      } else {
        text.clear();
        AppendText(from, r, text);
        out.bytes.insert(out.bytes.end(), text.begin(), text.end());
      }
    }
    out.offsets.push_back(static_cast<int32_t>(out.bytes.size()));
  }
  return out;
}

// `from`'s values converted slot by slot into `to`'s array (null slots become zero).
template <typename From, typename To>
void Widen(const std::vector<From>& from, std::vector<To>& to, size_t length) {
  to.resize(length);
  for (size_t r = 0; r < length; ++r) to[r] = static_cast<To>(from[r]);
}

}  // namespace

void CastColumn(ColumnVector& column, DataType to) {
  if (column.type == to) return;
  const DataType from = column.type;
  if (to == DataType::kText || to == DataType::kString || (to == DataType::kBlob && IsBinary(from))) {
    column = ToText(column, to);
    return;
  }
  const PhysicalType physical = PhysicalTypeOf(to);
  if (physical == PhysicalTypeOf(from) && physical == PhysicalType::kInt64) {  // INT64 <-> TIMESTAMP
    column.type = to;
    return;
  }
  if ((from == DataType::kInt32 && (to == DataType::kInt64 || to == DataType::kTimestamp))) {
    Widen(column.int32s, column.int64s, column.length);
  } else if (from == DataType::kInt32 && to == DataType::kFloat) {
    Widen(column.int32s, column.floats, column.length);
  } else if (from == DataType::kInt32 && to == DataType::kDouble) {
    Widen(column.int32s, column.doubles, column.length);
  } else if ((from == DataType::kInt64 || from == DataType::kTimestamp) && to == DataType::kDouble) {
    Widen(column.int64s, column.doubles, column.length);
  } else if (from == DataType::kFloat && to == DataType::kDouble) {
    Widen(column.floats, column.doubles, column.length);
  } else {
    // Not a cast IoTDB makes: the values read as null.
    const size_t length = column.length;
    column = ColumnVector();
    column.type = to;
    column.Resize(length);
    column.SetAllNull();
    return;
  }
  column.type = to;
}

}  // namespace tsread

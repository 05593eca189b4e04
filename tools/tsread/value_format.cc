#include "value_format.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "tsread/common/java_number_text.h"

namespace tsread::cli {

void AppendFloat(std::string& out, float v) { AppendJavaFloat(out, v); }
void AppendDouble(std::string& out, double v) { AppendJavaDouble(out, v); }

void AppendQuoted(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

void AppendCsvField(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") != std::string_view::npos) {
    AppendQuoted(out, s);
  } else {
    out += s;
  }
}

void AppendValue(std::string& out, const ColumnVector& column, size_t row) {
  switch (column.type) {
    case DataType::kBoolean: out += column.bools[row] ? "true" : "false"; return;
    case DataType::kInt32:
    case DataType::kDate: absl::StrAppend(&out, column.int32s[row]); return;
    case DataType::kInt64:
    case DataType::kTimestamp:
    case DataType::kVector:
    case DataType::kUnknown: absl::StrAppend(&out, column.int64s[row]); return;
    case DataType::kFloat: AppendFloat(out, column.floats[row]); return;
    case DataType::kDouble: AppendDouble(out, column.doubles[row]); return;
    case DataType::kText:
    case DataType::kString: AppendQuoted(out, column.binary(row)); return;
    case DataType::kBlob: AppendBlobHex(out, column.binary(row)); return;
  }
}

std::string CodecText(uint8_t byte) {
  std::optional<Compression> c = CompressionFromByte(byte);
  return c.has_value() ? std::string(CompressionName(*c)) : absl::StrCat("UNKNOWN(", byte, ")");
}

std::string EncodingText(uint8_t byte) {
  std::optional<Encoding> e = EncodingFromByte(byte);
  return e.has_value() ? std::string(EncodingName(*e)) : absl::StrCat("UNKNOWN(", byte, ")");
}

}  // namespace tsread::cli

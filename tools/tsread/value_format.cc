#include "value_format.h"

#include <charconv>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"

namespace tsread::cli {
namespace {

// Java's Double.toString / Float.toString layout over the shortest round-trip digits: plain
// decimal for 1e-3 <= |v| < 1e7 (always with a fractional digit), else d.dddE<exp>.
template <typename T>
void AppendFloating(std::string& out, T v) {
  if (std::isnan(v)) {
    out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    out += v > 0 ? "Infinity" : "-Infinity";
    return;
  }
  if (v == 0) {
    out += std::signbit(v) ? "-0.0" : "0.0";
    return;
  }
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  const std::string_view text(buf, static_cast<size_t>(r.ptr - buf));
  // text = [-]d[.ddd]e[+-]xx
  const size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  if (mantissa.front() == '-') {
    out.push_back('-');
    mantissa.remove_prefix(1);
  }
  std::string digits(1, mantissa[0]);
  if (mantissa.size() > 2) digits.append(mantissa.substr(2));
  if (exponent >= -3 && exponent < 7) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    } else {
      const size_t integer_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integer_digits) {
        out += digits;
        out.append(integer_digits - digits.size(), '0');
        out += ".0";
      } else {
        out.append(digits, 0, integer_digits);
        out.push_back('.');
        out.append(digits, integer_digits);
      }
    }
    return;
  }
  out.push_back(digits[0]);
  out.push_back('.');
  out += digits.size() > 1 ? digits.substr(1) : "0";
  absl::StrAppend(&out, "E", exponent);
}

}  // namespace

void AppendFloat(std::string& out, float v) { AppendFloating(out, v); }
void AppendDouble(std::string& out, double v) { AppendFloating(out, v); }

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

void AppendBlob(std::string& out, std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "0x";
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
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
    case DataType::kBlob: AppendBlob(out, column.binary(row)); return;
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

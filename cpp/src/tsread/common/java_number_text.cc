#include "tsread/common/java_number_text.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace tsread {
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

void AppendJavaFloat(std::string& out, float v) { AppendFloating(out, v); }
void AppendJavaDouble(std::string& out, double v) { AppendFloating(out, v); }

}  // namespace tsread

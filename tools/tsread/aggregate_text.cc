// Aggregates as the CLI prints them (aggregate_text.h).
#include "aggregate_text.h"

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

bool IsText(DataType type) { return type == DataType::kText || type == DataType::kString || type == DataType::kBlob; }

}  // namespace

std::string SumText(const ColumnAggregate& c) {
  if (c.type() == DataType::kFloat || c.type() == DataType::kDouble) {
    std::string out;
    AppendDouble(out, c.float_sum());
    return out;
  }
  return Int128Text(c.int_sum());
}

std::string AvgText(const ColumnAggregate& c) {
  std::string out;
  AppendDouble(out, c.avg());
  return out;
}

std::string JsonValue(DataType type, const std::string& text) {
  const bool number = !IsText(type) && type != DataType::kBoolean && text != "NaN" && text != "Infinity" &&
                      text != "-Infinity";
  return number || type == DataType::kBoolean ? text : JsonString(text);
}

void AppendCsvValue(std::string& out, DataType type, const std::string& text) {
  if (type == DataType::kText || type == DataType::kString) {
    AppendQuoted(out, text);
  } else {
    out += text;
  }
}

}  // namespace tsread::cli

// IoTDB TsFile names (tsfile_name.h).
#include "tsread/iotdb/tsfile_name.h"

#include <charconv>
#include <string_view>

namespace tsread::iotdb {
namespace {

// A run of decimal digits that fits an int64 (the names hold non-negative longs).
bool ParseDigits(std::string_view text, int64_t& value) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

}  // namespace

std::optional<TsFileName> ParseTsFileName(std::string_view file_name) {
  constexpr std::string_view kSuffix = ".tsfile";
  if (file_name.size() <= kSuffix.size() || file_name.substr(file_name.size() - kSuffix.size()) != kSuffix) {
    return std::nullopt;
  }
  std::string_view rest = file_name.substr(0, file_name.size() - kSuffix.size());
  int64_t fields[4];
  for (int i = 0; i < 4; ++i) {
    const size_t dash = i < 3 ? rest.find('-') : std::string_view::npos;
    if (i < 3 && dash == std::string_view::npos) return std::nullopt;
    if (!ParseDigits(rest.substr(0, dash), fields[i])) return std::nullopt;
    rest = i < 3 ? rest.substr(dash + 1) : std::string_view();
  }
  return TsFileName{fields[0], fields[1], fields[2], fields[3]};
}

}  // namespace tsread::iotdb

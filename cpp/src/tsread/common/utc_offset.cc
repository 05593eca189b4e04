#include "tsread/common/utc_offset.h"

namespace tsread {
namespace {

// The two digits at text[at], as a number; nullopt unless both are digits.
std::optional<int> TwoDigits(std::string_view text, size_t at) {
  if (at + 2 > text.size()) return std::nullopt;
  const char a = text[at], b = text[at + 1];
  if (a < '0' || a > '9' || b < '0' || b > '9') return std::nullopt;
  return (a - '0') * 10 + (b - '0');
}

}  // namespace

std::optional<int> ParseUtcOffset(std::string_view text, int max_hours) {
  if (text.empty() || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  const std::optional<int> hours = TwoDigits(text, 1);
  if (!hours) return std::nullopt;
  std::optional<int> minutes = 0;
  if (text.size() == 6 && text[3] == ':') {
    minutes = TwoDigits(text, 4);
  } else if (text.size() == 5) {
    minutes = TwoDigits(text, 3);
  } else if (text.size() != 3) {
    return std::nullopt;
  }
  if (!minutes || *hours > max_hours || *minutes > 59) return std::nullopt;
  const int seconds = *hours * 3600 + *minutes * 60;
  return text[0] == '-' ? -seconds : seconds;
}

}  // namespace tsread

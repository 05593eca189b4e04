#include "tsread/format/string_order.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tsread {
namespace {

// The UTF-16 "weight" class of the code point starting at `lead`: supplementary characters sort
// as surrogates (0xD8..0xDB high unit), which is below U+E000..U+FFFF in UTF-16 but above it in
// code-point order.
bool IsSupplementaryLead(uint8_t lead) { return lead >= 0xF0; }
bool IsHighBmpLead(uint8_t lead) { return lead == 0xEE || lead == 0xEF; }  // U+E000..U+FFFF

// Index of the first byte of the UTF-8 sequence containing byte `i`.
size_t SequenceStart(std::string_view s, size_t i) {
  while (i > 0 && (static_cast<uint8_t>(s[i]) & 0xC0) == 0x80) --i;
  return i;
}

}  // namespace

int CompareJavaStrings(std::string_view a, std::string_view b) {
  const size_t common = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < common && a[i] == b[i]) ++i;
  if (i == common) return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
  const uint8_t la = static_cast<uint8_t>(a[SequenceStart(a, i)]);
  const uint8_t lb = static_cast<uint8_t>(b[SequenceStart(b, i)]);
  if (IsSupplementaryLead(la) && IsHighBmpLead(lb)) return -1;
  if (IsHighBmpLead(la) && IsSupplementaryLead(lb)) return 1;
  return static_cast<uint8_t>(a[i]) < static_cast<uint8_t>(b[i]) ? -1 : 1;
}

}  // namespace tsread

#include "tsread/write/device_order.h"

#include "tsread/format/string_order.h"

namespace tsread {

int CompareOwnedDeviceIds(const DeviceId& a, const DeviceId& b) {
  const auto& as = a.segments();
  const auto& bs = b.segments();
  const size_t n = as.size() < bs.size() ? as.size() : bs.size();
  for (size_t i = 0; i < n; ++i) {
    // WriteUtils.compareStrings: null first.
    if (!as[i].has_value() || !bs[i].has_value()) {
      if (as[i].has_value() != bs[i].has_value()) return as[i].has_value() ? 1 : -1;
      continue;
    }
    const int c = CompareJavaStrings(*as[i], *bs[i]);
    if (c != 0) return c;
  }
  if (as.size() == bs.size()) return 0;
  return as.size() < bs.size() ? -1 : 1;
}

}  // namespace tsread

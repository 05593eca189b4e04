// The index order of owned device ids (format reference §6.4): segment-wise, a null segment
// before any string, segments in Java String order (CompareJavaStrings), and an id that is a
// prefix of another first (ids are compared after Java drops trailing null segments, which
// DeviceId's constructor already does). Java's TreeMap over StringArrayDeviceID uses this order.
#ifndef TSREAD_WRITE_DEVICE_ORDER_H_
#define TSREAD_WRITE_DEVICE_ORDER_H_

#include "tsread/format/device_id.h"

namespace tsread {

// <0, 0, >0.
int CompareOwnedDeviceIds(const DeviceId& a, const DeviceId& b);

struct DeviceIdLess {
  bool operator()(const DeviceId& a, const DeviceId& b) const { return CompareOwnedDeviceIds(a, b) < 0; }
};

}  // namespace tsread

#endif  // TSREAD_WRITE_DEVICE_ORDER_H_

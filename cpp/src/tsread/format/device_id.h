// Device ids (format reference §2.2, §6.4, §13 items 9-11).
//
// V4 stores a StringArrayDeviceID: uvar segmentCount + that many nullable `vstr` segments;
// segment 0 is the table name, the rest are tag values. V3 stores a PlainDeviceID: one `vstr`
// path ("root.sg.d1").
//
// DeviceIdView is what the index holds: a validated view of the serialized segments inside a
// node's bytes, decoded without allocating. DeviceId is the owning form, built directly from the
// segments (never from a placeholder that is parsed and thrown away).
#ifndef TSREAD_FORMAT_DEVICE_ID_H_
#define TSREAD_FORMAT_DEVICE_ID_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

// An owned device id. Trailing null segments are dropped, as Java's constructor does, so two ids
// that differ only by trailing nulls are equal.
class DeviceId {
 public:
  DeviceId() = default;
  // A V4 segmented id.
  explicit DeviceId(std::vector<std::optional<std::string>> segments);
  // A V3 plain path.
  static DeviceId Plain(std::string path);

  bool is_plain() const { return plain_; }
  size_t segment_count() const { return segments_.size(); }
  // Segment i, or nullopt if it is null or beyond the last segment.
  std::optional<std::string_view> segment(size_t i) const;
  const std::vector<std::optional<std::string>>& segments() const { return segments_; }
  // Segment 0 ("" when it is null or missing); for a plain id, the whole path.
  std::string_view table_name() const;
  // Segments joined by '.', a null segment printed as "null" (cli-contract.md).
  std::string ToString() const;

  friend bool operator==(const DeviceId& a, const DeviceId& b) {
    return a.plain_ == b.plain_ && a.segments_ == b.segments_;
  }

 private:
  std::vector<std::optional<std::string>> segments_;
  bool plain_ = false;
};

// A serialized device id inside index bytes that were validated when the view was made.
class DeviceIdView {
 public:
  DeviceIdView() = default;

  bool is_plain() const { return plain_; }
  // Segments as stored (trailing nulls included, if a writer left any).
  uint32_t segment_count() const { return segment_count_; }

  // Calls fn(NullableView) for each stored segment, in order.
  template <typename Fn>
  void ForEachSegment(Fn&& fn) const {
    if (plain_) {
      fn(NullableView(bytes_));
      return;
    }
    ByteStream in(bytes_, 0);
    for (uint32_t i = 0; i < segment_count_; ++i) {
      // Validated by ReadDeviceIdView: cannot fail.
      fn(*in.ReadNullableVarString("device id segment"));
    }
  }

  // Segment 0 (for a plain id, the whole path); nullopt when null or absent.
  NullableView first_segment() const;
  DeviceId ToOwned() const;
  std::string ToString() const;

 private:
  friend absl::StatusOr<DeviceIdView> ReadDeviceIdView(ByteStream& in, uint8_t version);
  std::string_view bytes_;  // V4: the segments after the count; V3: the path itself
  uint32_t segment_count_ = 0;
  bool plain_ = false;
};

// Reads a device id at the stream's position: StringArrayDeviceID for version 4, a plain path
// for version 3. The view points into the stream's bytes.
absl::StatusOr<DeviceIdView> ReadDeviceIdView(ByteStream& in, uint8_t version);
// Same, into an owned id.
absl::StatusOr<DeviceId> ReadDeviceId(ByteStream& in, uint8_t version);

// Index order of device ids (§6.4): V4 segment-wise, null before any string, a prefix first
// (after dropping trailing nulls), segments in Java String order; V3 plain ids by their path
// bytes (§13 item 11). <0, 0, >0.
int CompareDeviceIds(const DeviceIdView& a, const DeviceId& b);

}  // namespace tsread

#endif  // TSREAD_FORMAT_DEVICE_ID_H_

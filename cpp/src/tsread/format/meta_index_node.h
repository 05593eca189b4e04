// MetadataIndexNode (format reference §6): the B-tree-like index over devices and, per device,
// over its series. A node is `uvar childCount`, the entries, `i64 endOffset`, `u8 nodeType`.
// The entry format depends on the level, known from context before parsing (§6.1):
// device-level nodes hold DeviceMetaIndexEntry (device id + offset), measurement-level nodes hold
// MeasurementMetaIndexEntry (vstr name + offset).
//
// Entries are views into the node's bytes: parsing a node allocates nothing per entry (the
// entry vector is reused by the caller across nodes).
#ifndef TSREAD_FORMAT_META_INDEX_NODE_H_
#define TSREAD_FORMAT_META_INDEX_NODE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/format/device_id.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

enum class MetaIndexNodeType : uint8_t {
  kInternalDevice = 0,
  kLeafDevice = 1,
  kInternalMeasurement = 2,
  kLeafMeasurement = 3,
};

struct DeviceIndexEntry {
  DeviceIdView device;
  int64_t offset = 0;
};

struct MeasurementIndexEntry {
  std::string_view measurement;
  int64_t offset = 0;
};

// A node of either level. Entry i covers [entry(i).offset, end_of(i)) (§6.2).
template <typename Entry>
struct IndexNode {
  std::vector<Entry> entries;
  int64_t end_offset = 0;
  MetaIndexNodeType type = MetaIndexNodeType::kLeafDevice;

  // End of the byte range entry i points to: the next entry's offset, or the node's end.
  int64_t end_of(size_t i) const { return i + 1 < entries.size() ? entries[i + 1].offset : end_offset; }
  bool is_leaf() const {
    return type == MetaIndexNodeType::kLeafDevice || type == MetaIndexNodeType::kLeafMeasurement;
  }
};

using DeviceIndexNode = IndexNode<DeviceIndexEntry>;
using MeasurementIndexNode = IndexNode<MeasurementIndexEntry>;

// Reads a device-level node (type INTERNAL_DEVICE or LEAF_DEVICE) into `node`, reusing its
// storage. Checks the child count against the bytes that remain before reserving, that entry
// offsets strictly increase and that every entry lies in [lower_bound, node.end_offset] with
// end_offset <= upper_bound: callers pass the index area's bounds (§13 item 3).
absl::Status ReadDeviceIndexNode(ByteStream& in, uint8_t version, int64_t lower_bound, int64_t upper_bound,
                                 DeviceIndexNode& node);
// Same for a measurement-level node (INTERNAL_MEASUREMENT or LEAF_MEASUREMENT).
absl::Status ReadMeasurementIndexNode(ByteStream& in, int64_t lower_bound, int64_t upper_bound,
                                      MeasurementIndexNode& node);

std::string_view MetaIndexNodeTypeName(MetaIndexNodeType type);

}  // namespace tsread

#endif  // TSREAD_FORMAT_META_INDEX_NODE_H_

#include "tsread/format/meta_index_node.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// The smallest entry: a one-byte key (count or length) plus the i64 offset (§13 item 1).
constexpr size_t kMinEntrySize = 9;

absl::StatusOr<uint32_t> ReadChildCount(ByteStream& in) {
  const uint64_t start = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarSize("index node child count"));
  if (count == 0 || count > in.remaining() / kMinEntrySize) {
    return absl::DataLossError(absl::StrCat("corrupt index node at offset ", start, ": ", count,
                                            " children cannot fit in the ", in.remaining(), " bytes that remain"));
  }
  return count;
}

absl::StatusOr<int64_t> ReadEntryOffset(ByteStream& in, int64_t previous, int64_t lower_bound, int64_t upper_bound) {
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(int64_t offset, in.ReadI64("index entry offset"));
  if (offset < lower_bound || offset >= upper_bound || offset <= previous) {
    return absl::DataLossError(absl::StrCat("corrupt index entry at offset ", at, ": child offset ", offset,
                                            " is not in [", lower_bound, ", ", upper_bound,
                                            ") after the previous child (", previous, ")"));
  }
  return offset;
}

// Reads endOffset and the type byte and checks the type belongs to the expected level.
template <typename Node>
absl::Status ReadNodeTail(ByteStream& in, int64_t last_entry_offset, int64_t upper_bound, bool device_level,
                          Node& node) {
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(node.end_offset, in.ReadI64("index node end offset"));
  if (node.end_offset <= last_entry_offset || node.end_offset > upper_bound) {
    return absl::DataLossError(absl::StrCat("corrupt index node end offset at offset ", at, ": ", node.end_offset,
                                            " is not in (", last_entry_offset, ", ", upper_bound, "]"));
  }
  const uint64_t type_at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint8_t type, in.ReadU8("index node type"));
  const bool ok = device_level ? type <= 1 : (type == 2 || type == 3);
  if (!ok) {
    return absl::DataLossError(absl::StrCat("corrupt index node type at offset ", type_at, ": ", type,
                                            " where a ", device_level ? "device" : "measurement",
                                            "-level node was expected"));
  }
  node.type = static_cast<MetaIndexNodeType>(type);
  return absl::OkStatus();
}

}  // namespace

absl::Status ReadDeviceIndexNode(ByteStream& in, uint8_t version, int64_t lower_bound, int64_t upper_bound,
                                 DeviceIndexNode& node) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, ReadChildCount(in));
  node.entries.clear();
  node.entries.reserve(count);
  int64_t previous = lower_bound - 1;
  for (uint32_t i = 0; i < count; ++i) {
    DeviceIndexEntry entry;
    TSREAD_ASSIGN_OR_RETURN(entry.device, ReadDeviceIdView(in, version));
    TSREAD_ASSIGN_OR_RETURN(entry.offset, ReadEntryOffset(in, previous, lower_bound, upper_bound));
    previous = entry.offset;
    node.entries.push_back(entry);
  }
  return ReadNodeTail(in, previous, upper_bound, /*device_level=*/true, node);
}

absl::Status ReadMeasurementIndexNode(ByteStream& in, int64_t lower_bound, int64_t upper_bound,
                                      MeasurementIndexNode& node) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, ReadChildCount(in));
  node.entries.clear();
  node.entries.reserve(count);
  int64_t previous = lower_bound - 1;
  for (uint32_t i = 0; i < count; ++i) {
    MeasurementIndexEntry entry;
    TSREAD_ASSIGN_OR_RETURN(entry.measurement, in.ReadVarString("index entry measurement"));
    TSREAD_ASSIGN_OR_RETURN(entry.offset, ReadEntryOffset(in, previous, lower_bound, upper_bound));
    previous = entry.offset;
    node.entries.push_back(entry);
  }
  return ReadNodeTail(in, previous, upper_bound, /*device_level=*/false, node);
}

std::string_view MetaIndexNodeTypeName(MetaIndexNodeType type) {
  switch (type) {
    case MetaIndexNodeType::kInternalDevice: return "INTERNAL_DEVICE";
    case MetaIndexNodeType::kLeafDevice: return "LEAF_DEVICE";
    case MetaIndexNodeType::kInternalMeasurement: return "INTERNAL_MEASUREMENT";
    case MetaIndexNodeType::kLeafMeasurement: return "LEAF_MEASUREMENT";
  }
  return "UNKNOWN";
}

}  // namespace tsread

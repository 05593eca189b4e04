// `.mods2` entries as bytes (deletion_entry.h, SerializeMods2): the layout ParseMods2 reads
// (iotdb-deletion-files.md, "2.x format").
#include <cstdint>
#include <string>

#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

void ZigZag(int32_t v, std::string& out) {
  uint32_t u = (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
  while (u >= 0x80) {
    out += static_cast<char>((u & 0x7F) | 0x80);
    u >>= 7;
  }
  out += static_cast<char>(u);
}

void UnsignedVarint(uint32_t u, std::string& out) {
  while (u >= 0x80) {
    out += static_cast<char>((u & 0x7F) | 0x80);
    u >>= 7;
  }
  out += static_cast<char>(u);
}

void Long(int64_t v, std::string& out) {
  for (int shift = 56; shift >= 0; shift -= 8) out += static_cast<char>((static_cast<uint64_t>(v) >> shift) & 0xFF);
}

// ReadWriteIOUtils.writeVar: zig-zag length (-1: null) and the bytes.
void VarString(const std::optional<std::string>& s, std::string& out) {
  if (!s.has_value()) {
    ZigZag(-1, out);
    return;
  }
  ZigZag(static_cast<int32_t>(s->size()), out);
  out += *s;
}

// StringArrayDeviceID#serialize: uvarint segment count and the segments.
void Device(const DeviceId& device, std::string& out) {
  UnsignedVarint(static_cast<uint32_t>(device.segment_count()), out);
  for (const std::optional<std::string>& segment : device.segments()) VarString(segment, out);
}

void Condition(const DeviceCondition& c, std::string& out) {
  out += static_cast<char>(c.kind);
  switch (c.kind) {
    case DeviceCondition::Kind::kAll: break;
    case DeviceCondition::Kind::kDevice: Device(c.devices.empty() ? DeviceId() : c.devices[0], out); break;
    case DeviceCondition::Kind::kSegmentEquals:
      VarString(c.value, out);
      ZigZag(c.segment, out);
      break;
    case DeviceCondition::Kind::kAnd:
      ZigZag(static_cast<int32_t>(c.operands.size()), out);
      for (const DeviceCondition& operand : c.operands) Condition(operand, out);
      break;
    case DeviceCondition::Kind::kDeviceIn:
      ZigZag(static_cast<int32_t>(c.devices.size()), out);
      for (const DeviceId& device : c.devices) Device(device, out);
      break;
    case DeviceCondition::Kind::kSegmentNotNull: ZigZag(c.segment, out); break;
  }
}

// A pattern node back-quoted where the path syntax needs it (a '.', a back quote or an empty node).
std::string Node(const std::string& node) {
  if (!node.empty() && node.find_first_of(".`") == std::string::npos) return node;
  std::string out = "`";
  for (char c : node) {
    out += c;
    if (c == '`') out += '`';
  }
  return out + "`";
}

}  // namespace

std::string SerializeMods2(const DeletionEntry& entry) {
  std::string out;
  out += static_cast<char>(entry.model);
  Long(entry.start, out);
  Long(entry.end, out);
  if (entry.model == DeletionEntry::Model::kTree) {
    std::string path;
    for (size_t i = 0; i < entry.pattern.size(); ++i) path += (i ? "." : "") + Node(entry.pattern[i]);
    VarString(path, out);
    return out;
  }
  VarString(entry.table, out);
  Condition(entry.devices, out);
  ZigZag(static_cast<int32_t>(entry.columns.size()), out);
  for (const std::string& column : entry.columns) VarString(column, out);
  return out;
}

}  // namespace tsread::iotdb

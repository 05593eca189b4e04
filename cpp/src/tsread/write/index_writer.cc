#include "tsread/write/index_writer.h"

#include <deque>
#include <utility>

#include "tsread/write/byte_appender.h"

namespace tsread {
namespace {

constexpr uint8_t kSeparator = 0x02;
constexpr char kMagic[] = "TsFile";

// MetadataIndexNodeType (§6.1).
enum NodeType : uint8_t {
  kInternalDevice = 0,
  kLeafDevice = 1,
  kInternalMeasurement = 2,
  kLeafMeasurement = 3,
};

// A MetadataIndexNode under construction. Entry keys are kept serialized (a vstr measurement
// name or a DeviceID), so one type serves both levels.
struct Node {
  explicit Node(NodeType t) : type(t) {}
  NodeType type;
  std::vector<std::pair<std::string, int64_t>> entries;
  int64_t end_offset = 0;
};

// Tracks file offsets while appending to the index buffer.
class IndexOut {
 public:
  IndexOut(uint64_t base, std::string& out) : base_(base), out_(out) {}
  int64_t position() const { return static_cast<int64_t>(base_ + out_.size()); }
  std::string& bytes() { return out_; }

  // §6.1: uvar childCount, entries (key + i64 offset), i64 endOffset, u8 nodeType.
  void WriteNode(const Node& node) {
    AppendUVarInt(out_, static_cast<uint32_t>(node.entries.size()));
    for (const auto& [key, offset] : node.entries) {
      out_.append(key);
      AppendI64(out_, offset);
    }
    AppendI64(out_, node.end_offset);
    AppendU8(out_, node.type);
  }

 private:
  uint64_t base_;
  std::string& out_;
};

std::string MeasurementKey(std::string_view name) {
  std::string key;
  AppendVarString(key, name);
  return key;
}

// StringArrayDeviceID.serialize (§2.2); a V3 plain id is its path as a `vstr` (§6.1).
std::string DeviceKey(const DeviceId& id) {
  std::string key;
  if (id.is_plain()) {
    AppendVarString(key, id.table_name());
    return key;
  }
  AppendUVarInt(key, static_cast<uint32_t>(id.segment_count()));
  for (const auto& segment : id.segments()) AppendNullableVarString(key, segment);
  return key;
}

bool IsFull(const Node& node, int max_degree) { return node.entries.size() >= static_cast<size_t>(max_degree); }

// Java addCurrentIndexNodeToQueue: the node ends where the file is now.
void Enqueue(Node node, IndexOut& out, std::deque<Node>& queue) {
  node.end_offset = out.position();
  queue.push_back(std::move(node));
}

// MetadataIndexConstructor.generateRootNode: groups the queued nodes under parents of `type`,
// level by level, writing each child as its parent gets the entry; the root stays unwritten.
Node GenerateRoot(std::deque<Node> queue, NodeType type, int max_degree, IndexOut& out) {
  while (queue.size() != 1) {
    const size_t level_size = queue.size();
    Node parent(type);
    for (size_t i = 0; i < level_size; ++i) {
      Node child = std::move(queue.front());
      queue.pop_front();
      if (IsFull(parent, max_degree)) {
        Enqueue(std::move(parent), out, queue);
        parent = Node(type);
      }
      parent.entries.emplace_back(child.entries.front().first, out.position());
      out.WriteNode(child);
    }
    Enqueue(std::move(parent), out, queue);
  }
  return std::move(queue.front());
}

// §5 TimeseriesMetadata with its ChunkMetadata list; the series statistics merge the chunks'.
void WriteTimeseriesMetadata(const IndexedSeries& series, std::string& out) {
  const std::vector<ChunkRecord>& chunks = *series.chunks;
  const bool several = chunks.size() > 1;
  StatisticsBuilder total(series.type);
  std::string list;
  for (const ChunkRecord& chunk : chunks) {
    total.Merge(chunk.statistics);
    AppendI64(list, chunk.offset);
    if (several) chunk.statistics.SerializeTo(list);
  }
  AppendU8(out, static_cast<uint8_t>(series.mask | (several ? 1 : 0)));
  AppendVarString(out, series.name);
  AppendU8(out, static_cast<uint8_t>(series.type));
  AppendUVarInt(out, static_cast<uint32_t>(list.size()));
  total.SerializeTo(out);
  out.append(list);
}

// The measurement index of one device, written after its TimeseriesMetadata (§6.3); returns the
// unwritten root.
Node WriteDeviceSeries(const IndexedDevice& device, int max_degree, IndexOut& out) {
  std::deque<Node> leaves;
  Node leaf(kLeafMeasurement);
  for (size_t i = 0; i < device.series.size(); ++i) {
    // Every max_degree-th series opens an entry (a run of up to max_degree series).
    if (i % static_cast<size_t>(max_degree) == 0) {
      if (IsFull(leaf, max_degree)) {
        Enqueue(std::move(leaf), out, leaves);
        leaf = Node(kLeafMeasurement);
      }
      leaf.entries.emplace_back(MeasurementKey(device.series[i].name), out.position());
    }
    WriteTimeseriesMetadata(device.series[i], out.bytes());
  }
  Enqueue(std::move(leaf), out, leaves);
  return GenerateRoot(std::move(leaves), kInternalMeasurement, max_degree, out);
}

// MetadataIndexConstructor.constructMetadataIndex for one table: writes every device's
// measurement root and the device nodes below the table root; returns the unwritten root.
Node WriteDeviceIndex(const std::vector<IndexedDevice>& devices, std::vector<Node> measurement_roots, int max_degree,
                      IndexOut& out) {
  std::deque<Node> leaves;
  Node leaf(kLeafDevice);
  for (size_t d = 0; d < devices.size(); ++d) {
    if (IsFull(leaf, max_degree)) {
      Enqueue(std::move(leaf), out, leaves);
      leaf = Node(kLeafDevice);
    }
    leaf.entries.emplace_back(DeviceKey(*devices[d].id), out.position());
    out.WriteNode(measurement_roots[d]);
  }
  leaf.end_offset = out.position();
  if (devices.size() <= static_cast<size_t>(max_degree)) return leaf;
  Enqueue(std::move(leaf), out, leaves);
  return GenerateRoot(std::move(leaves), kInternalDevice, max_degree, out);
}

// §7.1 TableSchema body: uvar columnCount, per column MeasurementSchema + i32 category.
void WriteTableSchema(const TableSchema& schema, std::string& out) {
  AppendUVarInt(out, static_cast<uint32_t>(schema.columns.size()));
  for (const ColumnSchema& column : schema.columns) {
    AppendIntString(out, column.name);
    AppendU8(out, static_cast<uint8_t>(column.data_type));
    AppendU8(out, column.encoding_byte);
    AppendU8(out, column.compression_byte);
    AppendI32(out, static_cast<int32_t>(column.properties.size()));
    for (const auto& [key, value] : column.properties) {
      AppendIntString(out, key);
      AppendIntString(out, value);
    }
    AppendI32(out, static_cast<int32_t>(column.category));
  }
}

// TsFileMetadata's properties as Java writes them for an unencrypted file (HashMap order;
// encryptKey "") after an empty bloom filter (nBytes = 0, Java's empty form).
void AppendBloomFilterAndProperties(std::string& metadata) {
  AppendUVarInt(metadata, 0);
  AppendVarInt(metadata, 3);
  AppendVarString(metadata, "encryptLevel");
  AppendVarString(metadata, "0");
  AppendVarString(metadata, "encryptKey");
  AppendVarString(metadata, "");
  AppendVarString(metadata, "encryptType");
  AppendVarString(metadata, "org.apache.tsfile.encrypt.UNENCRYPTED");
}

void AppendNode(const Node& node, std::string& out) {
  std::string bytes;
  IndexOut(0, bytes).WriteNode(node);
  out.append(bytes);
}

void AppendTail(const std::string& metadata, std::string& out) {
  out.append(metadata);
  AppendI32(out, static_cast<int32_t>(metadata.size()));
  out.append(kMagic, 6);
}

}  // namespace

void AppendIndexAndTail(const std::vector<IndexedTable>& tables, const std::vector<const TableSchema*>& schemas,
                        int max_degree, uint64_t separator_offset, std::string& out) {
  IndexOut index(separator_offset - out.size(), out);
  AppendU8(out, kSeparator);

  // Java writes the series of every device (all tables, in device order) first, then per table
  // its device nodes (TsFileIOWriter.readChunkMetadataAndConstructIndexTree).
  std::vector<std::vector<Node>> measurement_roots(tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    for (const IndexedDevice& device : tables[t].devices) {
      measurement_roots[t].push_back(WriteDeviceSeries(device, max_degree, index));
    }
  }
  std::string metadata;
  AppendUVarInt(metadata, static_cast<uint32_t>(tables.size()));
  for (size_t t = 0; t < tables.size(); ++t) {
    const Node root = WriteDeviceIndex(tables[t].devices, std::move(measurement_roots[t]), max_degree, index);
    AppendVarString(metadata, tables[t].name);
    AppendNode(root, metadata);
  }
  AppendUVarInt(metadata, static_cast<uint32_t>(schemas.size()));
  for (const TableSchema* schema : schemas) {
    AppendVarString(metadata, schema->name);
    WriteTableSchema(*schema, metadata);
  }
  AppendI64(metadata, static_cast<int64_t>(separator_offset));
  AppendBloomFilterAndProperties(metadata);
  AppendTail(metadata, out);
}

void AppendV3IndexAndTail(const std::vector<IndexedDevice>& devices, int max_degree, uint64_t separator_offset,
                          std::string& out) {
  IndexOut index(separator_offset - out.size(), out);
  AppendU8(out, kSeparator);
  std::vector<Node> measurement_roots;
  measurement_roots.reserve(devices.size());
  for (const IndexedDevice& device : devices) measurement_roots.push_back(WriteDeviceSeries(device, max_degree, index));
  std::string metadata;
  AppendNode(WriteDeviceIndex(devices, std::move(measurement_roots), max_degree, index), metadata);
  AppendI64(metadata, static_cast<int64_t>(separator_offset));
  AppendTail(metadata, out);
}

void AppendIndexAndTail(const std::vector<IndexedDevice>& devices, const TableSchema& schema, int max_degree,
                        uint64_t separator_offset, std::string& out) {
  std::vector<IndexedTable> tables;
  if (!devices.empty()) tables.push_back(IndexedTable{schema.name, devices});
  AppendIndexAndTail(tables, {&schema}, max_degree, separator_offset, out);
}

}  // namespace tsread

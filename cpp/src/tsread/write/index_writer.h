// The index area and tail of a V4 file (format reference §1, §5, §6.3, §7.1): the SEPARATOR,
// every device's TimeseriesMetadata (with its ChunkMetadata list) and measurement index nodes,
// the per-table device index nodes, TsFileMetadata, its length and the tail magic. Nodes are
// built and written in the order of Java's TsFileIOWriter.readChunkMetadataAndConstructIndexTree
// and MetadataIndexConstructor, so offsets match a Java-written file of the same data section.
#ifndef TSREAD_WRITE_INDEX_WRITER_H_
#define TSREAD_WRITE_INDEX_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tsread/common/tsfile_enums.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/device_id.h"
#include "tsread/format/table_schema.h"
#include "tsread/write/chunk_group_encoder.h"

namespace tsread {

// TimeseriesMetadata type masks (§5) are the chunk marker masks (§2.1): kTimeColumnMask and
// kValueColumnMask of format/chunk_header.h.

// One series of a device, as the index lists it.
struct IndexedSeries {
  std::string_view name;  // "" for the time column
  DataType type = DataType::kVector;
  uint8_t mask = 0;
  const std::vector<ChunkRecord>* chunks = nullptr;  // in file order, at least one
};

struct IndexedDevice {
  const DeviceId* id = nullptr;
  std::vector<IndexedSeries> series;  // time column first, then by name (Java String order)
};

// The devices of one index-map entry (§7.1): a table-model table, or the tree-model devices whose
// segment 0 is `name` (e.g. "root.sg1").
struct IndexedTable {
  std::string_view name;
  std::vector<IndexedDevice> devices;  // in index order (§6.4), at least one
};

// Appends a V4 index area and tail to `out`, which starts at file offset `separator_offset`
// (= metaOffset): every device's series (tables in `tables` order, which must be sorted by
// name), then each table's device nodes, TsFileMetadata with `schemas` (sorted by name; tree
// model entries have none) and the tail. `max_degree` as below.
void AppendIndexAndTail(const std::vector<IndexedTable>& tables, const std::vector<const TableSchema*>& schemas,
                        int max_degree, uint64_t separator_offset, std::string& out);

// Appends a V3 index area and tail (§7.3): one device index over all `devices` (plain ids, in
// path byte order), TsFileMetadata = root node + metaOffset, no bloom filter (Java reads it only
// when bytes remain).
void AppendV3IndexAndTail(const std::vector<IndexedDevice>& devices, int max_degree, uint64_t separator_offset,
                          std::string& out);

// Appends the index area and tail to `out`, which starts at file offset `separator_offset`
// (= metaOffset). `devices` are the devices of table `schema` in index order (§6.4); they may be
// empty. `max_degree` is the index fan-out (TSFileConfig.maxDegreeOfIndexNode, 256).
void AppendIndexAndTail(const std::vector<IndexedDevice>& devices, const TableSchema& schema, int max_degree,
                        uint64_t separator_offset, std::string& out);

}  // namespace tsread

#endif  // TSREAD_WRITE_INDEX_WRITER_H_

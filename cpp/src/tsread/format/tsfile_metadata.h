// TsFileMetadata (format reference §7): the per-table device-index roots, the table schemas, the
// offset of the index area, the bloom filter and the file properties. V4 layout §7.1, V3 §7.3.
#ifndef TSREAD_FORMAT_TSFILE_METADATA_H_
#define TSREAD_FORMAT_TSFILE_METADATA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/meta_index_node.h"
#include "tsread/format/table_schema.h"

namespace tsread {

// The device-index root of one table (V4) or of the whole file (V3: name "").
struct TableIndex {
  std::string name;
  DeviceIndexNode root;
  uint64_t at = 0;  // file offset of the entry (its name; V3: the root node), for `tsread sketch`
};

struct TsFileMetadata {
  uint8_t version = 4;
  std::vector<TableIndex> table_index;    // as stored: sorted by name
  std::vector<TableSchema> table_schemas;  // as stored
  // Offset of the SEPARATOR byte: the data section is [7, meta_offset), the index area
  // (meta_offset, metadata position).
  uint64_t meta_offset = 0;
  std::string_view bloom_filter_bits;  // may be empty
  uint32_t bloom_filter_bit_count = 0;
  uint32_t bloom_filter_hash_count = 0;
  std::vector<std::pair<std::string, std::optional<std::string>>> properties;
  // File offsets of the fields after the table index (for `tsread sketch`); 0 when absent.
  uint64_t table_schemas_at = 0;  // the schema count (V4)
  uint64_t meta_offset_at = 0;
  uint64_t bloom_filter_at = 0;   // the bloom filter, then the properties (V4)
  uint64_t properties_at = 0;     // the property count
  std::vector<uint64_t> table_schema_at;  // per table schema: the offset of its name
  std::vector<uint64_t> property_at;      // per property: the offset of its key

  const TableSchema* FindSchema(std::string_view table) const;
  const TableIndex* FindIndex(std::string_view table) const;
};

// Parses TsFileMetadata from `bytes`, which start at file offset `offset` (the metadata
// position). Device ids in the roots are views into `bytes`, which must outlive the result.
// Unimplemented for an encrypted file (§10.2).
absl::StatusOr<TsFileMetadata> ReadTsFileMetadata(std::string_view bytes, uint64_t offset, uint8_t version);

}  // namespace tsread

#endif  // TSREAD_FORMAT_TSFILE_METADATA_H_

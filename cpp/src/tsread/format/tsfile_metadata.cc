#include "tsread/format/tsfile_metadata.h"

#include "absl/strings/str_cat.h"
#include "tsread/format/file_layout.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Each table-index entry needs at least a name length byte and a 9-byte node entry; each schema
// a name length byte and a column count byte.
constexpr size_t kMinTableIndexEntrySize = 12;
constexpr size_t kMinTableSchemaEntrySize = 2;

absl::Status ReadTableIndex(ByteStream& in, uint8_t version, int64_t metadata_pos, TsFileMetadata& meta) {
  if (version == kVersion3) {
    TableIndex index;
    index.at = in.offset();
    TSREAD_RETURN_IF_ERROR(ReadDeviceIndexNode(in, version, kHeadSize, metadata_pos, index.root));
    meta.table_index.push_back(std::move(index));
    return absl::OkStatus();
  }
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarSize("table index count"));
  if (count > in.remaining() / kMinTableIndexEntrySize) {
    return absl::DataLossError(absl::StrCat("corrupt table index count at offset ", at, ": ", count));
  }
  meta.table_index.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    TableIndex index;
    index.at = in.offset();
    TSREAD_ASSIGN_OR_RETURN(std::string_view name, in.ReadVarString("table name"));
    index.name.assign(name);
    TSREAD_RETURN_IF_ERROR(ReadDeviceIndexNode(in, version, kHeadSize, metadata_pos, index.root));
    meta.table_index.push_back(std::move(index));
  }
  return absl::OkStatus();
}

absl::Status ReadTableSchemas(ByteStream& in, TsFileMetadata& meta) {
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarSize("table schema count"));
  if (count > in.remaining() / kMinTableSchemaEntrySize) {
    return absl::DataLossError(absl::StrCat("corrupt table schema count at offset ", at, ": ", count));
  }
  meta.table_schemas.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    meta.table_schema_at.push_back(in.offset());
    TSREAD_ASSIGN_OR_RETURN(std::string_view name, in.ReadVarString("table schema name"));
    TSREAD_ASSIGN_OR_RETURN(TableSchema schema, ReadTableSchema(in, std::string(name)));
    meta.table_schemas.push_back(std::move(schema));
  }
  return absl::OkStatus();
}

// The roots were parsed before meta_offset was known: their children must lie in the index area.
absl::Status CheckRootsInIndexArea(const TsFileMetadata& meta, uint64_t offset) {
  for (const TableIndex& index : meta.table_index) {
    if (static_cast<uint64_t>(index.root.entries.front().offset) <= meta.meta_offset) {
      return absl::DataLossError(absl::StrCat("corrupt index root of table \"", index.name, "\" in the metadata at offset ",
                                              offset, ": child offset ", index.root.entries.front().offset,
                                              " is not after the index area start ", meta.meta_offset));
    }
  }
  return absl::OkStatus();
}

// V3 always writes bitCount and hashCount (§7.3); Java's V4 writer only for a non-empty filter.
absl::Status ReadBloomFilter(ByteStream& in, bool counts_when_empty, TsFileMetadata& meta) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t n_bytes, in.ReadUVarSize("bloom filter size"));
  TSREAD_ASSIGN_OR_RETURN(meta.bloom_filter_bits, in.ReadBytes(n_bytes, "bloom filter bits"));
  if (n_bytes == 0 && !counts_when_empty) return absl::OkStatus();
  TSREAD_ASSIGN_OR_RETURN(meta.bloom_filter_bit_count, in.ReadUVarInt("bloom filter bit count"));
  TSREAD_ASSIGN_OR_RETURN(meta.bloom_filter_hash_count, in.ReadUVarInt("bloom filter hash count"));
  if (meta.bloom_filter_hash_count == 0x7FFFFFFF) {
    // Newer upstream "cheap hash" variant: the real hash count follows.
    TSREAD_ASSIGN_OR_RETURN(meta.bloom_filter_hash_count, in.ReadUVarInt("bloom filter hash count"));
  }
  return absl::OkStatus();
}

// Properties: svar count (zig-zag), then vstr key / nullable vstr value pairs; must end the metadata.
absl::Status ReadProperties(ByteStream& in, TsFileMetadata& meta) {
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t count, in.ReadSVarInt("property count"));
  if (count < 0 || static_cast<size_t>(count) > in.remaining() / 2) {
    return absl::DataLossError(absl::StrCat("corrupt property count at offset ", at, ": ", count));
  }
  meta.properties.clear();
  meta.property_at.clear();
  meta.properties_at = at;
  for (int32_t i = 0; i < count; ++i) {
    meta.property_at.push_back(in.offset());
    TSREAD_ASSIGN_OR_RETURN(std::string_view key, in.ReadVarString("property key"));
    TSREAD_ASSIGN_OR_RETURN(NullableView value, in.ReadNullableVarString("property value"));
    meta.properties.emplace_back(std::string(key), value.has_value() ? std::optional<std::string>(std::string(*value))
                                                                     : std::nullopt);
  }
  if (!in.empty()) return in.Corrupt("TsFileMetadata", "bytes remain after the properties");
  return absl::OkStatus();
}

// The C++ snapshot writes bitCount and hashCount even for an empty bloom filter (§7.1): when the
// Java layout does not parse to the end, retry after skipping those two varints.
absl::Status ReadBloomFilterAndProperties(ByteStream& in, TsFileMetadata& meta) {
  TSREAD_RETURN_IF_ERROR(ReadBloomFilter(in, /*counts_when_empty=*/false, meta));
  if (in.empty()) return absl::OkStatus();
  if (!meta.bloom_filter_bits.empty()) return ReadProperties(in, meta);
  ByteStream retry = in;
  absl::Status java_layout = ReadProperties(in, meta);
  if (java_layout.ok()) return java_layout;
  if (!retry.ReadUVarInt("bloom filter bit count").ok() || !retry.ReadUVarInt("bloom filter hash count").ok() ||
      !ReadProperties(retry, meta).ok()) {
    return java_layout;
  }
  return absl::OkStatus();
}

absl::Status CheckNotEncrypted(const TsFileMetadata& meta) {
  for (const auto& [key, value] : meta.properties) {
    if (key == "encryptLevel" && value.has_value() && *value != "0") {
      return absl::UnimplementedError(absl::StrCat("the file is encrypted (encryptLevel ", *value,
                                                   "): tsread does not read encrypted files"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

const TableSchema* TsFileMetadata::FindSchema(std::string_view table) const {
  for (const TableSchema& schema : table_schemas) {
    if (schema.name == table) return &schema;
  }
  return nullptr;
}

const TableIndex* TsFileMetadata::FindIndex(std::string_view table) const {
  for (const TableIndex& index : table_index) {
    if (index.name == table) return &index;
  }
  return nullptr;
}

absl::StatusOr<TsFileMetadata> ReadTsFileMetadata(std::string_view bytes, uint64_t offset, uint8_t version) {
  TsFileMetadata meta;
  meta.version = version;
  ByteStream in(bytes, offset);
  const int64_t metadata_pos = static_cast<int64_t>(offset);
  TSREAD_RETURN_IF_ERROR(ReadTableIndex(in, version, metadata_pos, meta));
  if (version != kVersion3) {
    meta.table_schemas_at = in.offset();
    TSREAD_RETURN_IF_ERROR(ReadTableSchemas(in, meta));
  }
  const uint64_t meta_offset_at = in.offset();
  meta.meta_offset_at = meta_offset_at;
  TSREAD_ASSIGN_OR_RETURN(int64_t meta_offset, in.ReadI64("meta offset"));
  if (meta_offset < static_cast<int64_t>(kHeadSize) || meta_offset >= metadata_pos) {
    return absl::DataLossError(absl::StrCat("corrupt meta offset at offset ", meta_offset_at, ": ", meta_offset,
                                            " is not in [7, ", metadata_pos, ")"));
  }
  meta.meta_offset = static_cast<uint64_t>(meta_offset);
  TSREAD_RETURN_IF_ERROR(CheckRootsInIndexArea(meta, offset));
  if (!in.empty()) meta.bloom_filter_at = in.offset();
  if (version == kVersion3) {
    if (!in.empty()) TSREAD_RETURN_IF_ERROR(ReadBloomFilter(in, /*counts_when_empty=*/true, meta));
  } else if (!in.empty()) {
    TSREAD_RETURN_IF_ERROR(ReadBloomFilterAndProperties(in, meta));
  }
  TSREAD_RETURN_IF_ERROR(CheckNotEncrypted(meta));
  return meta;
}

}  // namespace tsread

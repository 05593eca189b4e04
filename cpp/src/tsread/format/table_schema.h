// TableSchema (format reference §7.1): the columns of one table-model table in schema order.
#ifndef TSREAD_FORMAT_TABLE_SCHEMA_H_
#define TSREAD_FORMAT_TABLE_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/io/byte_stream.h"

namespace tsread {

struct ColumnSchema {
  std::string name;
  DataType data_type = DataType::kInt64;
  uint8_t encoding_byte = 0;     // the writer's configured encoding: informational (§7.1)
  uint8_t compression_byte = 0;  // informational
  std::vector<std::pair<std::string, std::string>> properties;
  ColumnCategory category = ColumnCategory::kField;
};

struct TableSchema {
  std::string name;
  std::vector<ColumnSchema> columns;

  // Index of the column named `name`, or nullopt.
  std::optional<size_t> FindColumn(std::string_view column) const;
  // Position of the column among the TAG columns (its device-id segment is this + 1, §12).
  std::optional<size_t> TagOrdinal(size_t column_index) const;
};

// Reads the TableSchema body that follows the table name in TsFileMetadata.
absl::StatusOr<TableSchema> ReadTableSchema(ByteStream& in, std::string name);

}  // namespace tsread

#endif  // TSREAD_FORMAT_TABLE_SCHEMA_H_

#include "tsread/format/table_schema.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Every column needs at least: istr name (4) + 3 type bytes + i32 propCount + i32 category.
constexpr size_t kMinColumnSize = 15;
// Every property needs two i32 lengths.
constexpr size_t kMinPropertySize = 8;

absl::StatusOr<ColumnSchema> ReadColumnSchema(ByteStream& in) {
  ColumnSchema column;
  TSREAD_ASSIGN_OR_RETURN(std::string_view name, in.ReadI32String("column name"));
  column.name.assign(name);
  const uint64_t type_at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint8_t type_byte, in.ReadU8("column data type"));
  std::optional<DataType> type = DataTypeFromByte(type_byte);
  if (!type.has_value() || *type == DataType::kVector) {
    return absl::UnimplementedError(absl::StrCat("unsupported data type ", type_byte, " at offset ", type_at,
                                                 " for column \"", column.name, "\""));
  }
  column.data_type = *type;
  TSREAD_ASSIGN_OR_RETURN(column.encoding_byte, in.ReadU8("column encoding"));
  TSREAD_ASSIGN_OR_RETURN(column.compression_byte, in.ReadU8("column compression"));
  const uint64_t props_at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t prop_count, in.ReadI32("column property count"));
  if (prop_count < 0 || static_cast<size_t>(prop_count) > in.remaining() / kMinPropertySize) {
    return absl::DataLossError(absl::StrCat("corrupt column property count at offset ", props_at, ": ", prop_count));
  }
  for (int32_t i = 0; i < prop_count; ++i) {
    TSREAD_ASSIGN_OR_RETURN(NullableView key, in.ReadNullableI32String("column property key"));
    TSREAD_ASSIGN_OR_RETURN(NullableView value, in.ReadNullableI32String("column property value"));
    column.properties.emplace_back(std::string(key.value_or("")), std::string(value.value_or("")));
  }
  const uint64_t category_at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t category, in.ReadI32("column category"));
  std::optional<ColumnCategory> parsed = ColumnCategoryFromInt(category);
  if (!parsed.has_value()) {
    return absl::DataLossError(absl::StrCat("corrupt column category at offset ", category_at, ": ", category,
                                            " (expected 0 TAG, 1 FIELD or 2 ATTRIBUTE)"));
  }
  column.category = *parsed;
  return column;
}

}  // namespace

std::optional<size_t> TableSchema::FindColumn(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return i;
  }
  return std::nullopt;
}

std::optional<size_t> TableSchema::TagOrdinal(size_t column_index) const {
  if (column_index >= columns.size() || columns[column_index].category != ColumnCategory::kTag) return std::nullopt;
  size_t ordinal = 0;
  for (size_t i = 0; i < column_index; ++i) {
    if (columns[i].category == ColumnCategory::kTag) ++ordinal;
  }
  return ordinal;
}

absl::StatusOr<TableSchema> ReadTableSchema(ByteStream& in, std::string name) {
  TableSchema schema;
  schema.name = std::move(name);
  const uint64_t at = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarSize("table column count"));
  if (count > in.remaining() / kMinColumnSize) {
    return absl::DataLossError(absl::StrCat("corrupt table schema of \"", schema.name, "\" at offset ", at, ": ", count,
                                            " columns cannot fit in the ", in.remaining(), " bytes that remain"));
  }
  schema.columns.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    TSREAD_ASSIGN_OR_RETURN(ColumnSchema column, ReadColumnSchema(in));
    schema.columns.push_back(std::move(column));
  }
  return schema;
}

}  // namespace tsread

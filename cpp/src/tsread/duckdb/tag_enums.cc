#include "tsread/duckdb/tag_enums.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "tsread/duckdb/function_support.h"

namespace tsread::duckdb_ext {

TagEnum::TagEnum(const std::vector<std::string>& members) {
  std::vector<const char*> names;
  names.reserve(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    names.push_back(members[i].c_str());
    codes_.emplace(members[i], static_cast<uint32_t>(i));
  }
  type_ = duckdb_create_enum_type(names.data(), names.size());
  internal_ = duckdb_enum_internal_type(type_);
}

TagEnum::~TagEnum() {
  if (type_ != nullptr) duckdb_destroy_logical_type(&type_);
}

TagEnum::TagEnum(TagEnum&& other) noexcept
    : type_(other.type_), internal_(other.internal_), codes_(std::move(other.codes_)) {
  other.type_ = nullptr;
}

std::optional<uint32_t> TagEnum::Code(std::string_view value) const {
  auto it = codes_.find(value);
  if (it == codes_.end()) return std::nullopt;
  return it->second;
}

void TagEnum::Fill(duckdb_vector vector, uint32_t code, size_t at, size_t rows) const {
  void* data = duckdb_vector_get_data(vector);
  switch (internal_) {
    case DUCKDB_TYPE_UTINYINT:
      std::memset(static_cast<uint8_t*>(data) + at, static_cast<int>(code), rows);
      break;
    case DUCKDB_TYPE_USMALLINT:
      std::fill_n(static_cast<uint16_t*>(data) + at, rows, static_cast<uint16_t>(code));
      break;
    default:
      std::fill_n(static_cast<uint32_t*>(data) + at, rows, code);
      break;
  }
}

absl::StatusOr<std::vector<std::optional<TagEnum>>> CollectTagEnums(const Dataset& dataset, const std::string& table,
                                                                    const TableSchema& schema) {
  std::vector<std::set<std::string, std::less<>>> values(schema.columns.size());
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    const DatasetFile& file = dataset.files()[f];
    const TableSchema* own = file.FindTable(table);
    if (own == nullptr) continue;
    // Segment k + 1 holds the file's k-th TAG column (segment 0 is the table): its reconciled index.
    std::vector<size_t> segment_column;
    for (const ColumnSchema& c : own->columns) {
      if (c.category != ColumnCategory::kTag) continue;
      std::optional<size_t> reconciled = schema.FindColumn(c.name);
      segment_column.push_back(reconciled.value_or(schema.columns.size()));
    }
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return WithFileName(reader.status(), file.path);
    if ((*reader)->metadata().FindIndex(table) == nullptr) continue;
    std::string bad_column;
    absl::Status status = (*reader)->ForEachDevice(table, [&](const DeviceEntry& device) {
      size_t segment = 0;
      device.id.ForEachSegment([&](NullableView value) {
        if (segment >= 1 && segment <= segment_column.size() && value.has_value() &&
            segment_column[segment - 1] < schema.columns.size()) {
          const size_t column = segment_column[segment - 1];
          if (!ValidUtf8(*value)) bad_column = schema.columns[column].name;
          if (values[column].find(*value) == values[column].end()) values[column].emplace(*value);
        }
        ++segment;
      });
      return bad_column.empty() ? absl::OkStatus()
                                : absl::DataLossError(absl::StrCat("column \"", bad_column,
                                                                   "\": a tag value is not valid UTF-8 (binary_as_blob "
                                                                   ":= true reads it as BLOB)"));
    });
    if (!status.ok()) return WithFileName(status, file.path);
  }
  std::vector<std::optional<TagEnum>> enums(schema.columns.size());
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    if (schema.columns[c].category != ColumnCategory::kTag || values[c].empty()) continue;
    enums[c].emplace(std::vector<std::string>(values[c].begin(), values[c].end()));
  }
  return enums;
}

}  // namespace tsread::duckdb_ext

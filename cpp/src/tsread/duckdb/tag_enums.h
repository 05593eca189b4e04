// tags_as_enum := true: TAG columns as DuckDB ENUMs whose members are the tag values listed in the
// files' device indexes (metadata only). A batch holds one device, so its TAG column is one code
// repeated: a memset instead of a string per row, and DuckDB hashes, compares and groups the small
// integer codes. This is the stable C API's way (at v1.2.0) to hand DuckDB a dictionary: constant
// and dictionary vectors are not in it (docs/duckdb.md).
#ifndef TSREAD_DUCKDB_TAG_ENUMS_H_
#define TSREAD_DUCKDB_TAG_ENUMS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/dataset/dataset.h"

namespace tsread::duckdb_ext {

// One TAG column's ENUM: its logical type (owned) and each member's code.
class TagEnum {
 public:
  explicit TagEnum(const std::vector<std::string>& members);
  ~TagEnum();
  TagEnum(const TagEnum&) = delete;
  TagEnum& operator=(const TagEnum&) = delete;
  TagEnum(TagEnum&& other) noexcept;
  TagEnum& operator=(TagEnum&&) = delete;

  duckdb_logical_type type() const { return type_; }
  // The code of `value`; nullopt when it is not a member (a file changed since the bind).
  std::optional<uint32_t> Code(std::string_view value) const;
  // Rows [at, at + rows) of `vector` (of type()) set to `code`.
  void Fill(duckdb_vector vector, uint32_t code, size_t at, size_t rows) const;

 private:
  duckdb_logical_type type_ = nullptr;
  duckdb_type internal_ = DUCKDB_TYPE_UTINYINT;
  std::map<std::string, uint32_t, std::less<>> codes_;
};

// Per column of `schema` (the table's reconciled schema): the ENUM of a TAG column that has at
// least one non-null value in the dataset, nullopt otherwise. Reads every file's device index of
// `table`; a tag value that is not valid UTF-8 is an error naming the file and the column.
absl::StatusOr<std::vector<std::optional<TagEnum>>> CollectTagEnums(const Dataset& dataset, const std::string& table,
                                                                    const TableSchema& schema);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TAG_ENUMS_H_

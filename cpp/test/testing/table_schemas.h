// Table schemas for tests that write their own files: one STRING TAG column, then FIELD columns.
#ifndef TSREAD_TEST_TESTING_TABLE_SCHEMAS_H_
#define TSREAD_TEST_TESTING_TABLE_SCHEMAS_H_

#include <string>
#include <utility>
#include <vector>

#include "tsread/common/tsfile_enums.h"
#include "tsread/format/table_schema.h"

namespace tsread {
namespace testing {

inline TableSchema TagAndFields(const std::string& table, const std::string& tag,
                                const std::vector<std::pair<std::string, DataType>>& fields) {
  auto column = [](const std::string& name, DataType type, ColumnCategory category) {
    ColumnSchema c;
    c.name = name;
    c.data_type = type;
    c.category = category;
    return c;
  };
  TableSchema schema;
  schema.name = table;
  schema.columns.push_back(column(tag, DataType::kString, ColumnCategory::kTag));
  for (const auto& [name, type] : fields) schema.columns.push_back(column(name, type, ColumnCategory::kField));
  return schema;
}

}  // namespace testing
}  // namespace tsread

#endif  // TSREAD_TEST_TESTING_TABLE_SCHEMAS_H_

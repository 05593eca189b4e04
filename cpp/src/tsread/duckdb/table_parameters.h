// What read_tsfile and tsfile_last share: the parameters `tags` (pushed-down TAG predicates) and
// which table to read (`table_name`, or the files' only table), and the SQL type of a FIELD value.
#ifndef TSREAD_DUCKDB_TABLE_PARAMETERS_H_
#define TSREAD_DUCKDB_TABLE_PARAMETERS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/read/table_scanner.h"

namespace tsread::duckdb_ext {

// `tags`: a MAP {'column': 'value' or ['values', ...]} or a STRUCT of the same, appended to
// `predicates`; errors name `function`.
absl::Status ParseTags(duckdb_bind_info info, const char* function, std::vector<TagPredicate>& predicates);

// `filter`: conditions in the CLI's --where grammar (read/predicate_text.h) into `predicates`
// (unchanged when absent); InvalidArgument naming `function` when the text does not parse.
absl::Status ParseFilter(duckdb_bind_info info, const char* function, std::vector<PredicateExpr>& predicates);

// The table to read: `table_name` or the dataset's only one (an error, naming `function`, says why
// there is none: tree-model data only, or several tables).
absl::StatusOr<std::string> ChooseTable(const Dataset& dataset, const std::optional<std::string>& table_name,
                                        const char* function);

// The SQL type of a FIELD column of `type`: TIMESTAMP as the time mapping says, TEXT/STRING as
// VARCHAR, or BLOB with `binary_as_blob`.
duckdb_type FieldType(DataType type, const TimeMapping& time, bool binary_as_blob);

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_TABLE_PARAMETERS_H_

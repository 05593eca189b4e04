// ParseTags and ChooseTable (table_parameters.h).
#include "tsread/duckdb/table_parameters.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/read/predicate_text.h"

namespace tsread::duckdb_ext {
namespace {

// One tag predicate's values: a list of them (NULL items match a null tag) or a single value.
std::vector<std::optional<std::string>> TagValues(duckdb_value value) {
  std::vector<std::optional<std::string>> out;
  if (duckdb_is_null_value(value)) return out;
  if (duckdb_get_type_id(duckdb_get_value_type(value)) != DUCKDB_TYPE_LIST) {
    out.push_back(ValueToString(value));
    return out;
  }
  const idx_t n = duckdb_get_list_size(value);
  for (idx_t j = 0; j < n; ++j) {
    duckdb_value item = duckdb_get_list_child(value, j);
    if (duckdb_is_null_value(item)) {
      out.push_back(std::nullopt);
    } else {
      out.push_back(ValueToString(item));
    }
    duckdb_destroy_value(&item);
  }
  return out;
}

}  // namespace

// `tags`: a MAP {'column': 'value' or ['values', ...]} or a STRUCT {'column': ...} of the same.
absl::Status ParseFilter(duckdb_bind_info info, const char* function, std::vector<PredicateExpr>& predicates) {
  std::optional<std::string> filter = NamedString(info, "filter");
  if (!filter.has_value()) return absl::OkStatus();
  absl::StatusOr<std::vector<PredicateExpr>> parsed = ParsePredicates(*filter);
  if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat(function, ": filter: ", parsed.status().message()));
  predicates = std::move(*parsed);
  return absl::OkStatus();
}

absl::Status ParseTags(duckdb_bind_info info, const char* function, std::vector<TagPredicate>& predicates) {
  duckdb_value v = duckdb_bind_get_named_parameter(info, "tags");
  if (!v) return absl::OkStatus();
  absl::Status status;
  duckdb_logical_type type = duckdb_get_value_type(v);  // owned by the value
  const duckdb_type id = duckdb_get_type_id(type);
  if (duckdb_is_null_value(v)) {
    // no predicate
  } else if (id == DUCKDB_TYPE_MAP) {
    const idx_t n = duckdb_get_map_size(v);
    for (idx_t i = 0; i < n; ++i) {
      duckdb_value key = duckdb_get_map_key(v, i);
      duckdb_value values = duckdb_get_map_value(v, i);
      predicates.push_back(TagPredicate{ValueToString(key), TagValues(values)});
      duckdb_destroy_value(&key);
      duckdb_destroy_value(&values);
    }
  } else if (id == DUCKDB_TYPE_STRUCT) {
    const idx_t n = duckdb_struct_type_child_count(type);
    for (idx_t i = 0; i < n; ++i) {
      char* name = duckdb_struct_type_child_name(type, i);
      duckdb_value values = duckdb_get_struct_child(v, i);
      predicates.push_back(TagPredicate{name ? name : "", TagValues(values)});
      duckdb_free(name);
      duckdb_destroy_value(&values);
    }
  } else {
    status = absl::InvalidArgumentError(absl::StrCat(
        function, ": tags takes a MAP {'column': 'value'} or {'column': ['value', ...]} (NULL matches a null tag)"));
  }
  duckdb_destroy_value(&v);
  return status;
}

// The table to read: `table_name` or the dataset's only one (an error says why there is none).
absl::StatusOr<std::string> ChooseTable(const Dataset& dataset, const std::optional<std::string>& table_name,
                                       const char* function) {
  if (table_name && !table_name->empty()) return *table_name;
  absl::StatusOr<std::string> only = dataset.TableToRead("");
  if (only.ok()) return only;
  // An unreadable file's own error (missing, truncated, not a TsFile), as read_tsfile gives it.
  if (only.status().code() != absl::StatusCode::kInvalidArgument) {
    return absl::Status(only.status().code(), absl::StrCat(function, ": ", only.status().message()));
  }
  const std::vector<std::string> names = dataset.TableNames();
  if (names.empty()) {
    const bool tree = std::any_of(dataset.files().begin(), dataset.files().end(),
                                  [](const DatasetFile& f) { return f.has_tree_model; });
    const std::string where =
        absl::StrCat(dataset.files()[0].path, dataset.files().size() > 1 ? " (and others)" : "");
    if (tree) {
      return absl::InvalidArgumentError(absl::StrCat(
          function, ": ", where, " holds tree-model data only: read it with read_tsfile_tree"));
    }
    return absl::InvalidArgumentError(absl::StrCat(function, ": ", where, ": no table-model table"));
  }
  return absl::InvalidArgumentError(absl::StrCat(function, ": the input has ", names.size(),
                                                 " tables; name one with table_name := '...': ",
                                                 absl::StrJoin(names, ", ")));
}

duckdb_type FieldType(DataType type, const TimeMapping& time, bool binary_as_blob) {
  switch (type) {
    case DataType::kBoolean: return DUCKDB_TYPE_BOOLEAN;
    case DataType::kInt32: return DUCKDB_TYPE_INTEGER;
    case DataType::kInt64: return DUCKDB_TYPE_BIGINT;
    case DataType::kFloat: return DUCKDB_TYPE_FLOAT;
    case DataType::kDouble: return DUCKDB_TYPE_DOUBLE;
    case DataType::kTimestamp: return TimestampType(time);
    case DataType::kDate: return DUCKDB_TYPE_DATE;
    case DataType::kBlob: return DUCKDB_TYPE_BLOB;
    default:  // TEXT, STRING
      return binary_as_blob ? DUCKDB_TYPE_BLOB : DUCKDB_TYPE_VARCHAR;
  }
}

}  // namespace tsread::duckdb_ext

// The Arrow schema of an exported scan (arrow_stream.h): each column's format string and the
// struct schema with one child per output column. Internal to the Arrow export; not part of the
// public API.
#ifndef TSREAD_ARROW_ARROW_SCHEMA_H_
#define TSREAD_ARROW_ARROW_SCHEMA_H_

#include <vector>

#include "tsread/arrow/arrow_stream.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/read/projection.h"

namespace tsread {
namespace arrow_internal {

// TAG columns are dictionary-encoded when asked (ATTRIBUTE columns, always null, stay utf8).
inline bool UsesDictionary(const ProjectedColumn& column, const ArrowExportOptions& options) {
  return options.tags_as_dictionary && column.category == ColumnCategory::kTag;
}

// Or run-end encoded (the dictionary wins where both are asked).
inline bool UsesRunEnd(const ProjectedColumn& column, const ArrowExportOptions& options) {
  return options.tags_as_run_end && !options.tags_as_dictionary && column.category == ColumnCategory::kTag;
}

// Fills `out` with the schema of the batches of a scan with `projection`: a struct ("+s") of the
// time column, the projection and, with options.file_column, the file column. The caller releases
// it with out->release.
void BuildSchema(const std::vector<ProjectedColumn>& projection, const ArrowExportOptions& options, ArrowSchema* out);

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_ARROW_SCHEMA_H_

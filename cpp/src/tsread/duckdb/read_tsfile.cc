// read_tsfile's entry: registration (the named parameters) and the Scan callback that moves a
// thread to its next batch (read_tsfile_plan.h) and writes one window of it into the chunk
// (read_tsfile_vectors.h). The bind step is in read_tsfile_bind.h.
#include "tsread/duckdb/read_tsfile.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/read_tsfile_bind.h"
#include "tsread/duckdb/read_tsfile_plan.h"
#include "tsread/duckdb/read_tsfile_vectors.h"

namespace tsread::duckdb_ext {
namespace read_tsfile_internal {
namespace {

// rows_only: up to a vector of the counted rows, with no values but the file's name.
absl::Status ScanCountedRows(GlobalState& global, LocalState& local, duckdb_data_chunk output) {
  if (local.pending_rows == 0) {
    if (absl::Status s = NextBatch(global, local); !s.ok()) return s;
  }
  const size_t rows = static_cast<size_t>(std::min<uint64_t>(duckdb_vector_size(), local.pending_rows));
  local.pending_rows -= rows;
  for (size_t i = 0; i < global.out.size() && rows > 0; ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    if (global.out[i].kind == OutColumn::kFilename) {
      SetAllValid(vector, rows);
      FillConstantString(vector, rows, *local.path);
    } else {
      std::memset(duckdb_vector_get_data(vector), 0, rows * sizeof(int64_t));  // a row id: zeros
    }
  }
  duckdb_data_chunk_set_size(output, rows);
  return absl::OkStatus();
}

absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  auto* bind = static_cast<BindData*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  if (global->rows_only) return ScanCountedRows(*global, *local, output);
  if (local->batch == nullptr || local->offset >= local->batch->num_rows()) {
    if (absl::Status s = NextBatch(*global, *local); !s.ok()) return s;
    if (local->batch == nullptr) {
      duckdb_data_chunk_set_size(output, 0);
      return absl::OkStatus();
    }
  }
  const TableBatch& batch = *local->batch;
  const std::string& file = *local->path;
  const size_t offset = local->offset;
  const size_t rows = std::min<size_t>(duckdb_vector_size(), batch.num_rows() - offset);
  local->offset += rows;
  const std::vector<ProjectedColumn>& projection = *batch.projection;
  for (size_t i = 0; i < global->out.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    const OutColumn& out = global->out[i];
    switch (out.kind) {
      case OutColumn::kTime:
        SetAllValid(vector, rows);
        if (absl::Status s = WriteTimes(batch.times.data() + offset, rows, bind->time,
                                        static_cast<int64_t*>(duckdb_vector_get_data(vector)), file, "time");
            !s.ok()) {
          return s;
        }
        break;
      case OutColumn::kSchema: {
        const size_t j = out.scan_index;
        const ProjectedColumn& column = projection[j];
        absl::Status s;
        if (column.category == ColumnCategory::kField) {
          s = WriteField(*bind, column, batch.columns[j], offset, rows, file, vector);
        } else if (column.category == ColumnCategory::kTag) {
          s = WriteTag(*bind, column, EnumOf(*bind, out.schema_index), batch.tag(j), rows, file, vector);
        } else {
          FillNull(vector, rows);  // ATTRIBUTE: never stored in TsFile
        }
        if (!s.ok()) return s;
        break;
      }
      case OutColumn::kFilename:
        SetAllValid(vector, rows);
        FillConstantString(vector, rows, file);
        break;
      case OutColumn::kOther:
        // A row id or another virtual column: zeros.
        std::memset(duckdb_vector_get_data(vector), 0, rows * sizeof(int64_t));
        break;
    }
  }
  duckdb_data_chunk_set_size(output, rows);
  return absl::OkStatus();
}

}  // namespace
}  // namespace read_tsfile_internal

bool RegisterReadTsfile(duckdb_connection connection) {
  duckdb_table_function function = NewRowScanTableFunction(
      "read_tsfile", InitCallback<InitThreadState<read_tsfile_internal::LocalState>>);
  AddNamedParameter(function, "table_name", DUCKDB_TYPE_VARCHAR);
  AddNamedParameter(function, "binary_as_blob", DUCKDB_TYPE_BOOLEAN);
  AddNamedParameter(function, "tags_as_enum", DUCKDB_TYPE_BOOLEAN);
  // ANY: a MAP of one value or of a list per column, or a STRUCT (ParseTags reads each).
  AddNamedParameter(function, "tags", DUCKDB_TYPE_ANY);
  AddNamedParameter(function, "filter", DUCKDB_TYPE_VARCHAR);
  return RegisterTableFunction(connection, function, BindCallback<read_tsfile_internal::Bind>,
                               InitCallback<read_tsfile_internal::Init>, ScanCallback<read_tsfile_internal::Scan>);
}

}  // namespace tsread::duckdb_ext

// read_tsfile's entry: registration (the named parameters) and the Scan callback that moves a
// thread on through its batches (read_tsfile_plan.h), writing windows of them into the chunk until
// it is full (read_tsfile_vectors.h). The bind step is in read_tsfile_bind.h.
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
#include "tsread/io/status_macros.h"

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
      FillConstantString(vector, 0, rows, *local.path);
    } else {
      std::memset(duckdb_vector_get_data(vector), 0, rows * sizeof(int64_t));  // a row id: zeros
    }
  }
  duckdb_data_chunk_set_size(output, rows);
  return absl::OkStatus();
}

// Rows [offset, offset + rows) of `batch` into rows [at, at + rows) of the output vectors.
absl::Status WriteRows(const BindData& bind, const GlobalState& global, const TableBatch& batch, size_t offset,
                       size_t rows, const std::string& file, duckdb_data_chunk output, size_t at) {
  const std::vector<ProjectedColumn>& projection = *batch.projection;
  for (size_t i = 0; i < global.out.size(); ++i) {
    duckdb_vector vector = duckdb_data_chunk_get_vector(output, i);
    const OutColumn& out = global.out[i];
    switch (out.kind) {
      case OutColumn::kTime:
        SetValidRows(vector, at, rows);
        TSREAD_RETURN_IF_ERROR(WriteTimes(batch.times.data() + offset, rows, bind.time,
                                          static_cast<int64_t*>(duckdb_vector_get_data(vector)) + at, file, "time"));
        break;
      case OutColumn::kSchema: {
        const size_t j = out.scan_index;
        const ProjectedColumn& column = projection[j];
        if (column.category == ColumnCategory::kField) {
          TSREAD_RETURN_IF_ERROR(WriteField(bind, column, batch.columns[j], offset, rows, file, vector, at));
        } else if (column.category == ColumnCategory::kTag) {
          TSREAD_RETURN_IF_ERROR(
              WriteTag(bind, column, EnumOf(bind, out.schema_index), batch.tag(j), at, rows, file, vector));
        } else {
          FillNull(vector, at, rows);  // ATTRIBUTE: never stored in TsFile
        }
        break;
      }
      case OutColumn::kFilename:
        SetValidRows(vector, at, rows);
        FillConstantString(vector, at, rows, file);
        break;
      case OutColumn::kOther:
        // A row id or another virtual column: zeros.
        std::memset(static_cast<int64_t*>(duckdb_vector_get_data(vector)) + at, 0, rows * sizeof(int64_t));
        break;
    }
  }
  return absl::OkStatus();
}

// Fills the output chunk from as many batches as it holds: a file of small devices gives batches
// of a few dozen rows, and DuckDB's cost per chunk is far above its cost per row.
absl::Status Scan(duckdb_function_info info, duckdb_data_chunk output) {
  auto* bind = static_cast<BindData*>(duckdb_function_get_bind_data(info));
  auto* global = static_cast<GlobalState*>(duckdb_function_get_init_data(info));
  auto* local = static_cast<LocalState*>(duckdb_function_get_local_init_data(info));
  if (global->rows_only) return ScanCountedRows(*global, *local, output);
  const size_t capacity = duckdb_vector_size();
  size_t filled = 0;
  while (filled < capacity) {
    if (local->batch == nullptr || local->offset >= local->batch->num_rows()) {
      TSREAD_RETURN_IF_ERROR(NextBatch(*global, *local));
      if (local->batch == nullptr) break;
    }
    const TableBatch& batch = *local->batch;
    const size_t offset = local->offset;
    const size_t rows = std::min<size_t>(capacity - filled, batch.num_rows() - offset);
    local->offset += rows;
    TSREAD_RETURN_IF_ERROR(WriteRows(*bind, *global, batch, offset, rows, *local->path, output, filled));
    filled += rows;
  }
  duckdb_data_chunk_set_size(output, filled);
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

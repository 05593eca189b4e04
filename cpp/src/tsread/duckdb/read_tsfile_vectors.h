// read_tsfile's vector writing: a window of a batch's rows into rows [at, at + rows) of DuckDB
// output vectors — times, TAG columns (one value per batch), FIELD columns of each data type, NULL
// and constant fills. One output chunk gathers the rows of several batches (a device of 32 rows
// a file is a batch of 32 rows: a chunk each cost DuckDB more than reading them).
#ifndef TSREAD_DUCKDB_READ_TSFILE_VECTORS_H_
#define TSREAD_DUCKDB_READ_TSFILE_VECTORS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/duckdb/read_tsfile_bind.h"
#include "tsread/duckdb/tag_enums.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/projection.h"

namespace tsread::duckdb_ext::read_tsfile_internal {

// Every row of `vector` set to `value`: written once, then its 16-byte string record (inline
// bytes, or a pointer into the vector's own string heap) copied to the other rows. No per-row
// copy of the bytes: the C API at v1.2.0 has no constant or dictionary vectors (docs/duckdb.md).
void FillConstantString(duckdb_vector vector, size_t at, size_t rows, std::string_view value);

// Rows [at, at + rows) of `vector` valid / NULL.
void SetValidRows(duckdb_vector vector, size_t at, size_t rows);
void FillNull(duckdb_vector vector, size_t at, size_t rows);

// Stored times as output values (TimestampType(mapping)); OutOfRange naming `what` when one overflows.
absl::Status WriteTimes(const int64_t* in, size_t rows, const TimeMapping& mapping, int64_t* out, const std::string& file,
                        const std::string& what);

// A TAG column's value of the batch (`tag`, nullopt for NULL) in rows [at, at + rows) of `vector`: an
// ENUM code with `tag_enum`, else the string (checked UTF-8 unless binary_as_blob).
absl::Status WriteTag(const BindData& bind, const ProjectedColumn& column, const TagEnum* tag_enum,
                      std::optional<std::string_view> tag, size_t at, size_t rows, const std::string& file,
                      duckdb_vector vector);

// Rows [offset, offset + rows) of a FIELD column into rows [at, at + rows) of `vector`.
absl::Status WriteField(const BindData& bind, const ProjectedColumn& column, const ColumnVector& values, size_t offset,
                        size_t rows, const std::string& file, duckdb_vector vector, size_t at);

}  // namespace tsread::duckdb_ext::read_tsfile_internal

#endif  // TSREAD_DUCKDB_READ_TSFILE_VECTORS_H_

// What tsfile_metadata and tsfile_devices share (tsfile_metadata.cc, tsfile_devices.cc): the
// bind data (time unit, dataset), the rows collected at init from each file's metadata, and the
// helpers that write them into DuckDB vectors.
#ifndef TSREAD_DUCKDB_METADATA_ROWS_H_
#define TSREAD_DUCKDB_METADATA_ROWS_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tsread/dataset/dataset.h"
#include "tsread/iotdb/iotdb_dataset.h"
#include "tsread/duckdb/duckdb_api.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/time_parameters.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::duckdb_ext {

// Rows and the time range they span, merged from statistics.
struct Span {
  uint64_t count = 0;
  bool has_time = false;
  int64_t start = 0, end = 0;

  void Add(uint64_t n, int64_t first, int64_t last) {
    count += n;
    if (n == 0) return;
    start = has_time ? std::min(start, first) : first;
    end = has_time ? std::max(end, last) : last;
    has_time = true;
  }
  void Add(const Statistics& s) { Add(s.count, s.start_time, s.end_time); }
};

struct BindData {
  std::unique_ptr<Dataset> dataset;
  // IoTDB data (OpenIotdbParameter; nullptr with raw := true or none): per dataset file, its
  // index in the IoTDB layout (nullopt: not found there).
  std::shared_ptr<const iotdb::IotdbDataset> iotdb;
  std::vector<std::optional<size_t>> layout_of;
  TimeMapping time;
  std::optional<std::string> table;  // tsfile_devices: only this table's devices
  // tsfile_devices of one table: its TAG columns, each a result column of that name.
  std::vector<std::string> tag_columns;
};

template <typename Row>
struct GlobalState {
  std::vector<Row> rows;
  size_t next = 0;  // one thread (max threads is left at 1)
};

// The bind data both functions start from: `time_unit` (read first, so that a bad unit is
// reported before any file is opened), then the dataset named by the path parameter.
absl::StatusOr<std::unique_ptr<BindData>> BindUnitAndDataset(duckdb_bind_info info, const char* function);
// The last result columns of both functions (the time range, in the bound unit), then the bind
// data handed to DuckDB.
void FinishBind(duckdb_bind_info info, std::unique_ptr<BindData> bind);

// The init of both functions: every row, collected up front from each file's metadata by
// `collect(bind, reader, file index, rows)`, into the global state the scan emits from. A file
// that fails to open or to collect fails the query, naming the file.
// `finish(bind, rows)` may add rows after the files' (tsfile_metadata: the skipped files).
template <typename Row, typename Collect, typename Finish>
absl::Status InitRows(duckdb_init_info info, const Collect& collect, const Finish& finish) {
  const auto* bind = static_cast<const BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState<Row>>();
  const Dataset& dataset = *bind->dataset;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    const std::string& path = dataset.files()[f].path;
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return WithFileName(reader.status(), path);
    if (absl::Status s = collect(*bind, **reader, f, state->rows); !s.ok()) return WithFileName(s, path);
  }
  finish(*bind, state->rows);
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState<Row>>);
  return absl::OkStatus();
}

template <typename Row, typename Collect>
absl::Status InitRows(duckdb_init_info info, const Collect& collect) {
  return InitRows<Row>(info, collect, [](const BindData&, std::vector<Row>&) {});
}

void WriteOptionalString(duckdb_vector vector, size_t row, const std::optional<std::string>& value);
void WriteOptionalCount(duckdb_vector vector, size_t row, std::optional<uint64_t> value);
// The span's start and end into two TIMESTAMP vectors (NULL when it has no time).
absl::Status WriteTimeRange(const Span& span, const TimeMapping& mapping, duckdb_vector start, duckdb_vector end,
                            size_t row, const std::string& path);

// The rows [next, next + chunk) of the global state, each written by `write`.
template <typename Row, typename Write>
absl::Status EmitRows(duckdb_function_info info, duckdb_data_chunk output, const Write& write) {
  auto* state = static_cast<GlobalState<Row>*>(duckdb_function_get_init_data(info));
  const size_t n = std::min<size_t>(duckdb_vector_size(), state->rows.size() - state->next);
  for (size_t r = 0; r < n; ++r) {
    if (absl::Status s = write(state->rows[state->next + r], r); !s.ok()) return s;
  }
  state->next += n;
  duckdb_data_chunk_set_size(output, n);
  return absl::OkStatus();
}

}  // namespace tsread::duckdb_ext

#endif  // TSREAD_DUCKDB_METADATA_ROWS_H_

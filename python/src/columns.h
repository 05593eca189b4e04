// Collector: the rows of a scan gathered batch by batch, in the order they come, into the memory
// numpy arrays will own (Buffers that grow as rows come: iter_batches and a Dask partition, whose
// row counts are not known up front; read_table uses the PlannedRead). Each batch's values are
// copied once, and each buffer becomes a numpy array as it is, so a read holds its data once.
// Only TEXT/STRING/BLOB values become Python objects, at the end.
#ifndef TSREAD_PYTHON_COLUMNS_H_
#define TSREAD_PYTHON_COLUMNS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "buffer.h"
#include "tag_codes.h"
#include "text_values.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"
#include "values.h"

namespace tsread::python {

class Collector {
 public:
  Collector(std::vector<ProjectedColumn> projection, ConvertOptions options);

  const std::vector<ProjectedColumn>& projection() const { return projection_; }
  size_t rows() const { return rows_; }

  // Before the first batch: at most `categories` distinct values occur in each TAG column (the
  // scan's devices), so codes are written at pandas' width for that many (tag_codes.h) instead
  // of int32. Without it codes are int32 until Finish.
  void BoundTagCategories(size_t categories);

  // Makes room for `rows` rows in every fixed-width column before the first batch (a Dask
  // partition's rows as its split's metadata announces them): each column is then mapped once at
  // its final size instead of growing through the heap. Only a hint: more rows still fit, fewer
  // leave room unused (never populated). False when the memory cannot be had.
  bool Reserve(size_t rows);

  // Copies the batch's rows; ResourceExhausted when memory runs out. No GIL needed.
  absl::Status Append(const TableBatch& batch);

  // The columns as a Python list of dicts {name, category, type, kind, values[, mask][, categories]},
  // "time" first (unless ConvertOptions::with_time is false); the collector is empty afterwards.
  // Needs the GIL.
  pybind11::list Finish();

 private:
  struct Column {
    ProjectedColumn meta;
    Buffer values;   // fixed-width values; TAG: codes of tag_code_width_ bytes; binary: the bytes
    Buffer offsets;  // binary: int64 offsets, rows + 1
    Buffer mask;     // one byte per row, 1 = null; written only from the first null on
    bool has_nulls = false;
    bool keep_mask = false;  // whether the mask goes to Python (not for NaN floats or objects)
    TagDictionary tags;  // TAG: the categories and their codes
  };

  absl::Status AppendField(Column& column, const TableBatch& batch, size_t j);
  absl::Status AppendTag(Column& column, std::optional<std::string_view> value, size_t rows);
  absl::Status AppendNulls(Column& column, const ColumnVector& values);
  // `times`: the time column's values (nullptr without one), for error messages.
  pybind11::dict FinishColumn(Column& column, const int64_t* times);

  std::vector<ProjectedColumn> projection_;
  ConvertOptions options_;
  std::vector<Column> columns_;
  Buffer times_;
  RowFiles files_;  // which file each row came from, for the errors of Finish
  size_t rows_ = 0;
  size_t tag_code_width_ = sizeof(int32_t);
};

// The dict of a column (name, category, type) with no values yet. Needs the GIL.
pybind11::dict ColumnHead(const ProjectedColumn& column);
// The dict of the time column holding `values` (int64 times, as ConvertOptions scaled them). Needs the GIL.
pybind11::dict TimeColumn(pybind11::object values);
// An object array of `rows` None. Needs the GIL.
pybind11::array NoneArray(size_t rows);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_COLUMNS_H_

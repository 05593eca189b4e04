// Batches gathered from a scan and turned into Python column data. Fixed-width values are copied
// from tsread's buffers straight into numpy arrays with the GIL released (one memcpy per batch, no
// per-value Python object); only TEXT/STRING/BLOB values become Python objects.
#ifndef TSREAD_PYTHON_COLUMNS_H_
#define TSREAD_PYTHON_COLUMNS_H_

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"

namespace tsread::python {

// How values are handed to Python (the read_table options that C++ acts on).
struct ConvertOptions {
  // FLOAT/DOUBLE nulls as NaN in the values (pandas' float dtypes); false = a separate mask.
  bool float_nan = true;
};

// One batch's rows, owned: the times, the FIELD columns, and each TAG column's value (the batch's
// device decides it, so it is one value per batch).
struct Piece {
  size_t rows = 0;
  std::vector<int64_t> times;
  std::vector<ColumnVector> columns;
  std::vector<std::optional<std::string>> tags;  // per projected column; nullopt for null or non-TAG
};

class Collector {
 public:
  explicit Collector(std::vector<ProjectedColumn> projection) : projection_(std::move(projection)) {}

  const std::vector<ProjectedColumn>& projection() const { return projection_; }
  size_t rows() const { return rows_; }
  bool empty() const { return pieces_.empty(); }

  // Takes the batch's buffers (a cursor's batch may be moved from).
  void Take(TableBatch& batch);
  // Copies the batch (a Scan callback's batch is const and lives only during the call).
  void Copy(const TableBatch& batch);

  // The columns as a Python list of dicts {name, category, type, kind, values[, mask][, categories]}
  // plus the "time" entry first; empties the collector. Needs the GIL (it releases it around copies).
  pybind11::list Finish(const ConvertOptions& options);

 private:
  Piece& NewPiece(const TableBatch& batch);

  std::vector<ProjectedColumn> projection_;
  std::vector<Piece> pieces_;
  size_t rows_ = 0;
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_COLUMNS_H_

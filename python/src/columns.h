// The rows of a scan gathered column by column into the memory numpy arrays will own. Each batch's
// values are copied once, from tsread's batch buffers (which the scan reuses) into per-column
// buffers that are anonymous mappings grown with mremap: growing never copies, untouched pages are
// never faulted in, and at the end each buffer becomes a numpy array as it is (no further copy),
// so a read holds its data once. Only TEXT/STRING/BLOB values become Python objects, at the end.
#ifndef TSREAD_PYTHON_COLUMNS_H_
#define TSREAD_PYTHON_COLUMNS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"

namespace tsread::python {

// A growable byte buffer; bytes never written read as zero.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  ~Buffer();

  size_t size() const { return size_; }
  char* data() { return data_; }
  // Makes room for `bytes` in all (false when the mapping cannot grow).
  bool Reserve(size_t bytes);
  // Sets the size to `bytes`; bytes past the old size are zero unless written before.
  bool Resize(size_t bytes);
  bool Append(const void* from, size_t bytes);
  // A 1-D numpy array of `dtype` over the buffer's first size() bytes; the array owns the mapping
  // from then on and this buffer is empty.
  pybind11::array Release(const pybind11::dtype& dtype);

 private:
  // Below this a buffer lives on the heap; above, in an anonymous mapping grown with mremap.
  static constexpr size_t kMapThreshold = size_t{1} << 20;
  static constexpr size_t kHugePage = size_t{2} << 20;

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;
};

// What C++ decides about value representation (the rest is python/tsread/_frame.py's).
struct ConvertOptions {
  // FLOAT/DOUBLE nulls as NaN in the values (pandas' float dtypes); false = a separate mask.
  bool float_nan = true;
  // The time column and TIMESTAMP fields as datetime64[ns] values (ms x 10^6, NaT for null)
  // instead of int64 milliseconds.
  bool time_ns = false;
};

class Collector {
 public:
  Collector(std::vector<ProjectedColumn> projection, ConvertOptions options);

  const std::vector<ProjectedColumn>& projection() const { return projection_; }
  size_t rows() const { return rows_; }

  // Copies the batch's rows; ResourceExhausted when memory runs out. No GIL needed.
  absl::Status Append(const TableBatch& batch);

  // The columns as a Python list of dicts {name, category, type, kind, values[, mask][, categories]},
  // "time" first; the collector is empty afterwards. Needs the GIL.
  pybind11::list Finish();

 private:
  struct Column {
    ProjectedColumn meta;
    Buffer values;   // fixed-width values; TAG: int32 codes; binary: the bytes
    Buffer offsets;  // binary: int64 offsets, rows + 1
    Buffer mask;     // one byte per row, 1 = null; written only from the first null on
    bool has_nulls = false;
    bool keep_mask = false;  // whether the mask goes to Python (not for NaN floats or objects)
    std::unordered_map<std::string, int32_t> codes;  // TAG: value -> category code
    std::vector<std::string> categories;             // TAG: in code order (first seen)
  };

  absl::Status AppendField(Column& column, const ColumnVector& values, size_t rows);
  absl::Status AppendTag(Column& column, std::optional<std::string_view> value, size_t rows);
  absl::Status AppendNulls(Column& column, const ColumnVector& values);
  pybind11::dict FinishColumn(Column& column);

  std::vector<ProjectedColumn> projection_;
  ConvertOptions options_;
  std::vector<Column> columns_;
  Buffer times_;
  size_t rows_ = 0;
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_COLUMNS_H_

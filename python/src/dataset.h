// PyDataset: the Python `Dataset`, an open tsread Dataset (one file is a dataset of one) with its
// metadata queries (files, tables, schema, devices, info). Needs the GIL; releases it to read.
#ifndef TSREAD_PYTHON_DATASET_H_
#define TSREAD_PYTHON_DATASET_H_

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "errors.h"
#include "values.h"
#include "tsread/dataset/dataset.h"

namespace tsread::python {

// An open Dataset (one file is a dataset of one), shared with the scans made from it.
class PyDataset {
 public:
  PyDataset(const std::vector<std::string>& inputs, bool skip_unreadable);

  const std::shared_ptr<Dataset>& dataset() const { return dataset_; }

  std::vector<std::string> Files() const;
  std::vector<std::string> Tables() const { return dataset_->TableNames(); }
  // The files left out by skip_unreadable: (path, why).
  std::vector<std::pair<std::string, std::string>> Skipped() const;
  // Per file with an IoTDB deletion file beside it (deletion_files.h): what to warn of.
  std::vector<std::string> DeletionWarnings() const;

  // (name, category, type) per column of the reconciled schema.
  std::vector<std::tuple<std::string, std::string, std::string>> Schema(const std::optional<std::string>& table) const;

  // The table's devices as tuples of TAG values (str or None: the segments after the table name),
  // each once, in file order then index order; a value that is not UTF-8 is CorruptFileError,
  // or as `invalid_utf8` says (text_values.h). Needs the GIL.
  pybind11::list Devices(const std::optional<std::string>& table, InvalidUtf8 invalid_utf8) const;

  // The FIELD columns of the table that may hold nulls, from metadata (nullable_columns.h);
  // computed once per table and kept.
  std::vector<std::string> NullableColumns(const std::optional<std::string>& table) const;

  // Per file: path, size, version, tables (devices, rows, time range) and tree-model counts, from
  // metadata only.
  pybind11::list Info() const;

 private:
  // Unwraps a value on a thread without the GIL: errors are rethrown once the GIL is back.
  template <typename T>
  T CheckNoGil(absl::StatusOr<T> value) const {
    if (!value.ok()) {
      pybind11::gil_scoped_acquire gil;
      Raise(value.status(), dataset_.get());
    }
    return *std::move(value);
  }

  std::shared_ptr<Dataset> dataset_;
  mutable std::mutex nullable_mutex_;
  mutable std::map<std::string, std::vector<std::string>> nullable_;  // NullableColumns by table
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_DATASET_H_

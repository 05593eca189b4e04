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
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread::python {

// An open Dataset (one file is a dataset of one), shared with the scans made from it.
class PyDataset {
 public:
  // IoTDB data (an IoTDB data directory, or files with deletion files beside them) is read as
  // IoTDB answers (tsread/iotdb/iotdb_dataset.h) unless `raw`; `database` and `ignore_errors` as
  // IotdbOptions.
  PyDataset(const std::vector<std::string>& inputs, bool skip_unreadable, bool raw = false,
            const std::string& database = "", bool ignore_errors = false);

  const std::shared_ptr<Dataset>& dataset() const { return dataset_; }
  // The IoTDB reading of the inputs, or null when they are read as written.
  const std::shared_ptr<const iotdb::IotdbDataset>& iotdb() const { return iotdb_; }

  std::vector<std::string> Files() const;
  std::vector<std::string> Tables() const { return dataset_->TableNames(); }
  // The files left out by skip_unreadable: (path, why).
  std::vector<std::pair<std::string, std::string>> Skipped() const;
  // What to warn of: read as written, each file with an IoTDB deletion file beside it
  // (deletion_files.h); read as IoTDB answers, the data directory's leftovers and damaged
  // deletion files.
  std::vector<std::string> DeletionWarnings() const;

  // IoTDB data: the files of each group of `table`'s database (files whose points may meet: one
  // time partition of a region), groups holding the table only, in scan order.
  std::vector<std::vector<std::string>> IotdbGroups(const std::optional<std::string>& table) const;

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

  std::shared_ptr<const iotdb::IotdbDataset> iotdb_;
  std::shared_ptr<Dataset> dataset_;
  mutable std::mutex nullable_mutex_;
  mutable std::map<std::string, std::vector<std::string>> nullable_;  // NullableColumns by table
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_DATASET_H_

// read_tree: the tree-model points of a dataset in long form (ReadTree).
#ifndef TSREAD_PYTHON_READ_TREE_H_
#define TSREAD_PYTHON_READ_TREE_H_

#include <pybind11/pybind11.h>

#include "dataset.h"
#include <optional>
#include <set>
#include <string>

#include "tsread/read/aligned_device_reader.h"
#include "values.h"

namespace tsread::python {

// What read_tree reads: points in [start, end] (ms, inclusive), of the devices and measurements
// named (all when unset).
struct TreeSelection {
  TimeRange range;
  std::optional<std::set<std::string>> devices;
  std::optional<std::set<std::string>> measurements;
};

// Tree-model points in long form: device, measurement, time (ms), value (a Python object per
// point, typed by its series), every non-null point selected, by device string then measurement
// then time. TEXT/STRING values that are not UTF-8: as `invalid_utf8` says (text_values.h); the
// error names the file, device, measurement and time; device and measurement names that are not
// UTF-8 are CorruptFileError. ValueError if no file holds tree-model data. Ctrl-C stops it.
// ValueError: `function` found no tree-model data in `dataset` (its tables named, to be read with
// `table_reader`).
[[noreturn]] void RaiseNoTreeData(const Dataset& dataset, const std::string& function, const std::string& table_reader);

pybind11::dict ReadTree(const PyDataset& ds, const TreeSelection& selection, InvalidUtf8 invalid_utf8);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_READ_TREE_H_

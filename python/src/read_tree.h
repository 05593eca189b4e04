// read_tree: the tree-model points of a dataset in long form (ReadTree).
#ifndef TSREAD_PYTHON_READ_TREE_H_
#define TSREAD_PYTHON_READ_TREE_H_

#include <pybind11/pybind11.h>

#include "dataset.h"
#include "values.h"

namespace tsread::python {

// Tree-model points in long form: device, measurement, time, value (a Python object per point,
// typed by its series), every non-null point, by device string then measurement then time.
// TEXT/STRING values that are not UTF-8: as `invalid_utf8` says (text_values.h); the error names
// the file, device, measurement and time.
pybind11::dict ReadTree(const PyDataset& ds, InvalidUtf8 invalid_utf8);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_READ_TREE_H_

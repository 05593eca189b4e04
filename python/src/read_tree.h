// read_tree: the tree-model points of a dataset in long form (ReadTree).
#ifndef TSREAD_PYTHON_READ_TREE_H_
#define TSREAD_PYTHON_READ_TREE_H_

#include <pybind11/pybind11.h>

#include "dataset.h"

namespace tsread::python {

// Tree-model points in long form: device, measurement, time, value (a Python object per point,
// typed by its series), every non-null point, by device string then measurement then time.
pybind11::dict ReadTree(const PyDataset& ds);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_READ_TREE_H_

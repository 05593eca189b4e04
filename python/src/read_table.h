// read_table: every row of a scan as Python columns (ReadTable), and MakeScanner, the scanner of
// a dataset for ScanArgs that iter_batches and the Dask plan use too.
#ifndef TSREAD_PYTHON_READ_TABLE_H_
#define TSREAD_PYTHON_READ_TABLE_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "dataset.h"
#include "scan_args.h"
#include "values.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"

namespace tsread::python {

// The scanner of `args` over `dataset`; raises the Python exception when the arguments are wrong.
std::unique_ptr<DatasetScanner> MakeScanner(const Dataset& dataset, const ScanArgs& args);
// The merged scanner of `args` over IoTDB data (ds.iotdb() set); raises likewise.
std::unique_ptr<MergedScanner> MakeMergedScanner(const PyDataset& ds, const ScanArgs& args);

// Every row of the scan as Python columns (a list of Collector::Finish's dicts), gathered with
// the GIL released. Needs the GIL.
pybind11::list ReadTable(const PyDataset& ds, const ScanArgs& args, const ConvertOptions& options);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_READ_TABLE_H_

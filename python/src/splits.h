// The Dask splits: PlanSplits plans a scan as serialized splits (one per partition) and
// ReadSplit executes one of them, in a Dask worker.
#ifndef TSREAD_PYTHON_SPLITS_H_
#define TSREAD_PYTHON_SPLITS_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset.h"
#include "scan_args.h"
#include "values.h"

namespace tsread::python {

// The Dask plan: the scan's projection (name, category, type) and one serialized split per
// partition with its file, planned rows and time range.
pybind11::dict PlanSplits(const PyDataset& ds, const ScanArgs& args, uint64_t split_bytes);

// Executes one serialized split (in a Dask worker): SplitReader::Open, then its rows.
// `rows_hint`: the rows the split's metadata announced when it was planned (0: unknown).
// `columns`: only these of the split's columns (None: all); ConvertOptions::with_time: whether a
// time column comes first.
pybind11::list ReadSplit(const pybind11::bytes& serialized, const ConvertOptions& options, uint64_t rows_hint,
                         std::optional<std::vector<std::string>> columns);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_SPLITS_H_

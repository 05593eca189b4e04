// The Dask splits: PlanSplits plans a scan as serialized splits (one per partition) and
// ReadSplits executes some of them (a partition), in a Dask worker.
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

// Executes serialized splits of one plan (in a Dask worker), in order, into one set of columns:
// SplitReader::Open for each, then its rows. `rows_hint`: the rows their metadata announced when
// planned (0: unknown). `columns`: only these of the splits' columns (None: all);
// ConvertOptions::with_time: whether a time column comes first. Errors name the split's file.
pybind11::list ReadSplits(const std::vector<std::string>& serialized, const ConvertOptions& options, uint64_t rows_hint,
                          const std::optional<std::vector<std::string>>& columns);

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_SPLITS_H_

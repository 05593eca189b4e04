// ArrowScan and ArrowTreeScan: the Python `tsread.scan()` and `tsread.scan_tree()` readers, scans
// exported through the Arrow PyCapsule interface (__arrow_c_stream__, __arrow_c_schema__): every
// call of Stream starts a new scan whose batches reach the consumer (pyarrow, Polars, DuckDB)
// without their buffers being copied.
#ifndef TSREAD_PYTHON_ARROW_SCAN_H_
#define TSREAD_PYTHON_ARROW_SCAN_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dataset.h"
#include "scan_args.h"
#include "tsread/arrow/arrow_stream.h"

namespace tsread::python {

class ArrowScan {
 public:
  // Checks the arguments now (an unknown table or column raises here, not in the consumer).
  ArrowScan(std::shared_ptr<const PyDataset> ds, ScanArgs args, ArrowExportOptions options);

  // A PyCapsule "arrow_array_stream" holding a new stream of the scan; the capsule's destructor
  // releases the stream unless the consumer moved it out (the PyCapsule interface's rule).
  pybind11::capsule Stream() const;
  // A PyCapsule "arrow_schema" holding the batches' schema (a struct of the columns).
  pybind11::capsule Schema() const;

 private:
  // Fills `out` with a new stream; raises on error.
  void Export(ArrowArrayStream* out) const;

  std::shared_ptr<const PyDataset> ds_;
  ScanArgs args_;
  ArrowExportOptions options_;
};

// The tree-model points of a dataset (IoTDB data: merged) in long form (ExportTreeArrowStream).
class ArrowTreeScan {
 public:
  // devices: paths or prefixes (TreeDeviceSelected), empty: all; measurements: names, empty: all.
  // ValueError now when no file holds tree-model data.
  ArrowTreeScan(std::shared_ptr<const PyDataset> ds, TimeRange range, std::vector<std::string> devices,
                std::vector<std::string> measurements, size_t batch_rows, ArrowExportOptions options);

  pybind11::capsule Stream() const;
  pybind11::capsule Schema() const;

 private:
  void Export(ArrowArrayStream* out) const;

  std::shared_ptr<const PyDataset> ds_;
  TreeScanOptions scan_;
  size_t batch_rows_;
  ArrowExportOptions options_;
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_ARROW_SCAN_H_

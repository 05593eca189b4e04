// The C ABI's tree-model scans (tsread.h, "Scanning tree-model points"): the selected series' points
// of whichever source was opened — files as written (dataset/tree_points.h) or IoTDB data merged
// (IotdbDataset::TreeSteps) — exported as an Arrow C stream (ExportTreeArrowStream).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/c/errors.h"
#include "tsread/c/options.h"
#include "tsread/c/source.h"
#include "tsread/c/table_scan.h"
#include "tsread/common/utf8.h"
#include "tsread/dataset/tree_points.h"
#include "tsread/io/status_macros.h"

namespace tsread::c_api {
namespace {

constexpr const char* kFunction = "tsread_scan_tree";

// The selection: devices as prefixes (TreeDeviceSelected), measurements by name, the time range.
absl::StatusOr<TreeScanOptions> TreeOptionsOf(const tsread_tree_scan_options& o) {
  TreeScanOptions out;
  TSREAD_ASSIGN_OR_RETURN(std::vector<std::string> devices,
                          StringsFrom(o.devices, o.n_devices, "tsread_scan_tree: devices"));
  if (!devices.empty()) {
    out.select_device = [devices = std::move(devices)](std::string_view d) { return TreeDeviceSelected(devices, d); };
  }
  TSREAD_ASSIGN_OR_RETURN(out.measurements, StringsFrom(o.measurements, o.n_measurements, "tsread_scan_tree: measurements"));
  out.time_range.start = o.start;
  out.time_range.end = o.end;
  return out;
}

// The types of the value columns; a series name that is not UTF-8 (a damaged or hostile file)
// fails here, as Arrow strings must be.
absl::StatusOr<std::vector<DataType>> ValueTypesOf(const std::vector<TreeSeriesInfo>& series) {
  std::vector<DataType> types;
  for (const TreeSeriesInfo& s : series) {
    if (!IsValidUtf8(s.device) || !IsValidUtf8(s.measurement)) {
      return absl::DataLossError(absl::StrCat(kFunction, ": a device or measurement name is not valid UTF-8"));
    }
    types.push_back(s.type);
  }
  return types;
}

absl::Status NoTreeModel(const tsread_source& source) {
  return absl::InvalidArgumentError(absl::StrCat(kFunction, ": ", source.files.empty() ? "the input" : source.files[0],
                                                 source.files.size() > 1 ? " (and the other files)" : "",
                                                 " holds no tree-model data: scan its tables with tsread_scan"));
}

absl::Status ScanTree(const tsread_source& source, const tsread_tree_scan_options* given, ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(const tsread_tree_scan_options o,
                          OptionsFrom(given, tsread_tree_scan_options_init, "tsread_tree_scan_options_init"));
  TSREAD_ASSIGN_OR_RETURN(TreeScanOptions options, TreeOptionsOf(o));
  ArrowExportOptions export_options;
  TSREAD_ASSIGN_OR_RETURN(export_options.time_unit, ArrowTimeUnitOf(o.time_unit, kFunction));
  export_options.tags_as_dictionary = o.names_as_dictionary != 0;

  std::shared_ptr<const void> owner;
  TreeStepFn step;
  std::vector<TreeSeriesInfo> series;
  if (source.memory != nullptr) {
    if (source.memory->TreeIndexNames().empty()) return NoTreeModel(source);
    TSREAD_ASSIGN_OR_RETURN(series, TreeSeriesOfFile(*source.memory, options));
    owner = source.memory;
    step = TreeStepsOf(source.memory, source.files.empty() ? "" : source.files[0], options);
  } else if (source.iotdb != nullptr) {
    if (!MayHoldTreeModel(source.iotdb->dataset())) return NoTreeModel(source);
    TSREAD_ASSIGN_OR_RETURN(std::vector<iotdb::TreeDeviceFiles> devices, source.iotdb->TreeDevices(options));
    TSREAD_ASSIGN_OR_RETURN(series, source.iotdb->TreeSeries(devices, options));
    owner = source.iotdb;
    step = source.iotdb->TreeSteps(std::move(devices), options);
  } else {
    if (!MayHoldTreeModel(*source.dataset)) return NoTreeModel(source);
    TSREAD_ASSIGN_OR_RETURN(series, TreeSeriesOf(*source.dataset, options));
    owner = source.dataset;
    step = TreeStepsOf(*source.dataset, options);
  }
  TSREAD_ASSIGN_OR_RETURN(std::vector<DataType> types, ValueTypesOf(series));
  return ExportTreeArrowStream(std::move(owner), std::move(step), std::move(types), o.batch_rows, export_options, out);
}

}  // namespace
}  // namespace tsread::c_api

extern "C" {

void tsread_tree_scan_options_init(tsread_tree_scan_options* options) {
  if (options == nullptr) return;
  *options = tsread_tree_scan_options{};
  options->struct_size = sizeof(tsread_tree_scan_options);
  options->start = INT64_MIN;
  options->end = INT64_MAX;
  options->time_unit = TSREAD_TIME_MILLISECOND;
}

tsread_code tsread_scan_tree(const tsread_source* source, const tsread_tree_scan_options* options, ArrowArrayStream* out,
                             tsread_error** error) {
  return tsread::c_api::Guarded(error, [&]() -> absl::Status {
    if (source == nullptr || out == nullptr) return absl::InvalidArgumentError("tsread_scan_tree: source or out is NULL");
    out->release = nullptr;
    return tsread::c_api::ScanTree(*source, options, out);
  });
}

}  // extern "C"

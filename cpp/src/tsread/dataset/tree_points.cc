// Tree-model points of files as written (tree_points.h).
#include "tsread/dataset/tree_points.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "tsread/io/status_macros.h"
#include "tsread/read/series_reader.h"

namespace tsread {
namespace {

struct TreeDevice {
  std::string name;
  DeviceLocation location;
};

// The selected tree devices of a file by path: the index orders them segment-wise (§6.4), the
// points' order is by the printed path.
absl::StatusOr<std::vector<TreeDevice>> SelectedDevices(const TsFileReader& reader, const TreeScanOptions& options) {
  std::vector<TreeDevice> devices;
  for (const std::string& index : reader.TreeIndexNames()) {
    TSREAD_RETURN_IF_ERROR(reader.ForEachDevice(index, [&](const DeviceEntry& entry) {
      std::string name = entry.id.ToString();
      if (!options.select_device || options.select_device(name)) devices.push_back({std::move(name), entry.location});
      return absl::OkStatus();
    }));
  }
  std::stable_sort(devices.begin(), devices.end(), [](const TreeDevice& a, const TreeDevice& b) { return a.name < b.name; });
  return devices;
}

// Calls fn(device, the device's series, each selected one's metadata in name order) per selected
// device in path order.
template <typename Fn>
absl::Status ForEachSelectedDevice(const TsFileReader& reader, const TreeScanOptions& options, Fn&& fn) {
  TSREAD_ASSIGN_OR_RETURN(const std::vector<TreeDevice> devices, SelectedDevices(reader, options));
  for (const TreeDevice& device : devices) {
    TSREAD_ASSIGN_OR_RETURN(std::vector<TimeseriesMetadata> series, reader.ReadTimeseries(device.location));
    std::vector<const TimeseriesMetadata*> selected;
    for (const TimeseriesMetadata& s : series) {
      if (!s.is_time_column() && TreeMeasurementSelected(options, s.measurement)) selected.push_back(&s);
    }
    std::stable_sort(selected.begin(), selected.end(), [](const TimeseriesMetadata* a, const TimeseriesMetadata* b) {
      return a->measurement < b->measurement;
    });
    TSREAD_RETURN_IF_ERROR(fn(device.name, series, selected));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOfFile(const TsFileReader& reader, const TreeScanOptions& options) {
  std::vector<TreeSeriesInfo> out;
  TSREAD_RETURN_IF_ERROR(ForEachSelectedDevice(
      reader, options,
      [&](const std::string& device, const std::vector<TimeseriesMetadata>&,
          const std::vector<const TimeseriesMetadata*>& selected) {
        for (const TimeseriesMetadata* s : selected) out.push_back({device, s->measurement, s->data_type});
        return absl::OkStatus();
      }));
  return out;
}

absl::Status ScanTreePointsOfFile(const TsFileReader& reader, const TreeScanOptions& options,
                                  const TreePointsFn& consume) {
  return ForEachSelectedDevice(
      reader, options,
      [&](const std::string& device, const std::vector<TimeseriesMetadata>& series,
          const std::vector<const TimeseriesMetadata*>& selected) -> absl::Status {
        for (const TimeseriesMetadata* s : selected) {
          TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<SeriesReader> points,
                                  SeriesReader::Create(reader, device, series, s->measurement, options.time_range));
          while (true) {
            // SeriesReader keeps only the points inside the time range.
            TSREAD_ASSIGN_OR_RETURN(const SeriesBatch* batch, points->Next());
            if (batch == nullptr) break;
            if (batch->times.empty()) continue;
            TSREAD_RETURN_IF_ERROR(consume(device, s->measurement, batch->times, batch->values, 0, batch->times.size()));
          }
        }
        return absl::OkStatus();
      });
}

bool TreeDeviceSelected(const std::vector<std::string>& selection, std::string_view device) {
  if (selection.empty()) return true;
  return std::any_of(selection.begin(), selection.end(), [&](const std::string& s) {
    return device == s || (device.size() > s.size() && device.substr(0, s.size()) == s && device[s.size()] == '.');
  });
}

bool TreeMeasurementSelected(const TreeScanOptions& options, std::string_view measurement) {
  return options.measurements.empty() ||
         std::find(options.measurements.begin(), options.measurements.end(), measurement) != options.measurements.end();
}

bool MayHoldTreeModel(const Dataset& dataset) {
  return std::any_of(dataset.files().begin(), dataset.files().end(),
                     [](const DatasetFile& f) { return f.has_tree_model || !f.status.ok(); });
}

namespace {

// Calls fn(reader) for each file of `dataset` holding tree-model data, in order; its errors, but
// for the consumer's cancellations, name the file.
template <typename Fn>
absl::Status ForEachTreeFile(const Dataset& dataset, Fn&& fn) {
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    const DatasetFile& file = dataset.files()[f];
    if (!file.status.ok()) return WithFileName(file.status, file.path);  // its metadata could not be read
    if (!file.has_tree_model) continue;
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return WithFileName(reader.status(), file.path);
    const absl::Status status = fn(**reader);
    if (!status.ok()) return absl::IsCancelled(status) ? status : WithFileName(status, file.path);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOf(const Dataset& dataset, const TreeScanOptions& options) {
  std::vector<TreeSeriesInfo> out;
  TSREAD_RETURN_IF_ERROR(ForEachTreeFile(dataset, [&](const TsFileReader& reader) -> absl::Status {
    TSREAD_ASSIGN_OR_RETURN(std::vector<TreeSeriesInfo> series, TreeSeriesOfFile(reader, options));
    for (TreeSeriesInfo& s : series) out.push_back(std::move(s));
    return absl::OkStatus();
  }));
  return out;
}

absl::Status ScanTreePoints(const Dataset& dataset, const TreeScanOptions& options, const TreePointsFn& consume) {
  return ForEachTreeFile(dataset, [&](const TsFileReader& reader) { return ScanTreePointsOfFile(reader, options, consume); });
}

}  // namespace tsread

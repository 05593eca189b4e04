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

// Indexes of the series `options` select among a device's `series`, by measurement name.
std::vector<size_t> SelectedSeries(const std::vector<TimeseriesMetadata>& series, const TreeScanOptions& options) {
  std::vector<size_t> selected;
  for (size_t k = 0; k < series.size(); ++k) {
    if (!series[k].is_time_column() && TreeMeasurementSelected(options, series[k].measurement)) selected.push_back(k);
  }
  std::stable_sort(selected.begin(), selected.end(),
                   [&](size_t a, size_t b) { return series[a].measurement < series[b].measurement; });
  return selected;
}

// File `f` of `dataset` if it holds tree-model data, else nullptr; the error of its metadata (or of
// opening it) naming it.
absl::StatusOr<std::shared_ptr<const TsFileReader>> TreeFile(const Dataset& dataset, size_t f) {
  const DatasetFile& file = dataset.files()[f];
  if (!file.status.ok()) return WithFileName(file.status, file.path);  // its metadata could not be read
  if (!file.has_tree_model) return nullptr;
  absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
  if (!reader.ok()) return WithFileName(reader.status(), file.path);
  return reader;
}

// Runs `step` to the end.
absl::Status RunSteps(const TreeStepFn& step, const TreePointsFn& consume) {
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const bool more, step(consume));
    if (!more) return absl::OkStatus();
  }
}

}  // namespace

absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOfFile(const TsFileReader& reader, const TreeScanOptions& options) {
  TSREAD_ASSIGN_OR_RETURN(const std::vector<TreeDevice> devices, SelectedDevices(reader, options));
  std::vector<TreeSeriesInfo> out;
  for (const TreeDevice& device : devices) {
    TSREAD_ASSIGN_OR_RETURN(const std::vector<TimeseriesMetadata> series, reader.ReadTimeseries(device.location));
    for (size_t k : SelectedSeries(series, options)) out.push_back({device.name, series[k].measurement, series[k].data_type});
  }
  return out;
}

absl::Status ScanTreePointsOfFile(const TsFileReader& reader, const TreeScanOptions& options,
                                  const TreePointsFn& consume) {
  // Not owned: the steps end before this returns.
  return RunSteps(TreeStepsOf(std::shared_ptr<const TsFileReader>(&reader, [](const TsFileReader*) {}), "", options),
                  consume);
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

absl::StatusOr<std::vector<TreeSeriesInfo>> TreeSeriesOf(const Dataset& dataset, const TreeScanOptions& options) {
  std::vector<TreeSeriesInfo> out;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    TSREAD_ASSIGN_OR_RETURN(const std::shared_ptr<const TsFileReader> reader, TreeFile(dataset, f));
    if (reader == nullptr) continue;
    absl::StatusOr<std::vector<TreeSeriesInfo>> series = TreeSeriesOfFile(*reader, options);
    if (!series.ok()) return WithFileName(series.status(), dataset.files()[f].path);
    for (TreeSeriesInfo& s : *series) out.push_back(std::move(s));
  }
  return out;
}

absl::Status ScanTreePoints(const Dataset& dataset, const TreeScanOptions& options, const TreePointsFn& consume) {
  return RunSteps(TreeStepsOf(dataset, options), consume);
}

namespace {

// The state of TreeStepsOf: file, device, series and page reached. Each step reads on until it
// has a page with points, and hands it over.
class TreePointSteps {
 public:
  TreePointSteps(const Dataset* dataset, std::shared_ptr<const TsFileReader> lone, std::string lone_path,
                 TreeScanOptions options)
      : dataset_(dataset), lone_(std::move(lone)), path_(std::move(lone_path)), options_(std::move(options)) {}

  absl::StatusOr<bool> Step(const TreePointsFn& consume) {
    while (true) {
      if (points_ != nullptr) {
        absl::StatusOr<const SeriesBatch*> batch = points_->Next();  // only points inside the time range
        if (!batch.ok()) return WithFileName(batch.status(), path_);
        if (*batch == nullptr) {
          points_.reset();
          continue;
        }
        if ((*batch)->times.empty()) continue;
        const absl::Status status = consume(device_, series_[current_].measurement, (*batch)->times, (*batch)->values, 0,
                                            (*batch)->times.size());
        if (!status.ok()) return absl::IsCancelled(status) ? status : WithFileName(status, path_);
        return true;
      }
      if (next_series_ < selected_.size()) {
        current_ = selected_[next_series_++];
        absl::StatusOr<std::unique_ptr<SeriesReader>> points =
            SeriesReader::Create(*reader_, device_, series_, series_[current_].measurement, options_.time_range);
        if (!points.ok()) return WithFileName(points.status(), path_);
        points_ = std::move(*points);
        continue;
      }
      if (reader_ != nullptr && next_device_ < devices_.size()) {
        TSREAD_RETURN_IF_ERROR(OpenDevice(devices_[next_device_++]));
        continue;
      }
      TSREAD_ASSIGN_OR_RETURN(const bool more, OpenNextFile());
      if (!more) return false;
    }
  }

 private:
  // The device's series, the selected ones by name.
  absl::Status OpenDevice(const TreeDevice& device) {
    device_ = device.name;
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader_->ReadTimeseries(device.location);
    if (!series.ok()) return WithFileName(series.status(), path_);
    series_ = std::move(*series);
    selected_ = SelectedSeries(series_, options_);
    next_series_ = 0;
    return absl::OkStatus();
  }

  // The next file with tree-model data and its selected devices; false after the last.
  absl::StatusOr<bool> OpenNextFile() {
    reader_.reset();
    if (dataset_ == nullptr) {
      if (lone_ == nullptr) return false;
      reader_ = std::move(lone_);
    } else {
      while (reader_ == nullptr && next_file_ < dataset_->files().size()) {
        path_ = dataset_->files()[next_file_].path;
        TSREAD_ASSIGN_OR_RETURN(reader_, TreeFile(*dataset_, next_file_++));
      }
      if (reader_ == nullptr) return false;
    }
    absl::StatusOr<std::vector<TreeDevice>> devices = SelectedDevices(*reader_, options_);
    if (!devices.ok()) return WithFileName(devices.status(), path_);
    devices_ = std::move(*devices);
    next_device_ = 0;
    return true;
  }

  const Dataset* const dataset_;
  std::shared_ptr<const TsFileReader> lone_;  // a lone reader, until it is opened
  std::string path_;                          // the file being read
  const TreeScanOptions options_;
  size_t next_file_ = 0;
  std::shared_ptr<const TsFileReader> reader_;
  std::vector<TreeDevice> devices_;
  size_t next_device_ = 0;
  std::string device_;
  std::vector<TimeseriesMetadata> series_;
  std::vector<size_t> selected_;  // indexes of series_, by measurement
  size_t next_series_ = 0;
  size_t current_ = 0;
  std::unique_ptr<SeriesReader> points_;  // declared after reader_: destroyed before it
};

TreeStepFn StepsOf(std::shared_ptr<TreePointSteps> steps) {
  return [steps = std::move(steps)](const TreePointsFn& consume) { return steps->Step(consume); };
}

}  // namespace

TreeStepFn TreeStepsOf(const Dataset& dataset, TreeScanOptions options) {
  return StepsOf(std::make_shared<TreePointSteps>(&dataset, nullptr, "", std::move(options)));
}

TreeStepFn TreeStepsOf(std::shared_ptr<const TsFileReader> reader, std::string path, TreeScanOptions options) {
  return StepsOf(std::make_shared<TreePointSteps>(nullptr, std::move(reader), std::move(path), std::move(options)));
}

}  // namespace tsread

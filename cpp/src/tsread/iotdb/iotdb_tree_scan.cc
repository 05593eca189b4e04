// The tree model's points as IoTDB answers them (IotdbDataset::ScanTree, iotdb_dataset.h;
// iotdb-data-directories.md §2.2, §2.3, §3.4).
//
// Each series is merged on its own: at each time the value of the highest-priority source whose
// value there is not null. For a non-aligned series that is the top point (its points are never
// null); for an aligned device it is IoTDB's per-column merge, and a row whose selected columns are
// all null has no point to print. Deletions first: entries on the series null its values, entries
// on an aligned device's time column (measurement "") remove whole rows. A series whose files hold
// different types (ALTER TIMESERIES ... SET DATA TYPE) is read as the type they all cast to, each
// file's values cast before the merge (altered_types.h).
#include <algorithm>
#include <map>
#include <span>

#include "absl/strings/str_cat.h"
#include "tsread/dataset/column_cast.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/altered_types.h"
#include "tsread/iotdb/iotdb_dataset.h"
#include "tsread/read/series_reader.h"

namespace tsread::iotdb {
namespace {

// Calls consume with the rows of `times` inside `range` (times ascend), if any.
absl::Status ConsumeInRange(const TreePointsFn& consume, std::string_view device, std::string_view measurement,
                            const std::vector<int64_t>& times, const ColumnVector& values, const TimeRange& range) {
  const auto begin = std::lower_bound(times.begin(), times.end(), range.start);
  const auto end = std::upper_bound(begin, times.end(), range.end);
  if (begin == end) return absl::OkStatus();
  return consume(device, measurement, times, values, static_cast<size_t>(begin - times.begin()),
                 static_cast<size_t>(end - times.begin()));
}

// Appends the points `device_series` give of `measurement` (SeriesReader) to `rows`, whose one
// column takes the points' type on the first batch (`typed`).
absl::Status AppendSeriesPoints(const TsFileReader& reader, const std::string& device,
                                std::vector<TimeseriesMetadata> device_series, const std::string& measurement,
                                const TimeRange& range, SourceRows& rows, bool& typed) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<SeriesReader> points,
                          SeriesReader::Create(reader, device, std::move(device_series), measurement, range));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const SeriesBatch* batch, points->Next());
    if (batch == nullptr) return absl::OkStatus();
    if (!typed) {
      rows.columns.resize(1);
      rows.columns[0].type = batch->values.type;
      rows.columns[0].Clear();
      typed = true;
    }
    AppendRows(batch->times, std::span<const ColumnVector>(&batch->values, 1), rows);
  }
}

// The device's series with `value` (one of them) cut to its chunk `chunk` and, for an aligned
// device, the time column cut to that chunk's group (the last time chunk before it, §2.3): what
// SeriesReader needs to read that one chunk's points.
std::vector<TimeseriesMetadata> OneChunkOf(const std::vector<TimeseriesMetadata>& device_series,
                                           const TimeseriesMetadata& value, const ChunkMetadata& chunk) {
  std::vector<TimeseriesMetadata> out;
  for (const TimeseriesMetadata& s : device_series) {
    if (s.is_time_column()) {
      const ChunkMetadata* group = nullptr;
      for (const ChunkMetadata& t : s.chunks) {
        if (t.offset < chunk.offset) group = &t;
      }
      TimeseriesMetadata time = s;
      time.chunks.clear();
      if (group != nullptr) time.chunks.push_back(*group);
      out.push_back(std::move(time));
    } else if (&s == &value) {
      TimeseriesMetadata one = s;
      one.chunks = {chunk};
      out.push_back(std::move(one));
    }
  }
  return out;
}

// One series' type in each file that holds it, in the data set's order (newest last), with the
// files: what SeriesType decides from.
struct SeriesTypes {
  std::vector<DataType> types;
  std::vector<size_t> files;

  void Add(DataType type, size_t file) {
    if (!types.empty() && types.back() == type) return;
    types.push_back(type);
    files.push_back(file);
  }
};

// Adds the series of `series` (one device's in dataset file `file`) that a tree scan with
// `options` reads — not the time column, a selected measurement — to `out`, by measurement.
void AddScannedSeries(const std::vector<TimeseriesMetadata>& series, size_t file, const TreeScanOptions& options,
                      std::map<std::string, SeriesTypes>& out) {
  for (const TimeseriesMetadata& s : series) {
    if (!s.is_time_column() && TreeMeasurementSelected(options, s.measurement)) out[s.measurement].Add(s.data_type, file);
  }
}

// The type IoTDB reads a series as: its files' one type, or after ALTER ... SET DATA TYPE the one
// every file's type casts to (AlteredType). Types no alteration joins are an error naming two files.
absl::StatusOr<DataType> SeriesType(const SeriesTypes& seen, std::string_view device, std::string_view measurement,
                                    const IotdbLayout& layout) {
  if (std::optional<DataType> type = AlteredType(seen.types)) return *type;
  return absl::InvalidArgumentError(absl::StrCat(
      "series ", ToAbsl(device), ".", ToAbsl(measurement), " is ", ToAbsl(DataTypeName(seen.types[0])), " in ",
      layout.files[seen.files[0]].path, " but ", ToAbsl(DataTypeName(seen.types[1])), " in ",
      layout.files[seen.files[1]].path,
      ": no ALTER TIMESERIES ... SET DATA TYPE casts one to the other"));
}

}  // namespace

absl::Status IotdbDataset::ScanTree(const TreeScanOptions& options, const TreePointsFn& consume) const {
  TSREAD_ASSIGN_OR_RETURN(std::vector<TreeDeviceFiles> devices, TreeDevices(options));
  for (const TreeDeviceFiles& device : devices) TSREAD_RETURN_IF_ERROR(ScanTreeDevice(device, options, consume));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TreeDeviceFiles>> IotdbDataset::TreeDevices(const TreeScanOptions& options) const {
  std::map<std::string, std::vector<TreeDeviceFiles::Place>> devices;
  for (size_t f = 0; f < layout_.files.size(); ++f) {
    if (!options_.database.empty() && layout_.files[f].database != options_.database) continue;
    if (layout_.files[f].in_layout && layout_.files[f].table_model()) continue;
    TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset_->OpenFile(f));
    for (const std::string& index : reader->TreeIndexNames()) {
      absl::Status s = reader->ForEachDevice(index, [&](const DeviceEntry& entry) {
        std::string name = entry.id.ToString();
        if (options.select_device && !options.select_device(name)) return absl::OkStatus();
        devices[name].push_back(TreeDeviceFiles::Place{f, entry.id.ToOwned(), entry.location});
        return absl::OkStatus();
      });
      if (!s.ok()) return WithFileName(s, layout_.files[f].path);
    }
  }
  std::vector<TreeDeviceFiles> out;
  out.reserve(devices.size());
  for (auto& [name, places] : devices) out.push_back(TreeDeviceFiles{name, std::move(places)});
  return out;
}

TreeStepFn IotdbDataset::TreeSteps(std::vector<TreeDeviceFiles> devices, TreeScanOptions options) const {
  struct Devices {
    std::vector<TreeDeviceFiles> devices;
    size_t next = 0;
  };
  auto state = std::make_shared<Devices>(Devices{std::move(devices), 0});
  return [this, state, options = std::move(options)](const TreePointsFn& consume) -> absl::StatusOr<bool> {
    if (state->next == state->devices.size()) return false;
    TSREAD_RETURN_IF_ERROR(ScanTreeDevice(state->devices[state->next++], options, consume));
    return true;
  };
}

absl::StatusOr<std::vector<TreeSeriesInfo>> IotdbDataset::TreeSeries(const std::vector<TreeDeviceFiles>& devices,
                                                                     const TreeScanOptions& options) const {
  std::vector<TreeSeriesInfo> out;
  for (const TreeDeviceFiles& device : devices) {
    std::map<std::string, SeriesTypes> series;  // by measurement, as ScanTreeDevice reads them
    std::vector<const TreeDeviceFiles::Place*> places;
    for (const TreeDeviceFiles::Place& place : device.places) places.push_back(&place);
    std::sort(places.begin(), places.end(), [](const auto* a, const auto* b) { return a->file < b->file; });
    for (const TreeDeviceFiles::Place* place : places) {
      TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset_->OpenFile(place->file));
      absl::StatusOr<std::vector<TimeseriesMetadata>> in_file = reader->ReadTimeseries(place->location);
      if (!in_file.ok()) return WithFileName(in_file.status(), layout_.files[place->file].path);
      AddScannedSeries(*in_file, place->file, options, series);
    }
    for (const auto& [measurement, types] : series) {
      TSREAD_ASSIGN_OR_RETURN(DataType type, SeriesType(types, device.name, measurement, layout_));
      out.push_back({device.name, measurement, type});
    }
  }
  return out;
}

absl::Status IotdbDataset::ScanTreeDevice(const TreeDeviceFiles& device, const TreeScanOptions& options,
                                          const TreePointsFn& consume) const {
  const std::vector<size_t>& group_of = group_of_;
  const std::string& name = device.name;
  // Files in layout order are in group order, each group's by ascending priority.
  struct DeviceInFile {
    size_t file;
    const DeviceId* id;
    std::vector<TimeseriesMetadata> series;
  };
  std::vector<DeviceInFile> places;
  for (const TreeDeviceFiles::Place& place : device.places) {
    TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset_->OpenFile(place.file));
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader->ReadTimeseries(place.location);
    if (!series.ok()) return WithFileName(series.status(), layout_.files[place.file].path);
    places.push_back(DeviceInFile{place.file, &place.id, std::move(*series)});
  }
  std::sort(places.begin(), places.end(), [](const DeviceInFile& a, const DeviceInFile& b) { return a.file < b.file; });
  std::map<std::string, SeriesTypes> measurements;
  for (const DeviceInFile& place : places) AddScannedSeries(place.series, place.file, options, measurements);
  for (const auto& [measurement, types] : measurements) {
    TSREAD_ASSIGN_OR_RETURN(const DataType type, SeriesType(types, name, measurement, layout_));
    for (size_t begin = 0; begin < places.size();) {
      size_t end = begin;
      while (end < places.size() && group_of[places[end].file] == group_of[places[begin].file]) ++end;
      // One group's sources of the series, lowest priority first.
      std::vector<const DeviceInFile*> sources;
      std::vector<SourceMask> masks;
      std::vector<bool> by_chunk;  // a 1.x entry's offset falls between the series' chunks
      bool plain = true;
      for (size_t k = begin; k < end; ++k) {
        const TimeseriesMetadata* series = FindSeries(places[k].series, measurement);
        if (series == nullptr) continue;
        SourceMask mask;
        const FileDeletions& deletions = deletions_[places[k].file];
        mask.rows = deletions.RangesFor(*places[k].id, "", false, FindSeries(places[k].series, ""));
        const bool split = deletions.SplitsChunks(*places[k].id, measurement, false, *series);
        if (!split) mask.cells = {deletions.RangesFor(*places[k].id, measurement, false, series)};
        plain = plain && !split && mask.empty() && ChunksInTimeOrder(*series) && series->data_type == type;
        sources.push_back(&places[k]);
        masks.push_back(std::move(mask));
        by_chunk.push_back(split);
      }
      begin = end;
      if (sources.empty()) continue;
      plain = plain && sources.size() == 1;
      std::vector<SourceRows> runs;
      for (size_t k = 0; k < sources.size(); ++k) {
        const DeviceInFile& place = *sources[k];
        const std::string& path = layout_.files[place.file].path;
        TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset_->OpenFile(place.file));
        if (plain) {
          absl::StatusOr<std::unique_ptr<SeriesReader>> points =
              SeriesReader::Create(*reader, name, place.series, measurement, options.time_range);
          if (!points.ok()) return WithFileName(points.status(), path);
          while (true) {
            absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
            if (!batch.ok()) return WithFileName(batch.status(), path);
            if (*batch == nullptr) break;
            TSREAD_RETURN_IF_ERROR(
                ConsumeInRange(consume, name, measurement, (*batch)->times, (*batch)->values, options.time_range));
          }
          continue;
        }
        SourceRows rows;
        bool typed = false;
        if (!by_chunk[k]) {
          absl::Status read = AppendSeriesPoints(*reader, name, place.series, measurement, options.time_range, rows, typed);
          if (!read.ok()) return WithFileName(read, path);
          ApplyMask(masks[k], rows);
        } else {
          // Chunk by chunk, each masked by the entries recorded after it was written (1.x offsets).
          const TimeseriesMetadata& series = *FindSeries(place.series, measurement);
          const FileDeletions& deletions = deletions_[place.file];
          for (const ChunkMetadata& chunk : series.chunks) {
            SourceRows chunk_rows;
            bool chunk_typed = false;
            absl::Status read = AppendSeriesPoints(*reader, name, OneChunkOf(place.series, series, chunk), measurement,
                                                   options.time_range, chunk_rows, chunk_typed);
            if (!read.ok()) return WithFileName(read, path);
            if (!chunk_typed) continue;
            SourceMask mask;
            mask.rows = masks[k].rows;
            mask.cells = {deletions.RangesForChunk(*place.id, measurement, false, chunk.offset)};
            ApplyMask(mask, chunk_rows);
            if (typed) {
              AppendRows(chunk_rows.times, chunk_rows.columns, rows);
            } else {
              rows = std::move(chunk_rows);  // the first chunk's rows, typed
              typed = true;
            }
          }
        }
        if (!typed) continue;
        CastColumn(rows.columns[0], type);  // a file written before the series' type was altered
        for (SourceRows& run : SplitRuns(std::move(rows))) runs.push_back(std::move(run));
      }
      if (plain || runs.empty()) continue;
      std::vector<const SourceRows*> order;
      for (const SourceRows& run : runs) order.push_back(&run);
      const SourceRows merged = MergeRuns(order);
      TSREAD_RETURN_IF_ERROR(
          ConsumeInRange(consume, name, measurement, merged.times, merged.columns[0], options.time_range));
    }
  }
  return absl::OkStatus();
}

}  // namespace tsread::iotdb

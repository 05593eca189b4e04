// AggregateTree (tree_aggregate.h): per file, each selected series answered by its statistics
// when they are exact and its points all lie in the range, decoded point by point otherwise;
// then merged across files by (device, measurement).
#include "tsread/aggregate/tree_aggregate.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/aggregate/exact_statistics.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/series_reader.h"

namespace tsread {
namespace {

struct Merged {
  ColumnAggregate values;
  std::string first_file;  // where the series was first found, for a type conflict's message
};

using SeriesKey = std::pair<std::string, std::string>;  // device, measurement

// Whether `series`' statistics answer for its points in `range`: all of them lie inside it, the
// statistics are exact (`time`: the statistics of the rows they belong to, the series' own for a
// non-aligned one) and every chunk keeps its values (FLOAT/DOUBLE encodings, §4). Points outside
// the range altogether answer too: with nothing.
absl::StatusOr<bool> AnsweredByStatistics(const TsFileReader& reader, const TimeseriesMetadata& series,
                                          const Statistics& time, const TimeRange& range, ColumnAggregate& out,
                                          ChunkHeaderReads& header_reads) {
  const Statistics& s = series.statistics;
  if (s.count == 0 || s.end_time < range.start || s.start_time > range.end) return true;
  if (!range.Covers(s) || !ValuesStatisticsAreExact(series.data_type, series.data_type, s, time)) return false;
  TSREAD_ASSIGN_OR_RETURN(bool exact, SeriesKeepsValuesExact(reader, series, header_reads));
  if (!exact) return false;
  out.AddStatistics(s);
  return true;
}

// `measurement`'s points of `device` in `range`, decoded and aggregated into `out`.
absl::Status AggregatePoints(const TsFileReader& reader, const std::string& device,
                             const std::vector<TimeseriesMetadata>& device_series, const std::string& measurement,
                             const TimeRange& range, ColumnAggregate& out, TreeAggregateWork& work) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<SeriesReader> points,
                          SeriesReader::Create(reader, device, device_series, measurement, range));
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const SeriesBatch* batch, points->Next());
    if (batch == nullptr) return absl::OkStatus();
    ++work.pages_decoded;
    // A page's times ascend (the reader checks): the rows in the range are one run.
    const std::vector<int64_t>& times = batch->times;
    const auto begin = std::lower_bound(times.begin(), times.end(), range.start);
    const auto end = std::upper_bound(begin, times.end(), range.end);
    out.AddRows(batch->values, times.data(), static_cast<size_t>(begin - times.begin()),
                static_cast<size_t>(end - times.begin()));
  }
}

// The selected series of one device of a file, merged into `merged`.
absl::Status AggregateDevice(const TsFileReader& reader, const std::string& path, const std::string& device,
                             const DeviceLocation& location, const TreeAggregateOptions& options,
                             std::map<SeriesKey, Merged>& merged, TreeAggregateWork& work,
                             ChunkHeaderReads& header_reads) {
  TSREAD_ASSIGN_OR_RETURN(std::vector<TimeseriesMetadata> series, reader.ReadTimeseries(location));
  // An aligned device's value columns belong to the rows of its time column (§8.2).
  const auto time_column = std::find_if(series.begin(), series.end(),
                                        [](const TimeseriesMetadata& s) { return s.is_time_column(); });
  for (const TimeseriesMetadata& s : series) {
    if (s.is_time_column()) continue;
    if (!options.measurements.empty() && options.measurements.count(s.measurement) == 0) continue;
    ColumnAggregate part(s.data_type);
    const Statistics& time = time_column != series.end() ? time_column->statistics : s.statistics;
    TSREAD_ASSIGN_OR_RETURN(bool answered, AnsweredByStatistics(reader, s, time, options.time_range, part, header_reads));
    if (answered) {
      ++work.series_from_statistics;
    } else {
      TSREAD_RETURN_IF_ERROR(AggregatePoints(reader, device, series, s.measurement, options.time_range, part, work));
      ++work.series_decoded;
    }
    if (part.count() == 0) continue;
    const auto it = merged.try_emplace(SeriesKey{device, s.measurement}, Merged{ColumnAggregate(s.data_type), path}).first;
    if (it->second.values.type() != s.data_type) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device \"", device, "\", measurement \"", s.measurement, "\" is ",
          ToAbsl(DataTypeName(it->second.values.type())), " in ", it->second.first_file, " and ",
          ToAbsl(DataTypeName(s.data_type)), " in ", path, ": one series has one type"));
    }
    it->second.values.Merge(part);
  }
  return absl::OkStatus();
}

absl::Status AggregateFile(const TsFileReader& reader, const std::string& path, const TreeAggregateOptions& options,
                           std::map<SeriesKey, Merged>& merged, TreeAggregateWork& work) {
  ChunkHeaderReads header_reads;
  for (const std::string& index : reader.TreeIndexNames()) {
    TSREAD_ASSIGN_OR_RETURN(DeviceIterator it, reader.Devices(index));
    while (true) {
      TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* entry, it.Next());
      if (entry == nullptr) break;
      const std::string device = entry->id.ToString();
      if (!TreeDeviceSelected(options.devices, device)) continue;
      const DeviceLocation location = entry->location;
      TSREAD_RETURN_IF_ERROR(AggregateDevice(reader, path, device, location, options, merged, work, header_reads));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TreeAggregate> AggregateTree(const Dataset& dataset, const TreeAggregateOptions& options) {
  const std::vector<DatasetFile>& files = dataset.files();
  if (std::none_of(files.begin(), files.end(), [](const DatasetFile& f) { return f.has_tree_model; })) {
    TSREAD_RETURN_IF_ERROR(dataset.UnreadableFileStatus());  // an unreadable file may be why
    const std::vector<std::string> tables = dataset.TableNames();
    return absl::InvalidArgumentError(absl::StrCat(
        "the input has no tree-model data",
        tables.empty() ? std::string() : absl::StrCat(" (its tables: ", absl::StrJoin(tables, ", "),
                                                      "; aggregate them without the tree option)")));
  }
  std::map<SeriesKey, Merged> merged;
  TreeAggregate out;
  for (size_t f = 0; f < files.size(); ++f) {
    if (!files[f].status.ok()) return WithFileName(files[f].status, files[f].path);
    if (!files[f].has_tree_model) continue;
    TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset.OpenFile(f));
    absl::Status s = AggregateFile(*reader, files[f].path, options, merged, out.work);
    if (!s.ok()) return WithFileName(s, files[f].path);
  }
  for (auto& [key, series] : merged) {
    out.series.push_back(SeriesAggregate{key.first, key.second, std::move(series.values)});
  }
  return out;
}

}  // namespace tsread

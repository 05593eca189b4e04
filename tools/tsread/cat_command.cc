// `tsread cat FILE --table T [--columns a,b] [--start T0] [--end T1]` and `tsread cat FILE --tree`:
// a table's rows or the tree-model points as CSV (cli-contract.md).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/dataset_scanner.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

// Writes CSV text to stdout in large blocks.
class Output {
 public:
  std::string& line() { return buffer_; }
  void MaybeFlush() {
    if (buffer_.size() >= (1 << 16)) Flush();
  }
  void Flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
  }
  ~Output() { Flush(); }

 private:
  std::string buffer_;
};

int CatTable(const Dataset& dataset, const Args& args) {
  DatasetScanOptions options;
  options.table = args.Get("table").value_or("");  // empty: the input's only table
  options.columns = ColumnsFromArgs(args);
  absl::StatusOr<TimeRange> range = TimeRangeFromArgs(args);
  if (!range.ok()) return Fail(range.status());
  options.time_range = *range;
  absl::StatusOr<std::vector<TagPredicate>> predicates = PredicatesFromArgs(args);
  if (!predicates.ok()) return Fail(predicates.status());
  options.tag_predicates = *predicates;
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(dataset, options);
  if (!scanner.ok()) return Fail(scanner.status());
  DatasetScanner::Cursor rows = (*scanner)->OpenCursor();
  const std::vector<ProjectedColumn>& projection = (*scanner)->projection();
  Output out;
  out.line() += "time";
  for (const ProjectedColumn& column : projection) {
    out.line() += ',';
    AppendCsvField(out.line(), column.name);
  }
  out.line() += '\n';
  while (true) {
    absl::StatusOr<TableBatch*> batch = rows.Next();
    if (!batch.ok()) {
      out.Flush();
      return Fail(batch.status());
    }
    if (*batch == nullptr) break;
    const TableBatch& b = **batch;
    for (size_t r = 0; r < b.num_rows(); ++r) {
      std::string& line = out.line();
      absl::StrAppend(&line, b.times[r]);
      for (size_t j = 0; j < projection.size(); ++j) {
        line += ',';
        if (projection[j].category == ColumnCategory::kTag) {
          if (std::optional<std::string_view> tag = b.tag(j)) AppendQuoted(line, *tag);
        } else if (projection[j].category == ColumnCategory::kField && b.columns[j].IsValid(r)) {
          AppendValue(line, b.columns[j], r);
        }
      }
      line += '\n';
      out.MaybeFlush();
    }
  }
  return kOk;
}

struct TreeDevice {
  std::string name;
  DeviceLocation location;
};

absl::Status CatTreeDevice(const TsFileReader& reader, const TreeDevice& device, Output& out) {
  absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader.ReadTimeseries(device.location);
  if (!series.ok()) return series.status();
  std::vector<std::string> measurements;
  for (const TimeseriesMetadata& tsm : *series) {
    if (!tsm.is_time_column()) measurements.push_back(tsm.measurement);
  }
  std::sort(measurements.begin(), measurements.end());
  for (const std::string& measurement : measurements) {
    absl::StatusOr<std::unique_ptr<SeriesReader>> points = SeriesReader::Create(reader, device.name, *series, measurement);
    if (!points.ok()) return points.status();
    while (true) {
      absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
      if (!batch.ok()) return batch.status();
      if (*batch == nullptr) break;
      const SeriesBatch& b = **batch;
      for (size_t r = 0; r < b.times.size(); ++r) {
        if (!b.values.IsValid(r)) continue;
        std::string& line = out.line();
        AppendCsvField(line, device.name);
        line += ',';
        AppendCsvField(line, measurement);
        absl::StrAppend(&line, ",", b.times[r], ",");
        AppendValue(line, b.values, r);
        line += '\n';
        out.MaybeFlush();
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CatTree(const TsFileReader& reader, Output& out) {
  std::vector<TreeDevice> devices;
  for (const std::string& index : reader.TreeIndexNames()) {
    absl::StatusOr<DeviceIterator> it = reader.Devices(index);
    if (!it.ok()) return it.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> entry = it->Next();
      if (!entry.ok()) return entry.status();
      if (*entry == nullptr) break;
      devices.push_back({(*entry)->id.ToString(), (*entry)->location});
    }
  }
  // The contract orders points by device string (index order is segment-wise, §6.4).
  std::stable_sort(devices.begin(), devices.end(), [](const TreeDevice& a, const TreeDevice& b) { return a.name < b.name; });
  for (const TreeDevice& device : devices) {
    if (absl::Status s = CatTreeDevice(reader, device, out); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Every file's tree-model points, file after file.
int CatTrees(const Dataset& dataset) {
  Output out;
  out.line() += "device,measurement,time,value\n";
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    absl::Status status = reader.ok() ? CatTree(**reader, out) : reader.status();
    if (!status.ok()) {
      out.Flush();
      return Fail(WithFileName(status, dataset.files()[f].path));
    }
  }
  return kOk;
}

}  // namespace

int RunCat(const Args& args) {
  const bool tree = args.Has("tree");
  if (tree && args.Has("table")) return UsageError("cat takes --table T or --tree, not both");
  if (tree) {
    for (const char* flag : {"columns", "start", "end", "where"}) {
      if (args.Has(flag)) return UsageError(absl::StrCat("cat --tree does not take --", flag));
    }
  }
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenInputs(args);
  if (!dataset.ok()) return Fail(dataset.status());
  if (!tree && !args.Has("table") && (*dataset)->TableNames().empty()) {
    const bool has_tree = std::any_of((*dataset)->files().begin(), (*dataset)->files().end(),
                                      [](const DatasetFile& f) { return f.has_tree_model; });
    if (has_tree) return UsageError("the input has no table-model table; use --tree for its tree-model points");
  }
  return tree ? CatTrees(**dataset) : CatTable(**dataset, args);
}

}  // namespace tsread::cli

// `tsread cat INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where tag=v]...` and
// `tsread cat INPUT... --tree [--devices d1,d2] [--measurements m1,m2] [--start T0] [--end T1]`:
// a table's rows or the tree-model points as CSV or NDJSON (cli-contract.md, row_writer.h), at
// most --limit rows.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "tsread/aggregate/tree_aggregate.h"
#include "iotdb_inputs.h"
#include "output.h"
#include "row_writer.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/dataset/merged_scan.h"
#include "tsread/dataset/tree_points.h"

namespace tsread::cli {
namespace {

// Why the row loop stopped early without an error.
constexpr const char* kOutputFailed = "output failed";

struct CatOptions {
  RowFormat format = RowFormat::kCsv;
  TimeFormat time_format = TimeFormat::kEpoch;
  uint64_t limit = std::numeric_limits<uint64_t>::max();
  TimeRange range;
  // --tree only: devices (exact or prefix + '.') and measurements; empty = all.
  std::vector<std::string> devices;
  std::vector<std::string> measurements;
};

// Counts rows against --limit; the loops stop reading once it is reached.
class RowBudget {
 public:
  explicit RowBudget(uint64_t limit) : left_(limit) {}
  bool done() const { return left_ == 0; }
  void Take() { --left_; }

 private:
  uint64_t left_;
};

// The table scan's options from the flags; a usage error message when one is bad.
absl::StatusOr<DatasetScanOptions> TableScanOptions(const Args& args, const CatOptions& cat) {
  DatasetScanOptions options;
  options.table = args.Get("table").value_or("");  // empty: the input's only table
  absl::StatusOr<std::vector<std::string>> columns = ColumnsFromArgs(args);
  if (!columns.ok()) return columns.status();
  options.columns = *columns;
  options.time_range = cat.range;
  absl::StatusOr<std::vector<PredicateExpr>> predicates = PredicatesFromArgs(args);
  if (!predicates.ok()) return predicates.status();
  options.value_predicates = *predicates;
  absl::StatusOr<uint64_t> memory_budget = MemoryBudgetFromArgs(args);
  if (!memory_budget.ok()) return memory_budget.status();
  options.memory_budget = *memory_budget;
  return options;
}

// Writes a table's rows: the header, then every batch `rows` gives until --limit.
class TableRows {
 public:
  TableRows(const CatOptions& cat, const std::vector<ProjectedColumn>& projection)
      : projection_(projection), writer_(cat.format, cat.time_format, Names(projection), out_), budget_(cat.limit) {
    writer_.Header();
  }
  bool done() const { return budget_.done(); }
  void Flush() { out_.Flush(); }
  // False when the output failed (FinishOutput reports it).
  bool Write(const TableBatch& b) {
    for (size_t r = 0; r < b.num_rows() && !budget_.done(); ++r) {
      writer_.Time(b.times[r]);
      for (size_t j = 0; j < projection_.size(); ++j) {
        if (projection_[j].category == ColumnCategory::kTag) {
          if (std::optional<std::string_view> tag = b.tag(j)) {
            writer_.Quoted(*tag);
          } else {
            writer_.Null();
          }
        } else if (projection_[j].category == ColumnCategory::kField && b.columns[j].IsValid(r)) {
          writer_.Value(b.columns[j], r);
        } else {
          writer_.Null();
        }
      }
      budget_.Take();
      if (!writer_.EndRow()) return false;
    }
    return true;
  }

 private:
  static std::vector<std::string> Names(const std::vector<ProjectedColumn>& projection) {
    std::vector<std::string> names = {"time"};
    for (const ProjectedColumn& column : projection) names.push_back(column.name);
    return names;
  }
  const std::vector<ProjectedColumn>& projection_;
  BlockOutput out_;
  RowWriter writer_;
  RowBudget budget_;
};

int CatTable(const Dataset& dataset, const Args& args, const CatOptions& cat) {
  absl::StatusOr<DatasetScanOptions> options = TableScanOptions(args, cat);
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(dataset, *options);
  if (!scanner.ok()) return Fail(scanner.status());
  DatasetScanner::Cursor rows = (*scanner)->OpenCursor();
  TableRows writer(cat, (*scanner)->projection());
  while (!writer.done()) {
    absl::StatusOr<TableBatch*> batch = rows.Next();
    if (!batch.ok()) {
      writer.Flush();
      return Fail(batch.status());
    }
    if (*batch == nullptr) break;
    if (!writer.Write(**batch)) return kIoError;  // FinishOutput reports it
  }
  return kOk;
}

// A table of IoTDB data: the merged rows (iotdb_dataset.h).
int CatIotdbTable(const iotdb::IotdbDataset& dataset, const Args& args, const CatOptions& cat) {
  absl::StatusOr<DatasetScanOptions> options = TableScanOptions(args, cat);
  if (!options.ok()) return Fail(options.status());
  absl::StatusOr<std::unique_ptr<MergedScanner>> scanner = dataset.ScanTable(*options);
  if (!scanner.ok()) return Fail(scanner.status());
  TableRows writer(cat, (*scanner)->projection());
  bool output_failed = false;
  absl::Status status = (*scanner)->Scan([&](const TableBatch& batch) {
    if (!writer.Write(batch)) {
      output_failed = true;
      return absl::CancelledError(kOutputFailed);
    }
    return writer.done() ? absl::CancelledError("limit") : absl::OkStatus();
  });
  if (output_failed) return kIoError;  // FinishOutput reports it
  if (!status.ok() && !(absl::IsCancelled(status) && writer.done())) {
    writer.Flush();
    return Fail(status);
  }
  return kOk;
}

// The tree selection of `cat --tree` (devices by path or prefix).
TreeScanOptions TreeOptionsOf(const CatOptions& cat) {
  TreeScanOptions options;
  options.select_device = [&cat](std::string_view device) { return TreeDeviceSelected(cat.devices, device); };
  options.measurements = cat.measurements;
  options.time_range = cat.range;
  return options;
}

// Tree-model points as `scan` delivers them: IoTDB data's series merged (iotdb_dataset.h), or
// files as written, file after file (dataset/tree_points.h).
int CatTreePoints(const std::function<absl::Status(const TreePointsFn&)>& scan, const CatOptions& cat) {
  BlockOutput out;
  RowWriter writer(cat.format, cat.time_format, {"device", "measurement", "time", "value"}, out);
  writer.Header();
  RowBudget budget(cat.limit);
  absl::Status status = scan([&](std::string_view device, std::string_view measurement,
                                 const std::vector<int64_t>& times, const ColumnVector& values, size_t begin,
                                 size_t end) {
    for (size_t r = begin; r < end && !budget.done(); ++r) {
      if (!values.IsValid(r)) continue;
      writer.Name(device);
      writer.Name(measurement);
      writer.Time(times[r]);
      writer.Value(values, r);
      budget.Take();
      if (!writer.EndRow()) return absl::CancelledError(kOutputFailed);
    }
    return budget.done() ? absl::CancelledError("limit") : absl::OkStatus();
  });
  if (absl::IsCancelled(status) && status.message() == kOutputFailed) return kIoError;  // FinishOutput reports it
  if (!status.ok() && !(absl::IsCancelled(status) && budget.done())) {
    out.Flush();
    return Fail(status);
  }
  return kOk;
}

// The output and filter flags shared by both forms; a usage error message when one is bad.
absl::StatusOr<CatOptions> CatOptionsFromArgs(const Args& args) {
  CatOptions cat;
  if (std::optional<std::string> format = args.Get("format")) {
    const std::string f = absl::AsciiStrToLower(*format);
    if (f == "csv") {
      cat.format = RowFormat::kCsv;
    } else if (f == "ndjson") {
      cat.format = RowFormat::kNdjson;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--format must be csv or ndjson, got \"", *format, "\""));
    }
  }
  absl::StatusOr<TimeFormat> time_format = TimeFormatFromArgs(args);
  if (!time_format.ok()) return time_format.status();
  cat.time_format = *time_format;
  if (std::optional<std::string> limit = args.Get("limit")) {
    const auto r = std::from_chars(limit->data(), limit->data() + limit->size(), cat.limit);
    if (r.ec != std::errc() || r.ptr != limit->data() + limit->size()) {
      return absl::InvalidArgumentError(absl::StrCat("--limit needs a row count, got \"", *limit, "\""));
    }
  }
  absl::StatusOr<TimeRange> range = TimeRangeFromArgs(args);
  if (!range.ok()) return range.status();
  cat.range = *range;
  cat.devices = ListFromFlag(args, "devices");
  cat.measurements = ListFromFlag(args, "measurements");
  return cat;
}

}  // namespace

int RunCat(const Args& args) {
  const bool tree = args.Has("tree");
  if (tree && args.Has("table")) return UsageError("cat takes --table T or --tree, not both");
  // Each form's own flags: a flag of the other form is a usage error, never silently ignored.
  for (const char* flag : tree ? std::vector<const char*>{"columns", "where"}
                               : std::vector<const char*>{"devices", "measurements"}) {
    if (args.Has(flag)) return UsageError(absl::StrCat(tree ? "cat --tree" : "cat without --tree", " does not take --", flag));
  }
  absl::StatusOr<CatOptions> cat = CatOptionsFromArgs(args);
  if (!cat.ok()) return Fail(cat.status());  // InvalidArgument: a usage error
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> iotdb_data = OpenIotdbInputs(args);
  if (!iotdb_data.ok()) return Fail(iotdb_data.status());
  if (*iotdb_data != nullptr && tree) {
    const iotdb::IotdbDataset& data = **iotdb_data;
    return CatTreePoints([&](const TreePointsFn& consume) { return data.ScanTree(TreeOptionsOf(*cat), consume); }, *cat);
  }
  if (*iotdb_data != nullptr) return CatIotdbTable(**iotdb_data, args, *cat);
  if (absl::Status unused = CheckIotdbFlagsUnused(args); !unused.ok()) return Fail(unused);
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenInputs(args);
  if (!dataset.ok()) return Fail(dataset.status());
  if (!tree && !args.Has("table") && (*dataset)->TableNames().empty()) {
    const bool has_tree = std::any_of((*dataset)->files().begin(), (*dataset)->files().end(),
                                      [](const DatasetFile& f) { return f.has_tree_model; });
    if (has_tree) return UsageError("the input has no table-model table; use --tree for its tree-model points");
  }
  if (!tree) return CatTable(**dataset, args, *cat);
  const std::vector<std::string> tables = (*dataset)->TableNames();
  if (!MayHoldTreeModel(**dataset) && !tables.empty()) {
    return UsageError(absl::StrCat("the input has no tree-model data; read its tables with --table (tables: ",
                                   absl::StrJoin(tables, ", "), ")"));
  }
  const Dataset& files = **dataset;
  return CatTreePoints([&](const TreePointsFn& consume) { return ScanTreePoints(files, TreeOptionsOf(*cat), consume); },
                       *cat);
}

}  // namespace tsread::cli

// `tsread devices INPUT... [--table T] [--json]`: one device id per line (segments joined by '.',
// a null segment as "null"), in index order; without --table every table's devices, then tree
// devices. --json: per device its segments and tag values as JSON (null stays null, unlike the
// text form's "null") and, from metadata, its rows, points and time range.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "iotdb_inputs.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

// One device of the listing; with --json also its counts, summed over the files it is in.
struct Listed {
  std::string id;
  std::optional<std::string> table;  // nullopt: a tree-model device
  std::vector<std::optional<std::string>> segments;
  bool aligned = false;
  uint64_t rows = 0;    // the time column's count (aligned devices)
  uint64_t points = 0;  // non-null values over the value series
  bool has_time = false;
  int64_t start_time = 0, end_time = 0;

  void AddTimes(const Statistics& s) {
    if (s.count == 0) return;
    start_time = has_time ? std::min(start_time, s.start_time) : s.start_time;
    end_time = has_time ? std::max(end_time, s.end_time) : s.end_time;
    has_time = true;
  }
};

class Listing {
 public:
  explicit Listing(bool with_counts) : with_counts_(with_counts) {}

  // Lists the devices under `index_name` (`table`: nullopt for the tree index); a device seen in
  // an earlier file keeps its place (a dataset's files share devices).
  absl::Status Add(const TsFileReader& reader, const std::string& index_name, std::optional<std::string> table) {
    return reader.ForEachDevice(index_name, [&](const DeviceEntry& device) {
      std::string id = device.id.ToString();
      auto [it, inserted] = index_.emplace(id, listed_.size());
      if (inserted) {
        Listed entry;
        entry.id = std::move(id);
        entry.table = table;
        device.id.ForEachSegment([&](NullableView s) {
          entry.segments.push_back(s.has_value() ? std::optional<std::string>(std::string(*s)) : std::nullopt);
        });
        listed_.push_back(std::move(entry));
      }
      return with_counts_ ? AddCounts(reader, device.location, listed_[it->second]) : absl::OkStatus();
    });
  }

  const std::vector<Listed>& listed() const { return listed_; }
  std::vector<Listed>& listed() { return listed_; }

 private:
  static absl::Status AddCounts(const TsFileReader& reader, const DeviceLocation& location, Listed& entry) {
    absl::StatusOr<std::vector<TimeseriesMetadata>> series = reader.ReadTimeseries(location);
    if (!series.ok()) return series.status();
    for (const TimeseriesMetadata& tsm : *series) {
      if (tsm.is_time_column()) {
        entry.aligned = true;
        entry.rows += tsm.statistics.count;
      } else {
        entry.points += tsm.statistics.count;
      }
      entry.AddTimes(tsm.statistics);
    }
    return absl::OkStatus();
  }

  bool with_counts_;
  std::vector<Listed> listed_;
  std::unordered_map<std::string, size_t> index_;
};

absl::Status ListFileDevices(const TsFileReader& reader, const std::optional<std::string>& table, Listing& listing) {
  if (table.has_value()) {
    if (reader.metadata().FindIndex(*table) == nullptr) return absl::OkStatus();
    const bool is_table = reader.FindTable(*table) != nullptr;
    return listing.Add(reader, *table, is_table ? table : std::nullopt);
  }
  for (const TableSchema* schema : reader.Tables()) {
    if (reader.metadata().FindIndex(schema->name) == nullptr) continue;
    if (absl::Status s = listing.Add(reader, schema->name, schema->name); !s.ok()) return s;
  }
  for (const std::string& name : reader.TreeIndexNames()) {
    if (absl::Status s = listing.Add(reader, name, std::nullopt); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::string NullableJson(const std::optional<std::string>& s) { return s.has_value() ? JsonString(*s) : "null"; }

// `{"devices": [...]}`; `tags` maps the table's TAG columns (schema order) to segments 1...
void PrintJson(const std::vector<Listed>& listed, const Dataset& dataset) {
  std::cout << "{\"devices\": [";
  for (size_t d = 0; d < listed.size(); ++d) {
    const Listed& e = listed[d];
    std::cout << (d ? ",\n  " : "\n  ") << "{\"id\": " << JsonString(e.id) << ", \"table\": " << NullableJson(e.table)
              << ", \"segments\": [";
    for (size_t i = 0; i < e.segments.size(); ++i) std::cout << (i ? ", " : "") << NullableJson(e.segments[i]);
    std::cout << "]";
    if (e.table.has_value()) {
      absl::StatusOr<TableSchema> schema = dataset.ReconciledSchema(*e.table);
      if (schema.ok()) {
        std::cout << ", \"tags\": {";
        size_t tag = 0;
        for (const ColumnSchema& column : schema->columns) {
          if (column.category != ColumnCategory::kTag) continue;
          // A missing trailing segment is a null tag (writers trim trailing nulls).
          const std::optional<std::string> value = tag + 1 < e.segments.size() ? e.segments[tag + 1] : std::nullopt;
          std::cout << (tag++ ? ", " : "") << JsonString(column.name) << ": " << NullableJson(value);
        }
        std::cout << "}";
      }
    }
    if (e.aligned) std::cout << ", \"rows\": " << e.rows;
    std::cout << ", \"points\": " << e.points;
    if (e.has_time) std::cout << ", \"start_time\": " << e.start_time << ", \"end_time\": " << e.end_time;
    std::cout << "}";
  }
  std::cout << (listed.empty() ? "]}\n" : "\n ]}\n");
}

// IoTDB data: the counts and time ranges of the rows IoTDB answers (merged, deletions applied),
// which the files' statistics do not give.
absl::Status CountIotdbRows(const iotdb::IotdbDataset& data, std::vector<Listed>& listed) {
  std::map<std::string, Listed*> by_id;
  std::set<std::string> tables;
  for (Listed& e : listed) {
    by_id[e.id] = &e;
    e.rows = e.points = 0;
    e.has_time = false;
    if (e.table.has_value()) tables.insert(*e.table);
  }
  for (const std::string& table : tables) {
    AggregateOptions options;
    options.table = table;
    TSREAD_ASSIGN_OR_RETURN(TableAggregate result, AggregateIotdb(data, options));
    for (const GroupAggregate& g : result.groups) {
      auto it = by_id.find(g.device);
      if (it == by_id.end()) continue;
      it->second->rows += g.rows;
      for (const ColumnAggregate& c : g.columns) it->second->points += c.count();
      Statistics times;
      times.count = g.rows;
      times.start_time = g.first_time;
      times.end_time = g.last_time;
      it->second->AddTimes(times);
    }
  }
  // Tree devices one at a time: an aligned device's rows are the times any of its series has.
  std::string device;
  std::vector<int64_t> times;
  auto finish_device = [&]() {
    auto it = by_id.find(device);
    if (it == by_id.end() || !it->second->aligned) return;
    std::sort(times.begin(), times.end());
    it->second->rows = static_cast<uint64_t>(std::unique(times.begin(), times.end()) - times.begin());
    times.clear();
  };
  TSREAD_RETURN_IF_ERROR(data.ScanTree({}, [&](std::string_view d, std::string_view, const std::vector<int64_t>& t,
                                               const ColumnVector& values, size_t begin, size_t end) {
    if (d != device) {
      finish_device();
      device = std::string(d);
    }
    auto it = by_id.find(device);
    if (it == by_id.end()) return absl::OkStatus();
    for (size_t r = begin; r < end; ++r) {
      if (!values.IsValid(r)) continue;
      ++it->second->points;
      if (it->second->aligned) times.push_back(t[r]);
      Statistics one;
      one.count = 1;
      one.start_time = one.end_time = t[r];
      it->second->AddTimes(one);
    }
    return absl::OkStatus();
  }));
  finish_device();
  return absl::OkStatus();
}

}  // namespace

int RunDevices(const Args& args) {
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> iotdb_data = OpenIotdbInputs(args);
  if (!iotdb_data.ok()) return Fail(iotdb_data.status());
  if (*iotdb_data == nullptr) {
    if (absl::Status unused = CheckIotdbFlagsUnused(args); !unused.ok()) return Fail(unused);
  }
  absl::StatusOr<std::unique_ptr<Dataset>> opened =
      *iotdb_data != nullptr ? absl::StatusOr<std::unique_ptr<Dataset>>(nullptr) : OpenInputs(args);
  if (!opened.ok()) return Fail(opened.status());
  const Dataset* dataset = *iotdb_data != nullptr ? &(*iotdb_data)->dataset() : opened->get();
  const std::optional<std::string> table = args.Get("table");
  const bool json = args.Has("json");
  bool known = !table.has_value();
  for (size_t f = 0; f < dataset->files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset->OpenFile(f);
    if (!reader.ok()) return Fail(WithFileName(reader.status(), dataset->files()[f].path));
    known |= table.has_value() && ((*reader)->FindTable(*table) != nullptr || (*reader)->metadata().FindIndex(*table) != nullptr);
  }
  if (!known) {
    // The wording of every command's "no such table" (Dataset::ReconciledSchema).
    const std::vector<std::string> names = dataset->TableNames();
    return UsageError(absl::StrCat("no table named \"", *table, "\"",
                                   names.empty() ? " (the input has no table-model table)"
                                                 : absl::StrCat(" (tables: ", absl::StrJoin(names, ", "), ")")));
  }
  Listing listing(json);
  for (size_t f = 0; f < dataset->files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset->OpenFile(f);
    if (!reader.ok()) return Fail(WithFileName(reader.status(), dataset->files()[f].path));
    if (absl::Status s = ListFileDevices(**reader, table, listing); !s.ok()) {
      return Fail(WithFileName(s, dataset->files()[f].path));
    }
  }
  if (json && *iotdb_data != nullptr) {
    if (absl::Status s = CountIotdbRows(**iotdb_data, listing.listed()); !s.ok()) return Fail(s);
  }
  if (json) {
    PrintJson(listing.listed(), *dataset);
  } else {
    for (const Listed& e : listing.listed()) std::cout << e.id << "\n";
  }
  return kOk;
}

}  // namespace tsread::cli

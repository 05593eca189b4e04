// `tsread info FILE [--json]` (cli-contract.md): version, tables with columns, devices and rows,
// and the tree-model devices/series/points, from metadata only.
#include <iostream>
#include <memory>

#include <algorithm>
#include <map>
#include <set>

#include "cli.h"
#include "column_details.h"
#include "iotdb_inputs.h"
#include "tsread/aggregate/file_summary.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

void PrintColumnsJson(const TableSchema& schema, std::ostream& out) {
  out << "\"columns\": [";
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    const ColumnSchema& column = schema.columns[c];
    out << (c ? ", " : "") << "{\"name\": " << JsonString(column.name) << ", \"category\": \""
        << ColumnCategoryName(column.category) << "\", \"type\": \"" << DataTypeName(column.data_type) << "\"}";
  }
  out << "]";
}

// The body of a file's JSON object (version, tables, tree), without the braces.
void PrintFileJson(const FileSummary& summary, std::ostream& out) {
  out << "\"version\": " << static_cast<int>(summary.version) << ",\n \"tables\": [";
  for (size_t t = 0; t < summary.tables.size(); ++t) {
    const TableSummary& table = summary.tables[t];
    out << (t ? ",\n  " : "\n  ") << "{\"name\": " << JsonString(table.schema->name) << ", ";
    PrintColumnsJson(*table.schema, out);
    out << ", \"devices\": " << table.devices << ", \"rows\": " << table.rows;
    if (table.rows > 0) out << ", \"start_time\": " << table.start_time << ", \"end_time\": " << table.end_time;
    out << "}";
  }
  out << (summary.tables.empty() ? "]" : "\n ]");
  if (summary.tree.has_value()) {
    out << ",\n \"tree\": {\"devices\": " << summary.tree->devices << ", \"series\": " << summary.tree->series
        << ", \"points\": " << summary.tree->points << "}";
  }
}

// With --columns: the file's column details after its summary (text) or as a key (JSON).
absl::Status PrintDetails(const TsFileReader& reader, bool json, std::ostream& out) {
  absl::StatusOr<std::vector<TableDetails>> details = CollectColumnDetails(reader);
  if (!details.ok()) return details.status();
  if (json) {
    out << ",\n ";
    PrintDetailsJson(*details, out);
  } else {
    PrintDetailsText(*details, out);
  }
  return absl::OkStatus();
}

void PrintText(const std::string& path, const FileSummary& summary, std::ostream& out) {
  out << "file: " << path << "\nversion: " << static_cast<int>(summary.version) << "\n";
  for (const TableSummary& table : summary.tables) {
    out << "table " << table.schema->name << ": " << table.devices << " devices, " << table.rows << " rows";
    if (table.rows > 0) out << ", time " << table.start_time << " .. " << table.end_time;
    out << "\n";
    for (const ColumnSchema& column : table.schema->columns) {
      out << "  " << column.name << "  " << ColumnCategoryName(column.category) << "  "
          << DataTypeName(column.data_type) << "\n";
    }
  }
  if (summary.tree.has_value()) {
    out << "tree model: " << summary.tree->devices << " devices, " << summary.tree->series << " series, "
        << summary.tree->points << " points\n";
  }
}

// A table's totals over the files of a dataset. A device usually lies in many files (one per
// time partition and flush): devices are counted once, by id.
struct TableTotals {
  uint64_t files = 0, rows = 0;
  std::set<std::string> devices;
  int64_t start_time = 0, end_time = 0;
};

// Adds the ids of the devices of index `index_name` (a table, or a tree-model index) to `ids`.
absl::Status AddDeviceIds(const TsFileReader& reader, std::string_view index_name, std::set<std::string>& ids) {
  return reader.ForEachDevice(index_name, [&](const DeviceEntry& entry) {
    ids.insert(entry.id.ToString());
    return absl::OkStatus();
  });
}

// Every file's summary, then the dataset's: per table the reconciled columns and the totals.
// What IoTDB's layout says of file `f` (iotdb_dataset.h): its space, database, region, partition
// and version, the deletion file applied, and what of an unsealed file is read.
void PrintIotdbFile(const iotdb::IotdbDataset& iotdb_data, size_t f, bool json, std::ostream& out) {
  const iotdb::IotdbFile& file = iotdb_data.layout().files[f];
  const auto report = iotdb_data.deletion_reports().find(f);
  const iotdb::DeletionFileReport* deletions = report == iotdb_data.deletion_reports().end() ? nullptr : &report->second;
  const auto sealed = iotdb_data.unsealed_files().find(f);
  const iotdb::UnsealedFile* unsealed = sealed == iotdb_data.unsealed_files().end() ? nullptr : &sealed->second;
  if (json) {
    out << ", \"iotdb\": {";
    if (file.in_layout) {
      out << "\"space\": \"" << (file.sequence ? "sequence" : "unsequence") << "\", \"database\": "
          << JsonString(file.database) << ", \"region\": " << JsonString(file.region)
          << ", \"partition\": " << file.partition << ", \"version\": " << file.name.version << ", ";
    }
    out << "\"deletions\": ";
    if (deletions == nullptr) {
      out << "null";
    } else {
      out << "{\"path\": " << JsonString(deletions->file.path) << ", \"format\": \""
          << (deletions->file.format == iotdb::DeletionFormat::kMods2 ? "mods2" : "mods") << "\", \"entries\": "
          << deletions->entries << ", \"damage\": "
          << (deletions->damage.ok() ? "null" : JsonString(std::string(deletions->damage.message()))) << "}";
    }
    out << ", \"unsealed\": ";
    if (unsealed == nullptr) {
      out << "null";
    } else {
      out << "{\"groups_read\": " << unsealed->groups << ", \"bytes_read\": " << unsealed->data_end
          << ", \"file_bytes\": " << unsealed->size << ", \"stop_offset\": " << unsealed->stop_offset
          << ", \"stop_reason\": " << JsonString(unsealed->stop_reason) << "}";
    }
    out << "}";
    return;
  }
  if (unsealed != nullptr) {
    out << "  unsealed (no valid tail): " << unsealed->Summary() << "\n";
  }
  out << "  iotdb: ";
  if (file.in_layout) {
    out << (file.sequence ? "sequence" : "unsequence") << ", database " << file.database << ", region "
        << file.region << ", partition " << file.partition << ", version " << file.name.version << "; ";
  }
  if (deletions == nullptr) {
    out << "no deletions\n";
  } else {
    out << "deletions applied: " << deletions->file.path << " (" << deletions->entries << " entries"
        << (deletions->damage.ok() ? "" : ", damaged") << ")\n";
  }
}

// The data directory's summary (after the files).
void PrintIotdbSummary(const iotdb::IotdbLayout& layout, bool json, std::ostream& out) {
  const std::vector<std::string> databases = layout.databases();
  if (json) {
    out << ",\n \"iotdb\": {\"data_dirs\": [";
    for (size_t i = 0; i < layout.data_dirs.size(); ++i) out << (i ? ", " : "") << JsonString(layout.data_dirs[i]);
    out << "], \"databases\": [";
    for (size_t i = 0; i < databases.size(); ++i) out << (i ? ", " : "") << JsonString(databases[i]);
    out << "], \"sequence_files\": " << layout.sequence_files() << ", \"unsequence_files\": "
        << layout.unsequence_files() << ", \"deletion_files\": " << layout.deletion_files() << ", \"notes\": [";
    for (size_t i = 0; i < layout.notes.size(); ++i) out << (i ? ", " : "") << JsonString(layout.notes[i]);
    out << "]}";
    return;
  }
  out << (layout.recognized ? "IoTDB data directory: " : "IoTDB deletion files: ") << databases.size()
      << " databases";
  for (size_t i = 0; i < databases.size(); ++i) out << (i ? ", " : " (") << databases[i] << (i + 1 == databases.size() ? ")" : "");
  out << ", " << layout.sequence_files() << " sequence files, " << layout.unsequence_files() << " unsequence files, "
      << layout.deletion_files() << " deletion files; rows and points below are as stored, before IoTDB's merge and "
      << "deletions (cat, scan, agg and last apply them)\n";
}

int RunDatasetInfo(const Dataset& dataset, bool json, bool columns, const iotdb::IotdbDataset* iotdb_data = nullptr) {
  std::vector<FileSummary> summaries(dataset.files().size());
  std::map<std::string, TableTotals> tables;
  TreeSummary tree;
  std::set<std::string> tree_devices;
  bool has_tree = false;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = dataset.OpenFile(f);
    if (!reader.ok()) return Fail(WithFileName(reader.status(), dataset.files()[f].path));
    absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
    if (!summary.ok()) return Fail(WithFileName(summary.status(), dataset.files()[f].path));
    for (const TableSummary& t : summary->tables) {
      TableTotals& totals = tables[t.schema->name];
      if (t.rows > 0) {
        totals.start_time = totals.rows > 0 ? std::min(totals.start_time, t.start_time) : t.start_time;
        totals.end_time = totals.rows > 0 ? std::max(totals.end_time, t.end_time) : t.end_time;
      }
      ++totals.files;
      totals.rows += t.rows;
      if (absl::Status s = AddDeviceIds(**reader, t.schema->name, totals.devices); !s.ok()) {
        return Fail(WithFileName(s, dataset.files()[f].path));
      }
    }
    if (summary->tree.has_value()) {
      has_tree = true;
      for (const std::string& index : (*reader)->TreeIndexNames()) {
        if (absl::Status s = AddDeviceIds(**reader, index, tree_devices); !s.ok()) {
          return Fail(WithFileName(s, dataset.files()[f].path));
        }
      }
      tree.devices = tree_devices.size();
      tree.series += summary->tree->series;
      tree.points += summary->tree->points;
    }
    // Summaries view the schemas of their reader; keep only what is printed below.
    summaries[f] = std::move(*summary);
    if (!json) PrintText(dataset.files()[f].path, summaries[f], std::cout);
    if (json) {
      std::cout << (f ? ",\n  " : "{\"files\": [\n  ") << "{\"path\": " << JsonString(dataset.files()[f].path)
                << ", \"size\": " << dataset.files()[f].size << ", ";
      PrintFileJson(summaries[f], std::cout);
    }
    if (iotdb_data != nullptr) PrintIotdbFile(*iotdb_data, f, json, std::cout);
    if (columns) {
      if (absl::Status s = PrintDetails(**reader, json, std::cout); !s.ok()) {
        return Fail(WithFileName(s, dataset.files()[f].path));
      }
    }
    if (json) std::cout << "}";
  }
  if (json) std::cout << "\n ],\n \"tables\": [";
  if (!json) std::cout << "dataset: " << dataset.files().size() << " files\n";
  if (!json && iotdb_data != nullptr) PrintIotdbSummary(iotdb_data->layout(), false, std::cout);
  size_t t = 0;
  for (const auto& [name, totals] : tables) {
    absl::StatusOr<TableSchema> schema = dataset.ReconciledSchema(name);
    if (!schema.ok()) return Fail(schema.status());  // names the files that disagree
    if (json) {
      std::cout << (t++ ? ",\n  " : "\n  ") << "{\"name\": " << JsonString(name) << ", ";
      PrintColumnsJson(*schema, std::cout);
      std::cout << ", \"files\": " << totals.files << ", \"devices\": " << totals.devices.size() << ", \"rows\": " << totals.rows;
      if (totals.rows > 0) std::cout << ", \"start_time\": " << totals.start_time << ", \"end_time\": " << totals.end_time;
      std::cout << "}";
      continue;
    }
    std::cout << "table " << name << ": " << totals.files << " files, " << totals.devices.size() << " devices, "
              << totals.rows << " rows";
    if (totals.rows > 0) std::cout << ", time " << totals.start_time << " .. " << totals.end_time;
    std::cout << "\n";
    for (const ColumnSchema& column : schema->columns) {
      std::cout << "  " << column.name << "  " << ColumnCategoryName(column.category) << "  "
                << DataTypeName(column.data_type) << "\n";
    }
  }
  if (json) {
    std::cout << (tables.empty() ? "]" : "\n ]");
    if (has_tree) {
      std::cout << ",\n \"tree\": {\"devices\": " << tree.devices << ", \"series\": " << tree.series
                << ", \"points\": " << tree.points << "}";
    }
    if (iotdb_data != nullptr) PrintIotdbSummary(iotdb_data->layout(), true, std::cout);
    std::cout << "}\n";
  } else if (has_tree) {
    std::cout << "tree model: " << tree.devices << " devices, " << tree.series << " series, " << tree.points
              << " points\n";
  }
  return kOk;
}

}  // namespace

int RunInfo(const Args& args) {
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> iotdb_data = OpenIotdbInputs(args);
  if (!iotdb_data.ok()) return Fail(iotdb_data.status());
  if (*iotdb_data != nullptr) return RunDatasetInfo((*iotdb_data)->dataset(), args.Has("json"), args.Has("columns"), iotdb_data->get());
  if (absl::Status unused = CheckIotdbFlagsUnused(args); !unused.ok()) return Fail(unused);
  if (!IsSingleFile(args)) {
    absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenInputs(args);
    if (!dataset.ok()) return Fail(dataset.status());
    return RunDatasetInfo(**dataset, args.Has("json"), args.Has("columns"));
  }
  const std::string& path = args.positional[0];
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  if (!reader.ok()) return Fail(WithFileName(reader.status(), path));
  WarnOfDeletions(path, DeletionFileBeside(path));
  absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
  if (!summary.ok()) return Fail(WithFileName(summary.status(), path));
  const bool json = args.Has("json");
  if (json) {
    std::cout << "{";
    PrintFileJson(*summary, std::cout);
  } else {
    PrintText(path, *summary, std::cout);
  }
  if (args.Has("columns")) {
    if (absl::Status s = PrintDetails(**reader, json, std::cout); !s.ok()) return Fail(WithFileName(s, path));
  }
  if (json) std::cout << "}\n";
  return kOk;
}

}  // namespace tsread::cli

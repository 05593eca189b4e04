// Opening an IoTDB dataset and its table scans (iotdb_dataset.h); tree scans: iotdb_tree_scan.cc.
#include "tsread/iotdb/iotdb_dataset.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/altered_types.h"
#include "tsread/iotdb/unsealed_files.h"

namespace tsread::iotdb {
namespace {

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::UnavailableError(absl::StrCat(path, ": cannot open the deletion file"));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return absl::UnavailableError(absl::StrCat(path, ": cannot read the deletion file"));
  return bytes.str();
}

}  // namespace

absl::StatusOr<std::unique_ptr<IotdbDataset>> IotdbDataset::Open(const std::vector<std::string>& inputs,
                                                                  IotdbOptions options) {
  TSREAD_ASSIGN_OR_RETURN(IotdbLayout layout, FindLayout(inputs));
  return OpenLayout(std::move(layout), std::move(options));
}

absl::StatusOr<std::unique_ptr<IotdbDataset>> IotdbDataset::OpenIfIotdbData(const std::vector<std::string>& inputs,
                                                                             bool raw, IotdbOptions options) {
  if (raw) return std::unique_ptr<IotdbDataset>();
  // The layout first (a listing and a stat per file): plain inputs are then opened once, plainly.
  absl::StatusOr<IotdbLayout> layout = FindLayout(inputs);
  if (!layout.ok() || !AppliesRules(*layout)) return std::unique_ptr<IotdbDataset>();
  return OpenLayout(std::move(*layout), std::move(options));
}

bool IotdbDataset::HoldsDatabase(std::string_view database) const {
  const std::vector<std::string> databases = layout_.databases();
  return std::find(databases.begin(), databases.end(), database) != databases.end();
}

absl::StatusOr<std::unique_ptr<IotdbDataset>> IotdbDataset::OpenLayout(IotdbLayout layout, IotdbOptions options) {
  auto out = std::unique_ptr<IotdbDataset>(new IotdbDataset());
  out->layout_ = std::move(layout);
  // Group indexes are layout indexes: every file stays in the dataset, an unreadable one with its
  // error (a scan reaching it reports it).
  options.dataset.skip_unreadable_files = false;
  // A column whose files hold different types was altered (ALTER COLUMN ... SET DATA TYPE): read
  // as the type they all cast to (altered_types.h), each file's values cast by the merge.
  options.dataset.unify_types = [](const std::vector<DataType>& types) { return AlteredType(types); };
  TSREAD_ASSIGN_OR_RETURN(out->dataset_, Dataset::OpenPaths(out->layout_.paths(), options.dataset));
  TSREAD_RETURN_IF_ERROR(out->ReadUnsealedFilesInPlace(options.dataset));
  out->deletions_.resize(out->layout_.files.size());
  out->group_of_.assign(out->layout_.files.size(), 0);
  for (size_t g = 0; g < out->layout_.groups.size(); ++g) {
    for (size_t f : out->layout_.groups[g].files) out->group_of_[f] = g;
  }
  for (size_t f = 0; f < out->layout_.files.size(); ++f) {
    out->identity_.push_back(f);
    const std::optional<DeletionFileRef>& ref = out->layout_.files[f].deletions;
    if (!ref.has_value()) continue;
    TSREAD_ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(ref->path));
    DeletionFileContents contents =
        ref->format == DeletionFormat::kMods2 ? ParseMods2(bytes, ref->path) : ParseModsText(bytes, ref->path);
    if (!contents.unknown.ok()) {
      if (!options.ignore_errors) return contents.unknown;
      out->skipped_unknown_.push_back(absl::StrCat(contents.unknown.message(), " (ignored: the entries before it apply)"));
    }
    out->reports_[f] = DeletionFileReport{*ref, contents.entries.size(), contents.damage};
    out->deletions_[f] = FileDeletions(std::move(contents.entries));
  }
  out->options_ = std::move(options);
  return out;
}

absl::Status IotdbDataset::ReadUnsealedFilesInPlace(DatasetOptions& options) {
  std::map<size_t, UnsealedFile> found = FindUnsealedFiles(layout_, *dataset_, options);
  if (found.empty()) return absl::OkStatus();
  auto by_path = std::make_shared<std::map<std::string, UnsealedFile>>();
  std::vector<bool> remove(layout_.files.size(), false);
  for (auto& [f, file] : found) {
    const std::string& path = layout_.files[f].path;
    // A file left out is a layout note (what `info` lists); one read in place, a warning.
    remove[f] = file.index == nullptr;
    (remove[f] ? layout_.notes : unsealed_warnings_).push_back(file.Warning(path));
    for (const std::string& w : file.warnings) unsealed_warnings_.push_back(absl::StrCat(path, ": ", w));
    by_path->emplace(path, std::move(file));
  }
  // Files with nothing to read leave the layout; the others are opened again, in place.
  layout_.RemoveFiles(remove);
  if (layout_.files.empty()) {
    return absl::NotFoundError(absl::StrCat("no TsFile with data: ", absl::StrJoin(layout_.notes, "; ")));
  }
  options.opener = OpenerReadingInPlace(options, by_path);
  dataset_.reset();
  TSREAD_ASSIGN_OR_RETURN(dataset_, Dataset::OpenPaths(layout_.paths(), options));
  for (size_t f = 0; f < layout_.files.size(); ++f) {
    const auto it = by_path->find(layout_.files[f].path);
    if (it != by_path->end()) unsealed_.emplace(f, it->second);
  }
  return absl::OkStatus();
}

std::vector<std::string> IotdbDataset::Warnings() const {
  std::vector<std::string> out = layout_.notes;
  out.insert(out.end(), unsealed_warnings_.begin(), unsealed_warnings_.end());
  for (const auto& [file, report] : reports_) {
    if (!report.damage.ok()) {
      out.push_back(absl::StrCat(report.damage.message(), " (the ", report.entries, " entries before it apply, as IoTDB reads them)"));
    }
  }
  out.insert(out.end(), skipped_unknown_.begin(), skipped_unknown_.end());
  return out;
}

std::vector<std::string> IotdbDataset::DatabasesOf(std::string_view table) const {
  std::set<std::string> names;
  for (size_t f = 0; f < dataset_->files().size(); ++f) {
    if (dataset_->files()[f].FindTable(table) != nullptr) names.insert(layout_.files[f].database);
  }
  return {names.begin(), names.end()};
}

absl::StatusOr<std::pair<std::string, std::string>> IotdbDataset::TableAndDatabase(std::string_view table) const {
  std::string name(table);
  if (name.empty()) {
    // The only table of the chosen database, or of the whole input.
    std::set<std::string> tables;
    for (size_t f = 0; f < dataset_->files().size(); ++f) {
      if (!options_.database.empty() && layout_.files[f].database != options_.database) continue;
      for (const auto& schema : dataset_->files()[f].tables) tables.insert(schema->name);
    }
    if (tables.size() != 1) {
      if (options_.database.empty()) {
        TSREAD_ASSIGN_OR_RETURN(name, dataset_->TableToRead(""));
      } else if (tables.empty()) {
        return absl::InvalidArgumentError(absl::StrCat("database \"", options_.database, "\" has no table"));
      } else {
        return absl::InvalidArgumentError(absl::StrCat("database \"", options_.database, "\" has several tables (",
                                                       absl::StrJoin(tables, ", "), "); name one"));
      }
    } else {
      name = *tables.begin();
    }
  }
  std::vector<std::string> databases = DatabasesOf(name);
  if (!options_.database.empty()) {
    if (std::find(databases.begin(), databases.end(), options_.database) == databases.end()) {
      return absl::InvalidArgumentError(absl::StrCat("database \"", options_.database, "\" has no table \"", name, "\"",
                                                     databases.empty() ? "" : absl::StrCat(" (it is in ", absl::StrJoin(databases, ", "), ")")));
    }
    return std::make_pair(name, options_.database);
  }
  if (databases.empty()) {
    TSREAD_ASSIGN_OR_RETURN(name, dataset_->TableToRead(name));  // its error: no such table, or an unreadable file
    return absl::InvalidArgumentError(absl::StrCat("no table \"", name, "\""));
  }
  if (databases.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat("table \"", name, "\" is in several databases (",
                                                   absl::StrJoin(databases, ", "), "); name one with --database"));
  }
  return std::make_pair(name, databases[0]);
}

absl::StatusOr<std::pair<const Dataset*, const std::vector<size_t>*>> IotdbDataset::DatasetOf(
    const std::string& database, std::string_view table) const {
  // The whole dataset serves when no file of another database has the table (the reconciled
  // schema is then the database's own).
  if (DatabasesOf(table).size() <= 1) return std::make_pair(dataset_.get(), &identity_);
  std::lock_guard<std::mutex> lock(sub_mutex_);
  auto it = sub_datasets_.find(database);
  if (it == sub_datasets_.end()) {
    SubDataset sub;
    std::vector<std::string> paths;
    for (size_t f = 0; f < layout_.files.size(); ++f) {
      if (layout_.files[f].database != database) continue;
      sub.files.push_back(f);
      paths.push_back(layout_.files[f].path);
    }
    DatasetOptions options = options_.dataset;
    options.skip_unreadable_files = false;
    TSREAD_ASSIGN_OR_RETURN(sub.dataset, Dataset::OpenPaths(std::move(paths), options));
    it = sub_datasets_.emplace(database, std::move(sub)).first;
  }
  return std::make_pair(static_cast<const Dataset*>(it->second.dataset.get()),
                        static_cast<const std::vector<size_t>*>(&it->second.files));
}

absl::StatusOr<std::unique_ptr<MergedScanner>> IotdbDataset::ScanTable(DatasetScanOptions options) const {
  TSREAD_ASSIGN_OR_RETURN(auto table_and_database, TableAndDatabase(options.table));
  const auto& [table, database] = table_and_database;
  options.table = table;
  TSREAD_ASSIGN_OR_RETURN(auto dataset_and_files, DatasetOf(database, table));
  // Not a structured binding: the mask below captures `files` (clang before 16 refuses bindings in captures).
  const Dataset* dataset = dataset_and_files.first;
  const std::vector<size_t>* files = dataset_and_files.second;
  // The groups of the database, in the chosen dataset's file indexes.
  std::vector<size_t> position(layout_.files.size(), SIZE_MAX);
  for (size_t i = 0; i < files->size(); ++i) position[(*files)[i]] = i;
  std::vector<MergeGroup> groups;
  for (const FileGroup& group : layout_.groups) {
    MergeGroup merge;
    for (size_t f : group.files) {
      if (layout_.files[f].database != database || position[f] == SIZE_MAX) continue;
      merge.files.push_back(position[f]);
      merge.masked.push_back(!deletions_[f].empty());
    }
    if (!merge.files.empty()) groups.push_back(std::move(merge));
  }
  SourceMaskFn mask = [this, files](size_t file, const DeviceId& device, const std::vector<TimeseriesMetadata>& series,
                                    const std::vector<ProjectedColumn>& columns) -> absl::StatusOr<SourceMask> {
    return deletions_[(*files)[file]].TableMask(device, series, columns);
  };
  return MergedScanner::Create(*dataset, std::move(options), std::move(groups), std::move(mask));
}

}  // namespace tsread::iotdb

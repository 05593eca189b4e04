#include "tsread/dataset/dataset.h"

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/io/file_list.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

bool SameColumns(const TableSchema& a, const TableSchema& b) {
  if (a.name != b.name || a.columns.size() != b.columns.size()) return false;
  for (size_t i = 0; i < a.columns.size(); ++i) {
    const ColumnSchema& x = a.columns[i];
    const ColumnSchema& y = b.columns[i];
    if (x.name != y.name || x.data_type != y.data_type || x.category != y.category ||
        x.encoding_byte != y.encoding_byte || x.compression_byte != y.compression_byte ||
        x.properties != y.properties) {
      return false;
    }
  }
  return true;
}

// The shared copy of `schema`: an equal one seen before, or a new one.
std::shared_ptr<const TableSchema> Intern(const TableSchema& schema,
                                          std::vector<std::shared_ptr<const TableSchema>>& seen) {
  for (const std::shared_ptr<const TableSchema>& s : seen) {
    if (SameColumns(*s, schema)) return s;
  }
  seen.push_back(std::make_shared<const TableSchema>(schema));
  return seen.back();
}

size_t DefaultMaxOpenFiles() {
  const size_t threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::max<size_t>(8, 2 * threads + 2);
}

}  // namespace

const TableSchema* DatasetFile::FindTable(std::string_view name) const {
  for (const std::shared_ptr<const TableSchema>& table : tables) {
    if (table->name == name) return table.get();
  }
  return nullptr;
}

absl::Status WithFileName(const absl::Status& status, std::string_view path) {
  const std::string_view message(status.message().data(), status.message().size());
  if (status.ok() || message.find(path) != std::string_view::npos) return status;
  return absl::Status(status.code(), absl::StrCat(ToAbsl(path), ": ", status.message()));
}

FileOpener OpenerOf(const DatasetOptions& options) {
  if (options.opener) return options.opener;
  return [access = options.access](const std::string& path) { return ::tsread::OpenFile(path, access); };
}

Dataset::Dataset(DatasetOptions options) : options_(std::move(options)) {
  const size_t capacity = options_.max_open_files > 0 ? options_.max_open_files : DefaultMaxOpenFiles();
  pool_ = std::make_unique<FilePool>(capacity, OpenerOf(options_));
}

absl::StatusOr<std::unique_ptr<Dataset>> Dataset::Open(const std::vector<std::string>& inputs, DatasetOptions options) {
  TSREAD_ASSIGN_OR_RETURN(std::vector<std::string> paths, ListFiles(inputs, options.extension));
  if (paths.empty()) {
    return absl::NotFoundError(absl::StrCat(absl::StrJoin(inputs, ", "), ": no file ending in ", options.extension));
  }
  return OpenPaths(std::move(paths), std::move(options));
}

absl::StatusOr<std::unique_ptr<Dataset>> Dataset::OpenPaths(std::vector<std::string> paths, DatasetOptions options) {
  if (paths.empty()) return absl::InvalidArgumentError("no input files given");
  std::unique_ptr<Dataset> dataset(new Dataset(std::move(options)));
  std::vector<std::shared_ptr<const TableSchema>> schemas;
  dataset->files_.reserve(paths.size());
  for (std::string& path : paths) {
    // Every other field starts at its declared default: Describe fills them in.
    DatasetFile& file = dataset->files_.emplace_back();
    file.path = std::move(path);
    file.deletions = DeletionFileBeside(file.path);
    file.status = dataset->Describe(dataset->files_.size() - 1, schemas);
    if (!file.status.ok() && dataset->options_.skip_unreadable_files) {
      dataset->skipped_.push_back(SkippedFile{std::move(file.path), std::move(file.status)});
      dataset->files_.pop_back();
    }
  }
  return dataset;
}

absl::Status Dataset::Describe(size_t index, std::vector<std::shared_ptr<const TableSchema>>& schemas) {
  DatasetFile& file = files_[index];
  absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = pool_->Acquire(index, file.path);
  if (!reader.ok()) return WithFileName(reader.status(), file.path);
  file.size = (*reader)->file().size();
  for (const TableSchema* table : (*reader)->Tables()) file.tables.push_back(Intern(*table, schemas));
  file.has_tree_model = !(*reader)->TreeIndexNames().empty();
  return absl::OkStatus();
}

std::vector<std::string> Dataset::TableNames() const {
  std::set<std::string> names;
  for (const DatasetFile& file : files_) {
    for (const std::shared_ptr<const TableSchema>& table : file.tables) names.insert(table->name);
  }
  return std::vector<std::string>(names.begin(), names.end());
}

absl::StatusOr<std::string> Dataset::OnlyTable() const {
  std::vector<std::string> names = TableNames();
  if (names.size() == 1) return names[0];
  // Said in every front end's spelling: the library serves the CLI, SQL and Python alike.
  if (names.empty()) {
    return absl::InvalidArgumentError(
        "the input has no table-model table: its data is tree-model (read it with the CLI's --tree, SQL's "
        "read_tsfile_tree or Python's read_tree)");
  }
  return absl::InvalidArgumentError(absl::StrCat("the input has ", names.size(), " tables (", absl::StrJoin(names, ", "),
                                                 "): name the one to read (the CLI's --table, SQL's table_name := or "
                                                 "Python's table=)"));
}

absl::StatusOr<std::string> Dataset::TableToRead(std::string_view table) const {
  const std::vector<std::string> tables = TableNames();
  const bool found = table.empty() ? tables.size() == 1 : std::find(tables.begin(), tables.end(), table) != tables.end();
  if (!found) TSREAD_RETURN_IF_ERROR(UnreadableFileStatus());
  if (table.empty()) return OnlyTable();
  return std::string(table);
}

absl::Status Dataset::UnreadableFileStatus() const {
  for (const DatasetFile& file : files_) {
    if (!file.status.ok()) return file.status;
  }
  return absl::OkStatus();
}

absl::StatusOr<TableSchema> Dataset::ReconciledSchema(std::string_view table) const {
  TableSchema reconciled;
  reconciled.name = std::string(table);
  std::vector<size_t> first_file;  // per reconciled column, the first file that has it
  std::vector<std::vector<DataType>> types;  // per reconciled column, each distinct schema's type
  // Per reconciled column, the first file (and its column) whose type differs from the first's.
  std::vector<std::optional<std::pair<size_t, const ColumnSchema*>>> differing;
  const TableSchema* last = nullptr;
  bool found = false;
  for (size_t f = 0; f < files_.size(); ++f) {
    const TableSchema* schema = files_[f].FindTable(table);
    if (schema == nullptr) continue;
    found = true;
    if (schema == last) continue;  // the same shared schema as the previous file's: nothing new
    last = schema;
    for (const ColumnSchema& column : schema->columns) {
      std::optional<size_t> index = reconciled.FindColumn(column.name);
      if (!index.has_value()) {
        reconciled.columns.push_back(column);
        first_file.push_back(f);
        types.push_back({column.data_type});
        differing.emplace_back();
        continue;
      }
      const ColumnSchema& seen = reconciled.columns[*index];
      if (seen.category != column.category) return ColumnConflict(table, seen, first_file[*index], column, f);
      if (seen.data_type != column.data_type) {
        if (!options_.unify_types) return ColumnConflict(table, seen, first_file[*index], column, f);
        if (!differing[*index].has_value()) differing[*index] = std::make_pair(f, &column);
      }
      types[*index].push_back(column.data_type);
    }
  }
  if (!found) {
    std::vector<std::string> names = TableNames();
    return absl::InvalidArgumentError(absl::StrCat("no table named \"", ToAbsl(table), "\"",
                                            names.empty() ? " (the input has no table-model table)"
                                                          : absl::StrCat(" (tables: ", absl::StrJoin(names, ", "), ")")));
  }
  for (size_t c = 0; c < reconciled.columns.size(); ++c) {
    if (!differing[c].has_value()) continue;
    const std::optional<DataType> unified = options_.unify_types(types[c]);
    if (!unified.has_value()) {
      const auto& [file, column] = *differing[c];
      return ColumnConflict(table, reconciled.columns[c], first_file[c], *column, file);
    }
    reconciled.columns[c].data_type = *unified;
  }
  return reconciled;
}

absl::Status Dataset::ColumnConflict(std::string_view table, const ColumnSchema& seen, size_t seen_file,
                                     const ColumnSchema& column, size_t file) const {
  return absl::InvalidArgumentError(absl::StrCat(
      "column \"", column.name, "\" of table \"", ToAbsl(table), "\" is ", ToAbsl(ColumnCategoryName(seen.category)), " ",
      ToAbsl(DataTypeName(seen.data_type)), " in ", files_[seen_file].path, " but ",
      ToAbsl(ColumnCategoryName(column.category)), " ", ToAbsl(DataTypeName(column.data_type)), " in ", files_[file].path));
}

absl::StatusOr<std::shared_ptr<const TsFileReader>> Dataset::OpenFile(size_t index) const {
  const DatasetFile& file = files_[index];
  if (!file.status.ok()) return file.status;
  absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = pool_->Acquire(index, file.path);
  if (!reader.ok()) return WithFileName(reader.status(), file.path);
  return reader;
}

}  // namespace tsread

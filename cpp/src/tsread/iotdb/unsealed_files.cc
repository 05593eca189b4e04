#include "tsread/iotdb/unsealed_files.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/io/spliced_file.h"
#include "tsread/io/status_macros.h"

namespace tsread::iotdb {
namespace {

std::string CanonicalPath(const std::string& path) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path : canonical.string();
}

// The table schemas of the readable files of `database`, the first file's for each name.
std::vector<TableSchema> SchemasOfDatabase(const IotdbLayout& layout, const Dataset& dataset,
                                           const std::string& database) {
  std::vector<TableSchema> out;
  std::set<std::string> seen;
  for (size_t f = 0; f < layout.files.size(); ++f) {
    const DatasetFile& file = dataset.files()[f];
    if (layout.files[f].database != database || !file.status.ok()) continue;
    for (const auto& table : file.tables) {
      if (seen.insert(table->name).second) out.push_back(*table);
    }
  }
  return out;
}

// The tables of `report`'s table-model devices that `schemas` lacks.
std::set<std::string> TablesWithoutSchema(const SalvageReport& report, const std::vector<TableSchema>& schemas) {
  std::set<std::string> out;
  for (const SalvagedDevice& device : report.devices) {
    const std::string table(device.id.table_name());
    if (table == "root" || table.rfind("root.", 0) == 0) continue;  // the tree model has no schema
    if (std::none_of(schemas.begin(), schemas.end(), [&](const TableSchema& s) { return s.name == table; })) {
      out.insert(table);
    }
  }
  return out;
}

// Most sealed files of a database tried for the schemas of `tables` (ReadSchemasBeside).
constexpr size_t kSchemaFilesTried = 64;

// The schemas of `tables` from `database`'s other TsFiles in the data directories, newest names
// first: where the inputs name only part of a database (one partition's files, as a Dask
// partition reads them), its other partitions still carry the table's schema.
std::vector<TableSchema> ReadSchemasBeside(const IotdbLayout& layout, const std::string& database,
                                           std::set<std::string> tables) {
  namespace fs = std::filesystem;
  std::vector<std::string> candidates;
  for (const std::string& data_dir : layout.data_dirs) {
    for (const char* space : {"sequence", "unsequence"}) {
      const fs::path dir = fs::path(data_dir) / space / database;
      std::error_code error;
      if (!fs::is_directory(dir, error)) continue;
      // {database}/{region}/{partition}/{file}: three levels, nothing deeper.
      for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
        if (it.depth() >= 2) it.disable_recursion_pending();
        if (it.depth() == 2 && it->path().extension() == ".tsfile") candidates.push_back(it->path().string());
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  std::vector<TableSchema> out;
  for (size_t tried = 0; tried < candidates.size() && tried < kSchemaFilesTried && !tables.empty(); ++tried) {
    absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(candidates[tried]);
    if (!reader.ok()) continue;  // unsealed or damaged: another file may say it
    for (const TableSchema* table : (*reader)->Tables()) {
      if (tables.erase(table->name) > 0) out.push_back(*table);
    }
  }
  return out;
}

// The file at `path` (of `database`) sealed in place, or the error that says it cannot be (not a
// TsFile, I/O). `schemas` are the inputs' own; tables they lack are looked for beside them.
absl::StatusOr<UnsealedFile> SealInPlace(const std::string& path, const FileOpener& open,
                                         std::vector<TableSchema> schemas, const IotdbLayout& layout,
                                         const std::string& database) {
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, open(path));
  SealedCopyOptions options;
  options.schemas = std::move(schemas);
  TSREAD_ASSIGN_OR_RETURN(SealedIndex index, BuildSealedIndex(*file, options));
  if (std::set<std::string> missing = TablesWithoutSchema(index.report, options.schemas);
      !missing.empty() && !database.empty()) {
    std::vector<TableSchema> found = ReadSchemasBeside(layout, database, std::move(missing));
    if (!found.empty()) {
      options.schemas.insert(options.schemas.end(), found.begin(), found.end());
      TSREAD_ASSIGN_OR_RETURN(index, BuildSealedIndex(*file, options));
    }
  }
  UnsealedFile out;
  out.size = file->size();
  out.groups = index.report.groups_kept;
  out.data_end = index.report.data_end;
  out.stop_offset = index.report.stop_offset;
  out.stop_reason = index.report.stop_reason;
  out.warnings = std::move(index.warnings);
  if (!index.bytes.empty()) out.index = std::make_shared<const std::string>(std::move(index.bytes));
  return out;
}

}  // namespace

std::string UnsealedFile::Summary() const {
  const std::string rest =
      stop_offset < size ? absl::StrCat("; not read: from offset ", stop_offset, ", ", stop_reason) : "";
  if (index == nullptr) return absl::StrCat("no complete chunk group with data (", size, " bytes)", rest);
  return absl::StrCat(groups, " complete chunk groups read in place (bytes 0 to ", data_end, " of ", size, ")", rest);
}

std::string UnsealedFile::Warning(const std::string& path) const {
  return absl::StrCat(path, ": no valid tail (a crashed server's file): ", Summary(),
                      index == nullptr ? "; the file is left out" : "",
                      ". IoTDB recovers what is not in the files from its write-ahead log (not read here)");
}

std::map<size_t, UnsealedFile> FindUnsealedFiles(const IotdbLayout& layout, const Dataset& dataset,
                                                 const DatasetOptions& options) {
  std::map<size_t, UnsealedFile> out;
  const FileOpener open = OpenerOf(options);
  for (size_t f = 0; f < layout.files.size(); ++f) {
    // TsFileReader says DataLoss for a tail that is missing or does not parse; salvage then
    // checks the head (magic, version), so a file that is not a TsFile keeps its own error.
    if (dataset.files()[f].status.code() != absl::StatusCode::kDataLoss) continue;
    const IotdbFile& file = layout.files[f];
    absl::StatusOr<UnsealedFile> sealed = SealInPlace(
        file.path, open, SchemasOfDatabase(layout, dataset, file.database), layout, file.in_layout ? file.database : "");
    if (sealed.ok()) out.emplace(f, std::move(*sealed));
  }
  return out;
}

FileOpener OpenerReadingInPlace(const DatasetOptions& options,
                                std::shared_ptr<const std::map<std::string, UnsealedFile>> unsealed) {
  // By canonical path too: another listing of the same inputs (SQL's tsfile_metadata lists the
  // files as written) may spell a path differently.
  auto canonical = std::make_shared<std::map<std::string, const UnsealedFile*>>();
  for (const auto& [path, file] : *unsealed) canonical->emplace(CanonicalPath(path), &file);
  return [base = OpenerOf(options), unsealed = std::move(unsealed),
          canonical](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
    TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, base(path));
    const UnsealedFile* found = nullptr;
    if (const auto exact = unsealed->find(path); exact != unsealed->end()) {
      found = &exact->second;
    } else if (const auto other = canonical->find(CanonicalPath(path)); other != canonical->end()) {
      found = other->second;
    }
    if (found == nullptr || found->index == nullptr) return file;
    return SpliceFile(std::move(file), found->data_end, found->index);
  };
}

}  // namespace tsread::iotdb

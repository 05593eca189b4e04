// Dataset: many TsFiles read as one — an IoTDB data region holds hundreds to thousands of files
// (one per time partition and flush), and the same devices appear in many of them.
//
// Opening a dataset lists its files (paths, globs, directories: ListFiles) and reads every
// file's metadata once, to know its tables and their schemas; no data section is read. Files
// are then opened again as scans need them, through a FilePool that keeps at most
// `max_open_files` open. What is kept per file is its path, size and (shared, deduplicated)
// table schemas, so memory grows with the number of distinct schemas, not with the data.
//
// A table's schema is reconciled by column name across the files that have it (like Parquet
// readers' union by name): a column is in the dataset's table if any file has it; a file that
// lacks it reads it as null. The same name with another category in two files is an error naming
// both; so is another type, unless DatasetOptions::unify_types names the type to read it as.
#ifndef TSREAD_DATASET_DATASET_H_
#define TSREAD_DATASET_DATASET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/deletion_files.h"
#include "tsread/format/table_schema.h"
#include "tsread/dataset/file_pool.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct DatasetOptions {
  // Most readers open at once; 0 = 2 x the hardware threads + 2 (at least 8). A scan with N
  // threads needs about N at once; it is never refused for want of room.
  size_t max_open_files = 0;
  // Files whose metadata cannot be read (missing, truncated, not a TsFile...) are left out of
  // files() and listed in skipped_files(), instead of failing a scan at their place.
  bool skip_unreadable_files = false;
  // What a directory input contributes: the files below it whose name ends in this.
  std::string extension = ".tsfile";
  // How files are read when `opener` is empty: positioned reads into owned buffers (safe when a
  // file changes under the reader), or mapped (faster on re-scans of files already in memory;
  // a file truncated while mapped kills the process, see io/random_access_file.h).
  FileAccess access = FileAccess::kRead;
  // How to open a path for reading (tests count the bytes read through it); empty = `access`.
  FileOpener opener;
  // The type a column has whose files store it with different types (`types`: each distinct
  // schema's, in file order), nullopt when they cannot be read as one. Empty: such a column is an
  // error (ReconciledSchema). A caller that sets it casts each file's values to that type
  // (column_cast.h; IoTDB's ALTER COLUMN ... SET DATA TYPE, iotdb/altered_types.h).
  std::function<std::optional<DataType>(const std::vector<DataType>& types)> unify_types;
};

// How `options` open a path: their opener, else OpenFile with their access.
FileOpener OpenerOf(const DatasetOptions& options);

struct DatasetFile {
  std::string path;
  uint64_t size = 0;
  // Why the file's metadata could not be read (it is kept in the dataset: a scan reaching it
  // fails with this error, naming the file); OK otherwise.
  absl::Status status;
  // Its table-model tables (schema map entries), shared with other files of the same schema.
  std::vector<std::shared_ptr<const TableSchema>> tables;
  bool has_tree_model = false;  // any device-index root that names no table
  // IoTDB deletions recorded beside the file (X.tsfile.mods), which a plain dataset does not
  // apply (deletion_files.h; iotdb/iotdb_dataset.h does): the front ends warn.
  std::optional<DeletionFile> deletions;

  const TableSchema* FindTable(std::string_view name) const;
};

struct SkippedFile {
  std::string path;
  absl::Status status;
};

// An error about a file: `status` with its message prefixed by the path (unless it names it
// already), code kept.
absl::Status WithFileName(const absl::Status& status, std::string_view path);

class Dataset {
 public:
  // Lists and opens the files named by `inputs` (see ListFiles). Fails only when the inputs name
  // no file (NotFound) or cannot be listed; a file that cannot be read is kept with its error
  // (or skipped, with skip_unreadable_files).
  static absl::StatusOr<std::unique_ptr<Dataset>> Open(const std::vector<std::string>& inputs,
                                                       DatasetOptions options = {});
  // Opens exactly the files `paths` (no glob or directory expansion), in that order.
  static absl::StatusOr<std::unique_ptr<Dataset>> OpenPaths(std::vector<std::string> paths, DatasetOptions options = {});

  const std::vector<DatasetFile>& files() const { return files_; }
  const std::vector<SkippedFile>& skipped_files() const { return skipped_; }
  const DatasetOptions& options() const { return options_; }

  // Names of the tables of any readable file, in byte order.
  std::vector<std::string> TableNames() const;
  // The one table of the dataset: InvalidArgument listing them when there are several or saying
  // there is none.
  absl::StatusOr<std::string> OnlyTable() const;
  // The table a read names (`table`; empty: OnlyTable()). When no readable file has it, a file
  // that could not be read may be why (missing, truncated, not a TsFile): its error, which says
  // more than "no such table" (every front end exits or raises as for that file).
  absl::StatusOr<std::string> TableToRead(std::string_view table) const;
  // The first file's error that could not be read (OK when every file could): what to say when
  // the readable ones do not hold what a read asks for.
  absl::Status UnreadableFileStatus() const;
  // `table`'s columns reconciled by name: the first file's columns in its order, then each
  // column another file adds, in file order. InvalidArgument when no file has the table (the error
  // lists the tables); InvalidArgument naming both files when a column's category differs, or its
  // type and unify_types does not settle it.
  absl::StatusOr<TableSchema> ReconciledSchema(std::string_view table) const;

  // The reader of file `index`, opened if not open (errors name the file). Keep the pointer only
  // while using it: it holds one of the pool's places. The dataset must outlive it.
  absl::StatusOr<std::shared_ptr<const TsFileReader>> OpenFile(size_t index) const;
  const FilePool& pool() const { return *pool_; }

 private:
  explicit Dataset(DatasetOptions options);
  // The error of a column whose category or type differs between two files.
  absl::Status ColumnConflict(std::string_view table, const ColumnSchema& seen, size_t seen_file,
                              const ColumnSchema& column, size_t file) const;
  // Reads a file's metadata into its DatasetFile (tables, tree model), sharing equal schemas.
  absl::Status Describe(size_t index, std::vector<std::shared_ptr<const TableSchema>>& schemas);

  DatasetOptions options_;
  std::vector<DatasetFile> files_;
  std::vector<SkippedFile> skipped_;
  std::unique_ptr<FilePool> pool_;
};

}  // namespace tsread

#endif  // TSREAD_DATASET_DATASET_H_

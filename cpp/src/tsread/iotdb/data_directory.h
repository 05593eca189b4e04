// IoTDB data directories: which TsFiles an input names, and what IoTDB's layout says of each
// (iotdb-data-directories.md §1).
//
// IoTDB keeps a database's files at
//   {dataDir}/{sequence|unsequence}/{database}/{region}/{partition}/{time}-{version}-{inner}-{cross}.tsfile
// with deletions beside them (X.tsfile.mods2, or X.tsfile.mods from 1.x). An input is read with
// IoTDB's rules when it is such a data directory (a folder with a `sequence` or `unsequence`
// child), contains one, or is a folder or file below one; several data directories (IoTDB's
// dn_data_dirs) are read as one, a file found in two of them kept once. Anything else is a plain
// input: its TsFiles as ListFiles names them, each with its own deletion file.
//
// What IoTDB itself never reads is left out (.inner/.cross/.settle/.broken files, compaction
// deletion files, files outside the partition folders), and a compaction log decides between
// its sources and targets as IoTDB's recovery does (§1.4), so no point is counted twice.
#ifndef TSREAD_IOTDB_DATA_DIRECTORY_H_
#define TSREAD_IOTDB_DATA_DIRECTORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/iotdb/tsfile_name.h"

namespace tsread::iotdb {

enum class DeletionFormat : uint8_t { kMods2, kMods };

// The deletion file that applies to a TsFile: X.tsfile.mods2, or X.tsfile.mods where there is no
// .mods2 (§3.1). Empty files count as absent.
struct DeletionFileRef {
  std::string path;
  DeletionFormat format = DeletionFormat::kMods2;
  uint64_t size = 0;
};

struct IotdbFile {
  std::string path;
  // From the layout; empty (and partition 0) for a file outside one, which is its own group.
  std::string database;
  std::string region;
  int64_t partition = 0;
  bool in_layout = false;
  bool sequence = true;
  TsFileName name;  // zeros when the name is not IoTDB's
  std::optional<DeletionFileRef> deletions;

  FilePriority priority() const { return {!sequence, name.version, name.time}; }
  // Whether the database is table-model (IoTDB: any name not starting with "root.").
  bool table_model() const { return database.rfind("root.", 0) != 0 && database != "root"; }
};

// Files whose points may meet: one (database, region, partition) of a layout, or one plain file.
// `files` index into IotdbLayout::files, lowest priority first.
struct FileGroup {
  std::vector<size_t> files;
};

struct IotdbLayout {
  // Whether any input is or is below an IoTDB data directory (else: plain files, kept for their
  // deletion files).
  bool recognized = false;
  std::vector<std::string> data_dirs;
  // Every file to read, grouped: groups in (database, partition, region) order, a group's files
  // by ascending priority.
  std::vector<IotdbFile> files;
  std::vector<FileGroup> groups;
  // What was left out or resolved, one sentence each (compaction leftovers, files IoTDB does not
  // read, names that are not IoTDB's): for `info` and warnings.
  std::vector<std::string> notes;

  size_t sequence_files() const;
  size_t unsequence_files() const;
  size_t deletion_files() const;
  std::vector<std::string> databases() const;
  std::vector<std::string> paths() const;
  // Removes files[i] for every i with remove[i] (a group left empty goes), the rest kept in order.
  void RemoveFiles(const std::vector<bool>& remove);
};

// The layout of `inputs` (paths, globs, directories as ListFiles takes them). NotFound when they
// name no TsFile; errors of listing as ListFiles's.
absl::StatusOr<IotdbLayout> FindLayout(const std::vector<std::string>& inputs);

// The deletion file of `tsfile_path` that IoTDB applies (§3.1), if any.
std::optional<DeletionFileRef> DeletionFileOf(const std::string& tsfile_path);

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_DATA_DIRECTORY_H_

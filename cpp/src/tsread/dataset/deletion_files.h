// IoTDB's deletion files. IoTDB does not rewrite a TsFile to delete points: it records each
// deletion (a series or table, a time range) in a modification file beside it — `X.tsfile.mods`
// (IoTDB 1.x) or `X.tsfile.mods2` (2.x) — and applies them when it reads. tsread applies them too
// (iotdb/iotdb_dataset.h) unless the files are read as written (--raw, raw=True, raw := true): a
// plain dataset records the non-empty deletion file of each of its files so that every front end
// says the deleted points are read (the CLI on stderr, Python with a UserWarning, SQL's
// tsfile_metadata in a column). docs/robustness.md, "Deletion files".
#ifndef TSREAD_DATASET_DELETION_FILES_H_
#define TSREAD_DATASET_DELETION_FILES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsread {

struct DeletionFile {
  std::string path;
  uint64_t size = 0;
};

// The suffixes IoTDB gives a TsFile's modification file (appended to the TsFile's own name).
const std::vector<std::string_view>& DeletionFileSuffixes();

// The non-empty deletion file beside `tsfile_path` (a regular file named by a suffix above), if any.
std::optional<DeletionFile> DeletionFileBeside(std::string_view tsfile_path);

// The text the CLI and Python warn with: the file, what it holds and that tsread does not apply it.
std::string DeletionWarning(std::string_view tsfile_path, const DeletionFile& deletions);

}  // namespace tsread

#endif  // TSREAD_DATASET_DELETION_FILES_H_

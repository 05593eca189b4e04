// Unsealed files in IoTDB data: a server that crashed leaves its last files without an index and
// tail (iotdb-data-directories.md §1.2: `X.tsfile` without `.resource`). IoTDB's recovery cuts
// such a file after its last complete chunk group, replays its write-ahead log and seals it
// (`AbstractTsFileRecoverPerformer`). From the files alone tsread reads the complete chunk
// groups, in place: the file's kept data section followed by an index built for it in memory
// (salvage's rule, check/salvage.h; the index of check/sealed_copy.h; io/spliced_file.h). What
// only the write-ahead log holds is not in the files; a warning names each such file.
//
// A table's schema was in the lost tail: it is taken from the other files of the same database
// (IoTDB takes it from its catalog) — those of the inputs, else the database's other files in the
// data directories (the inputs may name one partition's files); without one, TAG columns are named
// by position (a warning).
#ifndef TSREAD_IOTDB_UNSEALED_FILES_H_
#define TSREAD_IOTDB_UNSEALED_FILES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/dataset/dataset.h"
#include "tsread/iotdb/data_directory.h"

namespace tsread::iotdb {

// An unsealed file and what of it is read.
struct UnsealedFile {
  uint64_t size = 0;      // the file's bytes
  uint64_t groups = 0;    // complete chunk groups read
  uint64_t data_end = 7;  // they end here (7: nothing is read)
  uint64_t stop_offset = 7;  // the first byte not read, and why
  std::string stop_reason;
  // The index and tail read after [0, data_end); null when no chunk group holds data.
  std::shared_ptr<const std::string> index;
  std::vector<std::string> warnings;  // schema guesses

  // What is read and what is not, e.g. "2 complete chunk groups read in place (bytes 0 to 813 of
  // 900); not read: from offset 813, <why>" (`info`, SQL's tsfile_metadata).
  std::string Summary() const;
  // What a front end warns about the file at `path`.
  std::string Warning(const std::string& path) const;
};

// The unsealed files of `layout`, by layout index: those `dataset` (opened on layout.paths())
// could not open for want of a valid tail and whose data section salvage can walk (a valid head).
// Files are opened with `options`' opener or access; each table's schema comes from the first
// readable file of the same database that has it.
std::map<size_t, UnsealedFile> FindUnsealedFiles(const IotdbLayout& layout, const Dataset& dataset,
                                                 const DatasetOptions& options);

// An opener that reads each path of `unsealed` (with an index) in place, and any other file as
// `options` open it.
FileOpener OpenerReadingInPlace(const DatasetOptions& options,
                                std::shared_ptr<const std::map<std::string, UnsealedFile>> unsealed);

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_UNSEALED_FILES_H_

// IoTDB's TsFile names and what they rank (iotdb-data-directories.md §1.1, §2.1).
//
// A data region names its files `{time}-{version}-{inner}-{cross}.tsfile`: the creation time in
// milliseconds, a version counted per region and time partition, and the inner and cross
// compaction counts. When the same point is in several files of one partition, IoTDB keeps the
// value of the file of highest priority (MergeReaderPriority): an unsequence file over any
// sequence file, then the larger version, then the larger name time; inside one file the later
// chunk wins (that last rank is the caller's: chunk offsets).
#ifndef TSREAD_IOTDB_TSFILE_NAME_H_
#define TSREAD_IOTDB_TSFILE_NAME_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>

namespace tsread::iotdb {

struct TsFileName {
  int64_t time = 0;
  int64_t version = 0;
  int64_t inner_compactions = 0;
  int64_t cross_compactions = 0;
};

// The fields of a file name (the last path component) `{time}-{version}-{inner}-{cross}.tsfile`
// (IoTDB's TsFileName regex `(\d+)-(\d+)-(\d+)-(\d+).tsfile$`); nullopt for any other name.
std::optional<TsFileName> ParseTsFileName(std::string_view file_name);

// A file's rank when its points meet another file's at the same time; the larger wins.
struct FilePriority {
  bool unsequence = false;
  int64_t version = 0;
  int64_t name_time = 0;

  friend bool operator<(const FilePriority& a, const FilePriority& b) {
    return std::tie(a.unsequence, a.version, a.name_time) < std::tie(b.unsequence, b.version, b.name_time);
  }
};

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_TSFILE_NAME_H_

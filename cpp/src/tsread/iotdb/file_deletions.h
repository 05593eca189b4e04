// FileDeletions: one TsFile's deletion entries, asked what they delete of a device's columns
// (iotdb-data-directories.md §3.4; iotdb-deletion-files.md "Which data an entry deletes").
//
// Deletions apply to their own file only. A .mods2 entry applies to every chunk of the file; a
// 1.x .mods entry only to chunks whose header offset is below the entry's file offset, and never
// to an aligned device's time column (1.x did not look it up). Table entries apply to table-model
// devices, tree entries to tree-model ones.
#ifndef TSREAD_IOTDB_FILE_DELETIONS_H_
#define TSREAD_IOTDB_FILE_DELETIONS_H_

#include <string_view>
#include <vector>

#include "tsread/dataset/source_rows.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/iotdb/deletion_entry.h"
#include "tsread/read/projection.h"

namespace tsread::iotdb {

class FileDeletions {
 public:
  FileDeletions() = default;
  explicit FileDeletions(std::vector<DeletionEntry> entries) : entries_(std::move(entries)) {}

  bool empty() const { return entries_.empty(); }
  const std::vector<DeletionEntry>& entries() const { return entries_; }

  // The time ranges in which this file's values of `measurement` ("" = the time column: whole
  // rows) of `device` are deleted. `chunks` is that series' metadata in the file (1.x offsets;
  // nullptr: no chunk, nothing to delete). `table_model`: the device is a table's. A 1.x entry
  // counts only when its offset is above every chunk; one between the chunks (SplitsChunks) is
  // the caller's to apply chunk by chunk (RangesForChunk), one below them deletes nothing.
  std::vector<TimeRange> RangesFor(const DeviceId& device, std::string_view measurement, bool table_model,
                                   const TimeseriesMetadata* chunks) const;

  // Whether a 1.x entry that affects `measurement` of `device` has its offset between the chunks of
  // `chunks`: it deletes from the chunks below the offset and not from the others, so a reader
  // that applies RangesFor to the whole series would be exact only where those chunks' times do
  // not meet. Such a series is masked chunk by chunk (RangesForChunk).
  bool SplitsChunks(const DeviceId& device, std::string_view measurement, bool table_model,
                    const TimeseriesMetadata& chunks) const;
  // The time ranges deleted from the chunk of `measurement` whose header is at `chunk_offset`:
  // every .mods2 entry's, and each 1.x entry's whose offset is above it.
  std::vector<TimeRange> RangesForChunk(const DeviceId& device, std::string_view measurement, bool table_model,
                                        int64_t chunk_offset) const;

  // A table device's mask (dataset/source_rows.h): rows deleted by entries on the time column,
  // cells of each FIELD column of `columns` by entries on that column. `series` is the device's
  // series metadata in the file.
  SourceMask TableMask(const DeviceId& device, const std::vector<TimeseriesMetadata>& series,
                       const std::vector<ProjectedColumn>& columns) const;

 private:
  std::vector<DeletionEntry> entries_;
};

// The series named `measurement` ("" = the time column) in `series`, or nullptr.
const TimeseriesMetadata* FindSeries(const std::vector<TimeseriesMetadata>& series, std::string_view measurement);

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_FILE_DELETIONS_H_

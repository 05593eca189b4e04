// WriteSealedCopy: turns an unsealed TsFile into a sealed one (docs/robustness.md, "Unsealed
// files"). The copy is the head and the data section that salvage keeps (check/salvage.h),
// verbatim, then a new index and tail: TimeseriesMetadata with statistics recomputed from the
// decoded values, measurement and device index nodes, TsFileMetadata (format reference §5-§7).
//
// Layering: salvage is read/ (a walk and decoders), the index and tail are write/ (index_writer,
// statistics_builder, output_sink); this module is the one place that uses both, so read/ and
// write/ stay independent of each other (CMakeLists.txt: tsread_check).
//
// Versions: a version-4 file gets a V4 index (tables and tree-model devices, aligned and not);
// a version-3 file keeps its version byte and its data section (plain device paths, §2.2), so it
// gets a V3 index (§7.3) that V3 readers read back. (Apache's RestorableTsFileIOWriter writes its
// V4 index after a V3 head, which its own reader then parses as V3 and cannot read.)
//
// Table schemas lived only in the lost tail. `schemas` supplies them (IoTDB takes them from its
// catalog; `tsread salvage --schema-from` from another file of the same tables); a table-model
// table without one gets TAG columns named by position (tag0, tag1, ...) and a warning. FIELD
// columns are the measurements of the chunk headers, with their types.
#ifndef TSREAD_CHECK_SEALED_COPY_H_
#define TSREAD_CHECK_SEALED_COPY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/table_schema.h"
#include "tsread/io/random_access_file.h"
#include "tsread/check/salvage.h"
#include "tsread/write/output_sink.h"

namespace tsread {

struct SealedCopyOptions {
  ReadLimits limits;
  // The salvage walk's window and memory budget (salvage.h).
  WalkOptions walk;
  // Schemas of the file's tables (another sealed file's). Columns that the kept data needs and a
  // schema lacks are added (with a warning); a table with no schema here gets positional TAG names.
  std::vector<TableSchema> schemas;
  // Fan-out of the new index tree (TSFileConfig.maxDegreeOfIndexNode), at least 2.
  int max_index_degree = 256;
};

struct SealedCopyResult {
  SalvageReport report;
  std::vector<std::string> warnings;  // schema guesses, one line each
  uint64_t bytes_written = 0;
};

// What a sealed copy appends after the kept data section [0, report.data_end) of its input.
struct SealedIndex {
  SalvageReport report;
  std::vector<std::string> warnings;  // schema guesses, one line each
  // The separator, the index and the tail (§5-§7), with offsets into the kept data section;
  // empty when no chunk group with data can be kept (the report says where the walk stopped).
  std::string bytes;
};

// Salvages `in` and builds the index and tail of its sealed copy, without writing anything: the
// copy is then in's first report.data_end bytes followed by `bytes` (WriteSealedCopy writes them
// out; io/spliced_file.h reads them in place). Fails as WriteSealedCopy does, except that a file
// with nothing to keep gives empty `bytes`.
absl::StatusOr<SealedIndex> BuildSealedIndex(const RandomAccessFile& in, const SealedCopyOptions& options = {});

// Salvages `in` and writes the sealed copy to `out` (closed at the end). Fails as
// SalvageDataSection does, with the sink's I/O errors, with DataLoss when no group can be kept
// (nothing is written then), and with InvalidArgument for an unusable max_index_degree.
absl::StatusOr<SealedCopyResult> WriteSealedCopy(const RandomAccessFile& in, OutputSink& out,
                                                 const SealedCopyOptions& options = {});

}  // namespace tsread

#endif  // TSREAD_CHECK_SEALED_COPY_H_

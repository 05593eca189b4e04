// Salvage: what can be recovered from the data section of an unsealed TsFile (a writer that
// crashed before writing the index and tail, or a tail that does not parse), without the index.
//
// The rule (docs/robustness.md, "Unsealed files"): walking the data section from offset 7
// (format reference §2.4), a chunk group is kept when the marker byte that follows it (the next
// group's 0x00, a 0x04 operation-index record or the 0x02 separator) is in the file and every
// chunk and page of it reads and decodes. The walk stops at the first group that fails and keeps
// nothing after it. A complete group that is the last thing in the file is not kept: more chunks
// of it may have been lost. Nothing partial is ever kept (no part of a group, chunk or page).
//
// Each chunk is decoded with the encoding its own header names (the aligned time chunk's too,
// §3.1); the only page of a single-page chunk has no statistics and its ChunkMetadata is gone with
// the index, so its row count comes from the stream itself (encoding/time_stream_count.h) or,
// for an aligned time page whose encoding does not say, from the row count its value pages store
// (§8.3).
#ifndef TSREAD_CHECK_SALVAGE_H_
#define TSREAD_CHECK_SALVAGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/device_id.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/page_decoder.h"

namespace tsread {

struct SalvageOptions {
  ReadLimits limits;
  // The walk's window and memory budget (data_section_walker.h): salvage holds one chunk group's
  // decoded pages and the window, never the file. A chunk over the budget fails salvage with
  // ResourceExhausted (it says nothing of the file).
  WalkOptions walk;
  // Whether SalvagedGroup hands decoded values to the caller (a sealed copy needs them for its
  // statistics); a report alone only counts them.
  bool keep_values = false;
};

// What a chunk is within its group (§2.3, §13 item 7: by type VECTOR, not by the marker masks).
enum class ChunkRole : uint8_t { kTime, kValue, kNonAligned };

struct SalvagedPage {
  // The rows' timestamps: the time chunk's and a non-aligned chunk's points; for a value chunk the
  // rows of its time page (null rows included).
  std::vector<int64_t> times;
  // Value and non-aligned chunks: one slot per entry of `times` (aligned pages have nulls).
  ColumnVector values;
};

struct SalvagedChunk {
  uint64_t offset = 0;  // of its marker byte
  ChunkRole role = ChunkRole::kNonAligned;
  std::string measurement;  // "" for the time column
  DataType type = DataType::kVector;
  uint8_t marker = 0;
  uint8_t encoding_byte = 0;
  uint8_t compression_byte = 0;
  uint64_t points = 0;  // non-null values (rows, for the time chunk)
  uint32_t page_count = 0;
  // Filled only with SalvageOptions::keep_values.
  std::vector<SalvagedPage> pages;
};

struct SalvagedGroup {
  uint64_t offset = 0;  // its 0x00 marker
  uint64_t end = 0;     // the byte after its last chunk
  DeviceId device;
  bool aligned = false;  // it has a time chunk, first
  uint64_t rows = 0;     // aligned: the time chunk's rows
  std::vector<SalvagedChunk> chunks;
};

struct SalvagedSeries {
  std::string name;  // never the time column
  DataType type = DataType::kVector;
  uint64_t points = 0;  // non-null values kept
};

struct SalvagedDevice {
  DeviceId id;
  bool aligned = false;
  uint64_t groups = 0;
  uint64_t rows = 0;                   // aligned devices: time rows kept
  std::vector<SalvagedSeries> series;  // in the order first seen
};

struct SalvageReport {
  uint8_t version = 0;
  uint64_t file_size = 0;
  // Whether the file has a tail whose metadata parses (it is not unsealed; salvage still works).
  bool sealed = false;
  uint64_t groups_kept = 0;
  // The kept data section is [7, data_end): every kept group (and operation-index records
  // between them), verbatim.
  uint64_t data_end = 7;
  // Where the walk stopped keeping (the first byte not kept) and why.
  uint64_t stop_offset = 7;
  std::string stop_reason;
  std::vector<SalvagedDevice> devices;  // in the order first seen
  uint64_t rows = 0;                    // time rows of aligned devices
  uint64_t points = 0;                  // non-null values of every series

  uint64_t bytes_kept() const { return data_end; }
};

// Called for each kept group, in file order, before the walk goes on; an error stops salvage and
// is returned.
using KeptGroupFn = std::function<absl::Status(const SalvagedGroup&)>;

// Walks `file`'s data section by the rule above. Fails only when `file` is not a TsFile of
// version 3 or 4 (head magic, version byte), on an I/O error, or with `on_kept`'s error; damage
// in the data section is where the walk stops, described in the report.
absl::StatusOr<SalvageReport> SalvageDataSection(const RandomAccessFile& file, const SalvageOptions& options = {},
                                                 const KeptGroupFn& on_kept = nullptr);

}  // namespace tsread

#endif  // TSREAD_CHECK_SALVAGE_H_

// IoTDB's deletions, as its two deletion-file formats record them (iotdb-deletion-files.md):
// `X.tsfile.mods2` (2.x, binary ModEntry records: tree path patterns or table/tag/column
// predicates) and `X.tsfile.mods` (1.x, text lines: tree path patterns with a file offset). Both
// parse into DeletionEntry; Affects() says which (device, measurement) an entry deletes, with the
// rules of IoTDB's query engine (iotdb-data-directories.md §3.4). Which chunks it touches (the
// time range, 1.x's offset) is the caller's: deletion_index.h.
#ifndef TSREAD_IOTDB_DELETION_ENTRY_H_
#define TSREAD_IOTDB_DELETION_ENTRY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/format/device_id.h"

namespace tsread::iotdb {

// A table deletion's condition on the device (IoTDB's IDPredicate, renamed TagPredicate later).
// The kinds are the serialized ordinals.
struct DeviceCondition {
  enum class Kind : uint8_t {
    kAll = 0,              // NOP: every device of the table
    kDevice = 1,           // FULL_EXACT_MATCH: devices[0] == the device
    kSegmentEquals = 2,    // SEGMENT_EXACT_MATCH: device.segment(segment) == value (nullopt: IS NULL)
    kAnd = 3,              // every operand
    kDeviceIn = 4,         // DEVICE_IN: the device is one of devices
    kSegmentNotNull = 5,   // SEGMENT_NOT_NULL: device.segment(segment) is not null
  };
  Kind kind = Kind::kAll;
  std::vector<DeviceId> devices;
  std::optional<std::string> value;
  int32_t segment = 0;
  std::vector<DeviceCondition> operands;

  bool Matches(const DeviceId& device) const;
};

struct DeletionEntry {
  enum class Model : uint8_t { kTable = 0, kTree = 1 };  // the .mods2 type byte
  Model model = Model::kTree;
  int64_t start = 0;  // [start, end], both ends inclusive
  int64_t end = 0;

  // Tree: the path pattern's nodes ("root", "sg1", "*", "**", "d*"), back quotes removed from
  // quoted nodes (`a.b` is one node a.b).
  std::vector<std::string> pattern;
  // Table: the table, the device condition and the columns (empty: every column, the time column
  // included, i.e. whole rows).
  std::string table;
  DeviceCondition devices;
  std::vector<std::string> columns;

  // 1.x (.mods) only: the entry touches a chunk only when the chunk's header offset is below this
  // (§3.2); nullopt for .mods2 entries, which touch every chunk of their file.
  std::optional<int64_t> file_offset;
  // 1.x (.mods) only: a node with a partial wildcard (`d*`) never matches (1.x's pattern tree
  // followed only exact, `*` and `**` children).
  bool partial_wildcards_match = true;

  // Whether the entry deletes values of `measurement` of `device`; measurement "" is the time
  // column of an aligned device or a table (deleting it deletes whole rows). Tree entries match
  // the full path device.measurement node by node (`*` one node, `**` one or more, `d*` as a
  // wildcard inside a node); table entries match the table name (device segment 0), the device
  // condition and the column list.
  bool Affects(const DeviceId& device, std::string_view measurement) const;
};

// A deletion file's entries, and what was wrong with it.
struct DeletionFileContents {
  std::vector<DeletionEntry> entries;
  // DataLoss naming the file and offset when the file ends inside an entry or (.mods) a line
  // cannot be decoded: IoTDB keeps the entries before it and so does this (they are in entries).
  absl::Status damage;
  // Unimplemented naming the file and offset when an entry has a type or device-condition kind
  // this reader does not know: what it deletes is unknown, so the file's data cannot be answered
  // as IoTDB would (an error — the CLI's exit 2, Python's UnsupportedFileError — or with
  // ignore_errors the entries before it apply).
  absl::Status unknown;
};

// Parses `.mods2` bytes (entries back to back until the end, no header); `path` names the file in
// messages. Never fails: problems are in damage/unknown.
DeletionFileContents ParseMods2(std::string_view bytes, std::string_view path);
// Parses `.mods` text (one `DELETION,<path>,<fileOffset>,<start>,<end>` line per entry, or the
// legacy `DELETION,<path>,<version>,<end>`); reading stops at the first line it cannot decode.
DeletionFileContents ParseModsText(std::string_view bytes, std::string_view path);

// The `.mods2` bytes of `entry` (IoTDB's ModEntry#serialize): what `tsread gen` writes beside the
// files of an IoTDB-shaped directory. A tree entry's pattern is its nodes joined by '.', a node
// that needs them back-quoted.
std::string SerializeMods2(const DeletionEntry& entry);

// A tree path's nodes: split on '.' outside back quotes, the quotes of a quoted node removed
// (`` `a``b` `` is a`b). "root.sg.`d.1`.s" -> root, sg, d.1, s.
std::vector<std::string> PathNodes(std::string_view path);

}  // namespace tsread::iotdb

#endif  // TSREAD_IOTDB_DELETION_ENTRY_H_

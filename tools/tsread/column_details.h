// `tsread info --columns`: per column of each table (and per measurement of the tree model) its
// type, encodings, codecs, bytes, chunks and pages — from the index and the chunk and page
// headers (no page is decompressed or decoded) — and its statistics from the index.
#ifndef TSREAD_TOOLS_COLUMN_DETAILS_H_
#define TSREAD_TOOLS_COLUMN_DETAILS_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {

struct ColumnDetail {
  std::string name;  // "time" for the aligned time column
  DataType type = DataType::kVector;
  std::set<std::string> encodings, compressions;
  uint64_t chunks = 0, pages = 0, compressed_bytes = 0, uncompressed_bytes = 0;
  Statistics statistics;  // merged over the devices: count, time range, numeric min/max
  bool has_statistics = false;
};

// The columns of one table (index name) or of the tree model ("" as the table).
struct TableDetails {
  std::string table;
  bool tree = false;
  std::vector<ColumnDetail> columns;  // time first, then by name
};

absl::StatusOr<std::vector<TableDetails>> CollectColumnDetails(const TsFileReader& reader);

void PrintDetailsText(const std::vector<TableDetails>& details, std::ostream& out);
// `"columns_detail": {"<table>": [...], ...}` (the tree model under "(tree)") without braces around.
void PrintDetailsJson(const std::vector<TableDetails>& details, std::ostream& out);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_COLUMN_DETAILS_H_

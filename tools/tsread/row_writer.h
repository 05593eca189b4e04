// The rows `cat` prints, as CSV (cli-contract.md) or NDJSON, with the time as epoch integers or
// ISO-8601. NDJSON: one object per row, keys = the column names; null as null; BOOLEAN as
// true/false; integers (INT32, INT64, DATE as yyyyMMdd, TIMESTAMP) and finite FLOAT/DOUBLE as JSON
// numbers; NaN and +/-Infinity as null (JSON has no spelling for them); TEXT/STRING as strings;
// BLOB as a "0x..." hex string. The time is a number, or with --time-format iso a string.
#ifndef TSREAD_TOOLS_ROW_WRITER_H_
#define TSREAD_TOOLS_ROW_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "output.h"
#include "tsread/read/column_vector.h"

namespace tsread::cli {

enum class RowFormat { kCsv, kNdjson };
enum class TimeFormat { kEpoch, kIso };

// Writes rows cell by cell, in the order of `columns` given at construction.
class RowWriter {
 public:
  RowWriter(RowFormat format, TimeFormat time_format, std::vector<std::string> columns, BlockOutput& out);

  // The CSV header line (nothing for NDJSON).
  void Header();
  void Time(int64_t t);
  // A TEXT/STRING value (always quoted in CSV).
  void Quoted(std::string_view s);
  // A name (device, measurement): quoted in CSV only when RFC 4180 needs it.
  void Name(std::string_view s);
  void Value(const ColumnVector& column, size_t row);
  void Null();
  // Ends the row; false when writing the output failed.
  bool EndRow();

 private:
  // Separator and (NDJSON) key of the next cell.
  std::string& Cell();

  RowFormat format_;
  TimeFormat time_format_;
  std::vector<std::string> keys_;  // NDJSON: each column's `"name": ` prefix
  std::vector<std::string> columns_;
  size_t cell_ = 0;
  BlockOutput& out_;
};

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_ROW_WRITER_H_

// Text forms of values for CSV output (cli-contract.md): shortest round-trip floats spelled as
// Java does for the special values, RFC 4180 quoting, BLOB hex.
#ifndef TSREAD_TOOLS_VALUE_FORMAT_H_
#define TSREAD_TOOLS_VALUE_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "tsread/common/blob_text.h"  // AppendBlobHex: BLOB values
#include "tsread/read/column_vector.h"

namespace tsread::cli {

// Shortest decimal that parses back (strtof / strtod) to exactly `v`; "NaN", "Infinity",
// "-Infinity"; integral values keep a ".0" ("-0.0", "5.0").
// A stored codec or encoding byte by its Apache name, "UNKNOWN(n)" for a byte that names none.
std::string CodecText(uint8_t byte);
std::string EncodingText(uint8_t byte);

void AppendFloat(std::string& out, float v);
void AppendDouble(std::string& out, double v);
// `s` double-quoted, with quotes doubled (always quoted: TEXT/STRING).
void AppendQuoted(std::string& out, std::string_view s);
// `s` quoted only when it holds a comma, quote, CR or LF (RFC 4180).
void AppendCsvField(std::string& out, std::string_view s);
// Row `row` of `column` (which must be valid there) in the CSV value form of its type.
void AppendValue(std::string& out, const ColumnVector& column, size_t row);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_VALUE_FORMAT_H_

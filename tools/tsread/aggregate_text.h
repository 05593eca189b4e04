// Aggregates as the CLI prints them (agg and last, table and tree model): sums, JSON tokens and CSV
// fields of values (their text: tsread/aggregate/value_text.h).
#ifndef TSREAD_TOOLS_AGGREGATE_TEXT_H_
#define TSREAD_TOOLS_AGGREGATE_TEXT_H_

#include <string>

#include "tsread/aggregate/column_aggregate.h"
#include "tsread/aggregate/value_text.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread::cli {

// The sum of `c` (has_sum()): a double's shortest form, or an exact integer.
std::string SumText(const ColumnAggregate& c);
// The mean of `c` (has_avg()), as a double's shortest form.
std::string AvgText(const ColumnAggregate& c);
// A value's text as a JSON token: strings (and BLOB hex, and non-finite floats) quoted.
std::string JsonValue(DataType type, const std::string& text);
// A value's text as a CSV field: TEXT/STRING quoted, as `cat` prints them.
void AppendCsvValue(std::string& out, DataType type, const std::string& text);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_AGGREGATE_TEXT_H_

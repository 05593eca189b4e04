// When statistics answer exactly: whether the statistics of some rows' values of a FIELD column
// give what decoding those rows and aggregating them (column_aggregate.h) would.
//
// They do not when
//   - the column is FLOAT or DOUBLE and its chunk is written with an encoding that changes the
//     values (TS_2DIFF and RLE scale to a precision, SPRINTZ and RLBE likewise): the writer's
//     statistics describe the values before encoding (format reference §4). PLAIN, GORILLA_V1,
//     GORILLA and CHIMP keep every bit;
//   - the column is BLOB: its statistics hold only a count (§4);
//   - the column is STRING and its min or max is not pure ASCII. Apache TsFile's Binary.compareTo
//     (org.apache.tsfile.utils, in every version that writes STRING) compares unsigned bytes, the
//     order of SQL's min/max (table_multi: max "模式-ß" over "mode_9"); another writer may keep
//     another order (Java String's UTF-16 units differ for supplementary characters), and the file
//     does not say which. On ASCII every order agrees, and when min and max are both ASCII under
//     the unsigned or UTF-16 order every value is (a non-ASCII one would have become the max). A
//     signed-byte order would not give that ("a" <= "a\x80" <= "ab"), but no writer of STRING
//     (data type 11) that we know of uses one;
//   - a FLOAT/DOUBLE min or max is NaN (the first value was NaN: merged, it would hide the values
//     of the rows around it);
//   - an INT64 sum is beyond what the double it is kept in holds exactly (ColumnAggregate::
//     StatisticsAreExact);
//   - they are inconsistent with the time column's statistics of the same rows (more values than
//     rows, or times outside theirs: what `verify` reports) or the series' declared type differs
//     from the column's (the scan decides what a mismatch is).
#ifndef TSREAD_AGGREGATE_EXACT_STATISTICS_H_
#define TSREAD_AGGREGATE_EXACT_STATISTICS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/statistics.h"
#include "tsread/format/timeseries_metadata.h"
#include "tsread/read/lossless_chunks.h"  // KeepsFloatsExact, ChunkKeepsValuesExact

namespace tsread {

// The encoding-independent conditions: `values` over rows whose time statistics are `time`, of a
// column declared `type` in the schema and `series_type` in the file.
bool ValuesStatisticsAreExact(DataType type, DataType series_type, const Statistics& values, const Statistics& time);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_EXACT_STATISTICS_H_

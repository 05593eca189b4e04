// BoundPredicate: a ValuePredicate (value_predicate.h) converted to its column's type, and the
// three things a scan asks of it —
//   - Bind (bound_predicate.cc): the operands in the column's domain, or InvalidArgument naming
//     the predicate when they do not convert;
//   - StatisticsVerdict (predicate_statistics.cc): from a page's, chunk's or series' statistics
//     (format reference §4), whether no row, every row or only some rows can match;
//   - KeepMatches (predicate_rows.cc): the rows of a decoded page that match.
#ifndef TSREAD_READ_BOUND_PREDICATE_H_
#define TSREAD_READ_BOUND_PREDICATE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/format/statistics.h"
#include "tsread/read/column_vector.h"
#include "tsread/read/value_predicate.h"

namespace tsread {

struct BoundPredicate {
  std::string column;     // its name, for messages
  size_t index = 0;       // the column's place among the scan's read columns
  DataType type = DataType::kInt64;
  // After binding kEq holds any number of operands (none: no row matches), kIsNull/kIsNotNull
  // none, the rest one — an operand that does not fit the column is rewritten (`int32 < 2.5` is
  // `<= 2`, `!= 2.5` is IS NOT NULL, `= 2.5` matches nothing).
  CompareOp op = CompareOp::kEq;
  std::vector<int64_t> ints;       // BOOLEAN (0, 1), INT32, DATE, INT64, TIMESTAMP
  std::vector<double> floats;      // FLOAT (rounded to float first) and DOUBLE
  std::vector<std::string> bytes;  // TEXT, STRING, BLOB and TAG columns
};

// `predicate` on a column of `type` at read-column `index`; TAG columns bind as STRING.
absl::StatusOr<BoundPredicate> BindPredicate(const ValuePredicate& predicate, DataType type, size_t index);

// What statistics tell of a predicate over some rows.
enum class Verdict { kNone, kSome, kAll };

// The verdict for `rows` rows whose column statistics are `values` (nullptr: no non-null value
// among them). The caller has checked that the statistics describe the decoded values (a lossy
// FLOAT/DOUBLE encoding's do not: §4) and are consistent with the rows.
Verdict StatisticsVerdict(const BoundPredicate& predicate, const Statistics* values, uint64_t rows);

// ANDs into `keep` (one byte per row of `column`, 1 = kept) whether each row matches.
void KeepMatches(const BoundPredicate& predicate, const ColumnVector& column, std::vector<uint8_t>& keep);

// Whether a single value matches (nullopt: null): what a TAG predicate asks of a device's tag.
bool MatchesText(const BoundPredicate& predicate, std::optional<std::string_view> value);

}  // namespace tsread

#endif  // TSREAD_READ_BOUND_PREDICATE_H_

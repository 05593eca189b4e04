// Aggregate: per group of a table's rows (of one file or a dataset) — grouped by device (the
// default) or the whole table, optionally also by time bucket — its row count, first and last
// time and, per FIELD column, count, min, max, first, last and sum (column_aggregate.h).
//
// Answered from statistics wherever they give exactly what decoding would (exact_statistics.h),
// coarsest first: a device's series statistics when all its rows are inside the time range and
// one bucket; else each chunk group's; else each page's; only the pages that straddle the range's
// ends or a bucket boundary (and those whose statistics cannot be trusted) are decoded, and only
// the columns asked for — of a page whose last rows lie in one group, only the rows before them
// when its statistics less those rows' give the rest exactly (ColumnAggregate::WithoutHead). The result always equals an aggregation of the rows a scan returns. A
// device in several files of a dataset is one group, merged in file order.
#ifndef TSREAD_AGGREGATE_TABLE_AGGREGATE_H_
#define TSREAD_AGGREGATE_TABLE_AGGREGATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/column_aggregate.h"
#include "tsread/aggregate/time_bucket.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

enum class AggregateGroupBy { kDevice, kTable };

struct AggregateOptions {
  std::string table;  // empty: the dataset's only table
  // FIELD columns, in the order wanted; empty = every FIELD column in schema order, unless
  // `no_columns` (the groups' rows and times alone).
  std::vector<std::string> columns;
  bool no_columns = false;
  TimeRange time_range;
  std::vector<TagPredicate> tag_predicates;  // ANDed, as a scan's
  // Conditions on values (ScanOptions::value_predicates: comparisons, ANDs and ORs; ANDed with the
  // rest): only the rows they hold for are aggregated, as `SELECT ... WHERE ... GROUP BY` does.
  // Statistics then only spare what they rule out (a device, chunk group or page no row of which
  // can match is not read); the rest is decoded and filtered row by row.
  std::vector<PredicateExpr> value_predicates;
  AggregateGroupBy by = AggregateGroupBy::kDevice;
  // Time buckets of this width in the file's time unit (time_bucket.h); 0 = none.
  int64_t bucket_width = 0;
  // Where buckets start: each is [origin + k * width, origin + (k + 1) * width) (time_bucket.h).
  int64_t bucket_origin = 0;
  // Calendar buckets instead (bucket_width 0): N days, weeks or months of a time zone, from local
  // midnight to local midnight (time_bucket.h; their origin is their own).
  CalendarBuckets bucket_calendar;
  // With buckets: also the buckets without rows, as groups of 0 rows (IoTDB's GROUP BY ([start,
  // end), step) returns them) — every bucket from the range's start to its end, or from the first
  // to the last bucket with rows where the range is open at that end; by device, for each device.
  // InvalidArgument when that would make more than kMaxFilledGroups groups.
  bool fill_empty_buckets = false;
  static constexpr uint64_t kMaxFilledGroups = 1'000'000;

  bool HasBuckets() const { return bucket_width > 0 || bucket_calendar.enabled(); }
  // The buckets these options ask for (time_bucket.h).
  TimeBuckets Buckets() const {
    return bucket_calendar.enabled() ? TimeBuckets(bucket_calendar) : TimeBuckets(bucket_width, bucket_origin);
  }
};

struct GroupAggregate {
  std::string device;  // the id as `tsread devices` prints it; "" when grouped by table
  std::vector<std::optional<std::string>> tags;  // per TAG column of TableAggregate::tag_columns
  std::optional<int64_t> bucket;  // the bucket's first time, with buckets
  uint64_t rows = 0;  // rows in the range (all-null rows count); 0 only for a filled empty bucket
  int64_t first_time = 0, last_time = 0;  // meaningless when rows is 0
  std::vector<ColumnAggregate> columns;  // per TableAggregate::columns
};

// How the answer was found, in chunks and pages of the time column and the columns asked for.
struct AggregateWork {
  uint64_t chunks_from_statistics = 0;  // answered by series or chunk statistics, not read
  uint64_t chunks_read = 0;             // read, their pages answered or decoded one by one
  uint64_t pages_from_statistics = 0;
  uint64_t pages_decoded = 0;
  // Of pages_decoded, those of which only a head was: their rows from some row on (after a
  // range's start or a bucket boundary) were answered by their statistics less the head's.
  uint64_t page_tails_from_statistics = 0;
};

struct TableAggregate {
  std::string table;
  std::vector<ColumnSchema> columns;      // the aggregated FIELD columns
  std::vector<std::string> tag_columns;   // the table's TAG columns (reconciled schema order)
  // Groups with rows in the range: by device, devices first seen first, then buckets in time
  // order; by table, buckets in time order.
  std::vector<GroupAggregate> groups;
  AggregateWork work;

  // What tabular front ends call the device id column (CLI CSV, Python frames): "device", or
  // with an underscore before it as many times as it takes to differ from every TAG and FIELD
  // column of the result — the benchmark table has a TAG named device, which the id's column hid.
  std::string DeviceIdColumn() const;
};

// "device", or with an underscore before it as many times as it takes to differ from every name in
// `taken` (TableAggregate::DeviceIdColumn; SQL's tsfile_last passes its every output name, so that
// the name does not change with the columns a query uses).
std::string DeviceIdColumnAmong(const std::vector<std::string>& taken);

// Errors: InvalidArgument for an unknown table, a column that is not one of its FIELD columns or a
// negative bucket width; a file's errors name it.
absl::StatusOr<TableAggregate> Aggregate(const Dataset& dataset, const AggregateOptions& options);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_TABLE_AGGREGATE_H_

// libFuzzer target: a whole in-memory file as the one file of a dataset, aggregated the ways that
// reach every level the statistics answer at — per device from its series statistics, then with
// a time range and 10-minute buckets that cut chunk groups and pages (decoded pages, the
// encodings read from chunk headers, tails of cut pages from their statistics), and per table,
// also with a range that ends where the other starts (pages decoded up to it). The range starts a
// third into the file's time span as its metadata states it, so that it cuts whatever the input
// holds. Must return a status for any input.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tsread/aggregate/file_summary.h"
#include "tsread/aggregate/aggregate_tasks.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/io/random_access_file.h"

namespace {

// The first time of `table`'s rows plus a third of their span, per `summary` (0 when unknown).
int64_t CuttingStart(const absl::StatusOr<tsread::FileSummary>& summary, const std::string& table) {
  if (!summary.ok()) return 0;
  for (const tsread::TableSummary& t : summary->tables) {
    if (t.schema == nullptr || t.schema->name != table || t.rows == 0) continue;
    // Thirds first: the difference of two int64 may not fit one.
    return t.start_time + (t.end_time / 3 - t.start_time / 3);
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  tsread::DatasetOptions options;
  options.opener = [bytes](const std::string& name) -> absl::StatusOr<std::unique_ptr<tsread::RandomAccessFile>> {
    return tsread::MemoryFileView(bytes, name);
  };
  absl::StatusOr<std::unique_ptr<tsread::Dataset>> dataset = tsread::Dataset::OpenPaths({"fuzz.tsfile"}, options);
  if (!dataset.ok()) return 0;
  absl::StatusOr<std::shared_ptr<const tsread::TsFileReader>> reader = (*dataset)->OpenFile(0);
  if (!reader.ok()) return 0;
  const absl::StatusOr<tsread::FileSummary> summary = tsread::SummarizeFile(**reader);
  for (const std::string& table : (*dataset)->TableNames()) {
    const int64_t cut = CuttingStart(summary, table);
    tsread::AggregateOptions a;
    a.table = table;
    (void)tsread::Aggregate(**dataset, a);
    a.time_range.start = cut;
    a.bucket_width = 600000;
    (void)tsread::Aggregate(**dataset, a);
    a.by = tsread::AggregateGroupBy::kTable;
    a.bucket_width = 0;
    (void)tsread::Aggregate(**dataset, a);
    // Ending there instead: pages decoded only up to the range's end.
    a.time_range = {INT64_MIN, cut};
    (void)tsread::Aggregate(**dataset, a);
    // Calendar weeks of a fixed zone, on two threads, of the rows a value condition keeps.
    a.time_range = {};
    a.by = tsread::AggregateGroupBy::kDevice;
    a.bucket_calendar.unit = tsread::CalendarUnit::kWeek;
    a.bucket_calendar.zone = absl::FixedTimeZone(5 * 3600 + 1800);
    if (absl::StatusOr<tsread::TableSchema> schema = (*dataset)->ReconciledSchema(table); schema.ok()) {
      for (const tsread::ColumnSchema& c : schema->columns) {
        if (c.category == tsread::ColumnCategory::kField) {
          a.value_predicates = {tsread::ValuePredicate{c.name, tsread::CompareOp::kIsNotNull, {}}};
          break;
        }
      }
    }
    (void)tsread::AggregateOnThreads(**dataset, a, 2);
  }
  return 0;
}

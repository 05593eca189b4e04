// Aggregate (table_aggregate.h): one scan per file with a GroupBuilder as its statistics filter,
// so that what statistics answer is never read and only the rest is decoded.
#include "tsread/aggregate/table_aggregate.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <vector>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/aggregate/aggregate_shape.h"
#include "tsread/aggregate/group_builder.h"
#include "tsread/aggregate/time_bucket.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/tag_alternatives.h"

namespace tsread {
namespace {

// The FIELD columns asked for, from the reconciled schema.
absl::StatusOr<std::vector<ColumnSchema>> FieldColumns(const TableSchema& schema, const std::vector<std::string>& names) {
  std::vector<ColumnSchema> out;
  if (names.empty()) {
    for (const ColumnSchema& c : schema.columns) {
      if (c.category == ColumnCategory::kField) out.push_back(c);
    }
    return out;
  }
  for (const std::string& name : names) {
    const ColumnSchema* found = nullptr;
    for (const ColumnSchema& c : schema.columns) {
      if (c.name == name) found = &c;
    }
    if (found == nullptr || found->category != ColumnCategory::kField) {
      return absl::InvalidArgumentError(
          absl::StrCat("table \"", schema.name, "\" has no FIELD column \"", name, "\" to aggregate"));
    }
    out.push_back(*found);
  }
  return out;
}

}  // namespace

absl::StatusOr<TableAggregate> AggregateShape(const TableSchema& schema, const AggregateOptions& options) {
  if (options.bucket_width < 0) {
    return absl::InvalidArgumentError(absl::StrCat("bucket width must be positive, not ", options.bucket_width));
  }
  if (options.bucket_calendar.enabled() &&
      (options.bucket_width != 0 || options.bucket_calendar.count < 1 || options.bucket_calendar.units_per_second < 1)) {
    return absl::InvalidArgumentError(
        "calendar buckets take a positive count and time unit, and no bucket width beside them");
  }
  TableAggregate out;
  out.table = schema.name;
  if (!options.no_columns) {
    TSREAD_ASSIGN_OR_RETURN(out.columns, FieldColumns(schema, options.columns));
  }
  for (const ColumnSchema& c : schema.columns) {
    if (c.category == ColumnCategory::kTag) out.tag_columns.push_back(c.name);
  }
  return out;
}

absl::StatusOr<TableAggregate> DatasetAggregateShape(const Dataset& dataset, const AggregateOptions& options) {
  TSREAD_ASSIGN_OR_RETURN(std::string table, dataset.TableToRead(options.table));
  TSREAD_ASSIGN_OR_RETURN(TableSchema schema, dataset.ReconciledSchema(table));
  return AggregateShape(schema, options);
}

void SplitConditions(const TableAggregate& shape, const std::vector<PredicateExpr>& conditions,
                     std::vector<TagPredicate>& tags, std::vector<PredicateExpr>& values) {
  auto is_tag = [&](std::string_view name) {
    return std::find(shape.tag_columns.begin(), shape.tag_columns.end(), name) != shape.tag_columns.end();
  };
  std::vector<const PredicateExpr*> pending;
  for (const PredicateExpr& c : conditions) pending.push_back(&c);
  for (size_t i = 0; i < pending.size(); ++i) {
    const PredicateExpr& c = *pending[i];
    if (c.kind == PredicateExpr::Kind::kAnd) {
      for (const PredicateExpr& operand : c.operands) pending.push_back(&operand);
    } else if (std::optional<TagPredicate> tag = TagAlternatives(c, is_tag); tag.has_value()) {
      tags.push_back(*std::move(tag));
    } else {
      values.push_back(c);
    }
  }
}

DatasetScanOptions AggregateScanOptions(const TableAggregate& shape, const AggregateOptions& options) {
  DatasetScanOptions scan;
  scan.table = shape.table;
  scan.time_range = options.time_range;
  scan.tag_predicates = options.tag_predicates;
  SplitConditions(shape, options.value_predicates, scan.tag_predicates, scan.value_predicates);
  for (const ColumnSchema& c : shape.columns) scan.columns.push_back(c.name);
  // Without FIELD columns the scan still needs a column to read rows by: a TAG column costs no
  // chunk (its values come from the device id); it is not aggregated.
  if (scan.columns.empty() && !shape.tag_columns.empty()) scan.columns.push_back(shape.tag_columns[0]);
  return scan;
}

absl::Status AggregateFileInto(const DatasetScanner& scanner, size_t file, size_t part, size_t parts,
                               GroupBuilder& builder, std::optional<TableScanner::Cursor>& cursor) {
  const DatasetFile& own_file = scanner.dataset().files()[file];
  // Statistics answer for the builder only where no value predicate decides which rows count (a
  // scan takes one or the other).
  StatisticsFilter* filter = scanner.options().value_predicates.empty() ? &builder : nullptr;
  TSREAD_ASSIGN_OR_RETURN(std::optional<DatasetScanner::FileScan> plan, scanner.PlanFile(file, 1, filter));
  if (!plan.has_value()) return absl::OkStatus();
  const TableSchema* own = own_file.FindTable(scanner.options().table);
  if (own == nullptr) return absl::OkStatus();
  builder.StartFile(*plan->reader, *own);
  const size_t devices = plan->scanner->device_count();
  ScanSplit split;
  split.first_device = devices * part / parts;
  split.device_count = devices * (part + 1) / parts - split.first_device;
  if (split.device_count == 0) return absl::OkStatus();
  absl::Status scanned = plan->scanner->ScanSplitRows(split, cursor, [&](const TableBatch& batch) {
    builder.AddBatch(batch);
    return absl::OkStatus();
  });
  return WithFileName(scanned, own_file.path);
}

namespace {

// A group of no rows in bucket `index`, with the device and tags of `key` (by table: none).
GroupAggregate EmptyGroup(const TableAggregate& out, const GroupAggregate& key, const TimeBuckets& buckets,
                          int64_t index) {
  GroupAggregate g;
  g.device = key.device;
  g.tags = key.tags;
  g.bucket = buckets.Start(index);
  for (const ColumnSchema& c : out.columns) g.columns.emplace_back(c.data_type);
  return g;
}

}  // namespace

absl::Status FillEmptyBuckets(const AggregateOptions& options, TableAggregate& out) {
  if (!options.HasBuckets()) return absl::InvalidArgumentError("filling empty buckets needs a bucket width");
  const TimeBuckets buckets = options.Buckets();
  const TimeRange& range = options.time_range;
  const bool open_start = range.start == std::numeric_limits<int64_t>::min();
  const bool open_end = range.end == std::numeric_limits<int64_t>::max();
  std::optional<int64_t> lo, hi;
  if (!open_start) lo = buckets.Index(range.start);
  if (!open_end) hi = buckets.Index(range.end);
  for (const GroupAggregate& g : out.groups) {
    const int64_t i = buckets.Index(*g.bucket);
    if (open_start) lo = lo.has_value() ? std::min(*lo, i) : i;
    if (open_end) hi = hi.has_value() ? std::max(*hi, i) : i;
  }
  if (!lo.has_value() || !hi.has_value() || *lo > *hi) return absl::OkStatus();
  // Runs of one device's groups (buckets ascending); by table one run, rows or not.
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t i = 0; i < out.groups.size(); ++i) {
    if (runs.empty() || out.groups[i].device != out.groups[runs.back().first].device) runs.emplace_back(i, i);
    runs.back().second = i + 1;
  }
  if (runs.empty() && options.by == AggregateGroupBy::kTable) runs.emplace_back(0, 0);
  const __int128 per_run = static_cast<__int128>(*hi) - *lo + 1;
  if (per_run * static_cast<__int128>(runs.size()) > static_cast<__int128>(AggregateOptions::kMaxFilledGroups)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "filling empty buckets would make more than ", AggregateOptions::kMaxFilledGroups,
        " groups: narrow the time range or widen the bucket"));
  }
  std::vector<GroupAggregate> filled;
  filled.reserve(static_cast<size_t>(per_run) * runs.size());
  for (const auto& [begin, end] : runs) {
    // The run's device and tags, copied before its groups move into `filled`.
    GroupAggregate key;
    if (begin < end) {
      key.device = out.groups[begin].device;
      key.tags = out.groups[begin].tags;
    }
    size_t next = begin;
    for (int64_t index = *lo;; ++index) {
      if (next < end && buckets.Index(*out.groups[next].bucket) == index) {
        filled.push_back(std::move(out.groups[next++]));
      } else {
        filled.push_back(EmptyGroup(out, key, buckets, index));
      }
      if (index == *hi) break;
    }
  }
  out.groups = std::move(filled);
  return absl::OkStatus();
}

std::string DeviceIdColumnAmong(const std::vector<std::string>& taken) {
  std::string name = "device";
  while (std::find(taken.begin(), taken.end(), name) != taken.end()) name.insert(name.begin(), '_');
  return name;
}

std::string TableAggregate::DeviceIdColumn() const {
  std::vector<std::string> taken = tag_columns;
  for (const ColumnSchema& c : columns) taken.push_back(c.name);
  return DeviceIdColumnAmong(taken);
}

absl::StatusOr<TableAggregate> Aggregate(const Dataset& dataset, const AggregateOptions& options) {
  TSREAD_ASSIGN_OR_RETURN(TableAggregate out, DatasetAggregateShape(dataset, options));
  GroupBuilder builder(out, options);
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<DatasetScanner> scanner,
                          DatasetScanner::Create(dataset, AggregateScanOptions(out, options)));
  // One cursor for every file: its page buffers are allocated once.
  std::optional<TableScanner::Cursor> cursor;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    TSREAD_RETURN_IF_ERROR(AggregateFileInto(*scanner, f, 0, 1, builder, cursor));
  }
  out.groups = builder.TakeGroups();
  out.work = builder.work();
  if (options.fill_empty_buckets) TSREAD_RETURN_IF_ERROR(FillEmptyBuckets(options, out));
  return out;
}

}  // namespace tsread

// tsread agg INPUT... [--table T] [--columns a,b] [--by device|table] [--bucket 10m|1h|1w|1mo|N]
// [--time-zone Z] [--start T0] [--end T1] [--where COND] [--threads N] [--json]: per device (or the
// whole table), optionally per time bucket, of the rows the conditions keep, its rows, first and
// last time and each FIELD column's count, min, max, first, last and sum, answered from the files'
// statistics where they are exact (aggregate/table_aggregate.h).
// tsread last INPUT... [--table T] [--columns a,b] [--where COND] [--json]: per device its last
// time and each column's latest non-null value with its time (the same aggregates, printed so).
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "iotdb_inputs.h"
#include "tsread/aggregate/aggregate_tasks.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/aggregate/time_bucket.h"
#include "output.h"
#include "tsread/aggregate/table_aggregate.h"
#include "time_parse.h"
#include "tsread/io/status_macros.h"
#include "aggregate_text.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

// How the groups were formed, for the output's key fields.
struct GroupShape {
  bool by_device = true;
  bool buckets = false;
  TimeFormat times = TimeFormat::kEpoch;  // --time-format: how times print
};

// The header's first fields: the device id (TableAggregate::DeviceIdColumn: `device`, or `_device`
// where a column has that name) and the TAG columns (by device), bucket (with buckets). Each field
// ends with a comma.
std::string CsvHead(const TableAggregate& result, GroupShape shape) {
  std::string out;
  if (shape.by_device) {
    out = result.DeviceIdColumn() + ",";
    for (const std::string& tag : result.tag_columns) absl::StrAppend(&out, tag, ",");
  }
  if (shape.buckets) out += "bucket,";
  return out;
}

// A group's key fields, as CsvHead names them.
void AppendKeyCsv(std::string& out, const GroupAggregate& g, GroupShape shape) {
  if (shape.by_device) {
    AppendQuoted(out, g.device);
    out += ",";
    for (const std::optional<std::string>& tag : g.tags) {
      if (tag) AppendQuoted(out, *tag);
      out += ",";
    }
  }
  if (shape.buckets) absl::StrAppend(&out, TimeText(g.bucket.value_or(0), shape.times), ",");
}

// `{"device": ID, "tags": {...}` of a group (null and {} by table; the caller closes the object).
void AppendDeviceJson(std::string& out, const TableAggregate& result, const GroupAggregate& g, GroupShape shape) {
  absl::StrAppend(&out, "{\"device\": ", shape.by_device ? JsonString(g.device) : "null", ", \"tags\": {");
  for (size_t t = 0; shape.by_device && t < g.tags.size(); ++t) {
    absl::StrAppend(&out, t ? ", " : "", JsonString(result.tag_columns[t]), ": ",
                    g.tags[t] ? JsonString(*g.tags[t]) : "null");
  }
  out += "}";
}

// Each printer appends to a BlockOutput and flushes it every 64 KiB: one buffer reused, not the
// whole output built in memory (on a machine where a new page costs microseconds, that was more
// than the aggregation), and few writes.
void PrintCsv(const TableAggregate& result, GroupShape shape) {
  BlockOutput block;
  std::string& out = block.line();
  out = CsvHead(result, shape) + "rows,first_time,last_time";
  for (const ColumnSchema& c : result.columns) {
    for (const char* what : {"count", "min", "max", "first", "last", "sum", "avg"}) absl::StrAppend(&out, ",", c.name, "_", what);
  }
  out += "\n";
  for (const GroupAggregate& g : result.groups) {
    AppendKeyCsv(out, g, shape);
    // A filled empty bucket (--fill-empty) has no first or last time.
    absl::StrAppend(&out, g.rows, ",", g.rows ? TimeText(g.first_time, shape.times) : "", ",",
                    g.rows ? TimeText(g.last_time, shape.times) : "");
    for (const ColumnAggregate& c : g.columns) {
      absl::StrAppend(&out, ",", c.count());
      const auto field = [&](bool present, const std::string& text) {
        out += ",";
        if (present) AppendCsvValue(out, c.type(), text);
      };
      const bool any = c.count() > 0;
      field(any && c.has_min_max(), any ? AggregateValueText(c.type(), c.min()) : "");
      field(any && c.has_min_max(), any ? AggregateValueText(c.type(), c.max()) : "");
      field(any, any ? AggregateValueText(c.type(), c.first()) : "");
      field(any, any ? AggregateValueText(c.type(), c.last()) : "");
      field(any && c.has_sum(), any && c.has_sum() ? SumText(c) : "");
      field(any && c.has_avg(), any && c.has_avg() ? AvgText(c) : "");
    }
    out += "\n";
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
}

void PrintJson(const TableAggregate& result, GroupShape shape) {
  BlockOutput block;
  std::string& out = block.line();
  absl::StrAppend(&out, "{\"table\": ", JsonString(result.table), ", \"groups\": [");
  for (size_t d = 0; d < result.groups.size(); ++d) {
    const GroupAggregate& g = result.groups[d];
    out += d ? ",\n  " : "\n  ";
    AppendDeviceJson(out, result, g, shape);
    absl::StrAppend(&out, ", \"bucket\": ", g.bucket ? TimeText(*g.bucket, shape.times, true) : "null",
                    ", \"rows\": ", g.rows, ", \"first_time\": ", g.rows ? TimeText(g.first_time, shape.times, true) : "null",
                    ", \"last_time\": ", g.rows ? TimeText(g.last_time, shape.times, true) : "null", ", \"columns\": {");
    for (size_t j = 0; j < g.columns.size(); ++j) {
      const ColumnAggregate& c = g.columns[j];
      const bool any = c.count() > 0;
      const auto value = [&](bool present, const AggregateValue& v) {
        return present ? JsonValue(c.type(), AggregateValueText(c.type(), v)) : std::string("null");
      };
      absl::StrAppend(&out, j ? ", " : "", JsonString(result.columns[j].name), ": {\"count\": ", c.count(),
                      ", \"min\": ", value(any && c.has_min_max(), c.min()),
                      ", \"max\": ", value(any && c.has_min_max(), c.max()), ", \"first\": ", value(any, c.first()));
      absl::StrAppend(&out, ", \"last\": ", value(any, c.last()),
                      ", \"sum\": ", any && c.has_sum() ? JsonValue(DataType::kDouble, SumText(c)) : "null",
                      ", \"avg\": ", any && c.has_avg() ? JsonValue(DataType::kDouble, AvgText(c)) : "null", "}");
    }
    out += "}}";
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
  const AggregateWork& work = result.work;
  absl::StrAppend(&out, "],\n \"pages\": {\"from_statistics\": ", work.pages_from_statistics,
                  ", \"decoded\": ", work.pages_decoded, "},\n \"chunks\": {\"from_statistics\": ",
                  work.chunks_from_statistics, ", \"read\": ", work.chunks_read, "}}\n");
}

void PrintLastCsv(const TableAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  out = CsvHead(result, GroupShape{}) + "time";
  for (const ColumnSchema& c : result.columns) absl::StrAppend(&out, ",", c.name, ",", c.name, "_time");
  out += "\n";
  for (const GroupAggregate& g : result.groups) {
    AppendKeyCsv(out, g, GroupShape{});
    absl::StrAppend(&out, TimeText(g.last_time, times));
    for (const ColumnAggregate& c : g.columns) {
      out += ",";
      if (c.count() > 0) AppendCsvValue(out, c.type(), AggregateValueText(c.type(), c.last()));
      out += ",";
      if (c.count() > 0) absl::StrAppend(&out, TimeText(c.last_time(), times));
    }
    out += "\n";
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
}

void PrintLastJson(const TableAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  absl::StrAppend(&out, "{\"table\": ", JsonString(result.table), ", \"devices\": [");
  for (size_t d = 0; d < result.groups.size(); ++d) {
    const GroupAggregate& g = result.groups[d];
    out += d ? ",\n  " : "\n  ";
    AppendDeviceJson(out, result, g, GroupShape{});
    absl::StrAppend(&out, ", \"time\": ", TimeText(g.last_time, times, true), ", \"columns\": {");
    for (size_t j = 0; j < g.columns.size(); ++j) {
      const ColumnAggregate& c = g.columns[j];
      absl::StrAppend(&out, j ? ", " : "", JsonString(result.columns[j].name), ": ");
      if (c.count() == 0) {
        out += "{\"value\": null, \"time\": null}";
      } else {
        absl::StrAppend(&out, "{\"value\": ", JsonValue(c.type(), AggregateValueText(c.type(), c.last())), ", \"time\": ",
                        TimeText(c.last_time(), times, true), "}");
      }
    }
    out += "}}";
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
  out += "]}\n";
}

// --by device|table.
absl::StatusOr<AggregateGroupBy> GroupByFromArgs(const Args& args) {
  const std::string by = args.Get("by").value_or("device");
  if (by == "device") return AggregateGroupBy::kDevice;
  if (by == "table") return AggregateGroupBy::kTable;
  return absl::InvalidArgumentError(absl::StrCat("--by takes device or table, not \"", by, "\""));
}

// --bucket W and --time-zone Z: a fixed width (ms, s, m, h, d; digits in the file's unit), or calendar
// buckets — Nw and Nmo always, Nd with a time zone — in Z (UTC without it).
absl::Status BucketsFromArgs(const Args& args, AggregateOptions& options) {
  const std::optional<std::string> bucket = args.Get("bucket");
  const std::optional<std::string> zone = args.Get("time-zone");
  if (!bucket.has_value()) {
    if (zone.has_value()) return absl::InvalidArgumentError("--time-zone needs --bucket");
    return absl::OkStatus();
  }
  if (std::optional<std::pair<CalendarUnit, int64_t>> calendar = ParseCalendarBucket(*bucket, zone.has_value())) {
    options.bucket_calendar.unit = calendar->first;
    options.bucket_calendar.count = calendar->second;
    if (zone.has_value()) {
      absl::StatusOr<absl::TimeZone> parsed = ParseTimeZone(*zone);
      if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat("--time-zone: ", parsed.status().message()));
      options.bucket_calendar.zone = *parsed;
    }
    return absl::OkStatus();
  }
  if (zone.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("--time-zone applies to calendar buckets (Nd, Nw, Nmo), not --bucket ",
                                                   *bucket));
  }
  TSREAD_ASSIGN_OR_RETURN(options.bucket_width, ParseDurationArg("bucket", *bucket));
  return absl::OkStatus();
}

// The aggregates the arguments ask for (`agg`: whether --by and --bucket are taken).
absl::StatusOr<TableAggregate> AggregateArgs(const Args& args, bool agg) {
  AggregateOptions options;
  options.table = args.Get("table").value_or("");
  TSREAD_ASSIGN_OR_RETURN(options.columns, ColumnsFromArgs(args));
  TSREAD_ASSIGN_OR_RETURN(options.time_range, TimeRangeFromArgs(args));
  if (agg) {
    TSREAD_ASSIGN_OR_RETURN(options.by, GroupByFromArgs(args));
    TSREAD_RETURN_IF_ERROR(BucketsFromArgs(args, options));
    if (args.Has("fill-empty")) {
      if (!args.Has("bucket")) return absl::InvalidArgumentError("--fill-empty needs --bucket");
      options.fill_empty_buckets = true;
    }
    if (std::optional<std::string> origin = args.Get("bucket-origin")) {
      if (!args.Has("bucket")) return absl::InvalidArgumentError("--bucket-origin needs --bucket");
      TSREAD_ASSIGN_OR_RETURN(const int64_t t, ParseTimeArg("bucket-origin", *origin));
      if (options.bucket_calendar.enabled()) {
        options.bucket_calendar.origin = t;
      } else {
        options.bucket_origin = t;
      }
    }
  }
  // Conditions on TAG values name devices (statistics still answer); others select rows.
  TSREAD_ASSIGN_OR_RETURN(options.value_predicates, PredicatesFromArgs(args));
  TSREAD_ASSIGN_OR_RETURN(const int threads, ThreadsFromArgs(args));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<iotdb::IotdbDataset> iotdb_data, OpenIotdbInputs(args));
  if (iotdb_data != nullptr) return AggregateIotdb(*iotdb_data, options, threads);
  TSREAD_RETURN_IF_ERROR(CheckIotdbFlagsUnused(args));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, OpenInputs(args));
  return AggregateOnThreads(*dataset, options, threads);
}

}  // namespace

// The flags of one model that the other does not take: a usage error, never ignored (as cat's).
std::optional<int> ModelFlagError(const Args& args, const char* command) {
  const bool tree = args.Has("tree");
  for (const char* flag : tree ? std::vector<const char*>{"table", "columns", "where", "by", "bucket", "bucket-origin", "fill-empty",
                                                         "threads", "time-zone"}
                               : std::vector<const char*>{"devices", "measurements"}) {
    if (args.Has(flag)) {
      return UsageError(absl::StrCat(command, tree ? " --tree" : " without --tree", " does not take --", flag));
    }
  }
  return std::nullopt;
}

int RunLast(const Args& args) {
  if (std::optional<int> error = ModelFlagError(args, "last")) return *error;
  if (args.Has("tree")) return RunLastTree(args);
  absl::StatusOr<TimeFormat> times = TimeFormatFromArgs(args);
  if (!times.ok()) return Fail(times.status());
  absl::StatusOr<TableAggregate> result = AggregateArgs(args, false);
  if (!result.ok()) return Fail(result.status());
  if (args.Has("json")) {
    PrintLastJson(*result, *times);
  } else {
    PrintLastCsv(*result, *times);
  }
  return kOk;
}

int RunAgg(const Args& args) {
  if (std::optional<int> error = ModelFlagError(args, "agg")) return *error;
  if (args.Has("tree")) return RunAggTree(args);
  absl::StatusOr<TimeFormat> times = TimeFormatFromArgs(args);
  if (!times.ok()) return Fail(times.status());
  absl::StatusOr<TableAggregate> result = AggregateArgs(args, true);
  if (!result.ok()) return Fail(result.status());
  const GroupShape shape{args.Get("by").value_or("device") == "device", args.Has("bucket"), *times};
  if (args.Has("json")) {
    PrintJson(*result, shape);
  } else {
    PrintCsv(*result, shape);
  }
  return kOk;
}

}  // namespace tsread::cli

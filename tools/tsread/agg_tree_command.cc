// tsread agg INPUT... --tree [--devices d1,d2] [--measurements m1,m2] [--start T0] [--end T1] [--json]
// and tsread last INPUT... --tree [...]: per tree-model series (device, measurement) its count,
// min, max, first, last and sum with the first and last times, or its last point — IoTDB's
// `SELECT last * FROM root.**` — from statistics where they are exact
// (aggregate/tree_aggregate.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "aggregate_text.h"
#include "cli.h"
#include "output.h"
#include "tsread/aggregate/tree_aggregate.h"
#include "tsread/io/status_macros.h"
#include "iotdb_inputs.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

absl::StatusOr<TreeAggregate> AggregateTreeArgs(const Args& args) {
  TreeAggregateOptions options;
  TSREAD_ASSIGN_OR_RETURN(options.time_range, TimeRangeFromArgs(args));
  options.devices = ListFromFlag(args, "devices");
  for (std::string& m : ListFromFlag(args, "measurements")) options.measurements.insert(std::move(m));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<iotdb::IotdbDataset> iotdb_data, OpenIotdbInputs(args));
  if (iotdb_data != nullptr) return AggregateIotdbTree(*iotdb_data, options);
  TSREAD_RETURN_IF_ERROR(CheckIotdbFlagsUnused(args));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, OpenInputs(args));
  return AggregateTree(*dataset, options);
}

// `device,measurement,` of a series.
void AppendSeriesCsv(std::string& out, const SeriesAggregate& s) {
  AppendCsvField(out, s.device);
  out += ",";
  AppendCsvField(out, s.measurement);
  out += ",";
}

void PrintAggCsv(const TreeAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  out = "device,measurement,count,min,max,first,last,sum,avg,first_time,last_time\n";
  for (const SeriesAggregate& s : result.series) {
    const ColumnAggregate& c = s.values;  // count > 0: AggregateTree leaves out series without points
    AppendSeriesCsv(out, s);
    absl::StrAppend(&out, c.count());
    const auto field = [&](bool present, const std::string& text) {
      out += ",";
      if (present) AppendCsvValue(out, c.type(), text);
    };
    field(c.has_min_max(), AggregateValueText(c.type(), c.min()));
    field(c.has_min_max(), AggregateValueText(c.type(), c.max()));
    field(true, AggregateValueText(c.type(), c.first()));
    field(true, AggregateValueText(c.type(), c.last()));
    field(c.has_sum(), c.has_sum() ? SumText(c) : "");
    field(c.has_avg(), c.has_avg() ? AvgText(c) : "");
    absl::StrAppend(&out, ",", TimeText(c.first_time(), times), ",", TimeText(c.last_time(), times), "\n");
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
}

void PrintAggJson(const TreeAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  out = "{\"series\": [";
  for (size_t i = 0; i < result.series.size(); ++i) {
    const SeriesAggregate& s = result.series[i];
    const ColumnAggregate& c = s.values;
    const auto value = [&](bool present, const AggregateValue& v) {
      return present ? JsonValue(c.type(), AggregateValueText(c.type(), v)) : std::string("null");
    };
    absl::StrAppend(&out, i ? ",\n  " : "\n  ", "{\"device\": ", JsonString(s.device), ", \"measurement\": ",
                    JsonString(s.measurement), ", \"count\": ", c.count(), ", \"min\": ", value(c.has_min_max(), c.min()),
                    ", \"max\": ", value(c.has_min_max(), c.max()));
    absl::StrAppend(&out, ", \"first\": ", value(true, c.first()), ", \"last\": ", value(true, c.last()),
                    ", \"sum\": ", c.has_sum() ? JsonValue(DataType::kDouble, SumText(c)) : "null",
                    ", \"avg\": ", c.has_avg() ? JsonValue(DataType::kDouble, AvgText(c)) : "null",
                    ", \"first_time\": ", TimeText(c.first_time(), times, true),
                    ", \"last_time\": ", TimeText(c.last_time(), times, true), "}");
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
  const TreeAggregateWork& work = result.work;
  absl::StrAppend(&out, "],\n \"pages\": {\"decoded\": ", work.pages_decoded,
                  "},\n \"series_answered\": {\"from_statistics\": ", work.series_from_statistics,
                  ", \"decoded\": ", work.series_decoded, "}}\n");
}

void PrintLastCsv(const TreeAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  out = "device,measurement,time,value\n";
  for (const SeriesAggregate& s : result.series) {
    AppendSeriesCsv(out, s);
    absl::StrAppend(&out, TimeText(s.values.last_time(), times), ",");
    AppendCsvValue(out, s.values.type(), AggregateValueText(s.values.type(), s.values.last()));
    out += "\n";
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
}

void PrintLastJson(const TreeAggregate& result, TimeFormat times) {
  BlockOutput block;
  std::string& out = block.line();
  out = "{\"series\": [";
  for (size_t i = 0; i < result.series.size(); ++i) {
    const SeriesAggregate& s = result.series[i];
    absl::StrAppend(&out, i ? ",\n  " : "\n  ", "{\"device\": ", JsonString(s.device), ", \"measurement\": ",
                    JsonString(s.measurement), ", \"time\": ", TimeText(s.values.last_time(), times, true),
                    ", \"value\": ",
                    JsonValue(s.values.type(), AggregateValueText(s.values.type(), s.values.last())), "}");
    if (!block.MaybeFlush()) return;  // FinishOutput reports the failed write
  }
  out += "]}\n";
}

}  // namespace

int RunAggTree(const Args& args) {
  absl::StatusOr<TimeFormat> times = TimeFormatFromArgs(args);
  if (!times.ok()) return Fail(times.status());
  absl::StatusOr<TreeAggregate> result = AggregateTreeArgs(args);
  if (!result.ok()) return Fail(result.status());
  if (args.Has("json")) {
    PrintAggJson(*result, *times);
  } else {
    PrintAggCsv(*result, *times);
  }
  return kOk;
}

int RunLastTree(const Args& args) {
  absl::StatusOr<TimeFormat> times = TimeFormatFromArgs(args);
  if (!times.ok()) return Fail(times.status());
  absl::StatusOr<TreeAggregate> result = AggregateTreeArgs(args);
  if (!result.ok()) return Fail(result.status());
  if (args.Has("json")) {
    PrintLastJson(*result, *times);
  } else {
    PrintLastCsv(*result, *times);
  }
  return kOk;
}

}  // namespace tsread::cli

// tsread agg INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where tag=v] [--json]:
// per device, its rows, first and last time and each FIELD column's count, min, max, first, last
// and sum, answered from the files' statistics where they are exact (aggregate/device_aggregate.h).
// tsread last INPUT... [--table T] [--columns a,b] [--where tag=v] [--json]: per device its last
// time and each column's latest non-null value with its time (the same aggregates, printed so).
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "tsread/io/status_macros.h"
#include "tsread/aggregate/device_aggregate.h"
#include "value_format.h"

namespace tsread::cli {
namespace {

std::string Int128Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

// A value of the column's type in the CSV contract's form (strings unquoted: the caller quotes).
std::string ValueText(DataType type, const AggregateValue& v) {
  std::string out;
  switch (type) {
    case DataType::kBoolean: return v.i ? "true" : "false";
    case DataType::kFloat: AppendFloat(out, static_cast<float>(v.d)); return out;
    case DataType::kDouble: AppendDouble(out, v.d); return out;
    case DataType::kText:
    case DataType::kString: return v.s;
    case DataType::kBlob: AppendBlob(out, v.s); return out;
    default: return absl::StrCat(v.i);
  }
}

std::string SumText(const ColumnAggregate& c) {
  if (c.type() == DataType::kFloat || c.type() == DataType::kDouble) {
    std::string out;
    AppendDouble(out, c.float_sum());
    return out;
  }
  return Int128Text(c.int_sum());
}

bool IsText(DataType type) { return type == DataType::kText || type == DataType::kString || type == DataType::kBlob; }

// A value as a JSON token: strings (and BLOB hex, and non-finite floats) quoted.
std::string JsonValue(DataType type, const std::string& text) {
  const bool number = !IsText(type) && type != DataType::kBoolean && text != "NaN" && text != "Infinity" &&
                      text != "-Infinity";
  return number || type == DataType::kBoolean ? text : JsonString(text);
}

// A value's text as a CSV field: TEXT/STRING quoted, as `cat` prints them.
void AppendCsvValue(std::string& out, DataType type, const std::string& text) {
  if (type == DataType::kText || type == DataType::kString) {
    AppendQuoted(out, text);
  } else {
    out += text;
  }
}

// The header's first fields: device and the TAG columns.
std::string CsvHead(const TableAggregate& result) {
  std::string out = "device";
  for (const std::string& tag : result.tag_columns) absl::StrAppend(&out, ",", tag);
  return out;
}

// A group's device id and TAG values as the first CSV fields.
void AppendDeviceCsv(std::string& out, const DeviceAggregate& g) {
  AppendQuoted(out, g.device);
  for (const std::optional<std::string>& tag : g.tags) {
    out += ",";
    if (tag) AppendQuoted(out, *tag);
  }
}

// `{"device": ID, "tags": {...}` of a group (the caller closes the object).
void PrintDeviceJson(std::ostream& out, const TableAggregate& result, const DeviceAggregate& g) {
  out << "{\"device\": " << JsonString(g.device) << ", \"tags\": {";
  for (size_t t = 0; t < g.tags.size(); ++t) {
    out << (t ? ", " : "") << JsonString(result.tag_columns[t]) << ": " << (g.tags[t] ? JsonString(*g.tags[t]) : "null");
  }
  out << "}";
}

void PrintCsv(const TableAggregate& result) {
  std::string out = CsvHead(result) + ",rows,first_time,last_time";
  for (const ColumnSchema& c : result.columns) {
    for (const char* what : {"count", "min", "max", "first", "last", "sum"}) absl::StrAppend(&out, ",", c.name, "_", what);
  }
  out += "\n";
  for (const DeviceAggregate& g : result.devices) {
    AppendDeviceCsv(out, g);
    absl::StrAppend(&out, ",", g.rows, ",", g.first_time, ",", g.last_time);
    for (const ColumnAggregate& c : g.columns) {
      absl::StrAppend(&out, ",", c.count());
      const auto field = [&](bool present, const std::string& text) {
        out += ",";
        if (present) AppendCsvValue(out, c.type(), text);
      };
      const bool any = c.count() > 0;
      field(any && c.has_min_max(), any ? ValueText(c.type(), c.min()) : "");
      field(any && c.has_min_max(), any ? ValueText(c.type(), c.max()) : "");
      field(any, any ? ValueText(c.type(), c.first()) : "");
      field(any, any ? ValueText(c.type(), c.last()) : "");
      field(any && c.has_sum(), any && c.has_sum() ? SumText(c) : "");
    }
    out += "\n";
    if (out.size() > (1 << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;
}

void PrintJson(const TableAggregate& result) {
  // Built whole, written once: many small writes cost more than the aggregation.
  std::ostringstream out;
  out << "{\"table\": " << JsonString(result.table) << ", \"groups\": [";
  for (size_t d = 0; d < result.devices.size(); ++d) {
    const DeviceAggregate& g = result.devices[d];
    out << (d ? ",\n  " : "\n  ");
    PrintDeviceJson(out, result, g);
    out << ", \"rows\": " << g.rows << ", \"first_time\": " << g.first_time << ", \"last_time\": " << g.last_time
        << ", \"columns\": {";
    for (size_t j = 0; j < g.columns.size(); ++j) {
      const ColumnAggregate& c = g.columns[j];
      const bool any = c.count() > 0;
      const auto value = [&](bool present, const AggregateValue& v) {
        return present ? JsonValue(c.type(), ValueText(c.type(), v)) : std::string("null");
      };
      out << (j ? ", " : "") << JsonString(result.columns[j].name) << ": {\"count\": " << c.count()
          << ", \"min\": " << value(any && c.has_min_max(), c.min())
          << ", \"max\": " << value(any && c.has_min_max(), c.max()) << ", \"first\": " << value(any, c.first())
          << ", \"last\": " << value(any, c.last())
          << ", \"sum\": " << (any && c.has_sum() ? JsonValue(DataType::kDouble, SumText(c)) : "null") << "}";
    }
    out << "}}";
  }
  out << "],\n \"chunks\": {\"from_statistics\": " << result.chunks_from_statistics
      << ", \"decoded\": " << result.chunks_decoded << "}}\n";
  std::cout << out.str();
}

void PrintLastCsv(const TableAggregate& result) {
  std::string out = CsvHead(result) + ",time";
  for (const ColumnSchema& c : result.columns) absl::StrAppend(&out, ",", c.name, ",", c.name, "_time");
  out += "\n";
  for (const DeviceAggregate& g : result.devices) {
    AppendDeviceCsv(out, g);
    absl::StrAppend(&out, ",", g.last_time);
    for (const ColumnAggregate& c : g.columns) {
      out += ",";
      if (c.count() > 0) AppendCsvValue(out, c.type(), ValueText(c.type(), c.last()));
      out += ",";
      if (c.count() > 0) absl::StrAppend(&out, c.last_time());
    }
    out += "\n";
  }
  std::cout << out;
}

void PrintLastJson(const TableAggregate& result) {
  // Built whole, written once: many small writes cost more than the aggregation.
  std::ostringstream out;
  out << "{\"table\": " << JsonString(result.table) << ", \"devices\": [";
  for (size_t d = 0; d < result.devices.size(); ++d) {
    const DeviceAggregate& g = result.devices[d];
    out << (d ? ",\n  " : "\n  ");
    PrintDeviceJson(out, result, g);
    out << ", \"time\": " << g.last_time << ", \"columns\": {";
    for (size_t j = 0; j < g.columns.size(); ++j) {
      const ColumnAggregate& c = g.columns[j];
      out << (j ? ", " : "") << JsonString(result.columns[j].name) << ": ";
      if (c.count() == 0) {
        out << "{\"value\": null, \"time\": null}";
      } else {
        out << "{\"value\": " << JsonValue(c.type(), ValueText(c.type(), c.last())) << ", \"time\": "
            << c.last_time() << "}";
      }
    }
    out << "}}";
  }
  out << "]}\n";
  std::cout << out.str();
}

// The aggregates the arguments ask for (`with_range`: whether --start/--end are taken).
absl::StatusOr<TableAggregate> AggregateArgs(const Args& args, bool with_range) {
  AggregateOptions options;
  options.table = args.Get("table").value_or("");
  TSREAD_ASSIGN_OR_RETURN(options.columns, ColumnsFromArgs(args));
  if (with_range) {
    TSREAD_ASSIGN_OR_RETURN(options.time_range, TimeRangeFromArgs(args));
  }
  TSREAD_ASSIGN_OR_RETURN(options.tag_predicates, PredicatesFromArgs(args));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<Dataset> dataset, OpenInputs(args));
  return AggregateByDevice(*dataset, options);
}

}  // namespace

int RunLast(const Args& args) {
  absl::StatusOr<TableAggregate> result = AggregateArgs(args, false);
  if (!result.ok()) return Fail(result.status());
  if (args.Has("json")) {
    PrintLastJson(*result);
  } else {
    PrintLastCsv(*result);
  }
  return kOk;
}

int RunAgg(const Args& args) {
  absl::StatusOr<TableAggregate> result = AggregateArgs(args, true);
  if (!result.ok()) return Fail(result.status());
  if (args.Has("json")) {
    PrintJson(*result);
  } else {
    PrintCsv(*result);
  }
  return kOk;
}

}  // namespace tsread::cli

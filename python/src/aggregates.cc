// Aggregate (aggregates.h).
#include "aggregates.h"

#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "errors.h"
#include "text_values.h"
#include "tsread/aggregate/aggregate_tasks.h"
#include "tsread/aggregate/iotdb_aggregate.h"
#include "tsread/aggregate/time_bucket.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/aggregate/tree_aggregate.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

py::object Int128(__int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return py::int_(static_cast<int64_t>(v));
  // Beyond int64: Python's int from the two 64-bit halves.
  const auto high = static_cast<int64_t>(v >> 64);
  const auto low = static_cast<uint64_t>(v);
  py::object shifted = py::reinterpret_steal<py::object>(PyNumber_Lshift(py::int_(high).ptr(), py::int_(64).ptr()));
  if (!shifted) throw py::error_already_set();
  py::object sum = py::reinterpret_steal<py::object>(PyNumber_Add(shifted.ptr(), py::int_(low).ptr()));
  if (!sum) throw py::error_already_set();
  return sum;
}

// The sum of `c` (with values): float or exact int; None for a type without one.
py::object SumOf(const ColumnAggregate& c) {
  if (!c.has_sum()) return py::none();
  if (IsFloatType(c.type())) return py::float_(c.float_sum());
  return Int128(c.int_sum());
}

// The file a corrupt value came from, as far as the result tells: the dataset's, when it has one.
std::string FileOf(const Dataset& dataset) {
  return dataset.files().size() == 1 ? dataset.files().front().path : std::string();
}

// A value of `type` as a Python object. TEXT/STRING that is not UTF-8 goes as `invalid_utf8` says:
// CorruptFileError naming `file` (empty: unknown) and the column, U+FFFD replacements, or bytes.
py::object Value(DataType type, const AggregateValue& v, const std::string& column, const std::string& file,
                 InvalidUtf8 invalid_utf8) {
  switch (type) {
    case DataType::kBoolean: return py::bool_(v.i != 0);
    case DataType::kFloat:
    case DataType::kDouble: return py::float_(v.d);
    case DataType::kBlob: return py::bytes(v.s);
    case DataType::kText:
    case DataType::kString: {
      const auto size = static_cast<Py_ssize_t>(v.s.size());
      PyObject* s = PyUnicode_DecodeUTF8(v.s.data(), size, invalid_utf8 == InvalidUtf8::kReplace ? "replace" : "strict");
      if (s != nullptr) return py::reinterpret_steal<py::object>(s);
      if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) throw py::error_already_set();
      PyErr_Clear();
      if (invalid_utf8 == InvalidUtf8::kBytes) return py::bytes(v.s);
      RaiseCorrupt(file, "column \"" + column + "\": an aggregated value is not UTF-8: " + BytesRepr(v.s) +
                             " (invalid_utf8='replace' or 'bytes' reads it)");
    }
    default: return py::int_(v.i);
  }
}

}  // namespace

py::dict Aggregate(const PyDataset& ds, const ScanArgs& args, const std::string& by, const BucketArgs& bucket_args,
                   bool fill_empty, InvalidUtf8 invalid_utf8, bool last_only) {
  AggregateOptions options;
  if (by == "table") {
    options.by = AggregateGroupBy::kTable;
  } else if (by != "device") {
    throw py::value_error("aggregate: by must be \"device\" or \"table\", not \"" + by + "\"");
  }
  if (bucket_args.calendar_unit.empty()) {
    options.bucket_width = bucket_args.width;
    options.bucket_origin = bucket_args.origin.value_or(0);
  } else {
    CalendarBuckets& calendar = options.bucket_calendar;
    calendar.unit = bucket_args.calendar_unit == "month" ? CalendarUnit::kMonth
                    : bucket_args.calendar_unit == "week" ? CalendarUnit::kWeek
                                                      : CalendarUnit::kDay;
    calendar.count = bucket_args.calendar_count;
    calendar.origin = bucket_args.origin;
    if (bucket_args.time_zone.has_value()) {
      absl::StatusOr<absl::TimeZone> zone = ParseTimeZone(*bucket_args.time_zone);
      if (!zone.ok()) throw py::value_error("aggregate: time_zone: " + std::string(zone.status().message()));
      calendar.zone = *zone;
    }
  }
  options.fill_empty_buckets = fill_empty;
  if (args.table) options.table = *args.table;
  if (args.columns) options.columns = *args.columns;
  if (args.start) options.time_range.start = *args.start;
  if (args.end) options.time_range.end = *args.end;
  options.tag_predicates = args.ToOptions().tag_predicates;
  options.value_predicates = args.filters;
  absl::StatusOr<TableAggregate> result;
  {
    py::gil_scoped_release nogil;
    result = ds.iotdb() != nullptr ? AggregateIotdb(*ds.iotdb(), options, args.threads)
                                   : AggregateOnThreads(*ds.dataset(), options, args.threads);
  }
  const TableAggregate& r = Check(std::move(result), ds.dataset().get());
  py::dict out;
  out["table"] = r.table;
  out["tag_columns"] = r.tag_columns;
  py::list columns;
  for (const ColumnSchema& c : r.columns) columns.append(py::make_tuple(c.name, std::string(DataTypeName(c.data_type))));
  out["columns"] = columns;
  py::list device, tags, buckets, rows, first_time, last_time;
  const std::string file = FileOf(*ds.dataset());
  for (const GroupAggregate& g : r.groups) {
    // A device id is its tags' text: one that is not UTF-8 is a damaged file, not a str.
    device.append(Value(DataType::kString, AggregateValue{0, 0, g.device}, "device id", file, InvalidUtf8::kError));
    py::list values;
    for (size_t k = 0; k < g.tags.size(); ++k) {
      const std::optional<std::string>& t = g.tags[k];
      values.append(t ? Value(DataType::kString, AggregateValue{0, 0, *t}, r.tag_columns[k], file, invalid_utf8) : py::none());
    }
    tags.append(values);
    buckets.append(g.bucket ? py::object(py::int_(*g.bucket)) : py::none());
    rows.append(g.rows);
    // A filled empty bucket has no first or last time.
    first_time.append(g.rows ? py::object(py::int_(g.first_time)) : py::none());
    last_time.append(g.rows ? py::object(py::int_(g.last_time)) : py::none());
  }
  out["device"] = device;
  out["device_column"] = r.DeviceIdColumn();
  out["tags"] = tags;
  out["bucket"] = buckets;
  out["rows"] = rows;
  out["pages_from_statistics"] = r.work.pages_from_statistics;
  out["pages_decoded"] = r.work.pages_decoded;
  out["chunks_from_statistics"] = r.work.chunks_from_statistics;
  out["chunks_read"] = r.work.chunks_read;
  out["first_time"] = first_time;
  out["last_time"] = last_time;
  py::list aggregates;
  for (size_t j = 0; j < r.columns.size(); ++j) {
    const ColumnSchema& column = r.columns[j];
    py::list count, min, max, first, last, sum, avg, first_at, last_at;
    for (const GroupAggregate& g : r.groups) {
      const ColumnAggregate& c = g.columns[j];
      const bool any = c.count() > 0;
      count.append(c.count());
      // last() shows only the last values: the others are not made (a bad one it never shows
      // must not fail it).
      const bool all = any && !last_only;
      min.append(all && c.has_min_max() ? Value(column.data_type, c.min(), column.name, file, invalid_utf8) : py::none());
      max.append(all && c.has_min_max() ? Value(column.data_type, c.max(), column.name, file, invalid_utf8) : py::none());
      first.append(all ? Value(column.data_type, c.first(), column.name, file, invalid_utf8) : py::none());
      last.append(any ? Value(column.data_type, c.last(), column.name, file, invalid_utf8) : py::none());
      first_at.append(any ? py::object(py::int_(c.first_time())) : py::none());
      last_at.append(any ? py::object(py::int_(c.last_time())) : py::none());
      sum.append(any ? SumOf(c) : py::none());
      avg.append(any && c.has_avg() ? py::object(py::float_(c.avg())) : py::none());
    }
    py::dict a;
    a["count"] = count;
    a["min"] = min;
    a["max"] = max;
    a["first"] = first;
    a["last"] = last;
    a["sum"] = sum;
    a["avg"] = avg;
    a["first_time"] = first_at;
    a["last_time"] = last_at;
    aggregates.append(a);
  }
  out["aggregates"] = aggregates;
  return out;
}

py::dict AggregateTree(const PyDataset& ds, const TreeAggregateOptions& options, InvalidUtf8 invalid_utf8,
                       bool last_only) {
  absl::StatusOr<TreeAggregate> result;
  {
    py::gil_scoped_release nogil;
    result = ds.iotdb() != nullptr ? AggregateIotdbTree(*ds.iotdb(), options) : tsread::AggregateTree(*ds.dataset(), options);
  }
  const TreeAggregate& r = Check(std::move(result), ds.dataset().get());
  const std::string file = FileOf(*ds.dataset());
  py::list device, measurement, type, count, min, max, first, last, sum, avg, first_time, last_time;
  for (const SeriesAggregate& s : r.series) {
    const ColumnAggregate& c = s.values;
    const DataType t = c.type();
    device.append(Value(DataType::kString, AggregateValue{0, 0, s.device}, "device", file, InvalidUtf8::kError));
    measurement.append(Value(DataType::kString, AggregateValue{0, 0, s.measurement}, "measurement", file,
                             InvalidUtf8::kError));
    type.append(std::string(DataTypeName(t)));
    count.append(c.count());
    const std::string column = s.device + "." + s.measurement;
    min.append(!last_only && c.has_min_max() ? Value(t, c.min(), column, file, invalid_utf8) : py::none());
    max.append(!last_only && c.has_min_max() ? Value(t, c.max(), column, file, invalid_utf8) : py::none());
    first.append(!last_only ? Value(t, c.first(), column, file, invalid_utf8) : py::none());
    last.append(Value(t, c.last(), column, file, invalid_utf8));
    sum.append(SumOf(c));
    avg.append(c.has_avg() ? py::object(py::float_(c.avg())) : py::none());
    first_time.append(c.first_time());
    last_time.append(c.last_time());
  }
  py::dict out;
  out["device"] = device;
  out["measurement"] = measurement;
  out["data_type"] = type;
  out["count"] = count;
  out["min"] = min;
  out["max"] = max;
  out["first"] = first;
  out["last"] = last;
  out["sum"] = sum;
  out["avg"] = avg;
  out["first_time"] = first_time;
  out["last_time"] = last_time;
  out["series_from_statistics"] = r.work.series_from_statistics;
  out["series_decoded"] = r.work.series_decoded;
  out["pages_decoded"] = r.work.pages_decoded;
  return out;
}

}  // namespace tsread::python

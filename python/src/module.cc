// tsread._tsread: the pybind11 binding of tsread's public read API (read/). Python-facing
// conveniences (argument normalization, pandas/dask assembly) live in python/tsread/*.py; this
// file defines the module (its exceptions, classes and functions), whose parts live alongside:
// errors.h (absl::Status to exceptions), scan_args.h, dataset.h, read_table.h, batch_reader.h,
// arrow_scan.h, splits.h and read_tree.h. Scans run with the GIL released.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "aggregates.h"
#include "arrow_scan.h"
#include "batch_reader.h"
#include "dataset.h"
#include "read_table.h"
#include "read_tree.h"
#include "scan_args.h"
#include "splits.h"
#include "values.h"
#include "tsread/aggregate/time_bucket.h"

namespace py = pybind11;

namespace {

// The time unit of an Arrow export as tsread.scan spells it ("s", "ms", "us", "ns" or "int").
std::optional<tsread::ArrowTimeUnit> TimeUnitOf(const std::string& unit) {
  if (unit == "s") return tsread::ArrowTimeUnit::kSecond;
  if (unit == "ms") return tsread::ArrowTimeUnit::kMillisecond;
  if (unit == "us") return tsread::ArrowTimeUnit::kMicrosecond;
  if (unit == "ns") return tsread::ArrowTimeUnit::kNanosecond;
  if (unit == "int") return std::nullopt;
  throw py::value_error("time_unit is 's', 'ms', 'us', 'ns' or 'int', not '" + unit + "'");
}

// The value options of a read (python/tsread/__init__.py's spellings) as ConvertOptions.
tsread::python::ConvertOptions Convert(bool float_nan, bool time_ns, const std::string& date_as,
                                       const std::string& invalid_dates, const std::string& invalid_utf8) {
  return tsread::python::Check(
      tsread::python::MakeConvertOptions(float_nan, time_ns, date_as, invalid_dates, invalid_utf8));
}

}  // namespace

PYBIND11_MODULE(_tsread, m) {
  using namespace tsread::python;
  m.doc() = "tsread: the C++ reader's binding (use the tsread package, not this module)";
  m.attr("__version__") = TSREAD_VERSION;
  // Raise (errors.cc) looks these up by name.
  py::exception<struct CorruptFileTag>(m, "CorruptFileError", PyExc_ValueError);
  py::exception<struct UnsupportedFileTag>(m, "UnsupportedFileError", PyExc_ValueError);

  py::class_<PyDataset, std::shared_ptr<PyDataset>>(m, "Dataset")
      .def(py::init<const std::vector<std::string>&, bool, bool, const std::string&, bool>(), py::arg("inputs"),
           py::arg("skip_unreadable") = false, py::arg("raw") = false, py::arg("database") = "",
           py::arg("ignore_errors") = false)
      .def("is_iotdb", [](const PyDataset& ds) { return ds.iotdb() != nullptr; })
      .def("iotdb_groups", &PyDataset::IotdbGroups, py::arg("table") = py::none())
      .def("files", &PyDataset::Files)
      .def("tables", &PyDataset::Tables)
      .def("schema", &PyDataset::Schema, py::arg("table") = py::none())
      .def(
          "devices",
          [](const PyDataset& ds, const std::optional<std::string>& table, const std::string& invalid_utf8) {
            return ds.Devices(table, Convert(true, false, "int", "error", invalid_utf8).invalid_utf8);
          },
          py::arg("table") = py::none(), py::arg("invalid_utf8") = "error")
      .def("skipped", &PyDataset::Skipped)
      .def("deletion_warnings", &PyDataset::DeletionWarnings)
      .def("nullable_columns", &PyDataset::NullableColumns, py::arg("table") = py::none())
      .def("info", &PyDataset::Info);

  m.def(
      "read_table",
      [](const PyDataset& ds, std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags, int threads,
         bool float_nan, bool time_ns, const std::string& date_as, const std::string& invalid_dates,
         const std::string& invalid_utf8, const std::optional<Filters>& filters) {
        const ConvertOptions options = Convert(float_nan, time_ns, date_as, invalid_dates, invalid_utf8);
        return ReadTable(
            ds, MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), threads, 0, filters),
            options);
      },
      py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
      py::arg("threads"), py::arg("float_nan"), py::arg("time_ns"), py::arg("date_as") = "int",
      py::arg("invalid_dates") = "error", py::arg("invalid_utf8") = "error", py::arg("filters") = py::none());

  py::class_<BatchReader>(m, "BatchReader")
      .def(py::init([](const PyDataset& ds, std::optional<std::string> table,
                       std::optional<std::vector<std::string>> columns, std::optional<int64_t> start,
                       std::optional<int64_t> end, std::optional<Tags> tags, size_t batch_rows, bool float_nan, bool time_ns,
                       const std::string& date_as, const std::string& invalid_dates, const std::string& invalid_utf8,
                       const std::optional<Filters>& filters) {
             const ConvertOptions options = Convert(float_nan, time_ns, date_as, invalid_dates, invalid_utf8);
             return std::make_unique<BatchReader>(
                 ds,
                 MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), 1, batch_rows, filters),
                 options);
           }),
           py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
           py::arg("batch_rows"), py::arg("float_nan"), py::arg("time_ns"), py::arg("date_as") = "int",
           py::arg("invalid_dates") = "error", py::arg("invalid_utf8") = "error", py::arg("filters") = py::none())
      .def("next", &BatchReader::Next);

  py::class_<ArrowScan>(m, "ArrowScan")
      .def(py::init([](std::shared_ptr<PyDataset> ds, std::optional<std::string> table,
                       std::optional<std::vector<std::string>> columns, std::optional<int64_t> start,
                       std::optional<int64_t> end, std::optional<Tags> tags, int threads, bool ordered,
                       size_t batch_rows, const std::optional<Filters>& filters, const std::string& time_unit,
                       bool tags_as_dictionary, const std::string& file_column, bool tags_as_run_end) {
             ScanArgs args =
                 MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), threads, batch_rows, filters);
             args.ordered = ordered;
             tsread::ArrowExportOptions options;
             options.time_unit = TimeUnitOf(time_unit);
             options.tags_as_dictionary = tags_as_dictionary;
             options.tags_as_run_end = tags_as_run_end;
             options.file_column = file_column;
             return std::make_unique<ArrowScan>(std::move(ds), std::move(args), std::move(options));
           }),
           py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
           py::arg("threads") = 1, py::arg("ordered") = true, py::arg("batch_rows") = 0,
           py::arg("filters") = py::none(), py::arg("time_unit") = "ms", py::arg("tags_as_dictionary") = false,
           py::arg("file_column") = "", py::arg("tags_as_run_end") = false)
      // The consumer's requested_schema is not honoured (the PyCapsule interface allows that):
      // the batches have the scan's own schema.
      .def(
          "__arrow_c_stream__", [](const ArrowScan& scan, const py::object& /*requested_schema*/) { return scan.Stream(); },
          py::arg("requested_schema") = py::none())
      .def("__arrow_c_schema__", &ArrowScan::Schema);

  py::class_<ArrowTreeScan>(m, "ArrowTreeScan")
      .def(py::init([](std::shared_ptr<PyDataset> ds, std::optional<int64_t> start, std::optional<int64_t> end,
                       std::vector<std::string> devices, std::vector<std::string> measurements, size_t batch_rows,
                       const std::string& time_unit, bool names_as_dictionary) {
             tsread::TimeRange range;
             if (start) range.start = *start;
             if (end) range.end = *end;
             tsread::ArrowExportOptions options;
             options.time_unit = TimeUnitOf(time_unit);
             options.tags_as_dictionary = names_as_dictionary;
             return std::make_unique<ArrowTreeScan>(std::move(ds), range, std::move(devices), std::move(measurements),
                                                    batch_rows, std::move(options));
           }),
           py::arg("dataset"), py::arg("start") = py::none(), py::arg("end") = py::none(),
           py::arg("devices") = std::vector<std::string>(), py::arg("measurements") = std::vector<std::string>(),
           py::arg("batch_rows") = 0, py::arg("time_unit") = "ms", py::arg("names_as_dictionary") = false)
      .def(
          "__arrow_c_stream__",
          [](const ArrowTreeScan& scan, const py::object& /*requested_schema*/) { return scan.Stream(); },
          py::arg("requested_schema") = py::none())
      .def("__arrow_c_schema__", &ArrowTreeScan::Schema);

  m.def(
      "plan_splits",
      [](const PyDataset& ds, std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags, uint64_t split_bytes,
         const std::optional<Filters>& filters) {
        return PlanSplits(ds, MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), 1, 0, filters),
                          split_bytes);
      },
      py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
      py::arg("split_bytes"), py::arg("filters") = py::none());
  m.def(
      "read_split",
      [](const py::object& split, bool float_nan, bool time_ns, uint64_t rows_hint,
         std::optional<std::vector<std::string>> columns, bool with_time, const std::string& date_as,
         const std::string& invalid_dates, const std::string& invalid_utf8) {
        ConvertOptions options = Convert(float_nan, time_ns, date_as, invalid_dates, invalid_utf8);
        options.with_time = with_time;
        // One serialized split (bytes) or a list of them (a partition of several).
        std::vector<std::string> splits;
        if (py::isinstance<py::bytes>(split)) {
          splits.push_back(split.cast<std::string>());
        } else {
          splits = split.cast<std::vector<std::string>>();
        }
        return ReadSplits(splits, options, rows_hint, columns);
      },
      py::arg("split"), py::arg("float_nan"), py::arg("time_ns"), py::arg("rows_hint") = 0,
      py::arg("columns") = py::none(), py::arg("with_time") = true, py::arg("date_as") = "int",
      py::arg("invalid_dates") = "error", py::arg("invalid_utf8") = "error");
  m.def(
      "aggregate",
      [](const PyDataset& ds, std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags, const std::string& by,
         int64_t bucket, std::optional<int64_t> origin, bool fill_empty, const std::string& invalid_utf8,
         bool last_only, int threads, const std::optional<Filters>& filters, const std::string& calendar_unit,
         int64_t calendar_count, std::optional<std::string> time_zone) {
        return Aggregate(ds, MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), threads, 0, filters), by,
                         BucketArgs{bucket, origin, calendar_unit, calendar_count, std::move(time_zone)}, fill_empty,
                         Convert(true, false, "int", "error", invalid_utf8).invalid_utf8, last_only);
      },
      py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
      py::arg("by") = "device", py::arg("bucket") = 0, py::arg("origin") = py::none(), py::arg("fill_empty") = false,
      py::arg("invalid_utf8") = "error",
      py::arg("last_only") = false, py::arg("threads") = 1, py::arg("filters") = py::none(),
      py::arg("calendar_unit") = "", py::arg("calendar_count") = 0, py::arg("time_zone") = py::none());
  // The calendar unit and count a bucket text names (aggregate/time_bucket.h's reading, the CLI's),
  // or None: what _args.calendar_bucket decides by.
  m.def(
      "parse_calendar_bucket",
      [](const std::string& text, bool days_are_calendar) -> std::optional<std::pair<std::string, int64_t>> {
        const std::optional<std::pair<tsread::CalendarUnit, int64_t>> parsed =
            tsread::ParseCalendarBucket(text, days_are_calendar);
        if (!parsed) return std::nullopt;
        const char* unit = parsed->first == tsread::CalendarUnit::kMonth  ? "month"
                           : parsed->first == tsread::CalendarUnit::kWeek ? "week"
                                                                  : "day";
        return std::make_pair(std::string(unit), parsed->second);
      },
      py::arg("text"), py::arg("days_are_calendar"));
  m.def(
      "read_tree",
      [](const PyDataset& ds, std::optional<int64_t> start, std::optional<int64_t> end,
         std::optional<std::set<std::string>> devices, std::optional<std::set<std::string>> measurements,
         const std::string& invalid_utf8) {
        TreeSelection selection;
        if (start) selection.range.start = *start;
        if (end) selection.range.end = *end;
        selection.devices = std::move(devices);
        selection.measurements = std::move(measurements);
        return ReadTree(ds, selection, Convert(true, false, "int", "error", invalid_utf8).invalid_utf8);
      },
      py::arg("dataset"), py::arg("start") = py::none(), py::arg("end") = py::none(),
      py::arg("devices") = py::none(), py::arg("measurements") = py::none(), py::arg("invalid_utf8") = "error");
  m.def(
      "aggregate_tree",
      [](const PyDataset& ds, std::optional<int64_t> start, std::optional<int64_t> end,
         std::optional<std::vector<std::string>> devices, std::optional<std::set<std::string>> measurements,
         const std::string& invalid_utf8, bool last_only) {
        tsread::TreeAggregateOptions options;
        if (start) options.time_range.start = *start;
        if (end) options.time_range.end = *end;
        if (devices) options.devices = std::move(*devices);
        if (measurements) options.measurements = std::move(*measurements);
        return AggregateTree(ds, options, Convert(true, false, "int", "error", invalid_utf8).invalid_utf8, last_only);
      },
      py::arg("dataset"), py::arg("start") = py::none(), py::arg("end") = py::none(),
      py::arg("devices") = py::none(), py::arg("measurements") = py::none(), py::arg("invalid_utf8") = "error",
      py::arg("last_only") = false);
}

// tsread._tsread: the pybind11 binding of tsread's public read API (read/). Python-facing
// conveniences (argument normalization, pandas/dask assembly) live in python/tsread/*.py; this
// file opens datasets, runs scans with the GIL released and maps absl::Status to exceptions.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <atomic>
#include <stdexcept>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "columns.h"
#include "planned_read.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/aggregate/file_summary.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/tsfile_reader.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// Exception classes of the module, created once in PYBIND11_MODULE and looked up by name when
// raised (the module object owns them; no C++ global holds Python state).
py::object ModuleAttr(const char* name) { return py::module_::import("tsread._tsread").attr(name); }

// The byte offset a DataLoss message names ("... at offset 2994: ..."), if any.
std::optional<uint64_t> OffsetIn(std::string_view message) {
  for (size_t at = message.find("offset "); at != std::string_view::npos; at = message.find("offset ", at + 1)) {
    size_t i = at + 7;
    uint64_t value = 0;
    size_t digits = 0;
    for (; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i, ++digits) value = value * 10 + (message[i] - '0');
    if (digits > 0) return value;
  }
  return std::nullopt;
}

// The dataset file a message is about: errors are prefixed with the file's path (WithFileName).
std::optional<std::string> FileIn(std::string_view message, const Dataset* dataset) {
  if (dataset == nullptr) return std::nullopt;
  std::optional<std::string> best;
  for (const DatasetFile& f : dataset->files()) {
    if (message.starts_with(f.path) && (!best || f.path.size() > best->size())) best = f.path;
  }
  return best;
}

// Raises the Python exception for a failed status: CorruptFileError (a ValueError) for corrupt or
// truncated input with .file and .offset, UnsupportedFileError for features tsread lacks,
// ValueError for caller mistakes, OSError (FileNotFoundError, PermissionError) for I/O.
[[noreturn]] void Raise(const absl::Status& status, const Dataset* dataset = nullptr) {
  const std::string message(status.message());
  py::object cls;
  switch (status.code()) {
    case absl::StatusCode::kDataLoss: cls = ModuleAttr("CorruptFileError"); break;
    case absl::StatusCode::kUnimplemented: cls = ModuleAttr("UnsupportedFileError"); break;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange: cls = py::reinterpret_borrow<py::object>(PyExc_ValueError); break;
    case absl::StatusCode::kNotFound: cls = py::reinterpret_borrow<py::object>(PyExc_FileNotFoundError); break;
    case absl::StatusCode::kPermissionDenied: cls = py::reinterpret_borrow<py::object>(PyExc_PermissionError); break;
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kFailedPrecondition: cls = py::reinterpret_borrow<py::object>(PyExc_OSError); break;
    case absl::StatusCode::kResourceExhausted: cls = py::reinterpret_borrow<py::object>(PyExc_MemoryError); break;
    default: cls = py::reinterpret_borrow<py::object>(PyExc_RuntimeError); break;
  }
  py::object error = cls(message);
  if (status.code() == absl::StatusCode::kDataLoss || status.code() == absl::StatusCode::kUnimplemented) {
    std::optional<std::string> file = FileIn(message, dataset);
    std::optional<uint64_t> offset = OffsetIn(message);
    error.attr("file") = file ? py::cast(*file) : py::none();
    error.attr("offset") = offset ? py::cast(*offset) : py::none();
  }
  PyErr_SetObject(cls.ptr(), error.ptr());
  throw py::error_already_set();
}

void Check(const absl::Status& status, const Dataset* dataset = nullptr) {
  if (!status.ok()) Raise(status, dataset);
}
template <typename T>
T Check(absl::StatusOr<T> value, const Dataset* dataset = nullptr) {
  if (!value.ok()) Raise(value.status(), dataset);
  return *std::move(value);
}

using Tags = std::map<std::string, std::vector<std::optional<std::string>>>;

// The scan arguments of read_table, iter_batches and the Dask splits (already normalized by
// python/tsread/_args.py: times in ms, tag values as lists).
struct ScanArgs {
  std::optional<std::string> table;
  std::optional<std::vector<std::string>> columns;
  std::optional<int64_t> start;
  std::optional<int64_t> end;
  Tags tags;
  int threads = 1;
  size_t batch_rows = 0;

  DatasetScanOptions ToOptions() const {
    DatasetScanOptions o;
    if (table) o.table = *table;
    if (columns) o.columns = *columns;
    if (start) o.time_range.start = *start;
    if (end) o.time_range.end = *end;
    for (const auto& [column, values] : tags) o.tag_predicates.push_back({column, values});
    o.num_threads = std::max(threads, 1);
    o.batch_size = batch_rows;
    return o;
  }
};

// An open Dataset (one file is a dataset of one), shared with the scans made from it.
class PyDataset {
 public:
  PyDataset(const std::vector<std::string>& inputs, bool skip_unreadable) {
    DatasetOptions options;
    options.skip_unreadable_files = skip_unreadable;
    absl::StatusOr<std::unique_ptr<Dataset>> ds;
    {
      py::gil_scoped_release nogil;
      ds = Dataset::Open(inputs, options);
    }
    dataset_ = std::shared_ptr<Dataset>(Check(std::move(ds)));
    // A file whose metadata could not be read fails here, as opening a single file would.
    for (const DatasetFile& f : dataset_->files()) Check(WithFileName(f.status, f.path), dataset_.get());
  }

  const std::shared_ptr<Dataset>& dataset() const { return dataset_; }

  std::vector<std::string> Files() const {
    std::vector<std::string> out;
    for (const DatasetFile& f : dataset_->files()) out.push_back(f.path);
    return out;
  }
  std::vector<std::string> Tables() const { return dataset_->TableNames(); }

  // (name, category, type) per column of the reconciled schema.
  std::vector<std::tuple<std::string, std::string, std::string>> Schema(const std::optional<std::string>& table) const {
    const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
    TableSchema schema = Check(dataset_->ReconciledSchema(name), dataset_.get());
    std::vector<std::tuple<std::string, std::string, std::string>> out;
    for (const ColumnSchema& c : schema.columns) {
      out.emplace_back(c.name, std::string(ColumnCategoryName(c.category)), std::string(DataTypeName(c.data_type)));
    }
    return out;
  }

  // The table's devices as tuples of TAG values (segments after the table name), each once, in
  // file order then index order.
  std::vector<std::vector<std::optional<std::string>>> Devices(const std::optional<std::string>& table) const {
    const std::string name = table ? *table : Check(dataset_->OnlyTable(), dataset_.get());
    std::vector<std::vector<std::optional<std::string>>> out;
    std::set<std::vector<std::optional<std::string>>> seen;
    py::gil_scoped_release nogil;
    for (size_t i = 0; i < dataset_->files().size(); ++i) {
      if (dataset_->files()[i].FindTable(name) == nullptr) continue;
      std::shared_ptr<const TsFileReader> reader = CheckNoGil(dataset_->OpenFile(i));
      DeviceIterator it = CheckNoGil(reader->Devices(name));
      while (const DeviceEntry* entry = CheckNoGil(it.Next())) {
        const DeviceId id = entry->id.ToOwned();  // segments() refers into it: keep it alive
        const std::vector<std::optional<std::string>>& segments = id.segments();
        std::vector<std::optional<std::string>> tags(segments.begin() + std::min<size_t>(1, segments.size()), segments.end());
        if (seen.insert(tags).second) out.push_back(std::move(tags));
      }
    }
    return out;
  }

  // Per file: path, size, version, tables (devices, rows, time range) and tree-model counts, from
  // metadata only.
  py::list Info() const {
    py::list out;
    for (size_t i = 0; i < dataset_->files().size(); ++i) {
      const DatasetFile& f = dataset_->files()[i];
      std::shared_ptr<const TsFileReader> reader = Check(dataset_->OpenFile(i), dataset_.get());
      absl::StatusOr<FileSummary> summary;
      {
        py::gil_scoped_release nogil;
        summary = SummarizeFile(*reader);
      }
      Check(WithFileName(summary.status(), f.path), dataset_.get());
      py::dict file;
      file["path"] = f.path;
      file["size"] = f.size;
      file["version"] = summary->version;
      py::list tables;
      for (const TableSummary& t : summary->tables) {
        py::dict table;
        table["name"] = t.schema->name;
        table["devices"] = t.devices;
        table["rows"] = t.rows;
        table["start_time"] = t.rows > 0 ? py::cast(t.start_time) : py::none();
        table["end_time"] = t.rows > 0 ? py::cast(t.end_time) : py::none();
        tables.append(table);
      }
      file["tables"] = tables;
      if (summary->tree) {
        py::dict tree;
        tree["devices"] = summary->tree->devices;
        tree["series"] = summary->tree->series;
        tree["points"] = summary->tree->points;
        file["tree"] = tree;
      } else {
        file["tree"] = py::none();
      }
      out.append(file);
    }
    return out;
  }

 private:
  // Unwraps a value on a thread without the GIL: errors are rethrown once the GIL is back.
  template <typename T>
  T CheckNoGil(absl::StatusOr<T> value) const {
    if (!value.ok()) {
      py::gil_scoped_acquire gil;
      Raise(value.status(), dataset_.get());
    }
    return *std::move(value);
  }

  std::shared_ptr<Dataset> dataset_;
};

std::unique_ptr<DatasetScanner> MakeScanner(const Dataset& dataset, const ScanArgs& args) {
  return Check(DatasetScanner::Create(dataset, args.ToOptions()), &dataset);
}

// Every row of the scan as Python columns, gathered with the GIL released: planned from the
// metadata's row counts and written in place (PlannedRead), or, when the plan cannot be trusted,
// batch by batch in scan order (Collector: a cursor on one thread, an ordered Scan on several).
py::list ReadTable(const PyDataset& ds, const ScanArgs& args, bool float_nan, bool time_ns) {
  const Dataset& dataset = *ds.dataset();
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(dataset, args);
  const ConvertOptions options{.float_nan = float_nan, .time_ns = time_ns};
  std::unique_ptr<PlannedRead> planned;
  absl::Status status;
  {
    py::gil_scoped_release nogil;
    absl::StatusOr<std::unique_ptr<PlannedRead>> plan = PlannedRead::Plan(*scanner, options, args.threads);
    if (!plan.ok()) {
      status = plan.status();
    } else if (*plan != nullptr) {
      absl::StatusOr<bool> done = (*plan)->Run();
      if (!done.ok()) {
        status = done.status();
      } else if (*done) {
        planned = std::move(*plan);
      }
    }
  }
  Check(status, &dataset);
  if (planned != nullptr) return planned->Finish();

  Collector collector(scanner->projection(), options);
  {
    py::gil_scoped_release nogil;
    if (args.threads <= 1) {
      DatasetScanner::Cursor cursor = scanner->OpenCursor();
      while (status.ok()) {
        absl::StatusOr<TableBatch*> batch = cursor.Next();
        if (!batch.ok()) {
          status = batch.status();
        } else if (*batch == nullptr) {
          break;
        } else {
          status = collector.Append(**batch);
        }
      }
    } else {
      status = scanner->Scan([&](int, const TableBatch& batch) { return collector.Append(batch); });
    }
  }
  Check(status, &dataset);
  return collector.Finish();
}

// iter_batches: batches of at most batch_rows rows (the scanner cuts pages to that size; pieces
// are gathered until the next would overflow it).
class BatchReader {
 public:
  BatchReader(std::shared_ptr<Dataset> dataset, const ScanArgs& args, bool float_nan, bool time_ns)
      : dataset_(std::move(dataset)), scanner_(MakeScanner(*dataset_, args)), cursor_(scanner_->OpenCursor()),
        limit_(std::max<size_t>(args.batch_rows, 1)), collector_(scanner_->projection(), {.float_nan = float_nan, .time_ns = time_ns}) {}

  // The next batch's columns, or None at the end. The cursor is not thread-safe and the GIL is
  // released while it reads: a second thread calling in meanwhile gets an error, not a race.
  py::object Next() {
    if (busy_.exchange(true)) throw std::runtime_error("tsread: a batch iterator was used from two threads at once");
    struct Done {
      std::atomic<bool>& busy;
      ~Done() { busy = false; }
    } done{busy_};
    absl::Status status;
    {
      py::gil_scoped_release nogil;
      status = Fill();
    }
    Check(status, dataset_.get());
    if (collector_.rows() == 0) return py::none();
    return collector_.Finish();
  }

 private:
  absl::Status Fill() {
    while (!done_) {
      if (pending_) {
        if (collector_.rows() > 0 && collector_.rows() + pending_->num_rows() > limit_) return absl::OkStatus();
        const TableBatch* batch = std::exchange(pending_, nullptr);
        if (absl::Status s = collector_.Append(*batch); !s.ok()) return s;
        continue;
      }
      absl::StatusOr<TableBatch*> batch = cursor_.Next();
      if (!batch.ok()) return batch.status();
      if (*batch == nullptr) {
        done_ = true;
      } else {
        pending_ = *batch;
      }
    }
    return absl::OkStatus();
  }

  std::shared_ptr<Dataset> dataset_;
  std::unique_ptr<DatasetScanner> scanner_;
  DatasetScanner::Cursor cursor_;
  size_t limit_;
  Collector collector_;
  TableBatch* pending_ = nullptr;  // the cursor's batch, not yet taken
  bool done_ = false;
  std::atomic<bool> busy_{false};
};

// The Dask plan: the scan's projection (name, category, type) and one serialized split per
// partition with its file, planned rows and time range.
py::dict PlanSplits(const PyDataset& ds, const ScanArgs& args, uint64_t split_bytes) {
  const Dataset& dataset = *ds.dataset();
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(dataset, args);
  absl::StatusOr<std::vector<DatasetSplit>> splits;
  {
    py::gil_scoped_release nogil;
    splits = scanner->Splits(split_bytes);
  }
  Check(splits.status(), &dataset);
  py::list columns;
  for (const ProjectedColumn& c : scanner->projection()) {
    columns.append(py::make_tuple(c.name, std::string(ColumnCategoryName(c.category)), std::string(DataTypeName(c.data_type))));
  }
  py::list parts;
  for (const DatasetSplit& split : *splits) {
    // What the metadata announces for the split's devices: rows (ignoring the time range) and,
    // with rows, the time range they span.
    const ScanSplit& devices = split.devices;
    py::object min_time = devices.rows > 0 ? py::cast(devices.min_time) : py::none();
    py::object max_time = devices.rows > 0 ? py::cast(devices.max_time) : py::none();
    parts.append(py::make_tuple(py::bytes(scanner->SerializeSplit(split)), dataset.files()[split.file].path,
                                devices.rows, min_time, max_time));
  }
  py::dict out;
  out["columns"] = columns;
  out["splits"] = parts;
  return out;
}

// A rows hint beyond this many rows per byte of the file is not believed (the densest real
// encodings hold a few dozen): the columns then grow as rows come instead.
constexpr uint64_t kMaxHintedRowsPerFileByte = 64;

// Executes one serialized split (in a Dask worker): SplitReader::Open, then its rows.
// `rows_hint`: the rows the split's metadata announced when it was planned (0: unknown).
// `columns`: only these of the split's columns (None: all); `with_time`: whether a time column
// comes first.
py::list ReadSplit(const py::bytes& serialized, bool float_nan, bool time_ns, uint64_t rows_hint,
                   std::optional<std::vector<std::string>> columns, bool with_time) {
  const std::string bytes = serialized;
  absl::StatusOr<std::unique_ptr<SplitReader>> reader;
  absl::Status status;
  std::optional<Collector> collector;
  {
    py::gil_scoped_release nogil;
    reader = SplitReader::Open(bytes, 0, {}, std::move(columns));
    if (reader.ok()) {
      collector.emplace((*reader)->projection(),
                        ConvertOptions{.float_nan = float_nan, .time_ns = time_ns, .with_time = with_time});
      const uint64_t file_size = (*reader)->scanner().dataset().files()[0].size;
      const uint64_t believed = file_size > UINT64_MAX / kMaxHintedRowsPerFileByte ? UINT64_MAX
                                                                                   : file_size * kMaxHintedRowsPerFileByte;
      collector->BoundTagCategories((*reader)->split().devices.device_count);
      if (!collector->Reserve(static_cast<size_t>(std::min({rows_hint, believed, uint64_t{SIZE_MAX}})))) {
        status = OutOfMemory();
      } else {
        status = (*reader)->Scan([&](const TableBatch& batch) { return collector->Append(batch); });
      }
    }
  }
  Check(reader.status());
  Check(status);
  return collector->Finish();
}

// One value of a series as a Python object of its type (DATE and TIMESTAMP as their stored ints).
py::object ValueAt(const ColumnVector& v, size_t r) {
  switch (v.type) {
    case DataType::kBoolean: return py::bool_(v.bools[r] != 0);
    case DataType::kInt32:
    case DataType::kDate: return py::int_(v.int32s[r]);
    case DataType::kInt64:
    case DataType::kTimestamp: return py::int_(v.int64s[r]);
    case DataType::kFloat: return py::float_(v.floats[r]);
    case DataType::kDouble: return py::float_(v.doubles[r]);
    case DataType::kBlob: return py::bytes(std::string(v.binary(r)));
    default: {
      std::string_view s = v.binary(r);
      return py::reinterpret_steal<py::object>(
          PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape"));
    }
  }
}

// Tree-model points in long form: device, measurement, time, value (a Python object per point,
// typed by its series), every non-null point, by device string then measurement then time.
py::dict ReadTree(const PyDataset& ds) {
  const Dataset& dataset = *ds.dataset();
  py::list devices, measurements, times, values;
  for (size_t i = 0; i < dataset.files().size(); ++i) {
    if (!dataset.files()[i].has_tree_model) continue;
    std::shared_ptr<const TsFileReader> reader = Check(dataset.OpenFile(i), &dataset);
    std::vector<std::pair<std::string, DeviceLocation>> found;
    for (const std::string& index : reader->TreeIndexNames()) {
      DeviceIterator it = Check(reader->Devices(index), &dataset);
      while (const DeviceEntry* entry = Check(it.Next(), &dataset)) found.emplace_back(entry->id.ToString(), entry->location);
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [name, location] : found) {
      std::vector<TimeseriesMetadata> series = Check(reader->ReadTimeseries(location), &dataset);
      std::vector<std::string> names;
      for (const TimeseriesMetadata& tsm : series) {
        if (!tsm.is_time_column()) names.push_back(tsm.measurement);
      }
      std::sort(names.begin(), names.end());
      py::str device(name);
      for (const std::string& measurement : names) {
        std::unique_ptr<SeriesReader> points = Check(SeriesReader::Create(*reader, name, series, measurement), &dataset);
        py::str m(measurement);
        while (const SeriesBatch* batch = Check(points->Next(), &dataset)) {
          const ColumnVector& v = batch->values;
          for (size_t r = 0; r < batch->times.size(); ++r) {
            if (!v.IsValid(r)) continue;
            devices.append(device);
            measurements.append(m);
            times.append(batch->times[r]);
            values.append(ValueAt(v, r));
          }
        }
      }
    }
  }
  py::dict out;
  out["device"] = devices;
  out["measurement"] = measurements;
  out["time"] = times;
  out["value"] = values;
  return out;
}

}  // namespace
}  // namespace tsread::python

namespace {

tsread::python::ScanArgs MakeArgs(std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
                                  std::optional<int64_t> start, std::optional<int64_t> end,
                                  std::optional<tsread::python::Tags> tags, int threads, size_t batch_rows) {
  return {std::move(table), std::move(columns), start, end, tags ? std::move(*tags) : tsread::python::Tags{}, threads,
          batch_rows};
}

}  // namespace

PYBIND11_MODULE(_tsread, m) {
  using namespace tsread::python;
  m.doc() = "tsread: the C++ reader's binding (use the tsread package, not this module)";
  py::exception<struct CorruptFileTag>(m, "CorruptFileError", PyExc_ValueError);
  py::exception<struct UnsupportedFileTag>(m, "UnsupportedFileError", PyExc_ValueError);

  py::class_<PyDataset, std::shared_ptr<PyDataset>>(m, "Dataset")
      .def(py::init<const std::vector<std::string>&, bool>(), py::arg("inputs"), py::arg("skip_unreadable") = false)
      .def("files", &PyDataset::Files)
      .def("tables", &PyDataset::Tables)
      .def("schema", &PyDataset::Schema, py::arg("table") = py::none())
      .def("devices", &PyDataset::Devices, py::arg("table") = py::none())
      .def("info", &PyDataset::Info);

  m.def(
      "read_table",
      [](const PyDataset& ds, std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags, int threads,
         bool float_nan, bool time_ns) {
        return ReadTable(ds, MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), threads, 0),
                         float_nan, time_ns);
      },
      py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
      py::arg("threads"), py::arg("float_nan"), py::arg("time_ns"));

  py::class_<BatchReader>(m, "BatchReader")
      .def(py::init([](const PyDataset& ds, std::optional<std::string> table,
                       std::optional<std::vector<std::string>> columns, std::optional<int64_t> start,
                       std::optional<int64_t> end, std::optional<Tags> tags, size_t batch_rows, bool float_nan, bool time_ns) {
             return std::make_unique<BatchReader>(
                 ds.dataset(), MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), 1, batch_rows),
                 float_nan, time_ns);
           }),
           py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
           py::arg("batch_rows"), py::arg("float_nan"), py::arg("time_ns"))
      .def("next", &BatchReader::Next);

  m.def(
      "plan_splits",
      [](const PyDataset& ds, std::optional<std::string> table, std::optional<std::vector<std::string>> columns,
         std::optional<int64_t> start, std::optional<int64_t> end, std::optional<Tags> tags, uint64_t split_bytes) {
        return PlanSplits(ds, MakeArgs(std::move(table), std::move(columns), start, end, std::move(tags), 1, 0),
                          split_bytes);
      },
      py::arg("dataset"), py::arg("table"), py::arg("columns"), py::arg("start"), py::arg("end"), py::arg("tags"),
      py::arg("split_bytes"));
  m.def("read_split", &ReadSplit, py::arg("split"), py::arg("float_nan"), py::arg("time_ns"), py::arg("rows_hint") = 0,
        py::arg("columns") = py::none(), py::arg("with_time") = true);
  m.def("read_tree", &ReadTree, py::arg("dataset"));
}

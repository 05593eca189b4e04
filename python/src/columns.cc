#include "columns.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace py = pybind11;

namespace tsread::python {

py::dict ColumnHead(const ProjectedColumn& column) {
  py::dict out;
  out["name"] = column.name;
  out["category"] = std::string(ColumnCategoryName(column.category));
  out["type"] = std::string(DataTypeName(column.data_type));
  return out;
}

py::array NoneArray(size_t rows) {
  return py::module_::import("numpy").attr("full")(rows, py::none(), py::arg("dtype") = "object");
}

Collector::Collector(std::vector<ProjectedColumn> projection, ConvertOptions options)
    : projection_(std::move(projection)), options_(options) {
  columns_.resize(projection_.size());
  for (size_t j = 0; j < projection_.size(); ++j) {
    Column& c = columns_[j];
    c.meta = projection_[j];
    c.keep_mask = KeepsMask(c.meta, options_);
  }
}

void Collector::BoundTagCategories(size_t categories) {
  if (rows_ == 0) tag_code_width_ = TagCodeWidth(categories);
}

bool Collector::Reserve(size_t rows) {
  if (rows > SIZE_MAX / sizeof(int64_t)) return false;
  if (options_.with_time && !times_.Reserve(rows * sizeof(int64_t))) return false;
  for (Column& column : columns_) {
    const size_t width = ValuesWidthOf(column.meta, tag_code_width_);
    if (width > 0 && !column.values.Reserve(rows * width)) return false;  // 0: binary values
  }
  return true;
}

absl::Status Collector::Append(const TableBatch& batch) {
  const size_t rows = batch.num_rows();
  const std::string_view file = batch.file == nullptr ? std::string_view() : std::string_view(*batch.file);
  files_.Note(rows_, batch.file);
  if (options_.with_time) {
    const size_t at = times_.size();
    if (!times_.Resize(at + rows * sizeof(int64_t))) return OutOfMemory();
    if (absl::Status s = CopyTimes(batch.times.data(), rows, options_.time_ns, file,
                                   reinterpret_cast<int64_t*>(times_.data() + at));
        !s.ok()) {
      return s;
    }
  }
  for (size_t j = 0; j < columns_.size(); ++j) {
    Column& column = columns_[j];
    absl::Status status;
    if (column.meta.category == ColumnCategory::kTag) {
      status = AppendTag(column, batch.tag(j), rows);
    } else if (column.meta.category == ColumnCategory::kField) {
      status = AppendField(column, batch, j);
    }
    if (!status.ok()) return status;
  }
  rows_ += rows;
  return absl::OkStatus();
}

absl::Status Collector::AppendTag(Column& column, std::optional<std::string_view> value, size_t rows) {
  absl::StatusOr<int32_t> code = column.tags.CodeOf(value, tag_code_width_);
  if (!code.ok()) return code.status();
  const size_t at = column.values.size();
  if (!column.values.Resize(at + rows * tag_code_width_)) return OutOfMemory();
  FillTagCodes(column.values.data() + at, tag_code_width_, *code, rows);
  return absl::OkStatus();
}

absl::Status Collector::AppendNulls(Column& column, const ColumnVector& values) {
  if (values.null_count == 0) return absl::OkStatus();
  column.has_nulls = true;
  // Rows before this batch read zero (valid) in the mask: never written, so still zero.
  if (!column.mask.Resize(rows_ + values.length)) return OutOfMemory();
  CopyNullMask(values, column.mask.data() + rows_);
  return absl::OkStatus();
}

absl::Status Collector::AppendField(Column& column, const TableBatch& batch, size_t j) {
  const ColumnVector& values = batch.columns[j];
  const size_t rows = batch.num_rows();
  if (absl::Status s = AppendNulls(column, values); !s.ok()) return s;
  const size_t width = WidthOf(column.meta.data_type);
  if (width > 0) {
    const size_t at = column.values.size();
    if (!column.values.Resize(at + rows * width)) return OutOfMemory();
    const ValueSite site{batch.file == nullptr ? std::string_view() : std::string_view(*batch.file),
                         column.meta.name, batch.times.data()};
    bool mask_ok = true;
    // An invalid DATE read as null (invalid_dates='null'): its row joins the null mask.
    const auto mark_null = [&](size_t r) {
      if (column.mask.size() < rows_ + rows && !column.mask.Resize(rows_ + rows)) {
        mask_ok = false;
        return;
      }
      column.mask.data()[rows_ + r] = 1;
      column.has_nulls = true;
    };
    absl::Status status = CopyFieldValues(values, options_, site, mark_null, column.values.data() + at);
    return mask_ok ? status : OutOfMemory();
  }
  // Binary: the batch's offsets rebased onto the bytes gathered so far.
  if (column.offsets.size() == 0) {
    const int64_t zero = 0;
    if (!column.offsets.Append(&zero, sizeof zero)) return OutOfMemory();
  }
  const auto base = static_cast<int64_t>(column.values.size());
  const size_t at = column.offsets.size();
  if (!column.offsets.Resize(at + rows * sizeof(int64_t))) return OutOfMemory();
  auto* offsets = reinterpret_cast<int64_t*>(column.offsets.data() + at);
  for (size_t r = 0; r < rows; ++r) offsets[r] = base + values.offsets[r + 1];
  if (!column.values.Append(values.bytes.data(), rows == 0 ? 0 : static_cast<size_t>(values.offsets[rows]))) {
    return OutOfMemory();
  }
  return absl::OkStatus();
}

py::dict Collector::FinishColumn(Column& column, const int64_t* times) {
  const ProjectedColumn& meta = column.meta;
  py::dict out = ColumnHead(meta);
  if (meta.category == ColumnCategory::kTag) {
    out["kind"] = "tag";
    out["values"] = ReleaseTagCodes(column.values, tag_code_width_, column.tags.values().size());
    out["categories"] = CategoriesOf(column.tags.values(), meta.name, options_.invalid_utf8);
    return out;
  }
  if (meta.category != ColumnCategory::kField) {
    // ATTRIBUTE columns carry no values in table scans: all null.
    out["kind"] = "str";
    out["values"] = NoneArray(rows_);
    return out;
  }
  out["kind"] = KindOf(meta.data_type);
  if (column.has_nulls && !column.mask.Resize(rows_)) throw std::bad_alloc();
  if (WidthOf(meta.data_type) > 0) {
    out["values"] = column.values.Release(DtypeOf(meta.data_type));
    if (column.has_nulls && column.keep_mask) out["mask"] = column.mask.Release(py::dtype("bool"));
    return out;
  }
  // TEXT/STRING as str (or bytes, as invalid_utf8 says), BLOB as bytes, None for null.
  const TextDecoder decoder(meta, options_.invalid_utf8, times, options_.time_ns);
  out["kind"] = decoder.kind();
  py::array objects = py::module_::import("numpy").attr("empty")(rows_, py::arg("dtype") = "object");
  auto** slots = static_cast<PyObject**>(objects.mutable_data());
  const auto* offsets = reinterpret_cast<const int64_t*>(column.offsets.data());
  for (size_t r = 0; r < rows_; ++r) {
    if (column.has_nulls && column.mask.data()[r]) continue;  // np.empty filled the slot with None
    const std::string_view bytes(column.values.data() + offsets[r], static_cast<size_t>(offsets[r + 1] - offsets[r]));
    PyObject* value = decoder.Decode(bytes);
    if (value == nullptr) decoder.RaiseInvalid(bytes, r, files_.FileOf(r));
    PyObject* old = slots[r];
    slots[r] = value;
    Py_XDECREF(old);
  }
  out["values"] = objects;
  return out;
}

py::dict TimeColumn(py::object values) {
  py::dict time;
  time["name"] = "time";
  time["category"] = "TIME";
  time["type"] = "TIMESTAMP";
  time["kind"] = "time";
  time["values"] = std::move(values);
  return time;
}

py::list Collector::Finish() {
  py::list out;
  const int64_t* times = nullptr;
  if (options_.with_time) {
    py::array values = times_.Release(py::dtype::of<int64_t>());
    times = static_cast<const int64_t*>(values.data());  // kept alive by `out`
    out.append(TimeColumn(values));
  }
  for (Column& column : columns_) out.append(FinishColumn(column, times));
  // Ready for the next batch of rows (iter_batches reuses the collector).
  for (Column& column : columns_) {
    Column fresh;
    fresh.meta = column.meta;
    fresh.keep_mask = column.keep_mask;
    column = std::move(fresh);
  }
  files_.Clear();
  rows_ = 0;
  return out;
}

}  // namespace tsread::python

#include "columns.h"

#include <pybind11/numpy.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

namespace py = pybind11;

namespace tsread::python {
namespace {

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

size_t RoundUpToPage(size_t bytes) {
  const size_t page = PageSize();
  return std::max(page, (bytes + page - 1) / page * page);
}

// A mapping handed to numpy: unmapped when the array's base capsule dies.
struct Mapping {
  void* data;
  size_t bytes;
};

// The stored width of a FIELD value of `type` (BOOLEAN: one byte), 0 for binary types.
size_t WidthOf(DataType type) {
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kBinary: return 0;
  }
  return 0;
}

const void* ValuesOf(const ColumnVector& c) {
  switch (PhysicalTypeOf(c.type)) {
    case PhysicalType::kBoolean: return c.bools.data();
    case PhysicalType::kInt32: return c.int32s.data();
    case PhysicalType::kInt64: return c.int64s.data();
    case PhysicalType::kFloat: return c.floats.data();
    case PhysicalType::kDouble: return c.doubles.data();
    case PhysicalType::kBinary: return nullptr;
  }
  return nullptr;
}

py::dtype DtypeOf(DataType type) {
  switch (type) {
    case DataType::kBoolean: return py::dtype("bool");
    case DataType::kInt32:
    case DataType::kDate: return py::dtype::of<int32_t>();
    case DataType::kFloat: return py::dtype::of<float>();
    case DataType::kDouble: return py::dtype::of<double>();
    default: return py::dtype::of<int64_t>();
  }
}

// The kind of Python column a data type becomes (python/tsread/_frame.py maps kinds to dtypes).
const char* KindOf(DataType type) {
  switch (type) {
    case DataType::kBoolean: return "bool";
    case DataType::kInt32: return "int32";
    case DataType::kInt64: return "int64";
    case DataType::kTimestamp: return "timestamp";
    case DataType::kFloat: return "float32";
    case DataType::kDouble: return "float64";
    case DataType::kDate: return "date";
    case DataType::kBlob: return "bytes";
    default: return "str";
  }
}

template <typename T>
void NanForNulls(T* values, const ColumnVector& c) {
  for (size_t r = 0; r < c.length; ++r) {
    if (!c.IsValid(r)) values[r] = std::numeric_limits<T>::quiet_NaN();
  }
}

// Milliseconds to datetime64[ns] in place (null slots, marked in `valid`, become NaT); OutOfRange
// when a time is outside datetime64[ns]'s years 1677-2262.
absl::Status MillisToNanos(int64_t* values, size_t rows, const ColumnVector* valid) {
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 1'000'000;
  bool in_range = true;
  for (size_t r = 0; r < rows; ++r) in_range &= values[r] > -kLimit && values[r] < kLimit;
  if (!in_range) {
    return absl::OutOfRangeError("a time lies outside datetime64[ns] (years 1677-2262): read it with time_as='int'");
  }
  for (size_t r = 0; r < rows; ++r) values[r] *= 1'000'000;
  if (valid != nullptr && valid->null_count > 0) {
    for (size_t r = 0; r < rows; ++r) {
      if (!valid->IsValid(r)) values[r] = std::numeric_limits<int64_t>::min();
    }
  }
  return absl::OkStatus();
}

absl::Status OutOfMemory() { return absl::ResourceExhaustedError("tsread: out of memory gathering columns"); }

py::object Decode(const char* data, size_t size, bool as_bytes) {
  PyObject* value = as_bytes ? PyBytes_FromStringAndSize(data, static_cast<Py_ssize_t>(size))
                             : PyUnicode_DecodeUTF8(data, static_cast<Py_ssize_t>(size), "surrogateescape");
  if (value == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(value);
}

}  // namespace

Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)), mapped_(std::exchange(other.mapped_, false)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
  std::swap(capacity_, other.capacity_);
  std::swap(mapped_, other.mapped_);
  return *this;
}

Buffer::~Buffer() {
  if (data_ == nullptr) return;
  if (mapped_) {
    munmap(data_, capacity_);
  } else {
    std::free(data_);
  }
}

bool Buffer::Reserve(size_t bytes) {
  if (bytes <= capacity_) return true;
  const size_t wanted = std::max({bytes, capacity_ * 2, size_t{4096}});
  if (wanted < kMapThreshold) {
    // Small buffers (iter_batches with small batches, short columns) stay on the heap: a mapping
    // per numpy array would exhaust the process's mapping count.
    void* grown = std::realloc(data_, wanted);
    if (grown == nullptr) return false;
    std::memset(static_cast<char*>(grown) + capacity_, 0, wanted - capacity_);
    data_ = static_cast<char*>(grown);
    capacity_ = wanted;
    return true;
  }
  const size_t capacity = (wanted + kHugePage - 1) / kHugePage * kHugePage;
  void* grown;
  if (mapped_) {
    grown = mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
    if (grown == MAP_FAILED) return false;
  } else {
    grown = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (grown == MAP_FAILED) return false;
    if (data_ != nullptr) std::memcpy(grown, data_, size_);
    std::free(data_);
    mapped_ = true;
  }
  // Huge pages: a column of 100 MB faults in 50 times, not 25,000 (page faults dominate a read
  // that writes fresh memory). Only a hint: without transparent huge pages nothing changes.
  madvise(grown, capacity, MADV_HUGEPAGE);
  data_ = static_cast<char*>(grown);
  capacity_ = capacity;
  return true;
}

bool Buffer::Resize(size_t bytes) {
  if (!Reserve(bytes)) return false;
  size_ = bytes;
  return true;
}

bool Buffer::Append(const void* from, size_t bytes) {
  if (bytes == 0) return true;
  if (!Reserve(size_ + bytes)) return false;
  std::memcpy(data_ + size_, from, bytes);
  size_ += bytes;
  return true;
}

py::array Buffer::Release(const py::dtype& dtype) {
  if (!Reserve(1)) throw std::bad_alloc();
  py::capsule owner;
  if (mapped_) {
    // Give back the pages past the data (the doubling's slack) before numpy owns the mapping.
    const size_t keep = RoundUpToPage(size_);
    if (keep < capacity_ && mremap(data_, capacity_, keep, 0) != MAP_FAILED) capacity_ = keep;
    owner = py::capsule(new Mapping{data_, capacity_}, [](void* p) {
      auto* m = static_cast<Mapping*>(p);
      munmap(m->data, m->bytes);
      delete m;
    });
  } else {
    owner = py::capsule(data_, [](void* p) { std::free(p); });
  }
  const auto count = static_cast<py::ssize_t>(size_ / static_cast<size_t>(dtype.itemsize()));
  py::array out(dtype, {count}, {}, data_, owner);
  data_ = nullptr;
  size_ = capacity_ = 0;
  mapped_ = false;
  return out;
}

Collector::Collector(std::vector<ProjectedColumn> projection, ConvertOptions options)
    : projection_(std::move(projection)), options_(options) {
  columns_.resize(projection_.size());
  for (size_t j = 0; j < projection_.size(); ++j) {
    Column& c = columns_[j];
    c.meta = projection_[j];
    const bool is_float = c.meta.data_type == DataType::kFloat || c.meta.data_type == DataType::kDouble;
    c.keep_mask = c.meta.category == ColumnCategory::kField && WidthOf(c.meta.data_type) > 0 &&
                  !(is_float && options_.float_nan) && !(c.meta.data_type == DataType::kTimestamp && options_.time_ns);
  }
}

absl::Status Collector::Append(const TableBatch& batch) {
  const size_t rows = batch.num_rows();
  const size_t at = times_.size();
  if (!times_.Append(batch.times.data(), rows * sizeof(int64_t))) return OutOfMemory();
  if (options_.time_ns) {
    if (absl::Status s = MillisToNanos(reinterpret_cast<int64_t*>(times_.data() + at), rows, nullptr); !s.ok()) return s;
  }
  for (size_t j = 0; j < columns_.size(); ++j) {
    Column& column = columns_[j];
    absl::Status status;
    if (column.meta.category == ColumnCategory::kTag) {
      status = AppendTag(column, batch.tag(j), rows);
    } else if (column.meta.category == ColumnCategory::kField) {
      status = AppendField(column, batch.columns[j], rows);
    }
    if (!status.ok()) return status;
  }
  rows_ += rows;
  return absl::OkStatus();
}

absl::Status Collector::AppendTag(Column& column, std::optional<std::string_view> value, size_t rows) {
  int32_t code = -1;
  if (value) {
    auto [it, added] = column.codes.try_emplace(std::string(*value), static_cast<int32_t>(column.categories.size()));
    if (added) column.categories.emplace_back(*value);
    code = it->second;
  }
  const size_t at = column.values.size();
  if (!column.values.Resize(at + rows * sizeof(int32_t))) return OutOfMemory();
  auto* codes = reinterpret_cast<int32_t*>(column.values.data() + at);
  std::fill(codes, codes + rows, code);
  return absl::OkStatus();
}

absl::Status Collector::AppendNulls(Column& column, const ColumnVector& values) {
  if (values.null_count == 0) return absl::OkStatus();
  column.has_nulls = true;
  // Rows before this batch read zero (valid) in the mask: never written, so still zero.
  if (!column.mask.Resize(rows_ + values.length)) return OutOfMemory();
  char* mask = column.mask.data() + rows_;
  for (size_t r = 0; r < values.length; ++r) mask[r] = !values.IsValid(r);
  return absl::OkStatus();
}

absl::Status Collector::AppendField(Column& column, const ColumnVector& values, size_t rows) {
  if (absl::Status s = AppendNulls(column, values); !s.ok()) return s;
  const size_t width = WidthOf(column.meta.data_type);
  if (width > 0) {
    const size_t at = column.values.size();
    if (!column.values.Append(ValuesOf(values), rows * width)) return OutOfMemory();
    if (options_.time_ns && values.type == DataType::kTimestamp) {
      return MillisToNanos(reinterpret_cast<int64_t*>(column.values.data() + at), rows, &values);
    }
    if (options_.float_nan && values.null_count > 0) {
      if (values.type == DataType::kFloat) NanForNulls(reinterpret_cast<float*>(column.values.data() + at), values);
      if (values.type == DataType::kDouble) NanForNulls(reinterpret_cast<double*>(column.values.data() + at), values);
    }
    return absl::OkStatus();
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

py::dict Collector::FinishColumn(Column& column) {
  py::dict out;
  const ProjectedColumn& meta = column.meta;
  out["name"] = meta.name;
  out["category"] = std::string(ColumnCategoryName(meta.category));
  out["type"] = std::string(DataTypeName(meta.data_type));
  if (meta.category == ColumnCategory::kTag) {
    out["kind"] = "tag";
    out["values"] = column.values.Release(py::dtype::of<int32_t>());
    py::list categories;
    for (const std::string& c : column.categories) categories.append(Decode(c.data(), c.size(), false));
    out["categories"] = categories;
    return out;
  }
  if (meta.category != ColumnCategory::kField) {
    // ATTRIBUTE columns carry no values in table scans: all null.
    out["kind"] = "str";
    out["values"] = py::module_::import("numpy").attr("full")(rows_, py::none(), py::arg("dtype") = "object");
    return out;
  }
  out["kind"] = KindOf(meta.data_type);
  if (column.has_nulls && !column.mask.Resize(rows_)) throw std::bad_alloc();
  if (WidthOf(meta.data_type) > 0) {
    out["values"] = column.values.Release(DtypeOf(meta.data_type));
    if (column.has_nulls && column.keep_mask) out["mask"] = column.mask.Release(py::dtype("bool"));
    return out;
  }
  // TEXT/STRING as str (undecodable bytes kept through surrogateescape), BLOB as bytes, None for null.
  py::array objects = py::module_::import("numpy").attr("empty")(rows_, py::arg("dtype") = "object");
  auto** slots = static_cast<PyObject**>(objects.mutable_data());
  const auto* offsets = reinterpret_cast<const int64_t*>(column.offsets.data());
  const bool as_bytes = meta.data_type == DataType::kBlob;
  for (size_t r = 0; r < rows_; ++r) {
    if (column.has_nulls && column.mask.data()[r]) continue;  // np.empty filled the slot with None
    py::object value = Decode(column.values.data() + offsets[r], static_cast<size_t>(offsets[r + 1] - offsets[r]), as_bytes);
    PyObject* old = slots[r];
    slots[r] = value.release().ptr();
    Py_XDECREF(old);
  }
  out["values"] = objects;
  return out;
}

py::list Collector::Finish() {
  py::list out;
  py::dict time;
  time["name"] = "time";
  time["category"] = "TIME";
  time["type"] = "TIMESTAMP";
  time["kind"] = "time";
  time["values"] = times_.Release(py::dtype::of<int64_t>());
  out.append(time);
  for (Column& column : columns_) out.append(FinishColumn(column));
  // Ready for the next batch of rows (iter_batches reuses the collector).
  for (Column& column : columns_) {
    Column fresh;
    fresh.meta = column.meta;
    fresh.keep_mask = column.keep_mask;
    column = std::move(fresh);
  }
  rows_ = 0;
  return out;
}

}  // namespace tsread::python

#include "values.h"

#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "date_values.h"
#include "tsread/dataset/dataset.h"
#include "tsread/io/status_macros.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

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

template <typename T>
void NanForNulls(const ColumnVector& c, T* values) {
  for (size_t r = 0; r < c.length; ++r) {
    if (!c.IsValid(r)) values[r] = std::numeric_limits<T>::quiet_NaN();
  }
}

constexpr int64_t kNanosPerMilli = 1'000'000;

constexpr int64_t kNanosLimit = std::numeric_limits<int64_t>::max() / kNanosPerMilli;

bool NanosHold(int64_t millis) { return millis > -kNanosLimit && millis < kNanosLimit; }

// Names the column and the value, so that a wide table's error says where to look.
absl::Status TimeOutOfRange(std::string_view file, std::string_view what) {
  return WithFileName(absl::OutOfRangeError(absl::StrCat(ToAbsl(what),
                                                         " lies outside datetime64[ns] (years 1677-2262): read it "
                                                         "with time_as='int'")),
                      file);
}

// Milliseconds to nanoseconds in one pass (the copy and the check fused: the source is in cache,
// the destination written once).
bool MillisToNanos(const int64_t* from, size_t rows, int64_t* to) {
  bool in_range = true;
  for (size_t r = 0; r < rows; ++r) {
    in_range &= NanosHold(from[r]);
    to[r] = from[r] * kNanosPerMilli;  // wraps harmlessly when out of range: then refused
  }
  return in_range;
}

}  // namespace

absl::StatusOr<ConvertOptions> MakeConvertOptions(bool float_nan, bool time_ns, std::string_view date_as,
                                                  std::string_view invalid_dates, std::string_view invalid_utf8) {
  ConvertOptions options{.float_nan = float_nan, .time_ns = time_ns};
  if (date_as == "int") {
    options.date_as = DateAs::kInt;
  } else if (date_as == "date") {
    options.date_as = DateAs::kDate;
  } else if (date_as == "datetime64") {
    options.date_as = DateAs::kDatetime64;
  } else {
    return absl::InvalidArgumentError("date_as is 'datetime64', 'date' or 'int'");
  }
  if (invalid_dates != "error" && invalid_dates != "null") {
    return absl::InvalidArgumentError("invalid_dates is 'error' or 'null'");
  }
  options.invalid_dates_null = invalid_dates == "null";
  if (invalid_utf8 == "error") {
    options.invalid_utf8 = InvalidUtf8::kError;
  } else if (invalid_utf8 == "replace") {
    options.invalid_utf8 = InvalidUtf8::kReplace;
  } else if (invalid_utf8 == "bytes") {
    options.invalid_utf8 = InvalidUtf8::kBytes;
  } else {
    return absl::InvalidArgumentError("invalid_utf8 is 'error', 'replace' or 'bytes'");
  }
  return options;
}

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

size_t ValuesWidthOf(const ProjectedColumn& column, size_t tag_code_width) {
  if (column.category == ColumnCategory::kTag) return tag_code_width;
  if (column.category == ColumnCategory::kField) return WidthOf(column.data_type);
  return 0;
}

bool KeepsMask(const ProjectedColumn& column, const ConvertOptions& options) {
  const bool is_float = column.data_type == DataType::kFloat || column.data_type == DataType::kDouble;
  return column.category == ColumnCategory::kField && WidthOf(column.data_type) > 0 &&
         !(is_float && options.float_nan) && !(column.data_type == DataType::kTimestamp && options.time_ns);
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

absl::Status CopyTimes(const int64_t* from, size_t rows, bool time_ns, std::string_view file, int64_t* to) {
  if (!time_ns) {
    if (rows > 0) std::memcpy(to, from, rows * sizeof(int64_t));
    return absl::OkStatus();
  }
  if (MillisToNanos(from, rows, to)) return absl::OkStatus();
  size_t r = 0;
  while (NanosHold(from[r])) ++r;  // the first one out of range, to name it
  return TimeOutOfRange(file, absl::StrCat("column \"time\": time ", from[r]));
}

absl::Status CopyFieldValues(const ColumnVector& values, const ConvertOptions& options, const ValueSite& site,
                             MarkNull mark_null, char* to) {
  const size_t rows = values.length;
  if (values.type == DataType::kDate) {
    return ConvertDates(values, options, site, mark_null, reinterpret_cast<int32_t*>(to));
  }
  if (options.time_ns && values.type == DataType::kTimestamp) {
    auto* times = reinterpret_cast<int64_t*>(to);
    // Null slots hold placeholders that may lie out of range: checked after they become NaT.
    MillisToNanos(values.int64s.data(), rows, times);
    for (size_t r = 0; r < rows; ++r) {
      if (!values.IsValid(r)) {
        times[r] = std::numeric_limits<int64_t>::min();  // NaT
      } else if (!NanosHold(values.int64s[r])) {
        const std::string at = site.times == nullptr ? std::string() : absl::StrCat(" at time ", site.times[r]);
        return TimeOutOfRange(site.file, absl::StrCat("column \"", ToAbsl(site.column), "\": TIMESTAMP value ",
                                                      values.int64s[r], at));
      }
    }
    return absl::OkStatus();
  }
  if (rows > 0) std::memcpy(to, ValuesOf(values), rows * WidthOf(values.type));
  if (options.float_nan && values.null_count > 0) {
    if (values.type == DataType::kFloat) NanForNulls(values, reinterpret_cast<float*>(to));
    if (values.type == DataType::kDouble) NanForNulls(values, reinterpret_cast<double*>(to));
  }
  return absl::OkStatus();
}

void CopyNullMask(const ColumnVector& values, char* to) {
  for (size_t r = 0; r < values.length; ++r) to[r] = !values.IsValid(r);
}

absl::Status OutOfMemory() { return absl::ResourceExhaustedError("tsread: out of memory gathering columns"); }

}  // namespace tsread::python

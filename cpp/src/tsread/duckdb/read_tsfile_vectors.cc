// read_tsfile's vector writing: validity copies, time scaling with range checks, TAG values
// (strings or ENUM codes) and FIELD values of every data type into DuckDB output vectors.
#include "tsread/duckdb/read_tsfile_vectors.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/aggregate/run_reduce.h"
#include "tsread/common/bitmap.h"
#include "tsread/common/calendar.h"
#include "tsread/duckdb/function_support.h"

namespace tsread::duckdb_ext::read_tsfile_internal {
namespace {

bool IsStringType(DataType type) { return type == DataType::kText || type == DataType::kString; }

absl::Status InvalidUtf8(const std::string& file, const std::string& column) {
  return absl::DataLossError(absl::StrCat(file, ": column \"", column,
                                          "\": a value is not valid UTF-8 (binary_as_blob := true reads it as BLOB)"));
}

// Bits [at, at + rows) of a DuckDB validity mask set (valid) or cleared (NULL): whole words where
// the range covers them, bits at its ends.
void SetValidityBits(uint64_t* mask, size_t at, size_t rows, bool valid) {
  const size_t end = at + rows;
  size_t r = at;
  while (r < end) {
    if (r % 64 == 0 && r + 64 <= end) {
      mask[r / 64] = valid ? ~uint64_t{0} : 0;
      r += 64;
      continue;
    }
    const uint64_t bit = uint64_t{1} << (r % 64);
    mask[r / 64] = valid ? (mask[r / 64] | bit) : (mask[r / 64] & ~bit);
    ++r;
  }
}

// The validity of rows [offset, offset + rows) of `values` into rows [at, at + rows).
void CopyValidity(const ColumnVector& values, size_t offset, duckdb_vector vector, size_t at, size_t rows) {
  if (values.null_count == 0) {
    SetValidRows(vector, at, rows);
    return;
  }
  duckdb_vector_ensure_validity_writable(vector);
  uint64_t* validity = duckdb_vector_get_validity(vector);
  if (offset % 8 == 0 && at == 0) {
    // Both bitmaps are little-endian: bit r of byte r / 8 is row r; bits past the batch are zero.
    std::memset(validity, 0, (rows + 63) / 64 * 8);
    std::memcpy(validity, values.validity.data() + offset / 8, (rows + 7) / 8);
    return;
  }
  CopyBits(values.validity.data(), offset, reinterpret_cast<uint8_t*>(validity), at, rows);
}

}  // namespace

void FillConstantString(duckdb_vector vector, size_t at, size_t rows, std::string_view value) {
  if (rows == 0) return;
  SetString(vector, at, value);
  auto* records = static_cast<duckdb_string_t*>(duckdb_vector_get_data(vector));
  std::fill(records + at + 1, records + at + rows, records[at]);
}

void SetValidRows(duckdb_vector vector, size_t at, size_t rows) {
  uint64_t* validity = duckdb_vector_get_validity(vector);
  if (validity != nullptr) SetValidityBits(validity, at, rows, true);
}

void FillNull(duckdb_vector vector, size_t at, size_t rows) {
  duckdb_vector_ensure_validity_writable(vector);
  SetValidityBits(duckdb_vector_get_validity(vector), at, rows, false);
}

absl::Status WriteTimes(const int64_t* in, size_t rows, const TimeMapping& mapping, int64_t* out,
                        const std::string& file, const std::string& what) {
  if (mapping.raw || mapping.unit != TimeUnit::kMs) {
    std::memcpy(out, in, rows * sizeof(int64_t));
    return absl::OkStatus();
  }
  // Range check first (in vector lanes: baseline x86-64 has no 64-bit vector compare, ExtendRange
  // picks AVX2's), then scale ms -> micros as (t << 10) - (t << 4) - (t << 3), which vectorizes
  // where a 64-bit multiply does not, in unsigned arithmetic: the same bits as t * 1000, which the
  // check keeps inside int64.
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 1000;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min() / 1000;
  int64_t lo = 0, hi = 0;
  ExtendRange(in, rows, lo, hi);
  if (lo < kMin || hi > kMax) {
    return absl::OutOfRangeError(
        absl::StrCat(file, ": ", what, ": time ", lo < kMin ? lo : hi, " is out of range of TIMESTAMP ", kTimeRangeAdvice));
  }
  static_assert((uint64_t{1} << 10) - (uint64_t{1} << 4) - (uint64_t{1} << 3) == 1000);
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t t = static_cast<uint64_t>(in[r]);
    out[r] = static_cast<int64_t>((t << 10) - (t << 4) - (t << 3));
  }
  return absl::OkStatus();
}

absl::Status WriteTag(const BindData& bind, const ProjectedColumn& column, const TagEnum* tag_enum,
                      std::optional<std::string_view> tag, size_t at, size_t rows, const std::string& file,
                      duckdb_vector vector) {
  if (!tag) {
    FillNull(vector, at, rows);
    return absl::OkStatus();
  }
  if (tag_enum != nullptr) {
    std::optional<uint32_t> code = tag_enum->Code(*tag);
    if (!code) {
      return absl::FailedPreconditionError(
          absl::StrCat(file, ": column \"", column.name, "\": a tag value that was not in the file when the query was bound"));
    }
    SetValidRows(vector, at, rows);
    tag_enum->Fill(vector, *code, at, rows);
    return absl::OkStatus();
  }
  if (!bind.binary_as_blob && !ValidUtf8(*tag)) return InvalidUtf8(file, column.name);
  SetValidRows(vector, at, rows);
  FillConstantString(vector, at, rows, *tag);
  return absl::OkStatus();
}

absl::Status WriteField(const BindData& bind, const ProjectedColumn& column, const ColumnVector& values, size_t offset,
                        size_t rows, const std::string& file, duckdb_vector vector, size_t at) {
  if (values.size() < offset + rows) {
    return absl::InternalError(absl::StrCat(file, ": column ", column.name, ": ", values.size(), " values for ",
                                            offset + rows, " rows"));
  }
  CopyValidity(values, offset, vector, at, rows);
  char* data = static_cast<char*>(duckdb_vector_get_data(vector));
  switch (column.data_type) {
    case DataType::kBoolean:
      std::memcpy(data + at, values.bools.data() + offset, rows);
      return absl::OkStatus();
    case DataType::kInt32:
      std::memcpy(data + at * sizeof(int32_t), values.int32s.data() + offset, rows * sizeof(int32_t));
      return absl::OkStatus();
    case DataType::kInt64:
      std::memcpy(data + at * sizeof(int64_t), values.int64s.data() + offset, rows * sizeof(int64_t));
      return absl::OkStatus();
    case DataType::kFloat:
      std::memcpy(data + at * sizeof(float), values.floats.data() + offset, rows * sizeof(float));
      return absl::OkStatus();
    case DataType::kDouble:
      std::memcpy(data + at * sizeof(double), values.doubles.data() + offset, rows * sizeof(double));
      return absl::OkStatus();
    case DataType::kTimestamp: {
      auto* out = reinterpret_cast<int64_t*>(data) + at;
      if (values.null_count == 0) {
        return WriteTimes(values.int64s.data() + offset, rows, bind.time, out, file,
                          absl::StrCat("column \"", column.name, "\""));
      }
      // A null slot's value is unspecified: only valid ones are converted (and checked).
      for (size_t r = 0; r < rows; ++r) {
        out[r] = 0;
        if (!values.IsValid(offset + r)) continue;
        std::optional<int64_t> t = ToOutputTime(values.int64s[offset + r], bind.time);
        if (!t) {
          return absl::OutOfRangeError(absl::StrCat(file, ": column \"", column.name, "\": timestamp ",
                                                    values.int64s[offset + r], " is out of range"));
        }
        out[r] = *t;
      }
      return absl::OkStatus();
    }
    case DataType::kDate: {
      auto* out = reinterpret_cast<int32_t*>(data) + at;
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(offset + r)) {
          out[r] = 0;
          continue;
        }
        std::optional<int32_t> d = DaysFromYyyyMmDd(values.int32s[offset + r]);
        if (!d) {
          return absl::DataLossError(absl::StrCat(file, ": column \"", column.name, "\": ", values.int32s[offset + r],
                                                  " is not a yyyyMMdd date"));
        }
        out[r] = *d;
      }
      return absl::OkStatus();
    }
    case DataType::kText:
    case DataType::kString:
    case DataType::kBlob: {
      const bool check = IsStringType(column.data_type) && !bind.binary_as_blob;
      for (size_t r = 0; r < rows; ++r) {
        if (!values.IsValid(offset + r)) continue;
        std::string_view value = values.binary(offset + r);
        if (check && !ValidUtf8(value)) return InvalidUtf8(file, column.name);
        SetString(vector, at + r, value);
      }
      return absl::OkStatus();
    }
    default:
      return absl::UnimplementedError(absl::StrCat(file, ": column \"", column.name, "\": unsupported data type"));
  }
}

}  // namespace tsread::duckdb_ext::read_tsfile_internal

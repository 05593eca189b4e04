// The Arrow arrays of an exported scan: the arrays' private data, validity, UTF-8 checks, FIELD
// columns, constant and dictionary columns (TAG, ATTRIBUTE, the file column) and the batch's
// struct array (arrow_array.h).
#include "tsread/arrow/arrow_array.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tsread/arrow/arrow_schema.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/common/calendar.h"
#include "tsread/common/utf8.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace arrow_internal {
namespace {

// ---------------------------------------------------------------------------------------------
// Arrays: each ArrowArray owns an ArrayPrivate with the buffers it points to.

struct ArrayPrivate {
  std::vector<uint8_t> validity;
  std::vector<uint8_t> bits;      // BOOLEAN values
  std::vector<int32_t> int32s;    // INT32, DATE, dictionary indices
  std::vector<int64_t> int64s;    // INT64, TIMESTAMP, time
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<int32_t> offsets;   // utf8 / binary
  std::vector<char> data;
  std::array<const void*, 3> buffers{};
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;
  std::shared_ptr<BufferPool> pool;  // where the buffers go back on release (may be null)
  // An all-null column's buffers (validity, values, offsets) all point into this block of zeros,
  // shared by the batch's all-null columns.
  std::shared_ptr<const std::vector<uint64_t>> zeros;
};

// Hands `from` (a batch's buffer) over to `to` (the array's), and refills `from` for the scan's
// next batch with a buffer given back.
template <typename T>
void HandOver(ArrayPrivate* priv, std::vector<T>& from, std::vector<T>& to) {
  to = std::move(from);
  from = std::vector<T>();
  if (priv->pool != nullptr) priv->pool->Refill(from);
}

// A recycled buffer for `v` before the array fills it.
template <typename T>
void Recycled(ArrayPrivate* priv, std::vector<T>& v) {
  if (priv->pool != nullptr) priv->pool->Refill(v);
}

void ReleaseArray(ArrowArray* array) {
  if (array == nullptr || array->release == nullptr) return;
  std::unique_ptr<ArrayPrivate> owned(static_cast<ArrayPrivate*>(array->private_data));
  if (BufferPool* pool = owned->pool.get(); pool != nullptr) {
    pool->GiveBack(owned->validity);
    pool->GiveBack(owned->bits);
    pool->GiveBack(owned->int32s);
    pool->GiveBack(owned->int64s);
    pool->GiveBack(owned->floats);
    pool->GiveBack(owned->doubles);
    pool->GiveBack(owned->offsets);
    pool->GiveBack(owned->data);
  }
  for (ArrowArray& child : owned->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) {
    owned->dictionary->release(owned->dictionary.get());
  }
  array->release = nullptr;
}

ArrayPrivate* InitArray(ArrowArray* out, int64_t length, int64_t n_buffers, const std::shared_ptr<BufferPool>& pool) {
  auto priv = std::make_unique<ArrayPrivate>();
  ArrayPrivate* raw = priv.get();
  raw->pool = pool;
  *out = ArrowArray{};
  out->length = length;
  out->null_count = 0;
  out->offset = 0;
  out->n_buffers = n_buffers;
  out->n_children = 0;
  out->buffers = raw->buffers.data();
  out->children = nullptr;
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = priv.release();
  return raw;
}

// Hands the column's validity bitmap over (already Arrow's LSB-first layout); no buffer at all
// when nothing is null.
void MoveValidity(ArrowArray* out, ArrayPrivate* priv, ColumnVector& column) {
  out->null_count = static_cast<int64_t>(column.null_count);
  if (column.null_count == 0) {
    priv->buffers[0] = nullptr;
    return;
  }
  HandOver(priv, column.validity, priv->validity);
  priv->buffers[0] = priv->validity.data();
}

absl::StatusOr<int32_t> Date32FromYyyyMmDd(int32_t value) {
  std::optional<int32_t> days = DaysFromYyyyMmDd(value);
  if (!days.has_value()) {
    return absl::DataLossError(absl::StrCat("DATE value ", value, " is not a valid yyyyMMdd date"));
  }
  return *days;
}

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Every value of a TEXT/STRING column is valid UTF-8 iff all its bytes are and no value starts
// with a continuation byte (then every value also ends on a character boundary): one pass over
// the bytes instead of one call per value.
absl::Status CheckUtf8(const ColumnVector& column, const std::string& name) {
  const std::string_view all(column.bytes.data(), column.bytes.size());
  bool ok = IsValidUtf8(all);
  for (size_t r = 0; ok && r < column.length; ++r) {
    const int32_t begin = column.offsets[r];
    if (begin < column.offsets[r + 1] && IsUtf8Continuation(column.bytes[begin])) ok = false;
  }
  if (ok) return absl::OkStatus();
  for (size_t r = 0; r < column.length; ++r) {  // name the first bad row
    if (!IsValidUtf8(column.binary(r))) {
      return absl::DataLossError(absl::StrCat("column \"", name, "\" row ", r, " is not valid UTF-8"));
    }
  }
  return absl::DataLossError(absl::StrCat("column \"", name, "\" is not valid UTF-8"));
}

// One byte per row (non-zero = true) to Arrow's LSB-first bits, eight rows a step: each byte made
// 0 or 1, then the eight gathered into one by a multiply (byte i lands in bit i).
void PackBits(const std::vector<uint8_t>& bytes, size_t rows, std::vector<uint8_t>& bits) {
  bits.resize((rows + 7) / 8);
  const size_t full = rows / 8;
  for (size_t i = 0; i < full; ++i) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + 8 * i, 8);
    constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
    const uint64_t ones = (((w & kLow7) + kLow7) | w) >> 7 & 0x0101010101010101ULL;  // byte != 0
    bits[i] = static_cast<uint8_t>((ones * 0x0102040810204080ULL) >> 56);
  }
  if (full < bits.size()) {
    uint8_t last = 0;
    for (size_t r = 8 * full; r < rows; ++r) last |= static_cast<uint8_t>((bytes[r] != 0) << (r & 7));
    bits[full] = last;
  }
}

void MoveBinaries(ArrayPrivate* priv, ColumnVector& column) {
  HandOver(priv, column.offsets, priv->offsets);
  HandOver(priv, column.bytes, priv->data);
  priv->buffers[1] = priv->offsets.data();
  priv->buffers[2] = priv->data.data();
}

// A column null on every row: no buffer of its own — validity, values and (strings) offsets are
// all zeros, read from one block shared by the batch's all-null columns (8 bytes per row covers
// the widest of them); the column's own buffers stay with the batch.
void FillAllNull(ArrowArray* out, ArrayPrivate* priv, size_t rows, std::shared_ptr<const std::vector<uint64_t>>& zeros) {
  if (zeros == nullptr) zeros = std::make_shared<const std::vector<uint64_t>>(rows + 1, 0);
  priv->zeros = zeros;
  out->null_count = static_cast<int64_t>(rows);
  for (int64_t b = 0; b < out->n_buffers; ++b) priv->buffers[static_cast<size_t>(b)] = zeros->data();
}

absl::Status FillField(ArrowArray* out, ArrayPrivate* priv, const ProjectedColumn& projected, ColumnVector& column) {
  const size_t rows = column.length;
  switch (column.type) {
    case DataType::kBoolean:
      Recycled(priv, priv->bits);
      PackBits(column.bools, rows, priv->bits);
      priv->buffers[1] = priv->bits.data();
      break;
    case DataType::kInt32:
      HandOver(priv, column.int32s, priv->int32s);
      priv->buffers[1] = priv->int32s.data();
      break;
    case DataType::kDate:
      for (size_t r = 0; r < rows; ++r) {
        if (!column.IsValid(r)) continue;
        absl::StatusOr<int32_t> days = Date32FromYyyyMmDd(column.int32s[r]);
        if (!days.ok()) return absl::DataLossError(absl::StrCat("column \"", projected.name, "\": ", days.status().message()));
        column.int32s[r] = *days;
      }
      HandOver(priv, column.int32s, priv->int32s);
      priv->buffers[1] = priv->int32s.data();
      break;
    case DataType::kInt64:
    case DataType::kTimestamp:
      HandOver(priv, column.int64s, priv->int64s);
      priv->buffers[1] = priv->int64s.data();
      break;
    case DataType::kFloat:
      HandOver(priv, column.floats, priv->floats);
      priv->buffers[1] = priv->floats.data();
      break;
    case DataType::kDouble:
      HandOver(priv, column.doubles, priv->doubles);
      priv->buffers[1] = priv->doubles.data();
      break;
    case DataType::kText:
    case DataType::kString:
      TSREAD_RETURN_IF_ERROR(CheckUtf8(column, projected.name));
      MoveBinaries(priv, column);
      break;
    case DataType::kBlob:
      MoveBinaries(priv, column);
      break;
    default:
      return absl::InternalError("unexpected column type");
  }
  MoveValidity(out, priv, column);
  return absl::OkStatus();
}

// `value` repeated to fill `total` bytes at `out` (a multiple of its size): written once, then the
// filled part copied after itself, doubling — a few large copies instead of one per row.
void Repeat(std::string_view value, char* out, size_t total) {
  std::memcpy(out, value.data(), value.size());
  size_t filled = value.size();
  while (filled < total) {
    const size_t n = std::min(filled, total - filled);
    std::memcpy(out + filled, out, n);
    filled += n;
  }
}

// A utf8 array of `rows` copies of `value` (all null for nullopt).
absl::Status FillConstantString(ArrowArray* out, ArrayPrivate* priv, size_t rows,
                                const std::optional<std::string_view>& value, const std::string& name) {
  if (value.has_value() && !IsValidUtf8(*value)) {
    return absl::DataLossError(absl::StrCat("column \"", name, "\" is not valid UTF-8"));
  }
  const size_t size = value.has_value() ? value->size() : 0;
  if (rows * size > static_cast<size_t>(INT32_MAX)) {
    return absl::ResourceExhaustedError(absl::StrCat("column \"", name,
                                                     "\": a batch's strings exceed 2 GiB (Arrow utf8 offsets are "
                                                     "int32); export TAG columns as dictionaries"));
  }
  Recycled(priv, priv->offsets);
  Recycled(priv, priv->data);
  priv->offsets.resize(rows + 1);
  const int32_t step = static_cast<int32_t>(size);
  for (size_t r = 0; r <= rows; ++r) priv->offsets[r] = static_cast<int32_t>(r) * step;
  priv->data.resize(rows * size);
  if (size > 0) Repeat(*value, priv->data.data(), rows * size);
  if (!value.has_value()) {
    out->null_count = static_cast<int64_t>(rows);
    Recycled(priv, priv->validity);
    priv->validity.assign((rows + 7) / 8, 0);
    priv->buffers[0] = priv->validity.data();
  }
  priv->buffers[1] = priv->offsets.data();
  priv->buffers[2] = priv->data.data();
  return absl::OkStatus();
}

// dictionary<int32, utf8>: every index 0 into a one-entry dictionary holding the device's tag
// value (a null tag: every index null, empty dictionary).
absl::Status FillConstantDictionary(ArrowArray* out, ArrayPrivate* priv, size_t rows,
                                    const std::optional<std::string_view>& value, const std::string& name) {
  Recycled(priv, priv->int32s);
  priv->int32s.assign(rows, 0);
  priv->buffers[1] = priv->int32s.data();
  if (!value.has_value()) {
    out->null_count = static_cast<int64_t>(rows);
    Recycled(priv, priv->validity);
    priv->validity.assign((rows + 7) / 8, 0);
    priv->buffers[0] = priv->validity.data();
  }
  priv->dictionary = std::make_unique<ArrowArray>();
  const size_t entries = value.has_value() ? 1 : 0;
  ArrayPrivate* dict = InitArray(priv->dictionary.get(), static_cast<int64_t>(entries), 3, priv->pool);
  out->dictionary = priv->dictionary.get();
  return FillConstantString(priv->dictionary.get(), dict, entries, value, name);
}

// run_end_encoded<int32, utf8>: one run of `rows` rows (none for an empty batch) whose value is the
// device's tag (null for a null tag). The parent has no buffers and no nulls (Arrow's rule: a run's
// value carries its nullness).
absl::Status FillConstantRunEnd(ArrowArray* out, ArrayPrivate* priv, size_t rows,
                                const std::optional<std::string_view>& value, const std::string& name) {
  if (rows > static_cast<size_t>(INT32_MAX)) {
    return absl::ResourceExhaustedError(absl::StrCat("column \"", name, "\": a batch of more than 2^31 rows"));
  }
  const size_t runs = rows > 0 ? 1 : 0;
  priv->children.resize(2);
  for (ArrowArray& child : priv->children) child.release = nullptr;
  for (ArrowArray& child : priv->children) priv->child_pointers.push_back(&child);
  out->n_children = 2;
  out->children = priv->child_pointers.data();
  ArrayPrivate* ends = InitArray(&priv->children[0], static_cast<int64_t>(runs), 2, priv->pool);
  Recycled(ends, ends->int32s);
  ends->int32s.assign(runs, static_cast<int32_t>(rows));
  ends->buffers[0] = nullptr;
  ends->buffers[1] = ends->int32s.data();
  ArrayPrivate* values = InitArray(&priv->children[1], static_cast<int64_t>(runs), 3, priv->pool);
  return FillConstantString(&priv->children[1], values, runs, value, name);
}

}  // namespace

absl::Status BuildBatch(const std::vector<ProjectedColumn>& projection, const ArrowExportOptions& options,
                        TableBatch& batch, const std::shared_ptr<BufferPool>& pool, ArrowArray* out) {
  const int64_t rows = static_cast<int64_t>(batch.num_rows());
  ArrayPrivate* top = InitArray(out, rows, 1, pool);
  top->buffers[0] = nullptr;
  top->children.resize(projection.size() + 1 + (options.file_column.empty() ? 0 : 1));
  for (ArrowArray& child : top->children) child.release = nullptr;
  for (ArrowArray& child : top->children) top->child_pointers.push_back(&child);
  out->n_children = static_cast<int64_t>(top->children.size());
  out->children = top->child_pointers.data();

  ArrayPrivate* time = InitArray(&top->children[0], rows, 2, pool);
  HandOver(time, batch.times, time->int64s);
  time->buffers[0] = nullptr;
  time->buffers[1] = time->int64s.data();
  std::shared_ptr<const std::vector<uint64_t>> zeros;  // made for the first all-null column
  for (size_t j = 0; j < projection.size(); ++j) {
    ArrowArray* child = &top->children[j + 1];
    const ProjectedColumn& p = projection[j];
    if (p.category == ColumnCategory::kField) {
      const bool strings = PhysicalTypeOf(p.data_type) == PhysicalType::kBinary;
      ArrayPrivate* priv = InitArray(child, rows, strings ? 3 : 2, pool);
      ColumnVector& column = batch.columns[j];
      if (rows > 0 && column.null_count == static_cast<size_t>(rows)) {
        FillAllNull(child, priv, static_cast<size_t>(rows), zeros);
        continue;
      }
      // The chunk's type wins where it differs from the schema's; the schema type was exported.
      if (column.type != p.data_type) {
        return absl::UnimplementedError(absl::StrCat("column \"", p.name, "\" is stored as ",
                                                     ToAbsl(DataTypeName(column.type)), ", its schema says ",
                                                     ToAbsl(DataTypeName(p.data_type))));
      }
      TSREAD_RETURN_IF_ERROR(FillField(child, priv, p, column));
      continue;
    }
    // TAG: the device's segment on every row; ATTRIBUTE: not stored, null.
    const std::optional<std::string_view> tag =
        p.category == ColumnCategory::kTag ? batch.tag(j) : std::optional<std::string_view>();
    if (UsesDictionary(p, options)) {
      TSREAD_RETURN_IF_ERROR(FillConstantDictionary(child, InitArray(child, rows, 2, pool), static_cast<size_t>(rows), tag, p.name));
    } else if (UsesRunEnd(p, options)) {
      TSREAD_RETURN_IF_ERROR(FillConstantRunEnd(child, InitArray(child, rows, 0, pool), static_cast<size_t>(rows), tag, p.name));
    } else {
      TSREAD_RETURN_IF_ERROR(FillConstantString(child, InitArray(child, rows, 3, pool), static_cast<size_t>(rows), tag, p.name));
    }
  }
  if (!options.file_column.empty()) {
    ArrowArray* child = &top->children.back();
    TSREAD_RETURN_IF_ERROR(FillConstantString(child, InitArray(child, rows, 3, pool), static_cast<size_t>(rows),
                                              std::string_view(*batch.file), options.file_column));
  }
  return absl::OkStatus();
}

}  // namespace arrow_internal
}  // namespace tsread

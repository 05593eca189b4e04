// Tree-model points as the Arrow tree export's batches (tree_batches.h).
#include "tsread/arrow/tree_batches.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "tsread/arrow/arrow_array.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace arrow_internal {
namespace {

// Arrow's utf8 and binary offsets are int32: a batch's bytes stay below this.
constexpr size_t kMostBatchBytes = static_cast<size_t>(INT32_MAX);

bool IsBinary(DataType type) { return PhysicalTypeOf(type) == PhysicalType::kBinary; }

// An empty column of `type` that keeps its buffers' capacity (a binary one holds its offset 0).
void Reset(ColumnVector& c, DataType type) {
  c.type = type;
  c.length = 0;
  c.null_count = 0;
  c.validity.clear();
  VisitFixedWidthValues(type, [&](auto member) { (c.*member).clear(); });
  c.offsets.assign(1, 0);
  c.bytes.clear();
}

size_t BytesOf(const ColumnVector& values, size_t begin, size_t end) {
  return static_cast<size_t>(values.offsets[end] - values.offsets[begin]);
}

}  // namespace

std::vector<ProjectedColumn> TreeProjection(std::vector<DataType> value_types) {
  std::sort(value_types.begin(), value_types.end());
  value_types.erase(std::unique(value_types.begin(), value_types.end()), value_types.end());
  std::vector<ProjectedColumn> out;
  out.push_back(ProjectedColumn{"device", ColumnCategory::kTag, DataType::kString, 0});
  out.push_back(ProjectedColumn{"measurement", ColumnCategory::kTag, DataType::kString, 1});
  for (DataType type : value_types) {
    out.push_back(ProjectedColumn{absl::StrCat("value_", absl::AsciiStrToLower(ToAbsl(DataTypeName(type)))),
                                  ColumnCategory::kField, type, 0});
  }
  return out;
}

TreeBatcher::TreeBatcher(const std::vector<ProjectedColumn>* projection, size_t batch_rows, Deliver deliver)
    : projection_(projection), batch_rows_(std::max<size_t>(batch_rows, 1)), deliver_(std::move(deliver)) {
  batch_.projection = projection_;
  batch_.columns.resize(projection_->size());
}

absl::Status TreeBatcher::StartSeries(std::string_view device, std::string_view measurement, DataType type) {
  TSREAD_RETURN_IF_ERROR(Flush());
  const auto column = std::find_if(projection_->begin(), projection_->end(), [&](const ProjectedColumn& p) {
    return p.category == ColumnCategory::kField && p.data_type == type;
  });
  if (column == projection_->end()) {
    return absl::UnimplementedError(absl::StrCat("device \"", ToAbsl(device), "\", measurement \"", ToAbsl(measurement),
                                                 "\": a chunk stored as ", ToAbsl(DataTypeName(type)),
                                                 " where the series' metadata gives another type"));
  }
  column_ = static_cast<size_t>(column - projection_->begin());
  id_ = DeviceId({std::string(device), std::string(measurement)});
  batch_.device = &id_;
  Reset(batch_.columns[column_], type);
  open_ = true;
  return absl::OkStatus();
}

void TreeBatcher::Append(const std::vector<int64_t>& times, const ColumnVector& values, size_t begin, size_t end) {
  ColumnVector& to = batch_.columns[column_];
  if (values.null_count == 0) {  // the usual case: ranges copied whole
    batch_.times.insert(batch_.times.end(), times.begin() + static_cast<std::ptrdiff_t>(begin),
                        times.begin() + static_cast<std::ptrdiff_t>(end));
    if (IsBinary(values.type)) {
      const int32_t shift = static_cast<int32_t>(to.bytes.size()) - values.offsets[begin];
      for (size_t r = begin + 1; r <= end; ++r) to.offsets.push_back(values.offsets[r] + shift);
      to.bytes.insert(to.bytes.end(), values.bytes.begin() + values.offsets[begin],
                      values.bytes.begin() + values.offsets[end]);
    } else {
      VisitFixedWidthValues(values.type, [&](auto member) {
        const auto& in = values.*member;
        (to.*member).insert((to.*member).end(), in.begin() + static_cast<std::ptrdiff_t>(begin),
                            in.begin() + static_cast<std::ptrdiff_t>(end));
      });
    }
  } else if (IsBinary(values.type)) {  // an aligned series' points: its null slots left out
    for (size_t r = begin; r < end; ++r) {
      if (!values.IsValid(r)) continue;
      batch_.times.push_back(times[r]);
      const std::string_view value = values.binary(r);
      to.bytes.insert(to.bytes.end(), value.begin(), value.end());
      to.offsets.push_back(static_cast<int32_t>(to.bytes.size()));
    }
  } else {
    VisitFixedWidthValues(values.type, [&](auto member) {
      auto& out = to.*member;
      const auto& in = values.*member;
      for (size_t r = begin; r < end; ++r) {
        if (!values.IsValid(r)) continue;
        batch_.times.push_back(times[r]);
        out.push_back(in[r]);
      }
    });
  }
  to.length = batch_.times.size();
}

absl::Status TreeBatcher::Add(std::string_view device, std::string_view measurement, const std::vector<int64_t>& times,
                              const ColumnVector& values, size_t begin, size_t end) {
  if (!open_ || values.type != batch_.columns[column_].type || id_.segment(0) != device ||
      id_.segment(1) != measurement) {
    TSREAD_RETURN_IF_ERROR(StartSeries(device, measurement, values.type));
  }
  while (begin < end) {
    size_t piece = std::min(end - begin, batch_rows_ - batch_.times.size());
    if (IsBinary(values.type)) {
      // Fewer rows when their bytes would pass Arrow's int32 offsets (a page's bytes never do).
      while (piece > 1 && batch_.columns[column_].bytes.size() + BytesOf(values, begin, begin + piece) > kMostBatchBytes) {
        piece /= 2;
      }
      if (batch_.columns[column_].bytes.size() + BytesOf(values, begin, begin + piece) > kMostBatchBytes) {
        if (batch_.times.empty()) return absl::ResourceExhaustedError("a tree-model value exceeds 2 GiB");
        TSREAD_RETURN_IF_ERROR(Flush());
        continue;
      }
    }
    Append(times, values, begin, begin + piece);
    begin += piece;
    if (batch_.times.size() >= batch_rows_) TSREAD_RETURN_IF_ERROR(Flush());
  }
  return absl::OkStatus();
}

absl::Status TreeBatcher::Flush() {
  const size_t rows = batch_.times.size();
  if (!open_ || rows == 0) return absl::OkStatus();
  for (size_t j = 0; j < projection_->size(); ++j) {
    const ProjectedColumn& p = (*projection_)[j];
    ColumnVector& c = batch_.columns[j];
    if (p.category != ColumnCategory::kField) continue;
    if (j == column_) {
      c.validity.resize((rows + 7) / 8);
      c.SetAllValid();
    } else {  // another type's column: null on every row (the export needs no buffer for it)
      Reset(c, p.data_type);
      c.length = rows;
      c.null_count = rows;
    }
  }
  TSREAD_RETURN_IF_ERROR(deliver_(batch_));
  // The consumer moved (or left) the buffers: start the series' next batch empty.
  batch_.times.clear();
  Reset(batch_.columns[column_], batch_.columns[column_].type);
  return absl::OkStatus();
}

TreeArrays::TreeArrays(TreeStepFn step, const std::vector<ProjectedColumn>* projection, size_t batch_rows,
                       ArrowExportOptions options, std::shared_ptr<BufferPool> pool)
    : step_(std::move(step)),
      projection_(projection),
      options_(std::move(options)),
      pool_(std::move(pool)),
      batcher_(projection, batch_rows, [this](TableBatch& batch) { return Build(batch); }) {}

TreeArrays::~TreeArrays() {
  for (ArrowArray& array : ready_) {
    if (array.release != nullptr) array.release(&array);
  }
}

absl::Status TreeArrays::Build(TableBatch& batch) {
  ArrowArray array{};
  absl::Status status = BuildBatch(*projection_, options_, batch, pool_, &array);
  if (!status.ok()) {
    if (array.release != nullptr) array.release(&array);
    return status;
  }
  ready_.push_back(array);
  return absl::OkStatus();
}

absl::Status TreeArrays::Next(ArrowArray* out) {
  out->release = nullptr;
  const TreePointsFn add = [this](std::string_view device, std::string_view measurement, const std::vector<int64_t>& times,
                                  const ColumnVector& values, size_t begin, size_t end) {
    return batcher_.Add(device, measurement, times, values, begin, end);
  };
  while (ready_.empty() && !done_) {
    TSREAD_ASSIGN_OR_RETURN(const bool more, step_(add));
    if (!more) {
      done_ = true;
      TSREAD_RETURN_IF_ERROR(batcher_.Flush());
    }
  }
  if (ready_.empty()) return absl::OkStatus();  // the end
  *out = ready_.front();
  ready_.pop_front();
  return absl::OkStatus();
}

}  // namespace arrow_internal
}  // namespace tsread

// One device's rows in memory, and the steps of a merge (source_rows.h).
#include "tsread/dataset/source_rows.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace tsread {
namespace {

bool IsBinary(const ColumnVector& c) { return PhysicalTypeOf(c.type) == PhysicalType::kBinary; }

// A column with values (FIELD): TAG and ATTRIBUTE placeholders hold no rows.
bool HoldsRows(const ColumnVector& c, size_t rows) { return c.size() == rows; }

void SetValid(ColumnVector& c, size_t row, bool valid) {
  const uint8_t bit = static_cast<uint8_t>(1u << (row & 7));
  if (valid) {
    c.validity[row >> 3] |= bit;
  } else {
    c.validity[row >> 3] &= static_cast<uint8_t>(~bit);
  }
}

// Calls fn(values member) for a fixed-width column, fn(nullptr-like) never for binary ones.
template <typename Fn>
void VisitValues(DataType type, Fn&& fn) {
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: fn(&ColumnVector::bools); break;
    case PhysicalType::kInt32: fn(&ColumnVector::int32s); break;
    case PhysicalType::kInt64: fn(&ColumnVector::int64s); break;
    case PhysicalType::kFloat: fn(&ColumnVector::floats); break;
    case PhysicalType::kDouble: fn(&ColumnVector::doubles); break;
    case PhysicalType::kBinary: break;
  }
}

// Copies row `from_row` of `from` to row `to_row` of `to` (same type; `to` sized, binary `to`
// filled in row order: its offsets up to to_row are final).
void CopyValue(const ColumnVector& from, size_t from_row, ColumnVector& to, size_t to_row) {
  const bool valid = from.IsValid(from_row);
  SetValid(to, to_row, valid);
  if (IsBinary(to)) {
    const std::string_view value = valid ? from.binary(from_row) : std::string_view();
    to.bytes.insert(to.bytes.end(), value.begin(), value.end());
    to.offsets[to_row + 1] = static_cast<int32_t>(to.bytes.size());
    return;
  }
  VisitValues(to.type, [&](auto member) { (to.*member)[to_row] = (from.*member)[from_row]; });
}

void SetNull(ColumnVector& to, size_t to_row) {
  SetValid(to, to_row, false);
  if (IsBinary(to)) {
    to.offsets[to_row + 1] = static_cast<int32_t>(to.bytes.size());
    return;
  }
  VisitValues(to.type, [&](auto member) { (to.*member)[to_row] = {}; });
}

// A column of `rows` rows of `like`'s type, ready for CopyValue/SetNull in row order.
ColumnVector SizedLike(const ColumnVector& like, size_t rows) {
  ColumnVector out;
  out.type = like.type;
  out.Resize(rows);
  std::fill(out.validity.begin(), out.validity.end(), 0);
  if (IsBinary(out)) out.offsets[0] = 0;
  return out;
}

bool InAny(const std::vector<TimeRange>& ranges, int64_t t) {
  for (const TimeRange& r : ranges) {
    if (r.Contains(t)) return true;
  }
  return false;
}

}  // namespace

bool SourceMask::empty() const {
  if (!rows.empty()) return false;
  return std::all_of(cells.begin(), cells.end(), [](const std::vector<TimeRange>& c) { return c.empty(); });
}

SourceRows EmptyRowsLike(const TableBatch& batch, size_t column_count) {
  SourceRows rows;
  rows.columns.resize(column_count);
  for (size_t j = 0; j < column_count && j < batch.columns.size(); ++j) {
    rows.columns[j].type = batch.columns[j].type;
    rows.columns[j].Clear();
    if (!HoldsRows(batch.columns[j], batch.num_rows())) rows.columns[j].offsets.clear();
  }
  return rows;
}

void AppendRows(const TableBatch& batch, SourceRows& rows) {
  const size_t before = rows.num_rows();
  const size_t added = batch.num_rows();
  rows.times.insert(rows.times.end(), batch.times.begin(), batch.times.end());
  for (size_t j = 0; j < rows.columns.size(); ++j) {
    const ColumnVector& from = batch.columns[j];
    if (!HoldsRows(from, added)) continue;
    ColumnVector& to = rows.columns[j];
    const size_t old_bytes = to.bytes.size();
    to.length = before + added;
    to.validity.resize((to.length + 7) / 8);
    for (size_t r = 0; r < added; ++r) SetValid(to, before + r, from.IsValid(r));
    if (IsBinary(to)) {
      if (to.offsets.empty()) to.offsets.push_back(0);
      to.bytes.insert(to.bytes.end(), from.bytes.begin(), from.bytes.end());
      for (size_t r = 1; r <= added; ++r) to.offsets.push_back(static_cast<int32_t>(old_bytes) + from.offsets[r]);
    } else {
      VisitValues(to.type, [&](auto member) {
        auto& out = to.*member;
        const auto& in = from.*member;
        out.insert(out.end(), in.begin(), in.begin() + static_cast<std::ptrdiff_t>(added));
      });
    }
    to.FinishValidity();
  }
}

void ApplyMask(const SourceMask& mask, SourceRows& rows) {
  const size_t n = rows.num_rows();
  for (size_t j = 0; j < mask.cells.size() && j < rows.columns.size(); ++j) {
    ColumnVector& column = rows.columns[j];
    if (mask.cells[j].empty() || !HoldsRows(column, n)) continue;
    for (size_t r = 0; r < n; ++r) {
      if (column.IsValid(r) && InAny(mask.cells[j], rows.times[r])) SetValid(column, r, false);
    }
    column.FinishValidity();
  }
  if (mask.rows.empty()) return;
  std::vector<uint8_t> keep(n);
  bool any_removed = false;
  for (size_t r = 0; r < n; ++r) {
    keep[r] = !InAny(mask.rows, rows.times[r]);
    any_removed |= !keep[r];
  }
  if (!any_removed) return;
  KeepEntries(rows.times, keep);
  for (ColumnVector& column : rows.columns) {
    if (HoldsRows(column, n)) column.KeepRows(keep);
  }
}

std::vector<SourceRows> SplitRuns(SourceRows rows) {
  std::vector<size_t> starts = {0};
  for (size_t r = 1; r < rows.num_rows(); ++r) {
    if (rows.times[r] <= rows.times[r - 1]) starts.push_back(r);
  }
  std::vector<SourceRows> runs;
  if (starts.size() == 1) {
    runs.push_back(std::move(rows));
    return runs;
  }
  starts.push_back(rows.num_rows());
  for (size_t k = 0; k + 1 < starts.size(); ++k) {
    SourceRows run;
    const size_t begin = starts[k], count = starts[k + 1] - starts[k];
    run.times.assign(rows.times.begin() + static_cast<std::ptrdiff_t>(begin),
                     rows.times.begin() + static_cast<std::ptrdiff_t>(begin + count));
    run.columns.resize(rows.columns.size());
    for (size_t j = 0; j < rows.columns.size(); ++j) {
      run.columns[j].type = rows.columns[j].type;
      if (!HoldsRows(rows.columns[j], rows.num_rows())) continue;
      run.columns[j].AssignRows(rows.columns[j], begin, count);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

SourceRows MergeRuns(const std::vector<const SourceRows*>& runs) {
  SourceRows out;
  if (runs.empty()) return out;
  // The times: a k-way union of increasing lists, and per run the row it has at each time.
  const size_t k = runs.size();
  std::vector<size_t> next(k, 0);
  std::vector<std::vector<int32_t>> row_of(k);
  while (true) {
    bool any = false;
    int64_t t = 0;
    for (size_t s = 0; s < k; ++s) {
      if (next[s] < runs[s]->num_rows() && (!any || runs[s]->times[next[s]] < t)) {
        t = runs[s]->times[next[s]];
        any = true;
      }
    }
    if (!any) break;
    out.times.push_back(t);
    for (size_t s = 0; s < k; ++s) {
      const bool here = next[s] < runs[s]->num_rows() && runs[s]->times[next[s]] == t;
      row_of[s].push_back(here ? static_cast<int32_t>(next[s]++) : -1);
    }
  }
  const size_t n = out.num_rows();
  out.columns.resize(runs[0]->columns.size());
  for (size_t j = 0; j < out.columns.size(); ++j) {
    // A column with rows in no run (TAG, ATTRIBUTE) stays an empty placeholder.
    const ColumnVector* like = nullptr;
    for (const SourceRows* run : runs) {
      if (HoldsRows(run->columns[j], run->num_rows()) && run->num_rows() > 0) like = &run->columns[j];
    }
    out.columns[j].type = runs[0]->columns[j].type;
    if (like == nullptr) continue;
    ColumnVector column = SizedLike(*like, n);
    for (size_t r = 0; r < n; ++r) {
      bool set = false;
      for (size_t s = k; s-- > 0 && !set;) {
        const int32_t row = row_of[s][r];
        if (row < 0) continue;
        const ColumnVector& from = runs[s]->columns[j];
        if (!HoldsRows(from, runs[s]->num_rows()) || !from.IsValid(static_cast<size_t>(row))) continue;
        CopyValue(from, static_cast<size_t>(row), column, r);
        set = true;
      }
      if (!set) SetNull(column, r);
    }
    column.FinishValidity();
    out.columns[j] = std::move(column);
  }
  return out;
}

void CopyRowsToBatch(const SourceRows& rows, size_t begin, size_t count, TableBatch& batch) {
  batch.times.assign(rows.times.begin() + static_cast<std::ptrdiff_t>(begin),
                     rows.times.begin() + static_cast<std::ptrdiff_t>(begin + count));
  batch.columns.resize(rows.columns.size());
  for (size_t j = 0; j < rows.columns.size(); ++j) {
    ColumnVector& to = batch.columns[j];
    to.type = rows.columns[j].type;
    if (!HoldsRows(rows.columns[j], rows.num_rows()) || rows.num_rows() == 0) {
      to.length = 0;
      to.null_count = 0;
      to.validity.clear();
      continue;
    }
    to.AssignRows(rows.columns[j], begin, count);
  }
}

}  // namespace tsread

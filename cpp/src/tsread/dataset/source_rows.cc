// One device's rows in memory, and the steps of a merge (source_rows.h).
#include "tsread/dataset/source_rows.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "tsread/common/bitmap.h"
#include "tsread/read/page_times.h"

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

// Sets bits [at, at + count) of a bitmap (a column without nulls: whole bytes at once).
void SetBitRange(std::vector<uint8_t>& bits, size_t at, size_t count) {
  size_t r = at;
  const size_t end = at + count;
  for (; r < end && (r & 7) != 0; ++r) bits[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
  if (r + 8 <= end) {
    std::memset(bits.data() + (r >> 3), 0xFF, (end - r) >> 3);
    r += (end - r) & ~size_t{7};
  }
  for (; r < end; ++r) bits[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
}

// Copies the validity of rows [begin, begin + count) of `from` to rows from `at` of `to` (whose
// bits there are clear).
void CopyValidity(const ColumnVector& from, size_t begin, size_t count, ColumnVector& to, size_t at) {
  if (from.null_count == 0) {
    SetBitRange(to.validity, at, count);
    return;
  }
  CopyBits(from.validity.data(), begin, to.validity.data(), at, count);
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
  VisitFixedWidthValues(to.type, [&](auto member) { (to.*member)[to_row] = (from.*member)[from_row]; });
}

// Makes row `row` null in place: its bit cleared and a fixed-width slot zeroed (a binary column's
// bytes are then emptied by EmptyNullValues, ColumnVector's rule).
void ClearValue(ColumnVector& column, size_t row) {
  SetValid(column, row, false);
  VisitFixedWidthValues(column.type, [&](auto member) { (column.*member)[row] = {}; });
}

// A binary column whose cells were cleared: the null rows' bytes removed (a null row is empty).
void EmptyNullValues(ColumnVector& column) {
  if (!IsBinary(column)) return;
  int32_t end = 0;
  for (size_t r = 0; r < column.size(); ++r) {
    const int32_t begin = column.offsets[r], stop = column.offsets[r + 1];
    column.offsets[r] = end;
    if (!column.IsValid(r) || stop == begin) continue;
    if (end != begin) std::memmove(column.bytes.data() + end, column.bytes.data() + begin, static_cast<size_t>(stop - begin));
    end += stop - begin;
  }
  column.offsets[column.size()] = end;
  column.bytes.resize(static_cast<size_t>(end));
}

void SetNull(ColumnVector& to, size_t to_row) {
  SetValid(to, to_row, false);
  if (IsBinary(to)) {
    to.offsets[to_row + 1] = static_cast<int32_t>(to.bytes.size());
    return;
  }
  VisitFixedWidthValues(to.type, [&](auto member) { (to.*member)[to_row] = {}; });
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

void TakeRows(TableBatch& batch, size_t column_count, SourceRows& rows) {
  std::swap(rows.times, batch.times);
  rows.columns.resize(column_count);
  for (size_t j = 0; j < column_count && j < batch.columns.size(); ++j) std::swap(rows.columns[j], batch.columns[j]);
}

bool ChunksInTimeOrder(const TimeseriesMetadata& series) {
  bool first = true;
  int64_t last_end = 0;
  for (const ChunkMetadata& chunk : series.chunks) {
    if (chunk.statistics.count == 0) continue;
    if (!first && chunk.statistics.start_time <= last_end) return false;
    last_end = first ? chunk.statistics.end_time : std::max(last_end, chunk.statistics.end_time);
    first = false;
  }
  return true;
}

void AppendRows(std::span<const int64_t> times, std::span<const ColumnVector> columns, SourceRows& rows) {
  const size_t before = rows.num_rows();
  const size_t added = times.size();
  rows.times.insert(rows.times.end(), times.begin(), times.end());
  for (size_t j = 0; j < rows.columns.size() && j < columns.size(); ++j) {
    const ColumnVector& from = columns[j];
    if (!HoldsRows(from, added)) continue;
    ColumnVector& to = rows.columns[j];
    const size_t old_bytes = to.bytes.size();
    to.length = before + added;
    to.validity.resize((to.length + 7) / 8, 0);
    CopyValidity(from, 0, added, to, before);
    if (IsBinary(to)) {
      if (to.offsets.empty()) to.offsets.push_back(0);
      to.bytes.insert(to.bytes.end(), from.bytes.begin(), from.bytes.end());
      for (size_t r = 1; r <= added; ++r) to.offsets.push_back(static_cast<int32_t>(old_bytes) + from.offsets[r]);
    } else {
      VisitFixedWidthValues(to.type, [&](auto member) {
        auto& out = to.*member;
        const auto& in = from.*member;
        out.insert(out.end(), in.begin(), in.begin() + static_cast<std::ptrdiff_t>(added));
      });
    }
    to.FinishValidity();
  }
}

namespace {

// The rows of increasing `times` inside `ranges` (inclusive time ranges, any order), as ascending
// disjoint [begin, end) row ranges: two binary searches a range.
std::vector<std::pair<size_t, size_t>> RowsInRanges(const std::vector<int64_t>& times,
                                                    const std::vector<TimeRange>& ranges) {
  std::vector<std::pair<size_t, size_t>> out;
  for (const TimeRange& range : ranges) {
    const auto begin = std::lower_bound(times.begin(), times.end(), range.start);
    const auto end = std::upper_bound(begin, times.end(), range.end);
    if (begin < end) out.emplace_back(begin - times.begin(), end - times.begin());
  }
  std::sort(out.begin(), out.end());
  size_t kept = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (kept > 0 && out[i].first <= out[kept - 1].second) {
      out[kept - 1].second = std::max(out[kept - 1].second, out[i].second);
    } else {
      out[kept++] = out[i];
    }
  }
  out.resize(kept);
  return out;
}

// ApplyMask for rows in time order (the usual source: one file's chunks in time order).
void ApplyMaskToIncreasing(const SourceMask& mask, SourceRows& rows) {
  const size_t n = rows.num_rows();
  for (size_t j = 0; j < mask.cells.size() && j < rows.columns.size(); ++j) {
    ColumnVector& column = rows.columns[j];
    if (mask.cells[j].empty() || !HoldsRows(column, n)) continue;
    for (const auto& [begin, end] : RowsInRanges(rows.times, mask.cells[j])) {
      for (size_t r = begin; r < end; ++r) ClearValue(column, r);
    }
    EmptyNullValues(column);
    column.FinishValidity();
  }
  if (mask.rows.empty()) return;
  const std::vector<std::pair<size_t, size_t>> removed = RowsInRanges(rows.times, mask.rows);
  if (removed.empty()) return;
  for (ColumnVector& column : rows.columns) {
    if (HoldsRows(column, n)) column.RemoveRanges(removed);
  }
  RemoveEntryRanges(rows.times, removed);
}

}  // namespace

void ApplyMask(const SourceMask& mask, SourceRows& rows) {
  if (mask.empty()) return;
  if (StrictlyIncreasing(rows.times)) {
    ApplyMaskToIncreasing(mask, rows);
    return;
  }
  const size_t n = rows.num_rows();
  for (size_t j = 0; j < mask.cells.size() && j < rows.columns.size(); ++j) {
    ColumnVector& column = rows.columns[j];
    if (mask.cells[j].empty() || !HoldsRows(column, n)) continue;
    for (size_t r = 0; r < n; ++r) {
      if (column.IsValid(r) && InAny(mask.cells[j], rows.times[r])) ClearValue(column, r);
    }
    EmptyNullValues(column);
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
  MergeRunsInto(runs, out);
  return out;
}

// Where each merged row's values come from: run src_run[r], row src_row[r] (the highest-priority
// run with that time); `shared` lists the rows several runs have, whose null values may be filled
// from a lower-priority run.
struct MergePlan {
  // One run's row at a shared time.
  struct Holder {
    uint32_t run;
    uint32_t row;
  };
  std::vector<uint32_t> src_run, src_row;
  struct SharedRow {
    uint32_t row;            // the merged row
    uint32_t begin, count;   // its holders: holders[begin, begin + count), by ascending priority
  };
  std::vector<SharedRow> shared;
  std::vector<Holder> holders;
  std::vector<size_t> next;  // PlanMerge's working state, kept with the plan's buffers
  std::vector<uint32_t> waiting, live;
  // The patch form (PlanPatches): runs [0, chain_end) follow each other in time and the later
  // runs only rewrite their times; positions holds each later row's merged row, run after run.
  size_t chain_end = 0;
  std::vector<uint32_t> positions;
  struct Placed {
    uint32_t row, run, run_row;
  };
  std::vector<Placed> placed;

  void Clear() {
    src_run.clear();
    src_row.clear();
    shared.clear();
    holders.clear();
    positions.clear();
  }
};

namespace {

using Shared = MergePlan::Holder;

// The merged times (into `times`) and where each row's values come from: while one run alone has
// the next time, it gives every row before the next time of another run in one stretch; a time
// several runs have takes the last of them. Only the runs already begun are compared (runs in
// time order — a dataset's files — overlap a few at a time), the next one to begin by its first time.
void PlanMerge(const std::vector<const SourceRows*>& runs, std::vector<int64_t>& times, MergePlan& plan) {
  const size_t k = runs.size();
  std::vector<size_t>& next = plan.next;
  next.assign(k, 0);
  std::vector<uint32_t>& waiting = plan.waiting;  // runs not begun, by first time descending (the next one last)
  waiting.clear();
  for (size_t s = 0; s < k; ++s) {
    if (runs[s]->num_rows() > 0) waiting.push_back(static_cast<uint32_t>(s));
  }
  std::stable_sort(waiting.begin(), waiting.end(), [&](uint32_t a, uint32_t b) {
    return runs[a]->times[0] > runs[b]->times[0];
  });
  std::vector<uint32_t>& live = plan.live;  // begun and not exhausted, in run (priority) order
  live.clear();
  while (!live.empty() || !waiting.empty()) {
    // Every waiting run that begins at or before the earliest live head joins.
    int64_t t = live.empty() ? runs[waiting.back()]->times[0] : runs[live[0]]->times[next[live[0]]];
    for (uint32_t s : live) t = std::min(t, runs[s]->times[next[s]]);
    while (!waiting.empty() && runs[waiting.back()]->times[0] <= t) {
      const uint32_t s = waiting.back();
      waiting.pop_back();
      live.insert(std::upper_bound(live.begin(), live.end(), s), s);
      t = std::min(t, runs[s]->times[0]);
    }
    // One pass: the runs at t, and the next time after it (a live head, or a waiting run's start).
    size_t first_run = k, holders = 0;
    bool any_second = !waiting.empty();
    int64_t second = any_second ? runs[waiting.back()]->times[0] : 0;
    for (uint32_t s : live) {
      const int64_t head = runs[s]->times[next[s]];
      if (head == t) {
        first_run = s;
        ++holders;
      } else if (!any_second || head < second) {
        second = head;
        any_second = true;
      }
    }
    bool exhausted = false;
    if (holders == 1) {
      const SourceRows& run = *runs[first_run];
      const size_t begin = next[first_run];
      size_t end = begin + 1;
      if (!any_second) {
        end = run.num_rows();
      } else {
        // Usually a short stretch: walk a few rows before searching.
        const int64_t* tv = run.times.data();
        const size_t n = run.num_rows();
        while (end < n && end < begin + 8 && tv[end] < second) ++end;
        if (end == begin + 8 && end < n && tv[end] < second) {
          end = static_cast<size_t>(std::lower_bound(tv + end, tv + n, second) - tv);
        }
      }
      times.insert(times.end(), run.times.begin() + static_cast<std::ptrdiff_t>(begin),
                   run.times.begin() + static_cast<std::ptrdiff_t>(end));
      plan.src_run.insert(plan.src_run.end(), end - begin, static_cast<uint32_t>(first_run));
      const size_t at = plan.src_row.size();
      plan.src_row.resize(at + (end - begin));
      for (size_t r = begin; r < end; ++r) plan.src_row[at + (r - begin)] = static_cast<uint32_t>(r);
      next[first_run] = end;
      exhausted = end == run.num_rows();
    } else {
      const uint32_t at = static_cast<uint32_t>(plan.holders.size());
      for (uint32_t s : live) {
        if (runs[s]->times[next[s]] != t) continue;
        plan.holders.push_back(Shared{s, static_cast<uint32_t>(next[s]++)});
        exhausted = exhausted || next[s] == runs[s]->num_rows();
      }
      const Shared& top = plan.holders.back();
      plan.shared.push_back(MergePlan::SharedRow{static_cast<uint32_t>(times.size()), at,
                                                 static_cast<uint32_t>(plan.holders.size() - at)});
      plan.src_run.push_back(top.run);
      plan.src_row.push_back(top.row);
      times.push_back(t);
    }
    if (exhausted) {
      live.erase(std::remove_if(live.begin(), live.end(), [&](uint32_t s) { return next[s] >= runs[s]->num_rows(); }),
                 live.end());
    }
  }
}

// The patch form of a merge, IoTDB's usual shape: the lowest-priority runs follow each other in
// time (a partition's sequence files, in version order) and every later run only rewrites times
// they hold (unsequence files updating points). Then the merged times are the chain's, its
// values are copied in blocks and each later run's values written over them in priority order —
// nothing is decided row by row. Returns false (times left empty) where the shape differs: a later
// run with a time the chain lacks, or runs of the chain that meet.
bool PlanPatches(const std::vector<const SourceRows*>& runs, std::vector<int64_t>& times, MergePlan& plan) {
  const size_t k = runs.size();
  size_t chain_end = 0, rows = 0;
  bool any = false;
  int64_t last = 0;
  for (; chain_end < k; ++chain_end) {
    const SourceRows& run = *runs[chain_end];
    if (run.num_rows() == 0) continue;
    if (any && run.times.front() <= last) break;
    any = true;
    last = run.times.back();
    rows += run.num_rows();
  }
  if (rows > UINT32_MAX) return false;
  times.reserve(rows);
  for (size_t s = 0; s < chain_end; ++s) times.insert(times.end(), runs[s]->times.begin(), runs[s]->times.end());
  const int64_t* tv = times.data();
  const size_t n = times.size();
  for (size_t s = chain_end; s < k; ++s) {
    size_t at = 0;
    for (const int64_t t : runs[s]->times) {
      // A run's times increase: search forward from the last one's place, a few rows first.
      size_t step = 1;
      size_t bound = at;
      while (bound < n && tv[bound] < t) {
        at = bound + 1;
        bound += step;
        step *= 2;
      }
      at = static_cast<size_t>(std::lower_bound(tv + at, tv + std::min(bound, n), t) - tv);
      if (at == n || tv[at] != t) {
        times.clear();
        plan.positions.clear();
        return false;
      }
      plan.positions.push_back(static_cast<uint32_t>(at));
    }
  }
  plan.chain_end = chain_end;
  return true;
}

// The general plan (src_run, src_row, shared rows) of a merge in the patch form, for the columns
// gathered row by row (binary values).
void PlanFromPatches(const std::vector<const SourceRows*>& runs, MergePlan& plan) {
  for (size_t s = 0; s < plan.chain_end; ++s) {
    const size_t rows = runs[s]->num_rows();
    plan.src_run.insert(plan.src_run.end(), rows, static_cast<uint32_t>(s));
    for (size_t r = 0; r < rows; ++r) plan.src_row.push_back(static_cast<uint32_t>(r));
  }
  plan.placed.clear();
  size_t p = 0;
  for (size_t s = plan.chain_end; s < runs.size(); ++s) {
    for (size_t r = 0; r < runs[s]->num_rows(); ++r) {
      plan.placed.push_back(MergePlan::Placed{plan.positions[p++], static_cast<uint32_t>(s), static_cast<uint32_t>(r)});
    }
  }
  // By merged row; a row's holders stay in run order, which is priority order.
  std::stable_sort(plan.placed.begin(), plan.placed.end(),
                   [](const MergePlan::Placed& a, const MergePlan::Placed& b) { return a.row < b.row; });
  for (size_t i = 0; i < plan.placed.size();) {
    const uint32_t row = plan.placed[i].row;
    const uint32_t begin = static_cast<uint32_t>(plan.holders.size());
    plan.holders.push_back(MergePlan::Holder{plan.src_run[row], plan.src_row[row]});
    for (; i < plan.placed.size() && plan.placed[i].row == row; ++i) {
      plan.holders.push_back(MergePlan::Holder{plan.placed[i].run, plan.placed[i].run_row});
    }
    const MergePlan::Holder& top = plan.holders.back();
    plan.src_run[row] = top.run;
    plan.src_row[row] = top.row;
    plan.shared.push_back(
        MergePlan::SharedRow{row, begin, static_cast<uint32_t>(plan.holders.size() - begin)});
  }
}

// Column j of run s, or nullptr when the run holds no values of it.
const ColumnVector* ValuesOf(const std::vector<const SourceRows*>& runs, size_t s, size_t j) {
  const SourceRows& run = *runs[s];
  return HoldsRows(run.columns[j], run.num_rows()) ? &run.columns[j] : nullptr;
}

// Whether run s has a value of column j at row `row`.
bool HasValue(const std::vector<const SourceRows*>& runs, size_t s, size_t j, size_t row) {
  const ColumnVector* c = ValuesOf(runs, s, j);
  return c != nullptr && c->IsValid(row);
}

// The shared row's value: the highest-priority holder whose value is not null; nullopt for none.
std::optional<Shared> FilledFrom(const std::vector<const SourceRows*>& runs, const MergePlan& plan,
                                 const MergePlan::SharedRow& shared, size_t j) {
  for (uint32_t i = shared.begin + shared.count; i-- > shared.begin;) {
    const Shared& h = plan.holders[i];
    if (HasValue(runs, h.run, j, h.row)) return h;
  }
  return std::nullopt;
}

// Column j of the merged rows, a fixed-width type: a gather from the plan's sources, then the
// shared rows whose chosen value is null filled from lower-priority runs.
template <typename T>
void GatherFixed(const std::vector<const SourceRows*>& runs, const MergePlan& plan, size_t j,
                 std::vector<T> ColumnVector::*member, ColumnVector& column) {
  const size_t n = plan.src_run.size();
  std::vector<const T*> base(runs.size(), nullptr);
  bool all_valid = true;
  for (size_t s = 0; s < runs.size(); ++s) {
    const ColumnVector* c = ValuesOf(runs, s, j);
    if (c != nullptr) base[s] = (c->*member).data();
    all_valid = all_valid && (runs[s]->num_rows() == 0 || (c != nullptr && c->null_count == 0));
  }
  T* out = (column.*member).data();
  for (size_t r = 0; r < n; ++r) {
    const T* b = base[plan.src_run[r]];
    out[r] = b != nullptr ? b[plan.src_row[r]] : T{};
  }
  if (all_valid) {
    column.SetAllValid();
    return;
  }
  std::fill(column.validity.begin(), column.validity.end(), 0);
  for (size_t r = 0; r < n; ++r) {
    if (HasValue(runs, plan.src_run[r], j, plan.src_row[r])) {
      column.validity[r >> 3] |= static_cast<uint8_t>(1u << (r & 7));
    } else {
      out[r] = T{};
    }
  }
  for (const MergePlan::SharedRow& shared : plan.shared) {
    if (column.IsValid(shared.row)) continue;
    if (std::optional<Shared> from = FilledFrom(runs, plan, shared, j)) {
      out[shared.row] = base[from->run][from->row];
      column.validity[shared.row >> 3] |= static_cast<uint8_t>(1u << (shared.row & 7));
    }
  }
  column.FinishValidity();
}

// Column j of the merged rows in the patch form, a fixed-width type: the chain's values copied
// in blocks, then each later run's non-null values written over theirs, lowest priority first.
template <typename T>
void PatchFixed(const std::vector<const SourceRows*>& runs, const MergePlan& plan, size_t j,
                std::vector<T> ColumnVector::*member, ColumnVector& column) {
  T* out = (column.*member).data();
  std::fill(column.validity.begin(), column.validity.end(), 0);
  size_t at = 0;
  for (size_t s = 0; s < plan.chain_end; ++s) {
    const size_t rows = runs[s]->num_rows();
    if (const ColumnVector* c = ValuesOf(runs, s, j)) {
      if (rows > 0) std::memcpy(out + at, (c->*member).data(), rows * sizeof(T));
      CopyValidity(*c, 0, rows, column, at);
    } else {
      std::fill(out + at, out + at + rows, T{});
    }
    at += rows;
  }
  size_t p = 0;
  for (size_t s = plan.chain_end; s < runs.size(); ++s) {
    const size_t rows = runs[s]->num_rows();
    const ColumnVector* c = ValuesOf(runs, s, j);
    if (c == nullptr) {
      p += rows;
      continue;
    }
    const T* in = (c->*member).data();
    for (size_t r = 0; r < rows; ++r) {
      const uint32_t to = plan.positions[p++];
      if (c->null_count != 0 && !c->IsValid(r)) continue;
      out[to] = in[r];
      column.validity[to >> 3] |= static_cast<uint8_t>(1u << (to & 7));
    }
  }
  column.FinishValidity();
}

// Column j of the merged rows, a binary type: values appended row by row (shared rows filled as above).
void GatherBinary(const std::vector<const SourceRows*>& runs, const MergePlan& plan, size_t j, ColumnVector& column) {
  const size_t n = plan.src_run.size();
  std::fill(column.validity.begin(), column.validity.end(), 0);
  column.bytes.clear();
  column.offsets[0] = 0;
  size_t next_shared = 0;
  for (size_t r = 0; r < n; ++r) {
    std::optional<Shared> from = Shared{plan.src_run[r], plan.src_row[r]};
    const bool is_shared = next_shared < plan.shared.size() && plan.shared[next_shared].row == r;
    if (is_shared) {
      from = FilledFrom(runs, plan, plan.shared[next_shared++], j);
    } else if (!HasValue(runs, from->run, j, from->row)) {
      from.reset();
    }
    if (from.has_value()) {
      CopyValue(*ValuesOf(runs, from->run, j), from->row, column, r);
    } else {
      SetNull(column, r);
    }
  }
  column.FinishValidity();
}

}  // namespace

void MergeRunsInto(const std::vector<const SourceRows*>& runs, SourceRows& out) {
  MergeScratch scratch;
  MergeRunsInto(runs, out, scratch);
}

MergeScratch::MergeScratch() : plan(std::make_unique<MergePlan>()) {}
MergeScratch::~MergeScratch() = default;
MergeScratch::MergeScratch(MergeScratch&&) noexcept = default;
MergeScratch& MergeScratch::operator=(MergeScratch&&) noexcept = default;

void MergeRunsInto(const std::vector<const SourceRows*>& runs, SourceRows& out, MergeScratch& scratch) {
  out.times.clear();
  if (runs.empty()) {
    out.columns.clear();
    return;
  }
  MergePlan& plan = *scratch.plan;
  plan.Clear();
  const bool patches = PlanPatches(runs, out.times, plan);
  if (!patches) PlanMerge(runs, out.times, plan);
  bool planned = !patches;  // the general plan made (the patch form makes it for binary columns only)
  const size_t n = out.num_rows();
  out.columns.resize(runs[0]->columns.size());
  for (size_t j = 0; j < out.columns.size(); ++j) {
    ColumnVector& column = out.columns[j];
    column.type = runs[0]->columns[j].type;
    // A column with rows in no run (TAG, ATTRIBUTE) stays an empty placeholder.
    const bool values = std::any_of(runs.begin(), runs.end(), [&](const SourceRows* run) {
      return run->num_rows() > 0 && HoldsRows(run->columns[j], run->num_rows());
    });
    if (!values) {
      column.length = 0;
      column.null_count = 0;
      column.validity.clear();
      column.offsets.clear();
      column.bytes.clear();
      continue;
    }
    column.Resize(n);
    if (PhysicalTypeOf(column.type) == PhysicalType::kBinary) {
      if (!planned) PlanFromPatches(runs, plan);
      planned = true;
      GatherBinary(runs, plan, j, column);
      continue;
    }
    VisitFixedWidthValues(column.type, [&](auto member) {
      if (patches) {
        PatchFixed(runs, plan, j, member, column);
      } else {
        GatherFixed(runs, plan, j, member, column);
      }
    });
  }
}

void MoveRowsToBatch(SourceRows& rows, TableBatch& batch) {
  std::swap(batch.times, rows.times);
  batch.columns.resize(rows.columns.size());
  for (size_t j = 0; j < rows.columns.size(); ++j) std::swap(batch.columns[j], rows.columns[j]);
  rows.times.clear();
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

// The aligned device reader's value predicates (aligned_device_reader.h, SetPredicates): ruled out
// or settled by statistics at the device, the chunk group and the page (format reference §4,
// §5), evaluated on the predicate columns of the pages they do not settle.
#include <algorithm>
#include <optional>

#include "tsread/io/status_macros.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/read/lossless_chunks.h"

namespace tsread {
namespace {

// Whether the statistics rule the rows out: the filter matches none of `rows` rows. `leaves`
// holds what a coarser level settled of each leaf (kSome: nothing) and gains what these rows'
// statistics settle; `nodes` the verdict of every node (BoundFilter::Combine). values_of(p) gives
// p's column statistics over the rows (nullptr: all null; nullopt: unknown), trusted(p, verdict)
// whether those statistics describe the decoded values — asked only when `verdict` (kNone or kAll)
// would decide something, since it may read a chunk header. A null test needs no trust: a lossy
// encoding changes values, never which rows are null (§4 counts).
template <typename ValuesOf, typename Trusted>
absl::StatusOr<bool> RuleOut(const BoundFilter& filter, uint64_t rows, std::vector<Verdict>& leaves,
                             std::vector<Verdict>& nodes, ValuesOf values_of, Trusted trusted) {
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (leaves[i] != Verdict::kSome || filter.IsTagLeaf(i)) continue;
    const BoundPredicate& p = filter.leaves()[i];
    const std::optional<const Statistics*> values = values_of(p);
    // Unknown, or more values than rows (what `verify` calls inconsistent): decode.
    if (!values.has_value() || (*values != nullptr && (*values)->count > rows)) continue;
    const Verdict verdict = StatisticsVerdict(p, *values, rows);
    if (verdict == Verdict::kSome) continue;
    if (*values != nullptr && p.op != CompareOp::kIsNull && p.op != CompareOp::kIsNotNull) {
      TSREAD_ASSIGN_OR_RETURN(bool exact, trusted(p, verdict));
      if (!exact) continue;
    }
    leaves[i] = verdict;
    // The rows are out as soon as they are (a plain AND: the first leaf that matches nothing).
    if (verdict == Verdict::kNone && filter.Combine(leaves, nodes) == Verdict::kNone) return true;
  }
  return filter.Combine(leaves, nodes) == Verdict::kNone;
}

// Before a chunk group is loaded, learning whether a FLOAT/DOUBLE chunk keeps its values exact
// costs a read of its header (a system call: ~2.5 µs on this project's machine, 1,000 of them a
// scan of the benchmark file). That is worth it to skip the chunks unread (kNone), not to spare
// evaluating rows that will be read anyway (kAll): each page settles those from its statistics
// and its loaded chunk header for nothing (PredicatesRuleOutPage).
bool WorthAHeaderRead(DataType type, Verdict verdict) {
  return verdict == Verdict::kNone || (type != DataType::kFloat && type != DataType::kDouble);
}

}  // namespace

absl::StatusOr<bool> AlignedDeviceReader::PredicatesRuleOutDevice(const TimeseriesMetadata& time) {
  if (predicates_ == nullptr) return false;
  auto values = [&](const BoundPredicate& p) -> std::optional<const Statistics*> {
    const TimeseriesMetadata* series = column_series_[p.index];
    if (series == nullptr || series->statistics.empty()) return nullptr;
    if (series->data_type != p.type) return std::nullopt;
    return &series->statistics;
  };
  // Every chunk of the series must keep its values exact.
  auto trusted = [&](const BoundPredicate& p, Verdict verdict) -> absl::StatusOr<bool> {
    const TimeseriesMetadata& series = *column_series_[p.index];
    if (!WorthAHeaderRead(series.data_type, verdict)) return false;
    return SeriesKeepsValuesExact(*reader_, series, header_reads_);
  };
  device_leaves_.assign(predicates_->leaves().size(), Verdict::kSome);
  if (predicates_->HasTagLeaves()) {
    predicates_->DecideTagLeaves([&](size_t segment) { return predicate_device_->segment(segment); }, device_leaves_);
  }
  TSREAD_ASSIGN_OR_RETURN(bool out, RuleOut(*predicates_, time.statistics.count, device_leaves_, node_verdicts_,
                                            values, trusted));
  if (out && predicate_work_ != nullptr) predicate_work_->SkippedDevice();
  return out;
}

absl::StatusOr<bool> AlignedDeviceReader::PredicatesRuleOutChunkGroup(const ChunkGroupPlan& plan) {
  if (predicates_ == nullptr) return false;
  auto values = [&](const BoundPredicate& p) -> std::optional<const Statistics*> {
    const ChunkMetadata* chunk = plan.value_chunks[p.index];
    if (chunk == nullptr) return nullptr;  // no chunk, or an all-null one (§5)
    if (column_series_[p.index]->data_type != p.type) return std::nullopt;
    return &chunk->statistics;
  };
  auto trusted = [&](const BoundPredicate& p, Verdict verdict) -> absl::StatusOr<bool> {
    const TimeseriesMetadata& series = *column_series_[p.index];
    if (!WorthAHeaderRead(series.data_type, verdict)) return false;
    return ChunkKeepsValuesExact(*reader_, series, plan.value_chunks[p.index]->offset, header_reads_);
  };
  group_leaves_ = device_leaves_;
  TSREAD_ASSIGN_OR_RETURN(bool out, RuleOut(*predicates_, plan.time_chunk->statistics.count, group_leaves_,
                                            node_verdicts_, values, trusted));
  if (out && predicate_work_ != nullptr) predicate_work_->SkippedChunkGroup();
  return out;
}

absl::StatusOr<bool> AlignedDeviceReader::PredicatesRuleOutPage(size_t k, uint64_t rows) {
  if (predicates_ == nullptr) return false;
  auto values = [&](const BoundPredicate& p) -> std::optional<const Statistics*> {
    const ChunkData* chunk = value_chunks_[p.index];
    if (chunk != nullptr && chunk->header.data_type != p.type) return std::nullopt;
    return PageValueStatistics(p.index, k);
  };
  auto trusted = [&](const BoundPredicate& p, Verdict) -> absl::StatusOr<bool> {
    return HeaderKeepsValuesExact(value_chunks_[p.index]->header, p.type);
  };
  page_leaves_ = group_leaves_;
  TSREAD_ASSIGN_OR_RETURN(bool out, RuleOut(*predicates_, rows, page_leaves_, node_verdicts_, values, trusted));
  page_verdict_ = out ? Verdict::kNone : node_verdicts_.front();
  if (predicate_work_ != nullptr) {
    if (out) {
      predicate_work_->SkippedPage();
    } else if (page_verdict_ == Verdict::kAll) {
      predicate_work_->MatchedPage();
    }
  }
  return out;
}

absl::StatusOr<std::optional<size_t>> AlignedDeviceReader::EvaluatePredicates(size_t k, uint32_t rows,
                                                                             std::vector<ColumnVector>& columns) {
  if (predicates_ == nullptr || page_verdict_ == Verdict::kAll) return std::nullopt;
  keep_.assign(rows, 1);
  TSREAD_RETURN_IF_ERROR(predicates_->AndRows(
      node_verdicts_,
      [&](size_t leaf, std::vector<uint8_t>& keep) -> absl::Status {
        const BoundPredicate& p = predicates_->leaves()[leaf];
        if (!decoded_[p.index]) TSREAD_RETURN_IF_ERROR(DecodeColumn(p.index, k, rows, columns[p.index]));
        KeepMatches(p, columns[p.index], keep);
        return absl::OkStatus();
      },
      keep_, keep_scratch_));
  const size_t kept = static_cast<size_t>(std::count(keep_.begin(), keep_.end(), 1));
  if (predicate_work_ != nullptr) predicate_work_->EvaluatedPage(kept == 0);
  return kept;
}

void AlignedDeviceReader::KeepSelectedRows(std::vector<int64_t>& times, std::vector<ColumnVector>& columns) {
  KeepEntries(times, keep_);
  for (size_t j = 0; j < columns.size(); ++j) {
    if ((*columns_)[j].stored) columns[j].KeepRows(keep_);
  }
}

}  // namespace tsread

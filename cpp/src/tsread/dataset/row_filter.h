// RowFilter: value predicates evaluated on rows already in memory — rows that a merge of
// overlapping sources made (merged_scan.h), on which a predicate must be decided after the merge,
// never per source (a source's value may be replaced by another's).
#ifndef TSREAD_DATASET_ROW_FILTER_H_
#define TSREAD_DATASET_ROW_FILTER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/read/bound_filter.h"
#include "tsread/read/table_reader.h"
#include "tsread/read/value_predicate.h"

namespace tsread {

class RowFilter {
 public:
  // Binds `predicates` (ANDed) to `projection`, the columns of the batches it will filter: a FIELD
  // comparison to that column's values, a TAG comparison to the batch's device. InvalidArgument
  // for a column not in the projection or a value of the wrong type.
  static absl::StatusOr<RowFilter> Bind(const std::vector<PredicateExpr>& predicates,
                                        const std::vector<ProjectedColumn>& projection);

  bool empty() const { return filter_.empty(); }
  // Keeps the rows of `batch` (its times and columns) that satisfy the predicates.
  absl::Status Apply(TableBatch& batch);

 private:
  absl::Status BindUnder(size_t parent, const PredicateExpr& expr, const std::vector<ProjectedColumn>& projection);

  BoundFilter filter_;
  std::vector<Verdict> leaf_verdicts_, node_verdicts_;
  std::vector<uint8_t> keep_;
  std::vector<std::vector<uint8_t>> scratch_;
};

}  // namespace tsread

#endif  // TSREAD_DATASET_ROW_FILTER_H_

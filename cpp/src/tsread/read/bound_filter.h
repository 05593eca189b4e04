// BoundFilter: a scan's value predicates (value_predicate.h) bound to its columns as one tree of
// AND and OR over bound comparisons (bound_predicate.h), and the two things a reader asks of it —
//   - Combine: from what statistics say of each comparison (a Verdict per leaf), what they say of
//     the whole — no row, every row, or only some rows match — and of every node on the way;
//   - AndRows: which rows of a page match, evaluating only the comparisons that the statistics
//     left open, each column decoded only when a comparison needs it (a row already ruled out
//     by an AND, or already kept by an OR, needs nothing more).
// The root is an AND: a plain list of comparisons is a root with only leaves, evaluated as the
// list always was. A leaf on a TAG column (one with a tag segment) is decided per device from its
// id (format reference §12): kAll or kNone for all of the device's rows.
#ifndef TSREAD_READ_BOUND_FILTER_H_
#define TSREAD_READ_BOUND_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "tsread/read/bound_predicate.h"

namespace tsread {

class BoundFilter {
 public:
  struct Node {
    PredicateExpr::Kind kind = PredicateExpr::Kind::kAnd;
    size_t leaf = 0;                // kComparison: its index in leaves()
    std::vector<size_t> children;   // kAnd, kOr: node indexes
  };

  // An empty filter: a root AND without operands, which every row satisfies.
  BoundFilter() : nodes_(1) {}

  // Adds a leaf under node `parent` (0: the root): a comparison on a FIELD column (bound to a read
  // column, BoundPredicate::index) or, with a `tag_segment`, on a TAG column at that device-id
  // segment (ProjectedColumn::tag_segment).
  void AddLeaf(size_t parent, BoundPredicate predicate, std::optional<size_t> tag_segment = std::nullopt);
  // Adds an AND or OR node under `parent`; returns its index, to add its operands under.
  size_t AddNode(size_t parent, PredicateExpr::Kind kind);

  bool empty() const { return leaves_.empty(); }
  const std::vector<BoundPredicate>& leaves() const { return leaves_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  bool IsTagLeaf(size_t leaf) const { return tag_segments_[leaf].has_value(); }
  bool HasTagLeaves() const { return has_tag_leaves_; }

  // Fills node_verdicts (one per node) from leaf_verdicts (one per leaf); returns the root's.
  // AND: kNone when an operand is, kAll when all are; OR: kAll when an operand is, kNone when all are.
  Verdict Combine(const std::vector<Verdict>& leaf_verdicts, std::vector<Verdict>& node_verdicts) const;

  // The verdicts of a device's TAG leaves from its id segments (segment(i) nullopt: a null tag or
  // a column the file lacks); FIELD leaves are left as they are.
  template <typename Segment>
  void DecideTagLeaves(Segment segment, std::vector<Verdict>& leaf_verdicts) const {
    for (size_t i = 0; i < leaves_.size(); ++i) {
      if (!IsTagLeaf(i)) continue;
      const std::optional<std::string_view> value = segment(*tag_segments_[i]);
      leaf_verdicts[i] = MatchesText(leaves_[i], value) ? Verdict::kAll : Verdict::kNone;
    }
  }

  // keep[r] &= whether row r (of keep.size() rows) satisfies the filter, given the verdicts
  // Combine filled in (a node of kAll or kNone is not evaluated); leaf_rows(leaf, keep) ANDs a
  // FIELD leaf's matches into keep, decoding its column first. `scratch` holds one mask per
  // level of OR nesting, reused from page to page.
  absl::Status AndRows(const std::vector<Verdict>& node_verdicts,
                       absl::FunctionRef<absl::Status(size_t leaf, std::vector<uint8_t>& keep)> leaf_rows,
                       std::vector<uint8_t>& keep, std::vector<std::vector<uint8_t>>& scratch) const;

 private:
  absl::Status AndNodeRows(size_t node, const std::vector<Verdict>& node_verdicts,
                           absl::FunctionRef<absl::Status(size_t, std::vector<uint8_t>&)> leaf_rows,
                           std::vector<uint8_t>& keep, std::vector<std::vector<uint8_t>>& scratch, size_t depth) const;
  Verdict CombineNode(size_t node, const std::vector<Verdict>& leaf_verdicts, std::vector<Verdict>& node_verdicts) const;

  std::vector<Node> nodes_;  // nodes_[0]: the root, an AND
  std::vector<BoundPredicate> leaves_;
  std::vector<std::optional<size_t>> tag_segments_;  // per leaf: its TAG column's id segment, if a TAG leaf
  bool has_tag_leaves_ = false;
};

}  // namespace tsread

#endif  // TSREAD_READ_BOUND_FILTER_H_

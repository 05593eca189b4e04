// A tree of bound comparisons (bound_filter.h): verdicts combined up the tree, rows evaluated
// down it.
#include "tsread/read/bound_filter.h"

#include <algorithm>
#include <utility>

#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

bool NoneKept(const std::vector<uint8_t>& keep) {
  return std::none_of(keep.begin(), keep.end(), [](uint8_t k) { return k != 0; });
}

}  // namespace

void BoundFilter::AddLeaf(size_t parent, BoundPredicate predicate, std::optional<size_t> tag_segment) {
  Node node;
  node.kind = PredicateExpr::Kind::kComparison;
  node.leaf = leaves_.size();
  leaves_.push_back(std::move(predicate));
  tag_segments_.push_back(tag_segment);
  has_tag_leaves_ = has_tag_leaves_ || tag_segment.has_value();
  nodes_[parent].children.push_back(nodes_.size());
  nodes_.push_back(std::move(node));
}

size_t BoundFilter::AddNode(size_t parent, PredicateExpr::Kind kind) {
  Node node;
  node.kind = kind;
  const size_t index = nodes_.size();
  nodes_[parent].children.push_back(index);
  nodes_.push_back(std::move(node));
  return index;
}

Verdict BoundFilter::Combine(const std::vector<Verdict>& leaf_verdicts, std::vector<Verdict>& node_verdicts) const {
  node_verdicts.resize(nodes_.size());
  return CombineNode(0, leaf_verdicts, node_verdicts);
}

Verdict BoundFilter::CombineNode(size_t n, const std::vector<Verdict>& leaf_verdicts,
                                 std::vector<Verdict>& node_verdicts) const {
  const Node& node = nodes_[n];
  Verdict v = Verdict::kSome;
  switch (node.kind) {
    case PredicateExpr::Kind::kComparison: v = leaf_verdicts[node.leaf]; break;
    case PredicateExpr::Kind::kAnd:
      // kNone dominates, then kSome; an AND of nothing holds for every row.
      v = Verdict::kAll;
      for (size_t child : node.children) {
        const Verdict c = CombineNode(child, leaf_verdicts, node_verdicts);
        if (c == Verdict::kNone) v = Verdict::kNone;
        if (c == Verdict::kSome && v == Verdict::kAll) v = Verdict::kSome;
      }
      break;
    case PredicateExpr::Kind::kOr:
      v = Verdict::kNone;
      for (size_t child : node.children) {
        const Verdict c = CombineNode(child, leaf_verdicts, node_verdicts);
        if (c == Verdict::kAll) v = Verdict::kAll;
        if (c == Verdict::kSome && v == Verdict::kNone) v = Verdict::kSome;
      }
      break;
  }
  node_verdicts[n] = v;
  return v;
}

absl::Status BoundFilter::AndRows(const std::vector<Verdict>& node_verdicts,
                                  absl::FunctionRef<absl::Status(size_t, std::vector<uint8_t>&)> leaf_rows,
                                  std::vector<uint8_t>& keep, std::vector<std::vector<uint8_t>>& scratch) const {
  // Two masks per level of OR nesting, which the node count bounds; sized before the recursion
  // holds references into it.
  if (scratch.size() < 2 * nodes_.size()) scratch.resize(2 * nodes_.size());
  return AndNodeRows(0, node_verdicts, leaf_rows, keep, scratch, 0);
}

absl::Status BoundFilter::AndNodeRows(size_t n, const std::vector<Verdict>& node_verdicts,
                                      absl::FunctionRef<absl::Status(size_t, std::vector<uint8_t>&)> leaf_rows,
                                      std::vector<uint8_t>& keep, std::vector<std::vector<uint8_t>>& scratch,
                                      size_t depth) const {
  if (node_verdicts[n] == Verdict::kAll) return absl::OkStatus();
  if (node_verdicts[n] == Verdict::kNone) {
    std::fill(keep.begin(), keep.end(), 0);
    return absl::OkStatus();
  }
  const Node& node = nodes_[n];
  switch (node.kind) {
    case PredicateExpr::Kind::kComparison: return leaf_rows(node.leaf, keep);
    case PredicateExpr::Kind::kAnd:
      for (size_t child : node.children) {
        TSREAD_RETURN_IF_ERROR(AndNodeRows(child, node_verdicts, leaf_rows, keep, scratch, depth));
        if (NoneKept(keep)) break;  // the other operands' columns need not be decoded
      }
      return absl::OkStatus();
    case PredicateExpr::Kind::kOr: {
      // `any`: the rows some operand keeps so far; each operand is evaluated on the rows still
      // kept (a copy of keep), so both stay within keep.
      std::vector<uint8_t>& any = scratch[2 * depth];
      std::vector<uint8_t>& one = scratch[2 * depth + 1];
      any.assign(keep.size(), 0);
      for (size_t child : node.children) {
        if (node_verdicts[child] == Verdict::kNone) continue;
        one = keep;
        TSREAD_RETURN_IF_ERROR(AndNodeRows(child, node_verdicts, leaf_rows, one, scratch, depth + 1));
        for (size_t r = 0; r < any.size(); ++r) any[r] |= one[r];
        if (any == keep) break;  // every row kept so far matches: the rest need not be decoded
      }
      keep.swap(any);
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

}  // namespace tsread

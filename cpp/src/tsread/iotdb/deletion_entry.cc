// What a deletion entry deletes: IoTDB's query-side matching rules (iotdb-data-directories.md §3.4,
// iotdb-deletion-files.md "Which data an entry deletes").
#include "tsread/iotdb/deletion_entry.h"

#include <algorithm>
#include <cstddef>

namespace tsread::iotdb {
namespace {

// A pattern node with a wildcard inside it (`d*`, `*d*`) matched against a whole node: IoTDB turns
// `*` into `.*` and matches the regex against the node (PathPatternUtil#isNodeMatch). A greedy scan
// that backtracks only to the last `*` matches such globs in O(|glob| * |text|) at worst.
bool GlobMatches(std::string_view glob, std::string_view text) {
  size_t g = 0;
  size_t t = 0;
  size_t star = std::string_view::npos;  // the glob position just after the last `*` seen
  size_t star_text = 0;                  // where the text was when that `*` was seen
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = ++g;
      star_text = t;
    } else if (g < glob.size() && glob[g] == text[t]) {
      ++g;
      ++t;
    } else if (star != std::string_view::npos) {
      // Let the last `*` take one more character and retry from there.
      g = star;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

// One pattern node against one path node: `*` any node (the empty time-column name too), a node
// with a partial wildcard as a glob (never in 1.x, whose pattern tree followed only exact, `*` and
// `**` children: iotdb-deletion-files.md "Tree entries"), anything else literally.
bool NodeMatches(const std::string& pattern, std::string_view node, bool partial_wildcards_match) {
  if (pattern == "*") return true;
  if (pattern.find('*') != std::string::npos) {
    return partial_wildcards_match && GlobMatches(pattern, node);
  }
  return pattern == node;
}

// Whether the pattern matches the whole path, node by node, `**` standing for one or more nodes
// (PartialPath#matchFullPath). Dynamic programming over the path: reachable[j] says whether the
// pattern nodes seen so far can match the first j path nodes, so `**` costs O(path) per node
// instead of the exponential backtracking a naive recursion would do.
bool PatternMatches(const std::vector<std::string>& pattern, const std::vector<std::string>& path,
                    bool partial_wildcards_match) {
  std::vector<char> reachable(path.size() + 1, 0);
  reachable[0] = 1;
  for (const std::string& node : pattern) {
    std::vector<char> next(path.size() + 1, 0);
    if (node == "**") {
      // One or more nodes: from any reachable j, every k > j is reachable.
      bool seen = false;
      for (size_t k = 1; k <= path.size(); ++k) {
        seen = seen || reachable[k - 1];
        next[k] = seen;
      }
    } else {
      for (size_t k = 1; k <= path.size(); ++k) {
        next[k] = reachable[k - 1] && NodeMatches(node, path[k - 1], partial_wildcards_match);
      }
    }
    reachable.swap(next);
  }
  return reachable[path.size()] != 0;
}

// A tree entry: the pattern must match the full series path device.measurement; a pattern naming
// only the device (`root.db.d1`) deletes none of its series (TreeDeletionEntry#affects,
// iotdb-data-directories.md §3.4). The time column of an aligned device is the node "".
bool TreeEntryAffects(const DeletionEntry& entry, const DeviceId& device, std::string_view measurement) {
  std::vector<std::string> path = PathNodes(device.ToString());
  path.emplace_back(measurement);
  return PatternMatches(entry.pattern, path, entry.partial_wildcards_match);
}

// A table entry: same table (exact, case-sensitive), the device condition, and the column list,
// empty meaning every column including the time column (DeletionPredicate#matches/#affects,
// iotdb-data-directories.md §3.4).
bool TableEntryAffects(const DeletionEntry& entry, const DeviceId& device, std::string_view measurement) {
  if (device.table_name() != entry.table || !entry.devices.Matches(device)) return false;
  if (entry.columns.empty()) return true;
  // A column list (DROP COLUMN) nulls only those fields: rows, i.e. the time column "", survive.
  if (measurement.empty()) return false;
  return std::find(entry.columns.begin(), entry.columns.end(), measurement) != entry.columns.end();
}

// device.segment(i) with IoTDB's reading: beyond the last segment (trailing nulls are trimmed) is
// null. A negative index cannot come from IoTDB's writer (tag ordinal + 1); it reads as null here.
std::optional<std::string_view> SegmentAt(const DeviceId& device, int32_t i) {
  if (i < 0) return std::nullopt;
  return device.segment(static_cast<size_t>(i));
}

}  // namespace

bool DeviceCondition::Matches(const DeviceId& device) const {
  switch (kind) {
    case Kind::kAll:
      return true;
    case Kind::kDevice:
      return !devices.empty() && devices[0] == device;
    case Kind::kSegmentEquals: {
      // Objects.equals(value, device.segment(i)): null equals null (IS NULL).
      const std::optional<std::string_view> actual = SegmentAt(device, segment);
      if (!value.has_value() || !actual.has_value()) return value.has_value() == actual.has_value();
      return *actual == *value;
    }
    case Kind::kAnd:
      return std::all_of(operands.begin(), operands.end(),
                         [&](const DeviceCondition& c) { return c.Matches(device); });
    case Kind::kDeviceIn:
      return std::find(devices.begin(), devices.end(), device) != devices.end();
    case Kind::kSegmentNotNull:
      return SegmentAt(device, segment).has_value();
  }
  return false;
}

bool DeletionEntry::Affects(const DeviceId& device, std::string_view measurement) const {
  return model == Model::kTree ? TreeEntryAffects(*this, device, measurement)
                               : TableEntryAffects(*this, device, measurement);
}

std::vector<std::string> PathNodes(std::string_view path) {
  std::vector<std::string> nodes;
  std::string node;
  bool quoted = false;
  for (size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '`') {
      if (quoted && i + 1 < path.size() && path[i + 1] == '`') {
        node.push_back('`');  // `` inside a quoted node is one back quote
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      nodes.push_back(std::move(node));
      node.clear();
    } else {
      node.push_back(c);
    }
  }
  nodes.push_back(std::move(node));
  return nodes;
}

}  // namespace tsread::iotdb

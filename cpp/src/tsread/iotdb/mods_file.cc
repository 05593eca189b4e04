// IoTDB 1.x `.mods` files: one text line per deletion (iotdb-deletion-files.md, "1.x format";
// iotdb-data-directories.md §3.2), decoded as LocalTextModificationAccessor (dev/1.3) does.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

constexpr std::string_view kDeletionType = "DELETION";  // Modification.Type.DELETION.name()
// Fields quoted in messages are cut to this many bytes: a damaged file can hold a megabyte "line".
constexpr size_t kQuotedFieldLimit = 64;

// A field as a message shows it: escaped, and cut when long.
std::string Quoted(std::string_view field) {
  const bool cut = field.size() > kQuotedFieldLimit;
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(field.substr(0, kQuotedFieldLimit))), cut ? "...\"" : "\"");
}

// Java's Long.parseLong on ASCII: an optional sign, then one or more decimal digits, nothing else
// (no spaces), within the range of a long.
std::optional<int64_t> ParseJavaLong(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return std::nullopt;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t value = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (limit - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
}

// Java's line.split(","): the pieces between commas, trailing empty pieces dropped (so ",,," has
// no fields at all and "DELETION,p,1,2," has four).
std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (fields.size() == 1) return fields;  // no comma: the line itself, even when empty
  while (!fields.empty() && fields.back().empty()) fields.pop_back();
  return fields;
}

// fields [first, last) joined by ',' again: the path pattern, whose back-quoted nodes may hold
// commas (decodeDeletion: String.join(SEPARATOR, Arrays.copyOfRange(fields, 1, n - 3))).
std::string JoinFields(const std::vector<std::string_view>& fields, size_t first, size_t last) {
  std::string out;
  for (size_t i = first; i < last; ++i) {
    if (i > first) out.push_back(',');
    out.append(fields[i]);
  }
  return out;
}

// Whether every back-quoted node is closed (`` inside one is an escaped quote). IoTDB's path
// parser rejects an unterminated one (IllegalPathException), which stops the read like any
// undecodable line.
bool QuotesClosed(std::string_view path) {
  bool quoted = false;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '`') continue;
    if (quoted && i + 1 < path.size() && path[i + 1] == '`') {
      ++i;
    } else {
      quoted = !quoted;
    }
  }
  return !quoted;
}

absl::StatusOr<int64_t> ParseField(std::string_view field, const char* what) {
  std::optional<int64_t> value = ParseJavaLong(field);
  if (!value.has_value()) {
    return absl::DataLossError(absl::StrCat(what, " ", Quoted(field), " is not a decimal long"));
  }
  return *value;
}

// The entry of a decoded line: a tree pattern whose partial wildcards never match (1.x's pattern
// tree followed only exact, `*` and `**` children: iotdb-deletion-files.md "Tree entries").
absl::StatusOr<DeletionEntry> MakeEntry(std::string path, int64_t file_offset, int64_t start, int64_t end) {
  if (path.empty()) return absl::DataLossError("the path is empty");
  if (!QuotesClosed(path)) {
    return absl::DataLossError(absl::StrCat("the path ", Quoted(path), " has an unterminated back quote"));
  }
  DeletionEntry entry;
  entry.model = DeletionEntry::Model::kTree;
  entry.pattern = PathNodes(path);
  entry.start = start;
  entry.end = end;
  entry.file_offset = file_offset;
  entry.partial_wildcards_match = false;
  return entry;
}

// One line: DELETION,<path>,<fileOffset>,<start>,<end>, or when field n-3 is no long the legacy
// 0.x point deletion DELETION,<path>,<version>,<end> with an open start (decodeDeletion,
// decodePointDeletion). Errors say why, without the file or offset (ParseModsText adds them).
absl::StatusOr<DeletionEntry> DecodeLine(std::string_view line) {
  if (line.empty()) return absl::DataLossError("the line is empty");
  const std::vector<std::string_view> fields = SplitFields(line);
  if (fields.empty()) return absl::DataLossError("the line holds only commas");
  if (fields[0] != kDeletionType) {
    return absl::DataLossError(absl::StrCat("unknown modification type ", Quoted(fields[0]),
                                            " (a deletion line starts with DELETION,)"));
  }
  const size_t n = fields.size();
  if (n < 4) {
    return absl::DataLossError(absl::StrCat("the line has ", n, " comma-separated fields, a deletion has at least 4"));
  }
  if (std::optional<int64_t> file_offset = ParseJavaLong(fields[n - 3]); file_offset.has_value()) {
    TSREAD_ASSIGN_OR_RETURN(int64_t end, ParseField(fields[n - 1], "the end time"));
    TSREAD_ASSIGN_OR_RETURN(int64_t start, ParseField(fields[n - 2], "the start time"));
    return MakeEntry(JoinFields(fields, 1, n - 3), *file_offset, start, end);
  }
  // Legacy point deletion: the version stands where the file offset does in the 5-field form
  // (Deletion(path, versionNum, endTime) keeps it as the file offset), start = Long.MIN_VALUE.
  TSREAD_ASSIGN_OR_RETURN(int64_t end, ParseField(fields[n - 1], "the end time"));
  TSREAD_ASSIGN_OR_RETURN(int64_t version, ParseField(fields[n - 2], "the version"));
  return MakeEntry(JoinFields(fields, 1, n - 2), version, std::numeric_limits<int64_t>::min(), end);
}

// The line starting at `begin`, and where the next begins. Lines end at "\n", "\r" or "\r\n" as
// for Java's BufferedReader.readLine; a last line without one is still a line.
std::pair<std::string_view, size_t> LineAt(std::string_view bytes, size_t begin) {
  size_t end = bytes.find_first_of("\r\n", begin);
  if (end == std::string_view::npos) return {bytes.substr(begin), bytes.size()};
  size_t next = end + 1;
  if (bytes[end] == '\r' && next < bytes.size() && bytes[next] == '\n') ++next;
  return {bytes.substr(begin, end - begin), next};
}

}  // namespace

DeletionFileContents ParseModsText(std::string_view bytes, std::string_view path) {
  DeletionFileContents contents;
  size_t begin = 0;
  while (begin < bytes.size()) {
    const auto [line, next] = LineAt(bytes, begin);
    absl::StatusOr<DeletionEntry> entry = DecodeLine(line);
    if (!entry.ok()) {
      // IoTDB stops reading at the first line it cannot decode and keeps the entries before it
      // (decodeModificationAndCache; iotdb-deletion-files.md "1.x format").
      contents.damage = absl::DataLossError(
          absl::StrCat(ToAbsl(path), ": line at offset ", begin, ": ", entry.status().message()));
      break;
    }
    contents.entries.push_back(*std::move(entry));
    begin = next;
  }
  return contents;
}

}  // namespace tsread::iotdb

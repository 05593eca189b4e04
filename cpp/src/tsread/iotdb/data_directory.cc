// IoTDB data directories (data_directory.h): recognizing them, listing their files, leaving out
// what IoTDB does not read and resolving compaction leftovers (iotdb-data-directories.md §1.2,
// §1.4).
#include "tsread/iotdb/data_directory.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "tsread/io/file_list.h"

namespace tsread::iotdb {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSequence = "sequence";
constexpr const char* kUnsequence = "unsequence";
// How deep below a plain input folder a data directory is looked for (data/datanode/data is 3).
constexpr int kSearchDepth = 6;

bool IsSpaceName(const std::string& name) { return name == kSequence || name == kUnsequence; }

bool IsDirectory(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

bool IsRegularFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

uint64_t FileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Whether a folder is a data directory: it has a sequence or unsequence folder.
bool IsDataDir(const fs::path& dir) {
  return IsDirectory(dir / kSequence) || IsDirectory(dir / kUnsequence);
}

// Sorted subdirectories of `dir` (none when it cannot be listed).
// The entries of `dir` that `keep` accepts, sorted (an unreadable directory lists nothing).
std::vector<fs::path> Entries(const fs::path& dir, bool (*keep)(const fs::path&)) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (keep(it->path())) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> SubDirectories(const fs::path& dir) { return Entries(dir, IsDirectory); }
std::vector<fs::path> RegularFiles(const fs::path& dir) { return Entries(dir, IsRegularFile); }

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A partition folder's name: a (possibly negative) decimal id.
std::optional<int64_t> PartitionId(const std::string& name) {
  if (name.empty()) return std::nullopt;
  size_t i = name[0] == '-' ? 1 : 0;
  if (i == name.size()) return std::nullopt;
  int64_t value = 0;
  for (; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    if (value > (INT64_MAX - 9) / 10) return std::nullopt;
    value = value * 10 + (name[i] - '0');
  }
  return name[0] == '-' ? -value : value;
}

// Where a file sits in a layout: {space}/{database}/{region}/{partition}/{name}.
struct Place {
  std::string space, database, region, partition, name;
  auto key() const { return std::tie(space, database, region, partition, name); }
  friend bool operator<(const Place& a, const Place& b) { return a.key() < b.key(); }
};

// A compaction log's files (§1.4): lines "<source|target|empty> <space> <db> <region> <partition> <name>".
struct CompactionLog {
  std::string path;
  fs::path data_dir;  // the data directory the log lies in ({data_dir}/{space}/{db}/{region}/{partition}/)
  std::vector<Place> sources, targets;
  std::set<Place> empty_targets;

  // Where a file the log names lies in its data directory.
  fs::path PathOf(const Place& p) const { return data_dir / p.space / p.database / p.region / p.partition / p.name; }
};

CompactionLog ReadCompactionLog(const fs::path& path) {
  CompactionLog log{path.string(), path.parent_path().parent_path().parent_path().parent_path().parent_path(), {}, {}, {}};
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string flag;
    Place place;
    if (!(words >> flag >> place.space >> place.database >> place.region >> place.partition >> place.name)) continue;
    if (!IsSpaceName(place.space)) continue;
    if (flag == "source") {
      log.sources.push_back(place);
    } else if (flag == "target") {
      log.targets.push_back(place);
    } else if (flag == "empty") {
      log.empty_targets.insert(place);
    }
  }
  return log;
}

// A target's name as the finished TsFile (`.inner`/`.cross` temporary names renamed).
std::string FinishedName(std::string name) {
  for (std::string_view suffix : {".inner", ".cross", ".settle"}) {
    if (EndsWith(name, suffix)) return name.substr(0, name.size() - suffix.size()) + ".tsfile";
  }
  return name;
}

// TsFileUtils.isTsFileComplete: the file ends with the magic string after its index.
bool IsCompleteTsFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 13) return false;
  char tail[6];
  in.seekg(size - 6);
  return in.read(tail, 6) && std::string_view(tail, 6) == "TsFile";
}

// Everything found below the data directories: the files by place, and the compaction logs.
struct Listing {
  std::map<Place, std::string> files;  // place -> path (the first data directory's, if in several)
  std::vector<CompactionLog> logs;
  std::set<std::string> logs_read;  // the partition folders whose compaction logs are in `logs`
  std::vector<std::string> notes;
};

// Whether partition folder `dir`'s compaction logs are still to be read (then they count as read).
bool LogsUnread(const fs::path& dir, Listing& listing) {
  return listing.logs_read.insert(dir.lexically_normal().string()).second;
}

// Whether `file` (in a partition folder) is a compaction log; read into the listing when `read`.
bool TakeCompactionLog(const fs::path& file, bool read, Listing& listing) {
  if (!EndsWith(file.filename().string(), "-compaction.log")) return false;
  if (read) listing.logs.push_back(ReadCompactionLog(file));
  return true;
}

// Reads the compaction logs of partition folder `dir` into the listing, once a folder.
void ReadCompactionLogs(const fs::path& dir, Listing& listing) {
  if (!IsDirectory(dir) || !LogsUnread(dir, listing)) return;
  for (const fs::path& file : RegularFiles(dir)) TakeCompactionLog(file, true, listing);
}

void ListPartition(const fs::path& dir, const Place& where, Listing& listing) {
  const bool read_logs = LogsUnread(dir, listing);
  for (const fs::path& file : RegularFiles(dir)) {
    if (TakeCompactionLog(file, read_logs, listing)) continue;
    const std::string name = file.filename().string();
    if (!EndsWith(name, ".tsfile")) continue;  // .inner, .cross, .settle, .broken, mods, resources
    if (!ParseTsFileName(name)) {
      listing.notes.push_back(absl::StrCat(file.string(), " is left out: not an IoTDB TsFile name ({time}-{version}-{inner}-{cross}.tsfile)"));
      continue;
    }
    Place place = where;
    place.name = name;
    listing.files.emplace(place, file.string());  // a name in two data directories: IoTDB keeps one
  }
}

// Lists `dir`, which is at `depth` below a data directory (0: the data directory; 1: a space
// folder; 2: a database; 3: a region; 4: a partition), with what is known of its place.
void ListBelow(const fs::path& dir, int depth, Place where, Listing& listing) {
  if (depth == 4) {
    ListPartition(dir, where, listing);
    return;
  }
  for (const fs::path& child : SubDirectories(dir)) {
    const std::string name = child.filename().string();
    Place next = where;
    switch (depth) {
      case 0:
        if (!IsSpaceName(name)) continue;  // object/, snapshot/, load/... hold no region files
        next.space = name;
        break;
      case 1:
        next.database = name;
        break;
      case 2:
        next.region = name;
        break;
      case 3:
        if (!PartitionId(name)) continue;
        next.partition = name;
        break;
    }
    ListBelow(child, depth + 1, next, listing);
  }
}

// Applies each compaction log's recovery rule (§1.4): the files it leaves out.
// A file is found where the inputs named it or, for inputs that name files (a file or a glob
// below a data directory), where the log's data directory holds it: IoTDB's recovery looks at the
// disk, not at what a reader was given.
std::set<Place> ResolveCompactions(const Listing& listing, std::vector<std::string>& notes) {
  std::set<Place> left_out;
  for (const CompactionLog& log : listing.logs) {
    if (log.sources.empty() || log.targets.empty()) continue;
    auto found_at = [&](const Place& p) -> std::optional<std::string> {
      if (auto it = listing.files.find(p); it != listing.files.end()) return it->second;
      const fs::path on_disk = log.PathOf(p);
      if (IsRegularFile(on_disk)) return on_disk.string();
      return std::nullopt;
    };
    const bool sources_exist = std::all_of(log.sources.begin(), log.sources.end(),
                                           [&](const Place& p) { return found_at(p).has_value(); });
    std::vector<Place> finished_targets;
    for (Place target : log.targets) {
      target.name = FinishedName(target.name);
      finished_targets.push_back(target);
    }
    if (sources_exist) {
      for (const Place& target : finished_targets) left_out.insert(target);
      notes.push_back(absl::StrCat(log.path, ": a compaction that did not finish; its sources are read, not its targets"));
      continue;
    }
    bool targets_complete = true;
    for (const Place& target : finished_targets) {
      if (log.empty_targets.count(target) > 0) continue;
      const std::optional<std::string> path = found_at(target);
      if (!path.has_value() || !IsCompleteTsFile(*path)) targets_complete = false;
    }
    if (targets_complete) {
      for (const Place& source : log.sources) left_out.insert(source);
      notes.push_back(absl::StrCat(log.path, ": a compaction that finished; its targets are read, not the sources left over"));
    } else {
      notes.push_back(absl::StrCat(log.path, ": a compaction whose sources and targets are both incomplete; every file found is read"));
    }
  }
  return left_out;
}

// The data directory an input is at or below, and the input's depth below it (0-4); nullopt when
// the path has no sequence/unsequence component at a depth that fits.
std::optional<std::pair<fs::path, int>> EnclosingDataDir(const fs::path& input, bool is_file) {
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(fs::absolute(input, ec), ec);
  if (ec) return std::nullopt;
  std::vector<fs::path> parts;
  for (const fs::path& part : absolute) parts.push_back(part);
  const int last = static_cast<int>(parts.size()) - 1;
  // A file sits 5 levels below its data directory; a folder 1 to 4.
  for (int depth = is_file ? 5 : 1; depth <= (is_file ? 5 : 4); ++depth) {
    const int space = last - depth + 1;
    if (space < 1 || !IsSpaceName(parts[space].string())) continue;
    fs::path data_dir;
    for (int i = 0; i < space; ++i) data_dir /= parts[i];
    return std::make_pair(data_dir, depth);
  }
  return std::nullopt;
}

// Data directories at or below `dir` (depth-limited), in path order.
void FindDataDirs(const fs::path& dir, int depth, std::vector<fs::path>& out) {
  if (IsDataDir(dir)) {
    out.push_back(dir);
    return;
  }
  if (depth == 0) return;
  for (const fs::path& child : SubDirectories(dir)) FindDataDirs(child, depth - 1, out);
}

// The Place of a path inside a data directory, `depth` levels below it (names of the folders between).
Place PlaceOf(const fs::path& input, int depth) {
  std::vector<std::string> parts;
  for (const fs::path& part : fs::weakly_canonical(fs::absolute(input))) parts.push_back(part.string());
  Place place;
  std::string* fields[] = {&place.space, &place.database, &place.region, &place.partition, &place.name};
  for (int i = 0; i < depth; ++i) *fields[i] = parts[parts.size() - depth + i];
  return place;
}

IotdbFile FileAt(const Place& place, const std::string& path) {
  IotdbFile file;
  file.path = path;
  file.database = place.database;
  file.region = place.region;
  file.partition = PartitionId(place.partition).value_or(0);
  file.in_layout = true;
  file.sequence = place.space == kSequence;
  file.name = ParseTsFileName(place.name).value_or(TsFileName{});
  file.deletions = DeletionFileOf(path);
  return file;
}

IotdbFile PlainFile(const std::string& path) {
  IotdbFile file;
  file.path = path;
  file.name = ParseTsFileName(fs::path(path).filename().string()).value_or(TsFileName{});
  file.deletions = DeletionFileOf(path);
  return file;
}

// Orders the files into groups (data_directory.h, IotdbLayout::groups).
void Group(IotdbLayout& layout) {
  // A plain file is its own group, in input order (after the layout's groups).
  using Key = std::tuple<bool, std::string, int64_t, std::string, size_t>;
  std::vector<Key> keys;
  for (size_t i = 0; i < layout.files.size(); ++i) {
    const IotdbFile& f = layout.files[i];
    keys.emplace_back(!f.in_layout, f.database, f.partition, f.region, f.in_layout ? 0 : i);
  }
  std::vector<size_t> order(layout.files.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (keys[a] != keys[b]) return keys[a] < keys[b];
    return layout.files[a].priority() < layout.files[b].priority();
  });
  std::vector<IotdbFile> files;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || keys[order[k]] != keys[order[k - 1]]) layout.groups.emplace_back();
    layout.groups.back().files.push_back(files.size());
    files.push_back(std::move(layout.files[order[k]]));
  }
  layout.files = std::move(files);
}

}  // namespace

std::optional<DeletionFileRef> DeletionFileOf(const std::string& tsfile_path) {
  // §3.1: a .mods2 (2.x) is the file's deletions; a .mods (1.x) counts only without one. An empty
  // file counts as absent (ModificationFile: a 0-byte file has no entries).
  for (auto [suffix, format] : {std::pair{".mods2", DeletionFormat::kMods2}, std::pair{".mods", DeletionFormat::kMods}}) {
    const std::string path = tsfile_path + suffix;
    const uint64_t size = FileSize(path);
    if (size > 0) return DeletionFileRef{path, format, size};
    struct stat st;
    if (format == DeletionFormat::kMods2 && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return std::nullopt;
  }
  return std::nullopt;
}

size_t IotdbLayout::sequence_files() const {
  return std::count_if(files.begin(), files.end(), [](const IotdbFile& f) { return f.in_layout && f.sequence; });
}
size_t IotdbLayout::unsequence_files() const {
  return std::count_if(files.begin(), files.end(), [](const IotdbFile& f) { return f.in_layout && !f.sequence; });
}
size_t IotdbLayout::deletion_files() const {
  return std::count_if(files.begin(), files.end(), [](const IotdbFile& f) { return f.deletions.has_value(); });
}
std::vector<std::string> IotdbLayout::databases() const {
  std::set<std::string> names;
  for (const IotdbFile& f : files) {
    if (f.in_layout) names.insert(f.database);
  }
  return {names.begin(), names.end()};
}
void IotdbLayout::RemoveFiles(const std::vector<bool>& remove) {
  std::vector<IotdbFile> kept;
  for (size_t f = 0; f < files.size(); ++f) {
    if (f >= remove.size() || !remove[f]) kept.push_back(std::move(files[f]));
  }
  files = std::move(kept);
  groups.clear();
  Group(*this);  // the order is kept: the files were in group order already
}

std::vector<std::string> IotdbLayout::paths() const {
  std::vector<std::string> out;
  for (const IotdbFile& f : files) out.push_back(f.path);
  return out;
}

absl::StatusOr<IotdbLayout> FindLayout(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return absl::InvalidArgumentError("no input");
  IotdbLayout layout;
  Listing listing;
  std::vector<std::string> plain_inputs;
  std::set<std::string> data_dirs;
  // A glob names files: each is placed as a file input is (one below a data directory joins it).
  std::vector<std::string> expanded;
  for (const std::string& input : inputs) {
    if (!IsGlob(input)) {
      expanded.push_back(input);
      continue;
    }
    absl::StatusOr<std::vector<std::string>> matches = ListFiles({input}, ".tsfile");
    if (!matches.ok()) return matches.status();
    for (std::string& m : *matches) {
      if (EndsWith(m, ".tsfile")) expanded.push_back(std::move(m));
    }
  }
  for (const std::string& input : expanded) {
    const fs::path path(input);
    const bool is_dir = IsDirectory(path);
    const bool is_file = IsRegularFile(path);
    if (!is_dir && !is_file) {
      plain_inputs.push_back(input);  // a missing path: ListFiles and the open report it
      continue;
    }
    if (std::optional<std::pair<fs::path, int>> enclosing = EnclosingDataDir(path, is_file)) {
      data_dirs.insert(enclosing->first.string());
      const Place where = PlaceOf(path, enclosing->second);
      if (is_file) {
        if (ParseTsFileName(where.name) && PartitionId(where.partition)) {
          listing.files.emplace(where, input);
          // Its partition's compaction logs, in both spaces (a cross-space log lies beside its targets).
          for (const char* space : {"sequence", "unsequence"}) {
            ReadCompactionLogs(enclosing->first / space / where.database / where.region / where.partition, listing);
          }
          continue;
        }
        plain_inputs.push_back(input);
        continue;
      }
      ListBelow(path, enclosing->second, where, listing);
      continue;
    }
    std::vector<fs::path> found;
    if (is_dir) FindDataDirs(path, kSearchDepth, found);
    if (found.empty()) {
      plain_inputs.push_back(input);
      continue;
    }
    for (const fs::path& dir : found) {
      data_dirs.insert(dir.string());
      ListBelow(dir, 0, Place{}, listing);
    }
  }
  layout.recognized = !data_dirs.empty();
  layout.data_dirs.assign(data_dirs.begin(), data_dirs.end());
  layout.notes = std::move(listing.notes);
  const std::set<Place> left_out = ResolveCompactions(listing, layout.notes);
  for (const auto& [place, path] : listing.files) {
    if (left_out.count(place) == 0) layout.files.push_back(FileAt(place, path));
  }
  if (!plain_inputs.empty()) {
    absl::StatusOr<std::vector<std::string>> plain = ListFiles(plain_inputs, ".tsfile");
    if (!plain.ok()) return plain.status();
    for (const std::string& path : *plain) layout.files.push_back(PlainFile(path));
  }
  if (layout.files.empty()) {
    return absl::NotFoundError(absl::StrCat("no TsFile in ", inputs.size() == 1 ? inputs[0] : "the inputs"));
  }
  Group(layout);
  return layout;
}

}  // namespace tsread::iotdb

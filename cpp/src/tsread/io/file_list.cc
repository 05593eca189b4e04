#include "tsread/io/file_list.h"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

enum class Kind { kMissing, kFile, kDirectory, kOther };

// What `path` is, following symbolic links.
Kind KindOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Kind::kMissing;
  if (S_ISREG(st.st_mode)) return Kind::kFile;
  if (S_ISDIR(st.st_mode)) return Kind::kDirectory;
  return Kind::kOther;
}

// Whether `path` is a directory itself, not a link to one: recursion follows no directory link,
// so a link cycle cannot make a listing endless.
bool IsRealDirectory(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string JoinPath(const std::string& dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  if (dir.back() == '/') return absl::StrCat(dir, ToAbsl(name));
  return absl::StrCat(dir, "/", ToAbsl(name));
}

// The entries of `dir` other than `.` and `..`, sorted by name. Unavailable if it cannot be read.
absl::StatusOr<std::vector<std::string>> DirectoryEntries(const std::string& dir) {
  DIR* handle = ::opendir(dir.empty() ? "." : dir.c_str());
  if (handle == nullptr) return absl::UnavailableError(absl::StrCat(dir, ": cannot list the directory"));
  std::vector<std::string> names;
  while (const dirent* entry = ::readdir(handle)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Appends every regular file below `dir` ending in `extension`, in path order.
absl::Status ListDirectory(const std::string& dir, std::string_view extension, std::vector<std::string>& out) {
  absl::StatusOr<std::vector<std::string>> names = DirectoryEntries(dir);
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    const std::string path = JoinPath(dir, name);
    if (IsRealDirectory(path)) {
      if (absl::Status s = ListDirectory(path, extension, out); !s.ok()) return s;
    } else if (EndsWith(name, extension) && KindOf(path) == Kind::kFile) {
      out.push_back(path);
    }
  }
  return absl::OkStatus();
}

// Matches the glob components [next, end) below `dir`, appending matching files.
absl::Status MatchGlob(const std::string& dir, const std::vector<std::string>& parts, size_t next,
                       std::string_view extension, std::vector<std::string>& out) {
  if (next == parts.size()) {
    if (KindOf(dir) == Kind::kFile) out.push_back(dir);
    return absl::OkStatus();
  }
  const std::string& part = parts[next];
  if (part == "**" && next + 1 == parts.size()) {
    // A trailing `**` (`dir/**`, as read_parquet's): every file below, as the directory would.
    if (IsRealDirectory(dir)) return ListDirectory(dir, extension, out);
    return absl::OkStatus();
  }
  if (part == "**") {
    // Zero directories, then one more level (each real subdirectory) keeping `**` in place.
    if (absl::Status s = MatchGlob(dir, parts, next + 1, extension, out); !s.ok()) return s;
    absl::StatusOr<std::vector<std::string>> names = DirectoryEntries(dir);
    if (!names.ok()) return absl::OkStatus();  // a file or an unreadable directory: no match below
    for (const std::string& name : *names) {
      const std::string path = JoinPath(dir, name);
      if (name[0] != '.' && IsRealDirectory(path)) {
        if (absl::Status s = MatchGlob(path, parts, next, extension, out); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }
  if (!IsGlob(part)) return MatchGlob(JoinPath(dir, part), parts, next + 1, extension, out);
  absl::StatusOr<std::vector<std::string>> names = DirectoryEntries(dir);
  if (!names.ok()) return absl::OkStatus();
  for (const std::string& name : *names) {
    if (::fnmatch(part.c_str(), name.c_str(), FNM_PERIOD) == 0) {
      if (absl::Status s = MatchGlob(JoinPath(dir, name), parts, next + 1, extension, out); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ExpandGlob(const std::string& pattern, std::string_view extension) {
  std::vector<std::string> parts = absl::StrSplit(pattern, '/', absl::SkipEmpty());
  std::vector<std::string> out;
  const std::string root = !pattern.empty() && pattern[0] == '/' ? "/" : "";
  if (absl::Status s = MatchGlob(root, parts, 0, extension, out); !s.ok()) return s;
  if (out.empty()) return absl::NotFoundError(absl::StrCat(pattern, ": no file matches"));
  // `**` lists a directory's own files after its subdirectories' files; path order is sorted.
  std::sort(out.begin(), out.end());
  return out;
}

// What names a file once however it is spelled (relative or absolute, `./`, `a/../`): the
// absolute path, normalized without resolving links (two links to one file stay two inputs).
std::string SamePathKey(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

}  // namespace

bool IsGlob(std::string_view input) { return input.find_first_of("*?[") != std::string_view::npos; }

absl::StatusOr<std::vector<std::string>> ListFiles(const std::vector<std::string>& inputs, std::string_view extension) {
  if (inputs.empty()) return absl::InvalidArgumentError("no input files given");
  std::vector<std::string> files;
  std::unordered_set<std::string> seen;
  for (const std::string& input : inputs) {
    std::vector<std::string> expanded;
    if (IsGlob(input)) {
      absl::StatusOr<std::vector<std::string>> matches = ExpandGlob(input, extension);
      if (!matches.ok()) return matches.status();
      expanded = std::move(*matches);
    } else if (IsRealDirectory(input) || KindOf(input) == Kind::kDirectory) {
      if (absl::Status s = ListDirectory(input, extension, expanded); !s.ok()) return s;
      std::sort(expanded.begin(), expanded.end());  // path order, as a glob's
    } else {
      expanded.push_back(input);
    }
    for (std::string& path : expanded) {
      if (seen.insert(SamePathKey(path)).second) files.push_back(std::move(path));
    }
  }
  return files;
}

}  // namespace tsread

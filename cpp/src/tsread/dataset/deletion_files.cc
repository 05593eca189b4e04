// Deletion files beside a TsFile (deletion_files.h).
#include "tsread/dataset/deletion_files.h"

#include <sys/stat.h>

#include "absl/strings/str_cat.h"

namespace tsread {

const std::vector<std::string_view>& DeletionFileSuffixes() {
  // IoTDB 2.x: `X.tsfile.mods2` (binary entries), which IoTDB reads when both exist; 1.x:
  // `X.tsfile.mods` (text lines). The `.compaction.mods*` files of a compaction in progress belong
  // to its target, not to X.
  static const std::vector<std::string_view> kSuffixes = {".mods2", ".mods"};
  return kSuffixes;
}

std::optional<DeletionFile> DeletionFileBeside(std::string_view tsfile_path) {
  for (std::string_view suffix : DeletionFileSuffixes()) {
    const std::string path = std::string(tsfile_path) + std::string(suffix);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) continue;
    return DeletionFile{path, static_cast<uint64_t>(st.st_size)};
  }
  return std::nullopt;
}

std::string DeletionWarning(std::string_view tsfile_path, const DeletionFile& deletions) {
  return absl::StrCat(deletions.path, " (", deletions.size, " bytes) records IoTDB deletions from ",
                      std::string(tsfile_path), ": tsread does not apply them, so deleted points are read");
}

}  // namespace tsread

// ListFiles: the files named by a list of inputs, each a path, a glob or a directory — how a
// dataset of many files is named on a command line or in a query.
#ifndef TSREAD_IO_FILE_LIST_H_
#define TSREAD_IO_FILE_LIST_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tsread {

// Expands `inputs` in order:
// - a path with a glob character (`*`, `?`, `[`) matches per path component as fnmatch(3) does
//   (`*` never crosses a `/`, a leading `.` must be matched explicitly), and a component `**`
//   matches zero or more directories; its matches are regular files, in path order. A trailing
//   `**` (`dir/**`) matches what the directory would: every file below ending in `extension`. A
//   glob that matches nothing is NotFound.
// - a directory stands for every regular file below it (recursively, symbolic links to files
//   followed, to directories not) whose name ends in `extension`, in path order; an empty one
//   contributes nothing.
// - anything else is taken as a file path as it is; whether it exists is for the caller's open
//   to say (so that a missing file is reported at its place among the others).
// A file named twice (even spelled differently: relative and absolute, `./x`, `d/../x`) is kept
// once, at its first place; two links to one file are two files.
// InvalidArgument for an empty input list.
absl::StatusOr<std::vector<std::string>> ListFiles(const std::vector<std::string>& inputs, std::string_view extension);

// Whether `input` holds a glob character.
bool IsGlob(std::string_view input);

}  // namespace tsread

#endif  // TSREAD_IO_FILE_LIST_H_

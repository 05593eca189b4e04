// RandomAccessFile: positioned reads of exactly the byte ranges a reader needs.
// Implementations are immutable after construction and safe to call from several threads.
//
// Files that change under the reader: a file opened from a path is read with pread into memory the
// reader owns (FileAccess::kRead, the default). If another process truncates the file while it is
// read, a read comes back short and fails with Unavailable naming the file, the offset and the bytes
// expected; bytes rewritten in place are read as they are now (the parsers above reject what does not
// parse); bytes appended are never looked at (the size is fixed at open). No signal can arise.
//
// FileAccess::kMap maps the file instead: reads are views into the mapping (no copy, no system call).
// It is NOT safe against concurrent truncation: touching a mapped page past the new end of the file
// raises SIGBUS, which kills the process. No library-local way makes it safe (a SIGBUS handler is
// process-wide state; private mappings lose their pages on truncation too), so mapping is an
// explicit opt-in for files that nobody truncates while they are open (immutable, sealed files).
#ifndef TSREAD_IO_RANDOM_ACCESS_FILE_H_
#define TSREAD_IO_RANDOM_ACCESS_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/io/buffer.h"

namespace tsread {

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual uint64_t size() const = 0;
  // Makes `into` the `length` bytes at `offset`. Memory-backed files make it a view (no copy);
  // others read into its block, reusing it when it is `into`'s alone and large enough. Fails with
  // OutOfRange if the range is not inside the file (as it was when opened), with Unavailable on an
  // I/O error or when the file has shrunk below the range since it was opened.
  virtual absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const = 0;
  // The `length` bytes at `offset` in a new Buffer; fails as ReadInto does.
  absl::StatusOr<Buffer> Read(uint64_t offset, uint64_t length) const;
  // A name for error messages (the path).
  virtual const std::string& name() const = 0;
};

// How OpenFile reads a file on disk (see the file comment).
enum class FileAccess {
  kRead,  // pread into owned buffers: safe when the file changes while it is read
  kMap,   // mmap: zero-copy, but SIGBUS if the file is truncated while mapped
};

// Opens `path` for reading. Only regular files are accepted: a FIFO, device, directory or socket
// fails at once with FailedPrecondition ("<path>: not a regular file (FIFO)"), without waiting for a
// writer or reading anything. NotFound / PermissionDenied / Unavailable on other failures.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenFile(const std::string& path,
                                                           FileAccess access = FileAccess::kRead);

// OpenFile(path, FileAccess::kRead).
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenPosixFile(const std::string& path);
// OpenFile(path, FileAccess::kMap): not safe against concurrent truncation.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMappedFile(const std::string& path);

// A file over bytes in memory (tests, fuzzers). `bytes` must outlive the file.
std::unique_ptr<RandomAccessFile> MemoryFileView(std::string_view bytes, std::string name = "<memory>");
// A file over bytes it owns.
std::unique_ptr<RandomAccessFile> MemoryFile(std::string bytes, std::string name = "<memory>");

}  // namespace tsread

#endif  // TSREAD_IO_RANDOM_ACCESS_FILE_H_

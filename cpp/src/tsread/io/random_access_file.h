// RandomAccessFile: positioned reads of exactly the byte ranges a reader needs.
// Implementations are immutable after construction and safe to call from several threads.
#ifndef TSREAD_IO_RANDOM_ACCESS_FILE_H_
#define TSREAD_IO_RANDOM_ACCESS_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/io/buffer.h"

namespace tsread {

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual uint64_t size() const = 0;
  // The `length` bytes at `offset`. Fails with OutOfRange if the range is not inside the file
  // and with Unavailable on an I/O error. Memory-backed files return a view (no copy).
  virtual absl::StatusOr<Buffer> Read(uint64_t offset, uint64_t length) const = 0;
  // A name for error messages (the path).
  virtual const std::string& name() const = 0;
};

// Opens `path` for positioned reads (pread). NotFound / PermissionDenied / Unavailable on failure.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenPosixFile(const std::string& path);

// Opens `path` memory-mapped: reads are views into the mapping (no copy).
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMappedFile(const std::string& path);

// A file over bytes in memory (tests, fuzzers). `bytes` must outlive the file.
std::unique_ptr<RandomAccessFile> MemoryFileView(std::string_view bytes, std::string name = "<memory>");
// A file over bytes it owns.
std::unique_ptr<RandomAccessFile> MemoryFile(std::string bytes, std::string name = "<memory>");

}  // namespace tsread

#endif  // TSREAD_IO_RANDOM_ACCESS_FILE_H_

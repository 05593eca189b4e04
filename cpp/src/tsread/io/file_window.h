// FileWindow: a sequential reader's bounded view of one region [begin, end) of a file.
//
// A pass over a whole region (the data-section walk of `tsread verify`, `sketch` and `salvage`)
// must not hold the region: a compacted file is several gigabytes. A FileWindow holds one
// contiguous window of it, read with one ReadInto: the bytes a caller asks for and, after them, up
// to `read_ahead` more (a few of the items that come next, so that each one costs no system call).
// A request the window does not cover starts a new window at its offset, reusing the block, so
// the window is never larger than the largest request plus the read-ahead: memory is set by what
// the reader needs at once, not by the region.
//
// `max_bytes` (0: none) caps a window: the read-ahead is cut to stay within it, and a request
// that alone needs more fails with ResourceExhausted (a caller with a memory budget checks first
// to name what needed it). It knows nothing of what the bytes mean; the caller decides how much
// to ask for. Not thread-safe. Memory-backed files are viewed without copying, as RandomAccessFile::ReadInto does.
#ifndef TSREAD_IO_FILE_WINDOW_H_
#define TSREAD_IO_FILE_WINDOW_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/io/buffer.h"
#include "tsread/io/random_access_file.h"

namespace tsread {

class FileWindow {
 public:
  // `file` must outlive the window; [begin, end) must be inside it (the caller checks).
  FileWindow(const RandomAccessFile& file, uint64_t begin, uint64_t end, uint64_t read_ahead, uint64_t max_bytes = 0)
      : file_(file), begin_(begin), end_(end), read_ahead_(read_ahead), max_bytes_(max_bytes) {}

  uint64_t begin() const { return begin_; }
  uint64_t end() const { return end_; }

  // The bytes the window holds from `offset` on: at least `length` of them (`offset + length`
  // must not pass end()), more when the window already holds more. Valid until the next Load or
  // Release. Reads a new window (fails as ReadInto does) when this one does not hold them.
  absl::StatusOr<std::string_view> Load(uint64_t offset, uint64_t length);

  // The size of the window Load(offset, length) would read if the current one does not serve it:
  // for a caller that accounts for the memory before it is taken.
  uint64_t WindowSizeFor(uint64_t offset, uint64_t length) const;

  // Whether the current window holds [offset, offset + length).
  bool Holds(uint64_t offset, uint64_t length) const;

  // The bytes held now (the window's block, which keeps the size of the largest window since the
  // last Release), and the most held at once so far.
  uint64_t held_bytes() const { return block_bytes_; }
  uint64_t peak_bytes() const { return peak_bytes_; }

  // Forgets the window and frees its block.
  void Release();

 private:
  const RandomAccessFile& file_;
  const uint64_t begin_;
  const uint64_t end_;
  const uint64_t read_ahead_;
  const uint64_t max_bytes_;
  uint64_t window_offset_ = 0;
  uint64_t block_bytes_ = 0;
  Buffer window_;
  uint64_t peak_bytes_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_IO_FILE_WINDOW_H_

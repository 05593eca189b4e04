// ReadAhead: serves a reader's nearby positioned reads from one larger read of the file.
//
// A scan visits chunks (and index entries) in increasing offsets, a few KB each. Asking the file
// for each one costs a system call per range: on this project's machine the 14,000 preads of a
// scan of the benchmark file took 25 ms, next to 30 ms for the whole scan when mapped. A ReadAhead
// reads a window of up to `window_bytes` at the first range it cannot serve and hands out slices of
// that window for the ranges that follow inside it: one system call per window.
//
// It keeps two windows, replacing the one used least recently: a reader may follow two streams at
// once (the Java writer puts every device's series metadata first and the measurement index nodes
// that point to them after all of it, so reading the index alternates between two regions).
//
// Slices share the window's block, so they stay valid after the window moves on. A block still
// held by slices when its window moves on is set aside and reused once they let go of it: a scan
// then cycles through a few blocks that stay in cache, instead of allocating (and page-faulting) a
// fresh block per window. Memory-backed files are sliced without copying, as before.
// Not thread-safe: one ReadAhead per reading thread.
#ifndef TSREAD_IO_READ_AHEAD_H_
#define TSREAD_IO_READ_AHEAD_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/io/buffer.h"
#include "tsread/io/random_access_file.h"

namespace tsread {

class ReadAhead {
 public:
  // 64 KiB: large enough that system calls cost little (one per ~12 chunks of the benchmark file),
  // small enough that a window stays in L2 while its chunks are decoded (measured: 256 KiB and
  // above are slower, see docs/benchmarks.md).
  static constexpr uint64_t kDefaultWindowBytes = 64 << 10;
  // 16 KiB for a scan's series metadata (a few hundred bytes a device, about twenty devices a
  // window): each reader keeps two windows, and every page of a window is a first touch for a
  // new reader. Measured against 64 KiB: 42 fewer page faults in a two-thread scan of the
  // benchmark file and 6.5 % less time; one thread unchanged; 8 KiB no better, 32 KiB worse
  // (docs/benchmarks.md, session 22).
  static constexpr uint64_t kMetadataWindowBytes = 16 << 10;

  explicit ReadAhead(uint64_t window_bytes = kDefaultWindowBytes) : window_bytes_(window_bytes) {}

  // The `length` bytes at `offset` of `file`. Served from the current window when it holds them;
  // otherwise a new window is read from `offset`: at least `length` bytes, at most window_bytes,
  // never past `limit` (the end of the region being scanned; ignored when it is below
  // offset + length). Fails as RandomAccessFile::ReadInto does.
  absl::StatusOr<Buffer> Read(const RandomAccessFile& file, uint64_t offset, uint64_t length, uint64_t limit);

  // Forgets the windows (the next read starts a new one) and releases their blocks.
  void Clear();

  // Forgets which file the windows hold, keeping their blocks for the next reads: for a reader
  // that moves on to another file (a file's address may be reused by the next one, so windows
  // must not be matched by it).
  void ForgetFile();

 private:
  struct Window {
    const RandomAccessFile* file = nullptr;  // whose bytes `bytes` holds; null when empty
    uint64_t offset = 0;
    Buffer bytes;
    bool Holds(const RandomAccessFile& f, uint64_t at, uint64_t length) const;
  };
  // Reads a new window into the window used least recently.
  absl::StatusOr<Window*> Fill(const RandomAccessFile& file, uint64_t offset, uint64_t length, uint64_t limit);
  // Gives `w` a block no slice holds, if one is at hand, keeping its current block aside.
  void RecycleBlock(Window& w);

  // Enough for a reader that keeps the chunks of one chunk group (spanning up to two windows)
  // while it reads the next.
  static constexpr size_t kMaxSpareBlocks = 4;

  uint64_t window_bytes_;
  Window windows_[2];
  int last_used_ = 0;
  std::vector<Buffer> spare_blocks_;
};

}  // namespace tsread

#endif  // TSREAD_IO_READ_AHEAD_H_

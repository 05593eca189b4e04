// FilePool: the open readers of a dataset's files, at most `capacity` of them kept open at once,
// so that a dataset of any number of files never runs out of file descriptors or address space.
// A file is opened when a scan first needs it; a reader nobody uses is kept open for the next
// use until room is needed (least recently used first).
#ifndef TSREAD_DATASET_FILE_POOL_H_
#define TSREAD_DATASET_FILE_POOL_H_

#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/status/statusor.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

// Opens the file at a path for reading: the default is TsFileReader::Open's.
using FileOpener = std::function<absl::StatusOr<std::unique_ptr<RandomAccessFile>>(const std::string& path)>;

class FilePool {
 public:
  // `opener` empty: TsFileReader::Open(path).
  FilePool(size_t capacity, FileOpener opener);
  FilePool(const FilePool&) = delete;
  FilePool& operator=(const FilePool&) = delete;

  // The reader of file `key` at `path`, opened now if it is not open. The returned pointer keeps
  // the reader open; the pool must outlive it. Readers in use are never closed, so more than
  // `capacity` are open only while more than `capacity` are in use at once.
  absl::StatusOr<std::shared_ptr<const TsFileReader>> Acquire(size_t key, const std::string& path);

  size_t capacity() const { return capacity_; }
  // Readers open now, and the most that were open at once.
  size_t open_files() const;
  size_t peak_open_files() const;

 private:
  struct Entry {
    std::shared_ptr<const TsFileReader> reader;
    size_t users = 0;
    std::list<size_t>::iterator idle;  // its place in idle_ while users == 0
  };

  absl::StatusOr<std::unique_ptr<TsFileReader>> OpenReader(const std::string& path) const;
  void Release(size_t key);
  // Closes idle readers, least recently used first, while more than `capacity_` are open or
  // being opened.
  void MakeRoomLocked();

  const size_t capacity_;
  const FileOpener opener_;
  mutable std::mutex mutex_;
  std::unordered_map<size_t, Entry> open_;
  std::list<size_t> idle_;  // keys of unused open readers, most recently used last
  size_t opening_ = 0;      // files being opened (their places are taken)
  size_t peak_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_DATASET_FILE_POOL_H_

#include "tsread/dataset/file_pool.h"

#include <algorithm>
#include <utility>

#include "tsread/io/status_macros.h"

namespace tsread {

FilePool::FilePool(size_t capacity, FileOpener opener) : capacity_(capacity < 1 ? 1 : capacity), opener_(std::move(opener)) {}

absl::StatusOr<std::shared_ptr<const TsFileReader>> FilePool::Acquire(size_t key, const std::string& path) {
  std::shared_ptr<const TsFileReader> reader;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = open_.find(key);
    if (it != open_.end()) {
      if (it->second.users++ == 0) idle_.erase(it->second.idle);
      reader = it->second.reader;
    } else {
      // A place for the file being opened, made before it is opened so that the bound holds
      // at every moment.
      ++opening_;
      MakeRoomLocked();
      peak_ = std::max(peak_, open_.size() + opening_);
    }
  }
  if (reader == nullptr) {
    // Opened outside the lock: other threads keep using the pool meanwhile. Two threads opening
    // the same file at once both open it; the second keeps the first's reader.
    absl::StatusOr<std::unique_ptr<TsFileReader>> opened = OpenReader(path);
    std::lock_guard<std::mutex> lock(mutex_);
    --opening_;
    if (!opened.ok()) return opened.status();
    auto [it, inserted] = open_.try_emplace(key);
    if (inserted) {
      it->second.reader = std::move(*opened);
    } else if (it->second.users == 0) {
      idle_.erase(it->second.idle);
    }
    ++it->second.users;
    reader = it->second.reader;
  }
  // The caller's pointer gives the use back when it is dropped. It holds no reference of its
  // own: a reader in use is never closed, and an idle one is closed the moment it is evicted.
  class Lease {
   public:
    Lease(FilePool* pool, size_t key) : pool_(pool), key_(key) {}
    Lease(const Lease&) = delete;  // one use, given back once
    Lease& operator=(const Lease&) = delete;
    ~Lease() { pool_->Release(key_); }

   private:
    FilePool* pool_;
    size_t key_;
  };
  return std::shared_ptr<const TsFileReader>(std::make_shared<Lease>(this, key), reader.get());
}

absl::StatusOr<std::unique_ptr<TsFileReader>> FilePool::OpenReader(const std::string& path) const {
  if (!opener_) return TsFileReader::Open(path);
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, opener_(path));
  return TsFileReader::Open(std::move(file));
}

void FilePool::Release(size_t key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_.find(key);
  if (it == open_.end() || --it->second.users > 0) return;
  it->second.idle = idle_.insert(idle_.end(), key);
  MakeRoomLocked();
}

void FilePool::MakeRoomLocked() {
  while (open_.size() + opening_ > capacity_ && !idle_.empty()) {
    open_.erase(idle_.front());
    idle_.pop_front();
  }
}

size_t FilePool::open_files() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_.size() + opening_;
}

size_t FilePool::peak_open_files() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

}  // namespace tsread

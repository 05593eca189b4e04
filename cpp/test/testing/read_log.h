// Test helper (header-only): a FileOpener that records the byte ranges read from each file, to
// assert what a scan or an aggregation reads (only metadata, or not a file it could skip).
#ifndef TSREAD_TESTING_READ_LOG_H_
#define TSREAD_TESTING_READ_LOG_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/dataset/file_pool.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::testing {

// Records the byte ranges read from each file.
class ReadLog {
 public:
  FileOpener Opener() {
    return [this](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
      absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
      if (!file.ok()) return file.status();
      return std::unique_ptr<RandomAccessFile>(std::make_unique<Logged>(std::move(*file), this));
    };
  }
  // Bytes read in the data section: after the head (magic and version, 7 bytes) and below
  // `meta_offset`, where the index begins.
  uint64_t BytesReadBelow(const std::string& path, uint64_t meta_offset) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t total = 0;
    for (const auto& [offset, length] : reads_[path]) {
      const uint64_t begin = std::max<uint64_t>(offset, 7);
      const uint64_t end = std::min(offset + length, meta_offset);
      if (begin < end) total += end - begin;
    }
    return total;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    reads_.clear();
  }

 private:
  class Logged : public RandomAccessFile {
   public:
    Logged(std::unique_ptr<RandomAccessFile> file, ReadLog* log) : file_(std::move(file)), log_(log) {}
    uint64_t size() const override { return file_->size(); }
    const std::string& name() const override { return file_->name(); }
    absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
      {
        std::lock_guard<std::mutex> lock(log_->mutex_);
        log_->reads_[file_->name()].emplace_back(offset, length);
      }
      return file_->ReadInto(offset, length, into);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    ReadLog* log_;
  };
  std::mutex mutex_;
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> reads_;
};

inline uint64_t MetaOffset(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(path);
  EXPECT_TRUE(reader.ok());
  return reader.ok() ? (*reader)->metadata().meta_offset : 0;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_READ_LOG_H_

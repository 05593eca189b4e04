#include "tsread/io/random_access_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

absl::Status ErrnoStatus(const std::string& path, const char* op, int err) {
  std::string msg = absl::StrCat(op, " ", path, ": ", std::strerror(err));
  if (err == ENOENT) return absl::NotFoundError(msg);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(msg);
  return absl::UnavailableError(msg);
}

absl::Status CheckRange(const std::string& name, uint64_t file_size, uint64_t offset, uint64_t length) {
  if (offset > file_size || length > file_size - offset) {
    return absl::OutOfRangeError(absl::StrCat("read of ", length, " bytes at offset ", offset,
                                              " is beyond the end of ", name, " (", file_size, " bytes)"));
  }
  return absl::OkStatus();
}

// Closes a descriptor when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

absl::StatusOr<uint64_t> FileSize(const std::string& path, int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus(path, "stat", errno);
  if (!S_ISREG(st.st_mode)) return absl::FailedPreconditionError(absl::StrCat(path, " is not a regular file"));
  return static_cast<uint64_t>(st.st_size);
}

class PosixFile final : public RandomAccessFile {
 public:
  PosixFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }

  absl::StatusOr<Buffer> Read(uint64_t offset, uint64_t length) const override {
    if (absl::Status s = CheckRange(path_, size_, offset, length); !s.ok()) return s;
    Buffer buffer = Buffer::Allocate(length);
    uint64_t done = 0;
    while (done < length) {
      ssize_t n = ::pread(fd_.get(), buffer.mutable_data() + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(path_, "read", errno);
      }
      if (n == 0) {
        return absl::UnavailableError(absl::StrCat("read ", path_, ": file shrank while reading at offset ", offset + done));
      }
      done += static_cast<uint64_t>(n);
    }
    return buffer;
  }

 private:
  std::string path_;
  FileDescriptor fd_;
  uint64_t size_;
};

class MappedFile final : public RandomAccessFile {
 public:
  MappedFile(std::string path, void* base, uint64_t size) : path_(std::move(path)), base_(base), size_(size) {}
  ~MappedFile() override {
    if (base_ != nullptr) ::munmap(base_, size_);
  }
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  absl::StatusOr<Buffer> Read(uint64_t offset, uint64_t length) const override {
    if (absl::Status s = CheckRange(path_, size_, offset, length); !s.ok()) return s;
    return Buffer::View(std::string_view(static_cast<const char*>(base_) + offset, length));
  }

 private:
  std::string path_;
  void* base_;
  uint64_t size_;
};

class InMemoryFile final : public RandomAccessFile {
 public:
  InMemoryFile(std::string owned, std::string_view view, std::string name)
      : owned_(std::move(owned)), view_(owned_.empty() ? view : std::string_view(owned_)), name_(std::move(name)) {}
  uint64_t size() const override { return view_.size(); }
  const std::string& name() const override { return name_; }
  absl::StatusOr<Buffer> Read(uint64_t offset, uint64_t length) const override {
    if (absl::Status s = CheckRange(name_, view_.size(), offset, length); !s.ok()) return s;
    return Buffer::View(view_.substr(offset, length));
  }

 private:
  std::string owned_;
  std::string_view view_;
  std::string name_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenPosixFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(path, "open", errno);
  FileDescriptor guard(fd);
  absl::StatusOr<uint64_t> size = FileSize(path, fd);
  if (!size.ok()) return size.status();
  int owned = ::dup(fd);
  if (owned < 0) return ErrnoStatus(path, "dup", errno);
  return std::unique_ptr<RandomAccessFile>(std::make_unique<PosixFile>(path, owned, *size));
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(path, "open", errno);
  FileDescriptor guard(fd);
  absl::StatusOr<uint64_t> size = FileSize(path, fd);
  if (!size.ok()) return size.status();
  if (*size == 0) return std::unique_ptr<RandomAccessFile>(std::make_unique<InMemoryFile>("", "", path));
  void* base = ::mmap(nullptr, *size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (base == MAP_FAILED) return ErrnoStatus(path, "mmap", errno);
  return std::unique_ptr<RandomAccessFile>(std::make_unique<MappedFile>(path, base, *size));
}

std::unique_ptr<RandomAccessFile> MemoryFileView(std::string_view bytes, std::string name) {
  return std::make_unique<InMemoryFile>("", bytes, std::move(name));
}

std::unique_ptr<RandomAccessFile> MemoryFile(std::string bytes, std::string name) {
  std::string_view empty;
  return std::make_unique<InMemoryFile>(std::move(bytes), empty, std::move(name));
}

}  // namespace tsread

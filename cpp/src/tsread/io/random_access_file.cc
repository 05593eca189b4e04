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
  // Hands the descriptor over; this object no longer closes it.
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

const char* FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "FIFO";
  if (S_ISCHR(mode)) return "character device";
  if (S_ISBLK(mode)) return "block device";
  if (S_ISDIR(mode)) return "directory";
  if (S_ISSOCK(mode)) return "socket";
  if (S_ISLNK(mode)) return "symbolic link";
  return "unknown file type";
}

absl::Status NotRegularFile(const std::string& path, mode_t mode) {
  return absl::FailedPreconditionError(absl::StrCat(path, ": not a regular file (", FileTypeName(mode), ")"));
}

// Refuses anything but a regular file before opening it: opening a device can have effects of its
// own, and opening a socket fails with a less helpful ENXIO.
absl::Status CheckRegularPath(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return ErrnoStatus(path, "open", errno);
  if (!S_ISREG(st.st_mode)) return NotRegularFile(path, st.st_mode);
  return absl::OkStatus();
}

// Opens `path` read-only and checks, on the opened descriptor, that it is a regular file (the
// path may have been replaced since CheckRegularPath). O_NONBLOCK makes opening a FIFO return at
// once instead of waiting for a writer; it changes nothing for reads of a regular file.
absl::StatusOr<int> OpenRegularFile(const std::string& path, uint64_t& size) {
  if (absl::Status s = CheckRegularPath(path); !s.ok()) return s;
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return ErrnoStatus(path, "open", errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return ErrnoStatus(path, "stat", errno);
  if (!S_ISREG(st.st_mode)) return NotRegularFile(path, st.st_mode);
  size = static_cast<uint64_t>(st.st_size);
  return fd.release();
}

class PosixFile final : public RandomAccessFile {
 public:
  PosixFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }

  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    if (absl::Status s = CheckRange(path_, size_, offset, length); !s.ok()) return s;
    char* out = into.Reserve(length);
    uint64_t done = 0;
    while (done < length) {
      ssize_t n = ::pread(fd_.get(), out + done, length - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus(path_, "read", errno);
      }
      if (n == 0) return ShrankError(offset, length, done);
      done += static_cast<uint64_t>(n);
    }
    return absl::OkStatus();
  }

 private:
  // pread returned 0 before `length` bytes: the file now ends before offset + got.
  absl::Status ShrankError(uint64_t offset, uint64_t length, uint64_t got) const {
    return absl::UnavailableError(absl::StrCat("read ", path_, ": expected ", length, " bytes at offset ", offset,
                                               ", got ", got, ": the file shrank while being read (it was ", size_,
                                               " bytes when opened)"));
  }

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
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return path_; }
  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    if (absl::Status s = CheckRange(path_, size_, offset, length); !s.ok()) return s;
    into = Buffer::View(std::string_view(static_cast<const char*>(base_) + offset, length));
    return absl::OkStatus();
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
  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    if (absl::Status s = CheckRange(name_, view_.size(), offset, length); !s.ok()) return s;
    into = Buffer::View(view_.substr(offset, length));
    return absl::OkStatus();
  }

 private:
  std::string owned_;
  std::string_view view_;
  std::string name_;
};

absl::StatusOr<std::unique_ptr<RandomAccessFile>> MapFile(const std::string& path, int fd, uint64_t size) {
  if (size == 0) return std::unique_ptr<RandomAccessFile>(std::make_unique<InMemoryFile>("", "", path));
  void* base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (base == MAP_FAILED) return ErrnoStatus(path, "mmap", errno);
  return std::unique_ptr<RandomAccessFile>(std::make_unique<MappedFile>(path, base, size));
}

}  // namespace

absl::StatusOr<Buffer> RandomAccessFile::Read(uint64_t offset, uint64_t length) const {
  Buffer buffer;
  if (absl::Status s = ReadInto(offset, length, buffer); !s.ok()) return s;
  return buffer;
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenFile(const std::string& path, FileAccess access) {
  uint64_t size = 0;
  absl::StatusOr<int> fd = OpenRegularFile(path, size);
  if (!fd.ok()) return fd.status();
  FileDescriptor owned(*fd);
  if (access == FileAccess::kMap) return MapFile(path, owned.get(), size);  // the mapping outlives the fd
  return std::unique_ptr<RandomAccessFile>(std::make_unique<PosixFile>(path, owned.release(), size));
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenPosixFile(const std::string& path) {
  return OpenFile(path, FileAccess::kRead);
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenMappedFile(const std::string& path) {
  return OpenFile(path, FileAccess::kMap);
}

std::unique_ptr<RandomAccessFile> MemoryFileView(std::string_view bytes, std::string name) {
  return std::make_unique<InMemoryFile>("", bytes, std::move(name));
}

std::unique_ptr<RandomAccessFile> MemoryFile(std::string bytes, std::string name) {
  std::string_view empty;
  return std::make_unique<InMemoryFile>(std::move(bytes), empty, std::move(name));
}

}  // namespace tsread

#include "tsread/write/output_sink.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

class StringSink final : public OutputSink {
 public:
  explicit StringSink(std::string* buffer) : buffer_(buffer) { buffer_->clear(); }
  absl::Status Append(std::string_view bytes) override {
    buffer_->append(bytes);
    position_ += bytes.size();
    return absl::OkStatus();
  }
  absl::Status Close() override { return absl::OkStatus(); }

 private:
  std::string* buffer_;
};

absl::Status ErrnoStatus(int err, std::string_view what, const std::string& path) {
  const std::string message = absl::StrCat(ToAbsl(what), " ", path, ": ", std::strerror(err));
  if (err == ENOENT) return absl::NotFoundError(message);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(message);
  return absl::UnavailableError(message);
}

class FileSink final : public OutputSink {
 public:
  FileSink(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  ~FileSink() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  absl::Status Append(std::string_view bytes) override {
    if (file_ == nullptr) return absl::FailedPreconditionError("append to a closed file");
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
      return ErrnoStatus(errno, "cannot write", path_);
    }
    position_ += bytes.size();
    return absl::OkStatus();
  }
  absl::Status Close() override {
    if (file_ == nullptr) return absl::OkStatus();
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0) return ErrnoStatus(errno, "cannot write", path_);
    return absl::OkStatus();
  }

 private:
  std::FILE* file_;
  std::string path_;
};

}  // namespace

std::unique_ptr<OutputSink> StringOutputSink(std::string* buffer) { return std::make_unique<StringSink>(buffer); }

absl::StatusOr<std::unique_ptr<OutputSink>> FileOutputSink(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return ErrnoStatus(errno, "cannot create", path);
  // Chunk groups arrive in pieces of a few KiB: a large stdio buffer batches the syscalls.
  std::setvbuf(file, nullptr, _IOFBF, 1 << 20);
  return std::unique_ptr<OutputSink>(std::make_unique<FileSink>(file, path));
}

}  // namespace tsread

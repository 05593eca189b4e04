#include "output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.h"

namespace tsread::cli {
namespace {

// The errno of the first failed write, kept because later calls may overwrite errno.
int first_write_errno = 0;

void NoteWriteError() {
  if (first_write_errno == 0) first_write_errno = errno != 0 ? errno : EIO;
}

}  // namespace

void ReserveStdout() {
  if (::fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF) return;
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd >= 0 && fd != STDOUT_FILENO) {
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
  }
}

bool BlockOutput::Flush() {
  if (buffer_.empty()) return !std::ferror(stdout);
  errno = 0;
  const size_t written = std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
  const bool ok = written == buffer_.size();
  if (!ok) NoteWriteError();
  buffer_.clear();
  return ok && !std::ferror(stdout);
}

int FinishOutput(int code) {
  errno = 0;
  std::cout.flush();
  if (!std::cout) NoteWriteError();
  errno = 0;
  if (std::fflush(stdout) != 0) NoteWriteError();
  if (std::ferror(stdout)) NoteWriteError();
  if (!std::cout.good() && first_write_errno == 0) first_write_errno = EIO;
  if (first_write_errno == 0) return code;
  std::cerr << "tsread: error writing output: " << std::strerror(first_write_errno) << "\n";
  return code != kOk ? code : kIoError;
}

}  // namespace tsread::cli

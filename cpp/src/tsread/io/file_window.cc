#include "tsread/io/file_window.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

bool FileWindow::Holds(uint64_t offset, uint64_t length) const {
  return window_.size() > 0 && offset >= window_offset_ && offset - window_offset_ <= window_.size() &&
         length <= window_.size() - (offset - window_offset_);
}

uint64_t FileWindow::WindowSizeFor(uint64_t offset, uint64_t length) const {
  if (offset >= end_) return 0;
  const uint64_t left = end_ - offset;
  // The read-ahead comes on top of the request, so that a request just past one window's read-
  // ahead still brings the next few items with it.
  uint64_t size = std::min(left, length + std::min(read_ahead_, left - std::min(length, left)));
  if (max_bytes_ != 0) size = std::max(length, std::min(size, max_bytes_));
  return size;
}

absl::StatusOr<std::string_view> FileWindow::Load(uint64_t offset, uint64_t length) {
  if (offset < begin_ || offset > end_ || length > end_ - offset) {
    return absl::OutOfRangeError(absl::StrCat("read of ", length, " bytes at offset ", offset, " of ", file_.name(),
                                              " is outside the region [", begin_, ", ", end_, ")"));
  }
  if (length == 0 && !Holds(offset, 0)) return std::string_view();
  if (!Holds(offset, length)) {
    if (max_bytes_ != 0 && length > max_bytes_) {
      return absl::ResourceExhaustedError(absl::StrCat("a read of ", length, " bytes at once at offset ", offset, " of ",
                                                       file_.name(), " is more than the window's ", max_bytes_,
                                                       " bytes"));
    }
    const uint64_t size = WindowSizeFor(offset, length);
    // ReadInto reuses the block when it is this window's alone and large enough (buffer.h).
    TSREAD_RETURN_IF_ERROR(file_.ReadInto(offset, size, window_));
    window_offset_ = offset;
    block_bytes_ = std::max(block_bytes_, size);
    peak_bytes_ = std::max(peak_bytes_, block_bytes_);
  }
  return window_.bytes().substr(offset - window_offset_);
}

void FileWindow::Release() {
  window_ = Buffer();
  window_offset_ = 0;
  block_bytes_ = 0;
}

}  // namespace tsread

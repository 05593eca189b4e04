#include "tsread/io/read_ahead.h"

#include <algorithm>
#include <utility>

namespace tsread {

bool ReadAhead::Window::Holds(const RandomAccessFile& f, uint64_t at, uint64_t length) const {
  return file == &f && at >= offset && at - offset <= bytes.size() && length <= bytes.size() - (at - offset);
}

absl::StatusOr<ReadAhead::Window*> ReadAhead::Fill(const RandomAccessFile& file, uint64_t offset, uint64_t length,
                                                   uint64_t limit) {
  uint64_t want = length;
  if (limit > offset && limit - offset > length) want = std::min(std::max(length, window_bytes_), limit - offset);
  // Read-ahead must not turn a valid range into a failure: stay inside the file as opened.
  if (offset <= file.size()) want = std::max(length, std::min(want, file.size() - offset));
  last_used_ = 1 - last_used_;
  Window& w = windows_[last_used_];
  RecycleBlock(w);
  w.file = nullptr;  // a failed read leaves the window empty
  if (absl::Status s = file.ReadInto(offset, want, w.bytes); !s.ok()) return s;
  w.file = &file;
  w.offset = offset;
  return &w;
}

void ReadAhead::RecycleBlock(Window& w) {
  if (w.bytes.HoldsUnsharedBlock()) return;  // Reserve reuses it
  auto free = std::find_if(spare_blocks_.begin(), spare_blocks_.end(),
                           [](const Buffer& b) { return b.HoldsUnsharedBlock(); });
  if (free != spare_blocks_.end()) {
    std::swap(w.bytes, *free);  // the shared block waits among the spares
  } else if (spare_blocks_.size() < kMaxSpareBlocks) {
    spare_blocks_.push_back(std::move(w.bytes));
    w.bytes = Buffer();
  }
}

absl::StatusOr<Buffer> ReadAhead::Read(const RandomAccessFile& file, uint64_t offset, uint64_t length,
                                       uint64_t limit) {
  Window* w = nullptr;
  for (int i : {last_used_, 1 - last_used_}) {
    if (windows_[i].Holds(file, offset, length)) {
      w = &windows_[i];
      last_used_ = i;
      break;
    }
  }
  if (w == nullptr) {
    absl::StatusOr<Window*> filled = Fill(file, offset, length, limit);
    if (!filled.ok()) return filled.status();
    w = *filled;
  }
  return w->bytes.Slice(offset - w->offset, length);
}

void ReadAhead::Clear() {
  for (Window& w : windows_) w = Window();
  spare_blocks_.clear();
}

void ReadAhead::ForgetFile() {
  for (Window& w : windows_) {
    // A view of the old file's mapping, or a block its slices still share: not ours to reuse.
    if (!w.bytes.HoldsUnsharedBlock()) w.bytes = Buffer();
    w.file = nullptr;
  }
}

}  // namespace tsread

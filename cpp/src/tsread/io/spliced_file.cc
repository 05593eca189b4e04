#include "tsread/io/spliced_file.h"

#include <cstring>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

class SplicedFile final : public RandomAccessFile {
 public:
  SplicedFile(std::unique_ptr<RandomAccessFile> head, uint64_t head_length, std::shared_ptr<const std::string> tail)
      : head_(std::move(head)), head_length_(head_length), tail_(std::move(tail)) {}

  uint64_t size() const override { return head_length_ + tail_->size(); }
  const std::string& name() const override { return head_->name(); }

  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    if (offset > size() || length > size() - offset) {
      return absl::OutOfRangeError(absl::StrCat("read of ", length, " bytes at offset ", offset,
                                                " is beyond the end of ", name(), " (", size(),
                                                " bytes: its first ", head_length_, " and ", tail_->size(),
                                                " bytes of index built for it)"));
    }
    if (offset + length <= head_length_) return head_->ReadInto(offset, length, into);
    const std::string_view tail(*tail_);
    if (offset >= head_length_) {
      into = Buffer::View(tail.substr(offset - head_length_, length));
      return absl::OkStatus();
    }
    // Across the boundary: the head's part read first (its own buffer), then both copied.
    const uint64_t in_head = head_length_ - offset;
    Buffer head_part;
    if (absl::Status s = head_->ReadInto(offset, in_head, head_part); !s.ok()) return s;
    char* out = into.Reserve(length);
    std::memcpy(out, head_part.data(), in_head);
    std::memcpy(out + in_head, tail.data(), length - in_head);
    return absl::OkStatus();
  }

 private:
  std::unique_ptr<RandomAccessFile> head_;
  uint64_t head_length_;
  std::shared_ptr<const std::string> tail_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RandomAccessFile>> SpliceFile(std::unique_ptr<RandomAccessFile> head,
                                                             uint64_t head_length,
                                                             std::shared_ptr<const std::string> tail) {
  if (head_length > head->size()) {
    return absl::OutOfRangeError(absl::StrCat(head->name(), ": ", head->size(), " bytes, fewer than the ", head_length,
                                              " to read before the index built for it (the file shrank)"));
  }
  if (tail == nullptr) tail = std::make_shared<const std::string>();
  return std::unique_ptr<RandomAccessFile>(std::make_unique<SplicedFile>(std::move(head), head_length, std::move(tail)));
}

}  // namespace tsread

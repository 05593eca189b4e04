// Buffer: bytes read from a file. Either a view into memory that outlives it (a memory-backed
// file) or a share of a heap block. Moving a Buffer never moves its bytes, so views into a Buffer
// stay valid for as long as the Buffer (or whatever it was moved into) lives.
//
// Several Buffers may share one block (Slice): a read-ahead window hands out slices of one large
// read, and the block lives until its last slice does. A block is written only while one Buffer
// holds it (Reserve), so a slice's bytes never change under it.
#ifndef TSREAD_IO_BUFFER_H_
#define TSREAD_IO_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace tsread {

class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&&) = default;
  Buffer& operator=(Buffer&&) = default;
  // Copies would share a block silently; Slice says so.
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // A view of bytes owned elsewhere.
  static Buffer View(std::string_view bytes) {
    Buffer b;
    b.view_ = bytes;
    return b;
  }
  // An owned, uninitialised block of `size` bytes to fill through mutable_data().
  static Buffer Allocate(size_t size) {
    Buffer b;
    b.Reserve(size);
    return b;
  }

  // Makes this Buffer `size` uninitialised bytes of its own to fill through mutable_data(). The
  // current block is kept when no slice shares it and it is large enough: a reader that reuses one
  // Buffer allocates only when it needs more room than before.
  char* Reserve(size_t size) {
    if (block_ == nullptr || block_.use_count() != 1 || capacity_ < size) {
      block_ = std::make_shared_for_overwrite<char[]>(size);
      capacity_ = size;
    }
    view_ = std::string_view(block_.get(), size);
    return block_.get();
  }

  // The `length` bytes at `offset` of this buffer (which must hold them), sharing its block or
  // viewing the same memory.
  Buffer Slice(size_t offset, size_t length) const {
    Buffer b;
    b.block_ = block_;
    b.view_ = view_.substr(offset, length);
    return b;
  }

  // Keeps only the first `length` bytes (length <= size()), sharing the same block.
  void KeepPrefix(size_t length) { view_ = view_.substr(0, length); }

  // Whether this Buffer holds a block that no slice shares (Reserve would then reuse it).
  bool HoldsUnsharedBlock() const { return block_ != nullptr && block_.use_count() == 1; }

  std::string_view bytes() const { return view_; }
  const char* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }
  // Writable bytes of an owned block (after Allocate or Reserve, before any Slice).
  char* mutable_data() { return block_.get(); }

 private:
  std::shared_ptr<char[]> block_;
  size_t capacity_ = 0;
  std::string_view view_;
};

}  // namespace tsread

#endif  // TSREAD_IO_BUFFER_H_

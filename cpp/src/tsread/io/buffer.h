// Buffer: bytes read from a file. Either a view into memory that outlives it (a memory-backed
// file) or a heap block it owns. Moving a Buffer never moves its bytes, so views into a Buffer
// stay valid for as long as the Buffer (or whatever it was moved into) lives.
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
  // A view of bytes owned elsewhere.
  static Buffer View(std::string_view bytes) {
    Buffer b;
    b.view_ = bytes;
    return b;
  }
  // An owned, uninitialised block of `size` bytes to fill through mutable_data().
  static Buffer Allocate(size_t size) {
    Buffer b;
    b.owned_ = std::make_unique_for_overwrite<char[]>(size);
    b.view_ = std::string_view(b.owned_.get(), size);
    return b;
  }

  std::string_view bytes() const { return view_; }
  const char* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }
  char* mutable_data() { return owned_.get(); }

 private:
  std::unique_ptr<char[]> owned_;
  std::string_view view_;
};

}  // namespace tsread

#endif  // TSREAD_IO_BUFFER_H_

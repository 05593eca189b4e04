// Buffer: the memory a numpy array will own, filled by C++ without the GIL. Large buffers are
// anonymous mappings with transparent huge pages, grown with mremap (growing never copies) and
// populated ahead of the writes in one system call per few megabytes: on a VM a 4 KiB page fault
// costs ~10 us, so faulting a column in page by page would cost more than reading it.
#ifndef TSREAD_PYTHON_BUFFER_H_
#define TSREAD_PYTHON_BUFFER_H_

#include <pybind11/numpy.h>

#include <cstddef>

namespace tsread::python {

// Prefaults [begin, end) of a mapping for writing (whole pages; MADV_POPULATE_WRITE, Linux 5.14).
// Only a hint: without it the pages fault in on first write as usual. Thread-safe; the contents
// are unchanged.
void PopulateForWrite(char* begin, char* end);

// A growable byte buffer; bytes never written read as zero.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  ~Buffer();

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  char* data() { return data_; }
  // Makes room for `bytes` in all (false when the memory cannot be had). The room is not
  // populated: writers through data() past size() call PopulateForWrite themselves.
  bool Reserve(size_t bytes);
  // Sets the size to `bytes` (populating the new part); bytes past the old size are zero unless
  // written before.
  bool Resize(size_t bytes);
  bool Append(const void* from, size_t bytes);
  // Sets the size after writing through data() (bytes <= capacity()).
  void SetSize(size_t bytes) { size_ = bytes; }
  // A 1-D numpy array of `dtype` over the buffer's first size() bytes; the array owns the memory
  // from then on and this buffer is empty.
  pybind11::array Release(const pybind11::dtype& dtype);

 private:
  // Below this a buffer lives on the heap; above, in an anonymous mapping grown with mremap.
  static constexpr size_t kMapThreshold = size_t{1} << 20;
  static constexpr size_t kHugePage = size_t{2} << 20;
  // How far ahead of the writes a mapping is populated.
  static constexpr size_t kPopulateAhead = size_t{4} << 20;

  // Populates the mapping up to at least `bytes` (and kPopulateAhead further, within capacity).
  void PopulateTo(size_t bytes);

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t populated_ = 0;  // mapped buffers: bytes already populated
  bool mapped_ = false;
};

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_BUFFER_H_

#include "buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels refuse it (EINVAL) and nothing changes
#endif

namespace py = pybind11;

namespace tsread::python {
namespace {

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

size_t RoundUpToPage(size_t bytes) {
  const size_t page = PageSize();
  return std::max(page, (bytes + page - 1) / page * page);
}

// A mapping handed to numpy: unmapped when the array's base capsule dies.
struct Mapping {
  void* data;
  size_t bytes;
};

}  // namespace

void PopulateForWrite(char* begin, char* end) {
  if (begin >= end) return;
  const auto page = static_cast<uintptr_t>(PageSize());
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin) / page * page;
  const uintptr_t to = (reinterpret_cast<uintptr_t>(end) + page - 1) / page * page;
  madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
}

Buffer::Buffer(Buffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)), populated_(std::exchange(other.populated_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(size_, other.size_);
  std::swap(capacity_, other.capacity_);
  std::swap(populated_, other.populated_);
  std::swap(mapped_, other.mapped_);
  return *this;
}

Buffer::~Buffer() {
  if (data_ == nullptr) return;
  if (mapped_) {
    munmap(data_, capacity_);
  } else {
    std::free(data_);
  }
}

bool Buffer::Reserve(size_t bytes) {
  if (bytes <= capacity_) return true;
  const size_t wanted = std::max({bytes, capacity_ * 2, size_t{4096}});
  if (wanted < kMapThreshold) {
    // Small buffers (iter_batches with small batches, short columns) stay on the heap: a mapping
    // per numpy array would exhaust the process's mapping count.
    void* grown = std::realloc(data_, wanted);
    if (grown == nullptr) return false;
    std::memset(static_cast<char*>(grown) + capacity_, 0, wanted - capacity_);
    data_ = static_cast<char*>(grown);
    capacity_ = wanted;
    return true;
  }
  // Whole huge pages: a mapping whose length is a multiple of 2 MiB is placed on a 2 MiB boundary,
  // so all of it can be huge pages.
  if (wanted > SIZE_MAX - kHugePage) return false;
  const size_t capacity = (wanted + kHugePage - 1) / kHugePage * kHugePage;
  void* grown;
  if (mapped_) {
    grown = mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
    if (grown == MAP_FAILED) return false;
  } else {
    grown = mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (grown == MAP_FAILED) return false;
    // Huge pages: a column of 100 MB is populated as 50 pages, not 25,000 (mremap keeps the
    // advice as the mapping grows). Only a hint: without transparent huge pages nothing changes.
    madvise(grown, capacity, MADV_HUGEPAGE);
    if (data_ != nullptr) {
      PopulateForWrite(static_cast<char*>(grown), static_cast<char*>(grown) + size_);
      std::memcpy(grown, data_, size_);
    }
    populated_ = size_;
    std::free(data_);
    mapped_ = true;
  }
  data_ = static_cast<char*>(grown);
  capacity_ = capacity;
  return true;
}

void Buffer::PopulateTo(size_t bytes) {
  if (!mapped_ || bytes <= populated_) return;
  const size_t end = std::min(capacity_, std::max(bytes, populated_ + kPopulateAhead));
  PopulateForWrite(data_ + populated_, data_ + end);
  populated_ = end;
}

bool Buffer::Resize(size_t bytes) {
  if (!Reserve(bytes)) return false;
  PopulateTo(bytes);
  size_ = bytes;
  return true;
}

bool Buffer::Append(const void* from, size_t bytes) {
  if (bytes == 0) return true;
  if (!Reserve(size_ + bytes)) return false;
  PopulateTo(size_ + bytes);
  std::memcpy(data_ + size_, from, bytes);
  size_ += bytes;
  return true;
}

py::array Buffer::Release(const py::dtype& dtype) {
  if (!Reserve(1)) throw std::bad_alloc();
  py::capsule owner;
  if (mapped_) {
    // Give back the pages past the data (the doubling's slack) before numpy owns the mapping.
    const size_t keep = RoundUpToPage(size_);
    if (keep < capacity_ && mremap(data_, capacity_, keep, 0) != MAP_FAILED) capacity_ = keep;
    auto mapping = std::make_unique<Mapping>(Mapping{data_, capacity_});
    owner = py::capsule(mapping.get(), [](void* p) {
      std::unique_ptr<Mapping> m(static_cast<Mapping*>(p));
      munmap(m->data, m->bytes);
    });
    mapping.release();  // the capsule owns it now
  } else {
    owner = py::capsule(data_, [](void* p) { std::free(p); });
  }
  const auto count = static_cast<py::ssize_t>(size_ / static_cast<size_t>(dtype.itemsize()));
  py::array out(dtype, {count}, {}, data_, owner);
  data_ = nullptr;
  size_ = capacity_ = populated_ = 0;
  mapped_ = false;
  return out;
}

}  // namespace tsread::python

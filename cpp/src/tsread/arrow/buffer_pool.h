// The buffers of a stream's arrays, recycled: when the consumer releases an array its buffers come
// back here, and the next batches the scan decodes are refilled with them (the scan resizes a
// buffer it is given back instead of allocating one). The allocator then sees neither the frees nor
// the fresh allocations — which, when the consumer releases arrays on another thread than the one
// that decoded them (a threaded stream, any consumer with threads of its own), made glibc hand the
// pages back to the system and fault them in again: twice the time on two threads
// (docs/benchmarks.md, "Session 27"). Internal to the Arrow export; thread-safe.
#ifndef TSREAD_ARROW_BUFFER_POOL_H_
#define TSREAD_ARROW_BUFFER_POOL_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace tsread {
namespace arrow_internal {

class BufferPool {
 public:
  // Keeps at most `max_bytes` of buffers (the rest is freed as usual).
  explicit BufferPool(size_t max_bytes = size_t{64} << 20) : max_bytes_(max_bytes) {}

  // Gives `v` (empty, e.g. just moved from) the buffer of one given back, if any.
  template <typename T>
  void Refill(std::vector<T>& v) {
    if (v.capacity() > 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::vector<T>>& kept = std::get<std::vector<std::vector<T>>>(kept_);
    if (kept.empty()) return;
    v = std::move(kept.back());
    kept.pop_back();
    bytes_ -= v.capacity() * sizeof(T);
    v.clear();
  }

  // Takes `v`'s buffer to hand out again (within the bound); `v` is left empty either way.
  template <typename T>
  void GiveBack(std::vector<T>& v) {
    const size_t bytes = v.capacity() * sizeof(T);
    if (bytes == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::vector<T>>& kept = std::get<std::vector<std::vector<T>>>(kept_);
    if (bytes_ + bytes > max_bytes_ || kept.size() >= kMostPerType) return;
    bytes_ += bytes;
    kept.push_back(std::move(v));
  }

 private:
  static constexpr size_t kMostPerType = 1024;
  std::mutex mutex_;
  const size_t max_bytes_;
  size_t bytes_ = 0;
  std::tuple<std::vector<std::vector<uint8_t>>, std::vector<std::vector<int32_t>>, std::vector<std::vector<int64_t>>,
             std::vector<std::vector<float>>, std::vector<std::vector<double>>, std::vector<std::vector<char>>>
      kept_;
};

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_BUFFER_POOL_H_

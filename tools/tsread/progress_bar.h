// ProgressBar: "label [#####     ]  42%" redrawn on stderr, only when stderr is a terminal (so
// scripts and pipes never see it). Add() may be called from several threads; redraws are
// rate-limited to every ~100 ms.
#ifndef TSREAD_TOOLS_PROGRESS_BAR_H_
#define TSREAD_TOOLS_PROGRESS_BAR_H_

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace tsread::cli {

class ProgressBar {
 public:
  ProgressBar(std::string label, uint64_t total)
      : label_(std::move(label)), total_(total), enabled_(total > 0 && OnTerminal()) {}
  // Whether a bar would be drawn at all: callers skip computing its total otherwise.
  static bool OnTerminal() { return isatty(STDERR_FILENO) != 0; }
  ~ProgressBar() { Finish(); }

  void Add(uint64_t n) {
    if (!enabled_) return;
    const uint64_t done = done_.fetch_add(n, std::memory_order_relaxed) + n;
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    Draw(done);
  }

  // Draws 100 % and ends the line (once).
  void Finish() {
    if (!enabled_ || finished_.exchange(true)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    Draw(total_);
    std::fputc('\n', stderr);
  }

 private:
  void Draw(uint64_t done) const {
    constexpr int kWidth = 40;
    const uint64_t clamped = done > total_ ? total_ : done;
    const int filled = static_cast<int>(kWidth * clamped / total_);
    std::fprintf(stderr, "\r%s [%s%s] %3d%%", label_.c_str(), std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, ' ').c_str(), static_cast<int>(100 * clamped / total_));
    std::fflush(stderr);
  }

  const std::string label_;
  const uint64_t total_;
  const bool enabled_;
  std::atomic<uint64_t> done_{0};
  std::atomic<bool> finished_{false};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_PROGRESS_BAR_H_

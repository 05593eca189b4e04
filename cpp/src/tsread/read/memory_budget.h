// MemoryBudget: one limit on the bytes a whole scan holds at once, over all its threads (and, for
// a dataset, all its files): the chunks each decoding thread has loaded and the working memory of
// the page it decodes. MemoryHold is one reader's share of it.
//
// Deadlock freedom: a thread waits for the budget only while it holds none of it (MemoryHold::
// WaitFor releases first), and it releases what it holds before any other wait of the scan's
// (ordered_scan.cc). Every holder therefore either makes progress or lets go, and a waiter's
// request (never above the limit) fits once the others are done. A reader that cannot grow
// without waiting backs off: it drops its buffers, waits for all it now knows it needs, and
// reloads (aligned_device_reader.cc) — so a reservation never waits while holding.
//
// Bytes that cannot be let go at any wait — the batches an ordered scan has queued for splits
// after the one being delivered, which leave only in order — are made reclaimable instead: the
// scan registers a reclaimer, which a thread about to wait runs first; it drops those batches
// (their splits are decoded again later), so the waiter's bytes fit once the holders that can
// let go have (ordered_scan.cc).
#ifndef TSREAD_READ_MEMORY_BUDGET_H_
#define TSREAD_READ_MEMORY_BUDGET_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "absl/status/status.h"

namespace tsread {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  uint64_t limit() const { return limit_; }
  uint64_t in_use() const;
  // The most bytes held at once so far.
  uint64_t peak() const;

  // Adds `bytes` when the total stays within the limit; false (nothing added) otherwise.
  bool TryAcquire(uint64_t bytes);
  // TryAcquire, but false also while a thread waits in AcquireWaiting: for bytes that may be held
  // for long (queued batches), which must not keep a waiter waiting.
  bool TryAcquireUnlessWaited(uint64_t bytes);
  // Waits until `bytes` (at most the limit) fit, then adds them, running the reclaimers before
  // each wait. The caller must hold nothing.
  void AcquireWaiting(uint64_t bytes);
  void Release(uint64_t bytes);

  // Registers `reclaim`, which gives back what can be given back without waiting, to be run by a
  // thread about to wait (never under this budget's lock). The id is for RemoveReclaimer, which
  // returns once no thread runs it any more.
  int AddReclaimer(std::function<void()> reclaim);
  void RemoveReclaimer(int id);

 private:
  void RunReclaimers();

  const uint64_t limit_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  uint64_t in_use_ = 0;
  uint64_t peak_ = 0;
  int waiting_ = 0;
  // Held while reclaimers run, so that RemoveReclaimer waits for a running one. Taken before
  // mutex_ (and before any lock a reclaimer takes), never after.
  std::mutex reclaimers_mutex_;
  std::map<int, std::function<void()>> reclaimers_;
  int next_reclaimer_ = 0;
};

// Whether `status` is MemoryHold::Grow's "the budget is busy: back off and wait" (kAborted with a
// marker payload; never returned to a scan's caller).
bool IsMemoryBusy(const absl::Status& status);

// One reader's bytes in a MemoryBudget (none attached: accounting is off and Grow always
// succeeds). Holds credit acquired ahead (WaitFor) and what it has used of it.
class MemoryHold {
 public:
  MemoryHold() = default;
  MemoryHold(const MemoryHold&) = delete;
  MemoryHold& operator=(const MemoryHold&) = delete;
  MemoryHold(MemoryHold&& other) noexcept;
  MemoryHold& operator=(MemoryHold&& other) noexcept;
  ~MemoryHold() { ReleaseAll(); }

  void Attach(MemoryBudget* budget);
  const MemoryBudget* budget() const { return budget_; }
  bool enabled() const { return budget_ != nullptr; }
  // The budget's limit (0 when none is attached).
  uint64_t limit() const { return budget_ == nullptr ? 0 : budget_->limit(); }
  uint64_t used() const { return used_; }

  // Accounts for `bytes` more. ResourceExhausted when what this reader would then hold exceeds
  // the whole budget by itself (no waiting can help: the message says so); the busy status
  // (IsMemoryBusy) when other readers hold the rest; then wanted() is what to WaitFor.
  absl::Status Grow(uint64_t bytes);
  // Accounts for `bytes` fewer, and gives any credit beyond what is used back to the budget.
  void Shrink(uint64_t bytes);
  uint64_t wanted() const { return wanted_; }
  // Releases everything, waits until `bytes` fit and holds them as credit (used 0).
  void WaitFor(uint64_t bytes);
  void ReleaseAll();

 private:
  MemoryBudget* budget_ = nullptr;
  uint64_t held_ = 0;  // acquired from the budget
  uint64_t used_ = 0;  // accounted for; at most held_
  uint64_t wanted_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_READ_MEMORY_BUDGET_H_

// The ordered multi-threaded scan: batches reach the caller's callback on the calling thread in
// device-index order, while `num_threads` threads decode — the calling thread and
// num_threads - 1 pool workers.
//
// The planned devices are cut into small splits, claimed in order. A worker decodes its split
// into groups of batches and queues them; the calling thread delivers queued groups in split
// order. The calling thread also decodes: when the split it claimed becomes the one being
// delivered, it hands its batches to the callback directly — no queue, no copy, no hand-off.
// With two threads that is about half of all batches.
//
// Memory stays bounded: splits are claimed at most `window_` ahead of the one being delivered,
// and at most kMaxGroups groups of any split are queued — a pool worker then waits for room, the
// calling thread delivers the splits before its own as they come. (Both once went on decoding
// into the queue: a pool worker the split being delivered, as fast as it decodes and whatever
// the callback's pace, the calling thread the split after it; with few, long devices either
// queued a whole device's rows.) Every delivered group's buffers go back to the decoders, so a
// long scan allocates nothing in steady state.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "tsread/io/status_macros.h"
#include "tsread/read/ordered_batch_queue.h"
#include "tsread/read/table_scanner.h"

namespace tsread {
namespace {

// Splits per thread: small splits keep what a thread running ahead must buffer small.
constexpr size_t kSplitsPerThread = 32;

}  // namespace

using ordered_scan_internal::BatchGroup;
using ordered_scan_internal::kBatchesPerGroup;
using ordered_scan_internal::kMaxGroups;
using ordered_scan_internal::SplitState;
using ordered_scan_internal::TakeBatch;

class TableScanner::OrderedScan {
 public:
  // `cursors`: one per thread (the calling thread's first); the workspace's batch groups are
  // taken for the scan and given back (with the ones it made) at its end.
  OrderedScan(const TableScanner& scanner, const std::function<absl::Status(int, const TableBatch&)>& consume,
              const std::vector<Cursor*>& cursors, Workspace& workspace)
      : scanner_(scanner), consume_(consume), cursors_(cursors), workspace_(workspace),
        splits_(scanner.EvenSplits(static_cast<size_t>(scanner.options_.num_threads) * kSplitsPerThread)),
        window_(static_cast<size_t>(scanner.options_.num_threads) + 1), state_(splits_.size()),
        delivered_(std::move(workspace.batch_groups_)) {}

  absl::Status Run() {
    std::vector<std::thread> pool;
    for (int w = 1; w < scanner_.options_.num_threads; ++w) pool.emplace_back([this, w] { WorkerLoop(w); });
    absl::Status result = CallerLoop();
    // Stopped mid-split, the calling thread's cursor still holds its share of a memory budget,
    // which a worker still loading may be waiting for (memory_budget.h).
    cursors_[0]->ReleaseMemory();
    StopWorkers(pool);
    GiveBackBuffers();
    return result;
  }

 private:
  // Per decoding thread: its cursor and batch buffers.
  struct Decoder {
    Cursor& cursor;
    BatchGroup group;  // being filled
    BatchGroup spare;  // delivered batches whose buffers the cursor takes next
  };

  // ---- The end of the scan.

  void StopWorkers(std::vector<std::thread>& pool) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
      room_.notify_all();
    }
    for (std::thread& t : pool) t.join();
  }

  // Gives the batch groups back to the workspace, with the count of batches made.
  void GiveBackBuffers() {
    // Keep what a scan has in flight in steady state (the window's queues and each thread's group
    // and spare); the calling thread may have queued a whole split ahead, more than the next scan
    // needs.
    const size_t keep = window_ * kMaxGroups + 2 * static_cast<size_t>(scanner_.options_.num_threads);
    if (delivered_.size() > keep) delivered_.resize(keep);
    workspace_.batch_groups_ = std::move(delivered_);
    workspace_.batches_made_ += batches_made_.load();
  }

  // ---- Claiming splits.

  // The next split within the window, if any (under the lock).
  std::optional<size_t> ClaimLocked() {
    if (stop_ || next_to_claim_ >= splits_.size() || next_to_claim_ >= delivering_ + window_) return std::nullopt;
    return next_to_claim_++;
  }

  // Pool worker: waits for a split within the window and claims it; nullopt once every split is
  // claimed or the scan is stopping.
  std::optional<size_t> WorkerClaim(Decoder& d) {
    d.cursor.ReleaseMemory();  // before waiting for a split (memory_budget.h)
    std::unique_lock<std::mutex> lock(mutex_);
    std::optional<size_t> claimed;
    room_.wait(lock, [&] {
      claimed = ClaimLocked();
      return stop_ || claimed.has_value() || next_to_claim_ >= splits_.size();
    });
    if (claimed.has_value()) TakeSpareLocked(d);
    return claimed;
  }

  // ---- Decoding a split.

  void TakeSpareLocked(Decoder& d) {
    if (d.spare.empty() && !delivered_.empty()) {
      d.spare = std::move(delivered_.back());
      delivered_.pop_back();
    }
  }

  // Decodes split `s`. On the calling thread, delivers what is ready between batches, and once
  // `s` is the split being delivered with nothing queued before, consumes its batches directly.
  // The returned error is the split's own (a decode error); a delivery error (the callback's, or
  // an earlier split's) is kept in final_error_ and ends the split with Cancelled.
  absl::Status DecodeSplit(Decoder& d, size_t s, bool on_caller) {
    const absl::Status stopped = absl::CancelledError("scan stopped");
    d.cursor.Restart(splits_[s]);
    while (true) {
      TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, d.cursor.Next());
      if (batch == nullptr) break;
      bool consumed = false;
      if (on_caller && !CallerTakeTurn(d, s, *batch, consumed)) return stopped;
      if (!consumed && !QueueBatch(d, s, *batch, on_caller)) return stopped;
    }
    if (!d.group.empty() && !Publish(d, s, on_caller)) return stopped;
    return absl::OkStatus();
  }

  // Calling thread, with `batch` of split `s` decoded: delivers what is ready, and once `s` is
  // the split being delivered with nothing queued, consumes `batch` directly (`consumed`). False
  // once delivery failed.
  bool CallerTakeTurn(Decoder& d, size_t s, const TableBatch& batch, bool& consumed) {
    if (!Deliver(DeliverReady())) return false;
    if (!IsDelivering(s)) return true;
    // What was decoded before `s` became the current split goes first.
    if (!d.group.empty() && (!Publish(d, s, /*on_caller=*/true) || !Deliver(DeliverReady()))) return false;
    consumed = true;
    return Deliver(consume_(0, batch));
  }

  // Moves `batch` into the decoder's group, publishing the group once full. False once the scan
  // is stopping (Publish).
  bool QueueBatch(Decoder& d, size_t s, TableBatch& batch, bool on_caller) {
    if (d.spare.empty()) {
      // Reuse a delivered group's buffers rather than starting fresh batches: the groups a scan
      // circulates then stay as many as it has in flight, also across the scans of a Workspace.
      std::lock_guard<std::mutex> lock(mutex_);
      TakeSpareLocked(d);
    }
    if (TakeBatch(batch, d.group, d.spare)) batches_made_.fetch_add(1, std::memory_order_relaxed);
    return d.group.size() != kBatchesPerGroup || Publish(d, s, on_caller);
  }

  // ---- Publishing.

  // Queues the decoder's group for split `s`. While the split has kMaxGroups queued, a pool
  // worker waits for the calling thread to deliver some; the calling thread, whose split is not
  // the one being delivered then, delivers until there is room. False once the scan is stopping
  // (or, on the calling thread, delivery failed).
  bool Publish(Decoder& d, size_t s, bool on_caller) {
    if (on_caller && !CallerMakeRoom(d, s)) return false;
    std::unique_lock<std::mutex> lock(mutex_);
    if (!on_caller) {
      // The split being delivered waits too: the calling thread drains its queue, so it moves.
      auto has_room = [&] { return stop_ || state_[s].groups.size() < kMaxGroups; };
      // Nothing of a memory budget is held while waiting on anything else (memory_budget.h).
      if (!has_room()) d.cursor.ReleaseMemory();
      room_.wait(lock, has_room);
    }
    if (stop_) return false;
    state_[s].groups.push_back(std::move(d.group));
    d.group.clear();
    TakeSpareLocked(d);
    ready_.notify_one();
    return true;
  }

  // Calling thread, about to queue a group of split `s`: while `s` is not being delivered and has
  // kMaxGroups queued, delivers the splits before it as their groups come. They do come: the
  // decoder of the split being delivered waits for room only when this thread has groups to
  // deliver, and this thread holds none of a memory budget while it waits (memory_budget.h).
  // False once delivery failed (final_error_ says why).
  bool CallerMakeRoom(Decoder& d, size_t s) {
    bool released = false;
    while (true) {
      if (!Deliver(DeliverReady())) return false;
      std::unique_lock<std::mutex> lock(mutex_);
      if (s == delivering_ || state_[s].groups.size() < kMaxGroups) return true;
      if (!released) {
        d.cursor.ReleaseMemory();
        released = true;
      }
      ready_.wait(lock, [&] { return CanDeliverLocked(); });
    }
  }

  void FinishSplit(size_t s, absl::Status status) {
    std::lock_guard<std::mutex> lock(mutex_);
    state_[s].done = true;
    state_[s].status = std::move(status);
    ready_.notify_one();
  }

  // ---- Delivering (calling thread).

  // Keeps the first delivery error; true when `status` is OK.
  bool Deliver(absl::Status status) {
    if (status.ok()) return true;
    if (final_error_.ok()) final_error_ = std::move(status);
    return false;
  }

  bool IsDelivering(size_t s) {
    std::lock_guard<std::mutex> lock(mutex_);
    return s == delivering_ && state_[s].groups.empty();
  }

  // Whether the split being delivered has a group queued or has ended: what the calling thread
  // waits for (under the lock).
  bool CanDeliverLocked() const {
    const SplitState& split = state_[delivering_];
    return !split.groups.empty() || split.done;
  }

  // Hands every queued group of the split being delivered to the callback, moving on past
  // finished splits, until it reaches one with nothing queued. An error is final: the callback's,
  // or a split's decode error in its place.
  absl::Status DeliverReady() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (delivering_ < splits_.size()) {
      SplitState& split = state_[delivering_];
      if (!split.groups.empty()) {
        BatchGroup group = std::move(split.groups.front());
        split.groups.pop_front();
        room_.notify_all();
        lock.unlock();
        for (const TableBatch& batch : group) TSREAD_RETURN_IF_ERROR(consume_(0, batch));
        lock.lock();
        delivered_.push_back(std::move(group));
        continue;
      }
      if (!split.done) break;
      if (!split.status.ok()) return split.status;
      ++delivering_;
      room_.notify_all();
    }
    return absl::OkStatus();
  }

  // ---- The threads' loops.

  absl::Status CallerLoop() {
    Decoder d{*cursors_[0], {}, {}};
    while (true) {
      TSREAD_RETURN_IF_ERROR(DeliverReady());
      std::unique_lock<std::mutex> lock(mutex_);
      if (delivering_ >= splits_.size()) return absl::OkStatus();
      if (std::optional<size_t> s = ClaimLocked(); s.has_value()) {
        TakeSpareLocked(d);
        lock.unlock();
        TSREAD_RETURN_IF_ERROR(CallerDecodeSplit(d, *s));
        continue;
      }
      d.cursor.ReleaseMemory();
      ready_.wait(lock, [&] { return CanDeliverLocked(); });
    }
  }

  // Calling thread: decodes the split `s` it claimed. A delivery error is final (returned); the
  // split's decode error is delivered at its place.
  absl::Status CallerDecodeSplit(Decoder& d, size_t s) {
    absl::Status status = DecodeSplit(d, s, /*on_caller=*/true);
    if (!final_error_.ok()) return final_error_;
    FinishSplit(s, std::move(status));
    return absl::OkStatus();
  }

  void WorkerLoop(int worker) {
    Decoder d{*cursors_[static_cast<size_t>(worker)], {}, {}};
    while (std::optional<size_t> s = WorkerClaim(d)) FinishSplit(*s, DecodeSplit(d, *s, /*on_caller=*/false));
  }

  const TableScanner& scanner_;
  const std::function<absl::Status(int, const TableBatch&)>& consume_;
  const std::vector<Cursor*>& cursors_;
  Workspace& workspace_;
  const std::vector<ScanSplit> splits_;
  const size_t window_;

  std::mutex mutex_;
  std::condition_variable ready_;  // the calling thread waits: a group or a split end arrived
  std::condition_variable room_;   // pool workers wait: the window moved, a queue shrank, or stop
  std::vector<SplitState> state_;
  std::vector<BatchGroup> delivered_;  // groups whose buffers the decoders reuse (from kept_groups_ at first)
  size_t next_to_claim_ = 0;
  size_t delivering_ = 0;
  bool stop_ = false;
  absl::Status final_error_;  // calling thread only
  std::atomic<size_t> batches_made_{0};
};

absl::Status TableScanner::ScanOrdered(const std::function<absl::Status(int worker, const TableBatch&)>& consume,
                                       const std::vector<Cursor*>& cursors, Workspace& workspace) const {
  OrderedScan scan(*this, consume, cursors, workspace);
  return scan.Run();
}

}  // namespace tsread

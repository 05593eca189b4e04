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
//
// With a memory budget the queued batches are accounted in it too (BatchBytes, from the moment a
// batch enters a group until its group is delivered), and three rules keep the split being
// delivered moving — its decoder may need the whole budget, and what is queued for later splits
// leaves only after it:
//  - the calling thread decodes a split only once it is the one being delivered (it claims one
//    ahead and delivers until then), so its batches are never queued, and it waits for the budget
//    only while decoding that split: the split's queue, which only it drains, is then empty;
//  - the decoder of the split being delivered that cannot account a batch hands it to the calling
//    thread directly (still counted as its page memory), so it never waits for queue bytes;
//  - what is queued for later splits is reclaimable: a thread about to wait for the budget drops
//    it (MemoryBudget reclaimer; the splits' decoders start them over), later splits queue nothing
//    while a thread waits (one that cannot waits, holding nothing, until its split's turn), and a
//    worker whose later split ended with batches queued waits for its turn before it moves on.
#include <algorithm>
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
#include "tsread/read/memory_budget.h"
#include "tsread/read/ordered_batch_queue.h"
#include "tsread/read/table_scanner.h"

namespace tsread {
namespace {

// Splits per thread: small splits keep what a thread running ahead must buffer small.
constexpr size_t kSplitsPerThread = 32;

}  // namespace

using ordered_scan_internal::BatchBytes;
using ordered_scan_internal::BatchGroup;
using ordered_scan_internal::BatchOverBudget;
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
        window_(static_cast<size_t>(scanner.options_.num_threads) + 1),
        budget_(scanner.options_.shared_memory_budget.get()), state_(splits_.size()),
        delivered_(std::move(workspace.batch_groups_)) {}

  absl::Status Run() {
    if (budget_ != nullptr) reclaimer_ = budget_->AddReclaimer([this] { EvictQueuedAhead(); });
    std::vector<std::thread> pool;
    for (int w = 1; w < scanner_.options_.num_threads; ++w) pool.emplace_back([this, w] { WorkerLoop(w); });
    absl::Status result = CallerLoop();
    // Stopped mid-split, the calling thread's cursor still holds its share of a memory budget,
    // which a worker still loading may be waiting for (memory_budget.h).
    cursors_[0]->ReleaseMemory();
    StopWorkers(pool);
    if (budget_ != nullptr) {
      budget_->RemoveReclaimer(reclaimer_);
      ReleaseQueuedBytes();
    }
    GiveBackBuffers();
    return result;
  }

 private:
  // Per decoding thread: its cursor and batch buffers.
  struct Decoder {
    explicit Decoder(Cursor& c) : cursor(c) {}
    Cursor& cursor;
    BatchGroup group;  // being filled
    BatchGroup spare;  // delivered batches whose buffers the cursor takes next
    uint32_t evictions = 0;  // its split's SplitState::evictions when it (re)started the split
    size_t split = 0;        // the split it decodes
    std::thread::id thread = std::this_thread::get_id();
  };
  // Registers a thread's decoder for the reclaimer (EvictQueuedAhead) while it lives.
  class DecoderEntry {
   public:
    DecoderEntry(OrderedScan& scan, Decoder& d) : scan_(scan), d_(d) {
      std::lock_guard<std::mutex> lock(scan_.mutex_);
      scan_.decoders_.push_back(&d_);
    }
    ~DecoderEntry() {
      std::lock_guard<std::mutex> lock(scan_.mutex_);
      scan_.decoders_.erase(std::find(scan_.decoders_.begin(), scan_.decoders_.end(), &d_));
    }
    DecoderEntry(const DecoderEntry&) = delete;
    DecoderEntry& operator=(const DecoderEntry&) = delete;

   private:
    OrderedScan& scan_;
    Decoder& d_;
  };
  // What queuing a batch came to.
  enum class Step { kGo, kStop, kStartOver };

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
    workspace_.queued_bytes_peak_ = std::max(workspace_.queued_bytes_peak_, queued_peak_);
  }

  // After the workers have stopped: gives back what a scan stopped early left queued.
  void ReleaseQueuedBytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (SplitState& split : state_) {
      for (const uint64_t bytes : split.group_bytes) budget_->Release(bytes);
      budget_->Release(split.filling_bytes);
      split.group_bytes.clear();
      split.filling_bytes = 0;
    }
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
    if (claimed.has_value()) {
      TakeSpareLocked(d);
      d.evictions = state_[*claimed].evictions;
      d.split = *claimed;
    }
    return claimed;
  }

  // ---- Decoding a split.

  void TakeSpareLocked(Decoder& d) {
    if (d.spare.empty() && !delivered_.empty()) {
      d.spare = std::move(delivered_.back());
      delivered_.pop_back();
    }
  }

  // Decodes split `s`, from its start again whenever its queued batches were dropped to free the
  // budget. On the calling thread, delivers what is ready between batches, and once `s` is the
  // split being delivered with nothing queued before, consumes its batches directly. The returned
  // error is the split's own (a decode error); a delivery error (the callback's, or an earlier
  // split's) is kept in final_error_ and ends the split with Cancelled.
  absl::Status DecodeSplit(Decoder& d, size_t s, bool on_caller) {
    while (true) {
      d.cursor.Restart(splits_[s]);
      std::optional<absl::Status> status = DecodeSplitOnce(d, s, on_caller);
      if (status.has_value() && budget_ != nullptr && !on_caller && !AwaitTurnIfQueued(d, s)) status.reset();
      if (status.has_value()) return *std::move(status);
      StartOver(d, s);
    }
  }

  // One pass of DecodeSplit: nullopt when the split's queued batches were dropped.
  std::optional<absl::Status> DecodeSplitOnce(Decoder& d, size_t s, bool on_caller) {
    const absl::Status stopped = absl::CancelledError("scan stopped");
    while (true) {
      TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, d.cursor.Next());
      if (batch == nullptr) break;
      const uint64_t bytes = budget_ == nullptr ? 0 : BatchBytes(*batch);
      // Checked for every batch, queued or not, so that the scan fails the same whatever the timing.
      if (budget_ != nullptr && bytes > budget_->limit()) return BatchOverBudget(*batch, bytes, budget_->limit());
      bool consumed = false;
      if (on_caller && !CallerTakeTurn(d, s, *batch, consumed)) return stopped;
      if (consumed) continue;
      const Step step = QueueBatch(d, s, *batch, bytes, on_caller);
      if (step == Step::kStop) return stopped;
      if (step == Step::kStartOver) return std::nullopt;
    }
    const Step step = d.group.empty() ? Step::kGo : Publish(d, s, on_caller);
    if (step == Step::kStop) return stopped;
    if (step == Step::kStartOver) return std::nullopt;
    return absl::OkStatus();
  }

  // Drops the decoder's group (its bytes are given back already) to start split `s` over.
  void StartOver(Decoder& d, size_t s) {
    for (TableBatch& batch : d.group) d.spare.push_back(std::move(batch));
    d.group.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    d.evictions = state_[s].evictions;
  }

  // Pool worker with a budget, at the end of a later split that still has batches queued: waits
  // for the split's turn, so that it is there to start the split over should they be dropped.
  // False when they were (the split is decoded again).
  bool AwaitTurnIfQueued(Decoder& d, size_t s) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (state_[s].groups.empty()) return true;
    lock.unlock();
    d.cursor.ReleaseMemory();  // before waiting (memory_budget.h)
    lock.lock();
    room_.wait(lock, [&] { return stop_ || s == delivering_ || state_[s].evictions != d.evictions; });
    return stop_ || state_[s].evictions == d.evictions;
  }

  // Calling thread, with `batch` of split `s` decoded: delivers what is ready, and once `s` is
  // the split being delivered with nothing queued, consumes `batch` directly (`consumed`). False
  // once delivery failed.
  bool CallerTakeTurn(Decoder& d, size_t s, const TableBatch& batch, bool& consumed) {
    if (!Deliver(DeliverReady())) return false;
    if (!IsDelivering(s)) return true;
    // What was decoded before `s` became the current split goes first.
    if (!d.group.empty() && (Publish(d, s, /*on_caller=*/true) != Step::kGo || !Deliver(DeliverReady()))) return false;
    consumed = true;
    return Deliver(consume_(0, batch));
  }

  // Moves `batch` (of `bytes`, with a budget) into the decoder's group, publishing the group once
  // full. With a budget the batch is accounted first, or handed over (HandOver), or the split
  // started over (Admit).
  Step QueueBatch(Decoder& d, size_t s, TableBatch& batch, uint64_t bytes, bool on_caller) {
    if (budget_ != nullptr) {
      const std::optional<Step> admitted = Admit(d, s, bytes);
      if (!admitted.has_value()) return HandOver(d, s, batch);
      if (*admitted != Step::kGo) return *admitted;
    }
    if (d.spare.empty()) {
      // Reuse a delivered group's buffers rather than starting fresh batches: the groups a scan
      // circulates then stay as many as it has in flight, also across the scans of a Workspace.
      std::lock_guard<std::mutex> lock(mutex_);
      TakeSpareLocked(d);
    }
    if (TakeBatch(batch, d.group, d.spare)) batches_made_.fetch_add(1, std::memory_order_relaxed);
    return d.group.size() != kBatchesPerGroup ? Step::kGo : Publish(d, s, on_caller);
  }

  // Accounts `bytes` of split `s` in the budget: kGo once they are. The split being delivered
  // takes them if they fit; nullopt if not (hand the batch over). A later split takes them only
  // while no thread waits for the budget; if not, it drops what it queued and waits, holding
  // nothing, for its turn: kStartOver. kStartOver too when its batches were dropped meanwhile.
  std::optional<Step> Admit(Decoder& d, size_t s, uint64_t bytes) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (stop_) return Step::kStop;
    SplitState& split = state_[s];
    if (split.evictions != d.evictions) return Step::kStartOver;
    const bool current = s == delivering_;
    if (current ? budget_->TryAcquire(bytes) : budget_->TryAcquireUnlessWaited(bytes)) {
      split.filling_bytes += bytes;
      queued_ += bytes;
      queued_peak_ = std::max(queued_peak_, queued_);
      return Step::kGo;
    }
    if (current) return std::nullopt;
    EvictLocked(s);
    lock.unlock();
    d.cursor.ReleaseMemory();
    lock.lock();
    room_.wait(lock, [&] { return stop_ || s == delivering_; });
    return stop_ ? Step::kStop : Step::kStartOver;
  }

  // Pool worker decoding the split being delivered, whose `batch` the budget cannot take: queues
  // its group, then, once the calling thread has delivered everything queued, has it consume
  // `batch` from the cursor (whose page memory still accounts for it).
  Step HandOver(Decoder& d, size_t s, const TableBatch& batch) {
    if (!d.group.empty()) {
      const Step published = Publish(d, s, /*on_caller=*/false);
      if (published != Step::kGo) return published;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return stop_ || (state_[s].groups.empty() && handoff_ == nullptr); });
    if (stop_) return Step::kStop;
    handoff_ = &batch;
    ready_.notify_one();
    // Once stop_ is set the calling thread has left its loop: it no longer reads the batch.
    room_.wait(lock, [&] { return stop_ || handoff_ == nullptr; });
    return stop_ ? Step::kStop : Step::kGo;
  }

  // Drops what split `s` (after the one being delivered) has queued and accounted, giving the
  // bytes back; its decoder starts it over (under the lock).
  void EvictLocked(size_t s) {
    SplitState& split = state_[s];
    if (split.groups.empty() && split.filling_bytes == 0) return;
    uint64_t bytes = split.filling_bytes;
    for (const uint64_t b : split.group_bytes) bytes += b;
    for (BatchGroup& group : split.groups) delivered_.push_back(std::move(group));
    split.groups.clear();
    split.group_bytes.clear();
    split.filling_bytes = 0;
    ++split.evictions;
    queued_ -= bytes;
    budget_->Release(bytes);
    room_.notify_all();
  }

  // The budget's reclaimer (any thread about to wait for it): drops what the splits after the one
  // being delivered have queued. On a decoder of this scan whose split has become the one being
  // delivered, also queues the group it fills (one group over kMaxGroups at most), which would
  // otherwise stay accounted while it waits: only the calling thread drains queues.
  void EvictQueuedAhead() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t s = delivering_ + 1; s < next_to_claim_; ++s) EvictLocked(s);
    for (Decoder* d : decoders_) {
      if (d->thread != std::this_thread::get_id() || d->split != delivering_ || d->group.empty()) continue;
      QueueGroupLocked(*d, d->split);
    }
  }

  // Moves the decoder's group into split `s`'s queue (under the lock).
  void QueueGroupLocked(Decoder& d, size_t s) {
    SplitState& split = state_[s];
    split.groups.push_back(std::move(d.group));
    split.group_bytes.push_back(split.filling_bytes);
    split.filling_bytes = 0;
    d.group.clear();
    TakeSpareLocked(d);
    ready_.notify_one();
  }

  // ---- Publishing.

  // Queues the decoder's group for split `s`. While the split has kMaxGroups queued, a pool
  // worker waits for the calling thread to deliver some; the calling thread, whose split is not
  // the one being delivered then, delivers until there is room. kStop once the scan is stopping
  // (or, on the calling thread, delivery failed); kStartOver when the split's batches were dropped.
  Step Publish(Decoder& d, size_t s, bool on_caller) {
    if (on_caller && !CallerMakeRoom(d, s)) return Step::kStop;
    std::unique_lock<std::mutex> lock(mutex_);
    SplitState& split = state_[s];
    if (!on_caller) {
      // The split being delivered waits too: the calling thread drains its queue, so it moves.
      auto has_room = [&] { return stop_ || split.groups.size() < kMaxGroups || split.evictions != d.evictions; };
      // Nothing of a memory budget is held while waiting on anything else (memory_budget.h) — but
      // by the split being delivered's decoder, with a budget: the calling thread, which then
      // decodes nothing, drains its queue whatever the budget.
      if (!has_room() && (budget_ == nullptr || s != delivering_)) {
        lock.unlock();
        d.cursor.ReleaseMemory();
        lock.lock();
      }
      room_.wait(lock, has_room);
    }
    if (stop_) return Step::kStop;
    if (split.evictions != d.evictions) return Step::kStartOver;
    if (!d.group.empty()) QueueGroupLocked(d, s);  // the reclaimer may have queued it meanwhile
    return Step::kGo;
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
    return !split.groups.empty() || split.done || handoff_ != nullptr;
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
        const uint64_t bytes = split.group_bytes.front();
        split.groups.pop_front();
        split.group_bytes.pop_front();
        room_.notify_all();
        lock.unlock();
        absl::Status status = ConsumeGroup(group);
        lock.lock();
        // Given back once consumed: the batches are in memory until then.
        if (bytes > 0) budget_->Release(bytes);
        queued_ -= bytes;
        delivered_.push_back(std::move(group));
        TSREAD_RETURN_IF_ERROR(status);
        continue;
      }
      if (handoff_ != nullptr) {
        // The split's decoder waits while its batch is consumed (HandOver).
        lock.unlock();
        absl::Status status = consume_(0, *handoff_);
        lock.lock();
        handoff_ = nullptr;
        room_.notify_all();
        TSREAD_RETURN_IF_ERROR(status);
        continue;
      }
      if (!split.done) break;
      if (!split.status.ok()) return split.status;
      ++delivering_;
      room_.notify_all();
    }
    return absl::OkStatus();
  }

  absl::Status ConsumeGroup(const BatchGroup& group) {
    for (const TableBatch& batch : group) TSREAD_RETURN_IF_ERROR(consume_(0, batch));
    return absl::OkStatus();
  }

  // Calling thread, with a budget: delivers until split `s`, which it claimed, is the one being
  // delivered (the file comment says why it decodes no other).
  absl::Status AwaitCallerTurn(size_t s) {
    while (true) {
      TSREAD_RETURN_IF_ERROR(DeliverReady());
      std::unique_lock<std::mutex> lock(mutex_);
      if (delivering_ == s) return absl::OkStatus();
      ready_.wait(lock, [&] { return CanDeliverLocked(); });
    }
  }

  // ---- The threads' loops.

  absl::Status CallerLoop() {
    Decoder d(*cursors_[0]);
    while (true) {
      TSREAD_RETURN_IF_ERROR(DeliverReady());
      std::unique_lock<std::mutex> lock(mutex_);
      if (delivering_ >= splits_.size()) return absl::OkStatus();
      if (std::optional<size_t> s = ClaimLocked(); s.has_value()) {
        TakeSpareLocked(d);
        lock.unlock();
        if (budget_ != nullptr) TSREAD_RETURN_IF_ERROR(AwaitCallerTurn(*s));
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
    Decoder d(*cursors_[static_cast<size_t>(worker)]);
    const DecoderEntry entry(*this, d);
    while (std::optional<size_t> s = WorkerClaim(d)) FinishSplit(*s, DecodeSplit(d, *s, /*on_caller=*/false));
  }

  const TableScanner& scanner_;
  const std::function<absl::Status(int, const TableBatch&)>& consume_;
  const std::vector<Cursor*>& cursors_;
  Workspace& workspace_;
  const std::vector<ScanSplit> splits_;
  const size_t window_;
  MemoryBudget* const budget_;  // the scan's, if any
  int reclaimer_ = -1;          // EvictQueuedAhead's id in budget_

  std::mutex mutex_;
  std::condition_variable ready_;  // the calling thread waits: a group or a split end arrived
  std::condition_variable room_;   // pool workers wait: the window moved, a queue shrank, or stop
  std::vector<SplitState> state_;
  std::vector<BatchGroup> delivered_;  // groups whose buffers the decoders reuse (from kept_groups_ at first)
  std::vector<Decoder*> decoders_;     // the pool workers'
  size_t next_to_claim_ = 0;
  size_t delivering_ = 0;
  bool stop_ = false;
  const TableBatch* handoff_ = nullptr;  // a batch of the split being delivered, in its decoder's cursor
  uint64_t queued_ = 0;                  // with a budget: bytes of the batches in groups, queued or filling
  uint64_t queued_peak_ = 0;
  absl::Status final_error_;  // calling thread only
  std::atomic<size_t> batches_made_{0};
};

absl::Status TableScanner::ScanOrdered(const std::function<absl::Status(int worker, const TableBatch&)>& consume,
                                       const std::vector<Cursor*>& cursors, Workspace& workspace) const {
  OrderedScan scan(*this, consume, cursors, workspace);
  return scan.Run();
}

}  // namespace tsread

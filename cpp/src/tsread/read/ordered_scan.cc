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
#include "tsread/read/ordered_scan.h"

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

namespace tsread {

using ordered_scan_internal::BatchBytes;
using ordered_scan_internal::BatchOverBudget;
using ordered_scan_internal::kBatchesPerGroup;
using ordered_scan_internal::kMaxGroups;
using ordered_scan_internal::TakeBatch;

void TableScanner::OrderedScan::StopWorkers(std::vector<std::thread>& pool) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    room_.notify_all();
  }
  for (std::thread& t : pool) t.join();
}

void TableScanner::OrderedScan::GiveBackBuffers() {
  // Keep what a scan has in flight in steady state (the window's queues and each thread's group
  // and spare); the calling thread may have queued a whole split ahead, more than the next scan
  // needs.
  const size_t keep = window_ * kMaxGroups + 2 * static_cast<size_t>(scanner_.options_.num_threads);
  if (delivered_.size() > keep) delivered_.resize(keep);
  workspace_.batch_groups_ = std::move(delivered_);
  workspace_.batches_made_ += batches_made_.load();
  workspace_.queued_bytes_peak_ = std::max(workspace_.queued_bytes_peak_, queued_peak_);
}

std::optional<size_t> TableScanner::OrderedScan::ClaimLocked() {
  if (stop_ || next_to_claim_ >= splits_.size() || next_to_claim_ >= delivering_ + window_) return std::nullopt;
  return next_to_claim_++;
}

std::optional<size_t> TableScanner::OrderedScan::WorkerClaim(Decoder& d) {
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

void TableScanner::OrderedScan::TakeSpareLocked(Decoder& d) {
  if (d.spare.empty() && !delivered_.empty()) {
    d.spare = std::move(delivered_.back());
    delivered_.pop_back();
  }
}

absl::Status TableScanner::OrderedScan::DecodeSplit(Decoder& d, size_t s, bool on_caller) {
  while (true) {
    d.cursor.Restart(splits_[s]);
    std::optional<absl::Status> status = DecodeSplitOnce(d, s, on_caller);
    if (status.has_value() && budget_ != nullptr && !on_caller && !AwaitTurnIfQueued(d, s)) status.reset();
    if (status.has_value()) return *std::move(status);
    StartOver(d, s);
  }
}

std::optional<absl::Status> TableScanner::OrderedScan::DecodeSplitOnce(Decoder& d, size_t s, bool on_caller) {
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

bool TableScanner::OrderedScan::CallerTakeTurn(Decoder& d, size_t s, TableBatch& batch, bool& consumed) {
  if (!Deliver(DeliverReady())) return false;
  if (!IsDelivering(s)) return true;
  // What was decoded before `s` became the current split goes first.
  if (!d.group.empty() && (Publish(d, s, /*on_caller=*/true) != Step::kGo || !Deliver(DeliverReady()))) return false;
  consumed = true;
  return Deliver(consume_(0, batch));
}

TableScanner::OrderedScan::Step TableScanner::OrderedScan::QueueBatch(Decoder& d, size_t s, TableBatch& batch, uint64_t bytes, bool on_caller) {
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

TableScanner::OrderedScan::Step TableScanner::OrderedScan::Publish(Decoder& d, size_t s, bool on_caller) {
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

bool TableScanner::OrderedScan::CallerMakeRoom(Decoder& d, size_t s) {
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

void TableScanner::OrderedScan::FinishSplit(size_t s, absl::Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_[s].done = true;
  state_[s].status = std::move(status);
  ready_.notify_one();
}

bool TableScanner::OrderedScan::Deliver(absl::Status status) {
  if (status.ok()) return true;
  if (final_error_.ok()) final_error_ = std::move(status);
  return false;
}

bool TableScanner::OrderedScan::IsDelivering(size_t s) {
  std::lock_guard<std::mutex> lock(mutex_);
  return s == delivering_ && state_[s].groups.empty();
}

bool TableScanner::OrderedScan::CanDeliverLocked() const {
  const SplitState& split = state_[delivering_];
  return !split.groups.empty() || split.done || handoff_ != nullptr;
}

absl::Status TableScanner::OrderedScan::DeliverReady() {
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

absl::Status TableScanner::OrderedScan::ConsumeGroup(BatchGroup& group) {
  for (TableBatch& batch : group) TSREAD_RETURN_IF_ERROR(consume_(0, batch));
  return absl::OkStatus();
}

absl::Status TableScanner::OrderedScan::CallerLoop() {
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

absl::Status TableScanner::OrderedScan::CallerDecodeSplit(Decoder& d, size_t s) {
  absl::Status status = DecodeSplit(d, s, /*on_caller=*/true);
  if (!final_error_.ok()) return final_error_;
  FinishSplit(s, std::move(status));
  return absl::OkStatus();
}

void TableScanner::OrderedScan::WorkerLoop(int worker) {
  Decoder d(*cursors_[static_cast<size_t>(worker)]);
  const DecoderEntry entry(*this, d);
  while (std::optional<size_t> s = WorkerClaim(d)) FinishSplit(*s, DecodeSplit(d, *s, /*on_caller=*/false));
}

absl::Status TableScanner::ScanOrdered(const std::function<absl::Status(int worker, TableBatch&)>& consume,
                                       const std::vector<Cursor*>& cursors, Workspace& workspace) const {
  OrderedScan scan(*this, consume, cursors, workspace);
  return scan.Run();
}

}  // namespace tsread

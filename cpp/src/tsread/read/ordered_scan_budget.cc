// What a memory budget adds to the ordered scan (ordered_scan.cc's file comment says why): queued
// batches accounted (Admit), handed over when the budget cannot take them (HandOver), dropped to
// free it for a thread about to wait (EvictQueuedAhead) and their splits started over.
#include <algorithm>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "tsread/io/status_macros.h"
#include "tsread/read/ordered_scan.h"

namespace tsread {

void TableScanner::OrderedScan::ReleaseQueuedBytes() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (SplitState& split : state_) {
    for (const uint64_t bytes : split.group_bytes) budget_->Release(bytes);
    budget_->Release(split.filling_bytes);
    split.group_bytes.clear();
    split.filling_bytes = 0;
  }
}

void TableScanner::OrderedScan::StartOver(Decoder& d, size_t s) {
  for (TableBatch& batch : d.group) d.spare.push_back(std::move(batch));
  d.group.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  d.evictions = state_[s].evictions;
}

bool TableScanner::OrderedScan::AwaitTurnIfQueued(Decoder& d, size_t s) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (state_[s].groups.empty()) return true;
  lock.unlock();
  d.cursor.ReleaseMemory();  // before waiting (memory_budget.h)
  lock.lock();
  room_.wait(lock, [&] { return stop_ || s == delivering_ || state_[s].evictions != d.evictions; });
  return stop_ || state_[s].evictions == d.evictions;
}

std::optional<TableScanner::OrderedScan::Step> TableScanner::OrderedScan::Admit(Decoder& d, size_t s, uint64_t bytes) {
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

TableScanner::OrderedScan::Step TableScanner::OrderedScan::HandOver(Decoder& d, size_t s, TableBatch& batch) {
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

void TableScanner::OrderedScan::EvictLocked(size_t s) {
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

void TableScanner::OrderedScan::EvictQueuedAhead() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t s = delivering_ + 1; s < next_to_claim_; ++s) EvictLocked(s);
  for (Decoder* d : decoders_) {
    if (d->thread != std::this_thread::get_id() || d->split != delivering_ || d->group.empty()) continue;
    QueueGroupLocked(*d, d->split);
  }
}

void TableScanner::OrderedScan::QueueGroupLocked(Decoder& d, size_t s) {
  SplitState& split = state_[s];
  split.groups.push_back(std::move(d.group));
  split.group_bytes.push_back(split.filling_bytes);
  split.filling_bytes = 0;
  d.group.clear();
  TakeSpareLocked(d);
  ready_.notify_one();
}

absl::Status TableScanner::OrderedScan::AwaitCallerTurn(size_t s) {
  while (true) {
    TSREAD_RETURN_IF_ERROR(DeliverReady());
    std::unique_lock<std::mutex> lock(mutex_);
    if (delivering_ == s) return absl::OkStatus();
    ready_.wait(lock, [&] { return CanDeliverLocked(); });
  }
}

}  // namespace tsread

#include "tsread/read/memory_budget.h"

#include <algorithm>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

constexpr char kBusyPayload[] = "tsread/memory-budget-busy";

absl::Status MemoryBusyStatus() {
  absl::Status status = absl::AbortedError("memory budget busy: back off and wait");
  status.SetPayload(kBusyPayload, absl::Cord("1"));
  return status;
}

}  // namespace

uint64_t MemoryBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

uint64_t MemoryBudget::peak() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

bool MemoryBudget::TryAcquire(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes > limit_ - in_use_) return false;
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return true;
}

bool MemoryBudget::TryAcquireUnlessWaited(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (waiting_ > 0 || bytes > limit_ - in_use_) return false;
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  return true;
}

void MemoryBudget::AcquireWaiting(uint64_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  ++waiting_;
  while (bytes > limit_ - in_use_) {
    // What the reclaimers give back wakes no one (this thread may be the only waiter): look again
    // before sleeping.
    lock.unlock();
    RunReclaimers();
    lock.lock();
    if (bytes <= limit_ - in_use_) break;
    released_.wait(lock);
  }
  --waiting_;
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
}

int MemoryBudget::AddReclaimer(std::function<void()> reclaim) {
  std::lock_guard<std::mutex> lock(reclaimers_mutex_);
  reclaimers_.emplace(next_reclaimer_, std::move(reclaim));
  return next_reclaimer_++;
}

void MemoryBudget::RemoveReclaimer(int id) {
  std::lock_guard<std::mutex> lock(reclaimers_mutex_);
  reclaimers_.erase(id);
}

void MemoryBudget::RunReclaimers() {
  std::lock_guard<std::mutex> lock(reclaimers_mutex_);
  for (const auto& [id, reclaim] : reclaimers_) reclaim();
}

void MemoryBudget::Release(uint64_t bytes) {
  if (bytes == 0) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    in_use_ -= std::min(bytes, in_use_);
  }
  released_.notify_all();
}

bool IsMemoryBusy(const absl::Status& status) {
  return status.code() == absl::StatusCode::kAborted && status.GetPayload(kBusyPayload).has_value();
}

MemoryHold::MemoryHold(MemoryHold&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), held_(std::exchange(other.held_, 0)),
      used_(std::exchange(other.used_, 0)), wanted_(std::exchange(other.wanted_, 0)) {}

MemoryHold& MemoryHold::operator=(MemoryHold&& other) noexcept {
  if (this != &other) {
    ReleaseAll();
    budget_ = std::exchange(other.budget_, nullptr);
    held_ = std::exchange(other.held_, 0);
    used_ = std::exchange(other.used_, 0);
    wanted_ = std::exchange(other.wanted_, 0);
  }
  return *this;
}

void MemoryHold::Attach(MemoryBudget* budget) {
  if (budget == budget_) return;
  ReleaseAll();
  budget_ = budget;
}

absl::Status MemoryHold::Grow(uint64_t bytes) {
  if (budget_ == nullptr) return absl::OkStatus();
  if (bytes > budget_->limit() || used_ > budget_->limit() - bytes) {
    return absl::ResourceExhaustedError(absl::StrCat("needs ", used_ + bytes, " bytes at once, more than the scan's memory budget of ",
                                                     budget_->limit(), " bytes (ScanOptions::memory_budget)"));
  }
  const uint64_t total = used_ + bytes;
  if (total > held_) {
    if (!budget_->TryAcquire(total - held_)) {
      wanted_ = total;
      return MemoryBusyStatus();
    }
    held_ = total;
  }
  used_ = total;
  return absl::OkStatus();
}

void MemoryHold::Shrink(uint64_t bytes) {
  if (budget_ == nullptr) return;
  used_ -= std::min(bytes, used_);
  budget_->Release(held_ - used_);
  held_ = used_;
}

void MemoryHold::WaitFor(uint64_t bytes) {
  if (budget_ == nullptr) return;
  ReleaseAll();
  budget_->AcquireWaiting(std::min(bytes, budget_->limit()));
  held_ = std::min(bytes, budget_->limit());
}

void MemoryHold::ReleaseAll() {
  if (budget_ != nullptr) budget_->Release(held_);
  held_ = 0;
  used_ = 0;
  wanted_ = 0;
}

}  // namespace tsread

// TableScanner::OrderedScan, the ordered multi-threaded scan: its state and steps, defined in
// ordered_scan.cc (claiming, decoding, publishing and delivering; the design is described there)
// and ordered_scan_budget.cc (what a memory budget adds: the queued batches accounted, handed over
// or dropped). Internal to TableScanner; not part of the public API.
#ifndef TSREAD_READ_ORDERED_SCAN_H_
#define TSREAD_READ_ORDERED_SCAN_H_

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/ordered_batch_queue.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

class TableScanner::OrderedScan {
  using BatchGroup = ordered_scan_internal::BatchGroup;
  using SplitState = ordered_scan_internal::SplitState;
  // Splits per thread: small splits keep what a thread running ahead must buffer small.
  static constexpr size_t kSplitsPerThread = 32;

 public:
  // `cursors`: one per thread (the calling thread's first); the workspace's batch groups are
  // taken for the scan and given back (with the ones it made) at its end.
  OrderedScan(const TableScanner& scanner, const std::function<absl::Status(int, TableBatch&)>& consume,
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

  void StopWorkers(std::vector<std::thread>& pool);

  // Gives the batch groups back to the workspace, with the count of batches made.
  void GiveBackBuffers();

  // After the workers have stopped: gives back what a scan stopped early left queued.
  void ReleaseQueuedBytes();

  // ---- Claiming splits.

  // The next split within the window, if any (under the lock).
  std::optional<size_t> ClaimLocked();

  // Pool worker: waits for a split within the window and claims it; nullopt once every split is
  // claimed or the scan is stopping.
  std::optional<size_t> WorkerClaim(Decoder& d);

  // ---- Decoding a split.

  void TakeSpareLocked(Decoder& d);

  // Decodes split `s`, from its start again whenever its queued batches were dropped to free the
  // budget. On the calling thread, delivers what is ready between batches, and once `s` is the
  // split being delivered with nothing queued before, consumes its batches directly. The returned
  // error is the split's own (a decode error); a delivery error (the callback's, or an earlier
  // split's) is kept in final_error_ and ends the split with Cancelled.
  absl::Status DecodeSplit(Decoder& d, size_t s, bool on_caller);

  // One pass of DecodeSplit: nullopt when the split's queued batches were dropped.
  std::optional<absl::Status> DecodeSplitOnce(Decoder& d, size_t s, bool on_caller);

  // Drops the decoder's group (its bytes are given back already) to start split `s` over.
  void StartOver(Decoder& d, size_t s);

  // Pool worker with a budget, at the end of a later split that still has batches queued: waits
  // for the split's turn, so that it is there to start the split over should they be dropped.
  // False when they were (the split is decoded again).
  bool AwaitTurnIfQueued(Decoder& d, size_t s);

  // Calling thread, with `batch` of split `s` decoded: delivers what is ready, and once `s` is
  // the split being delivered with nothing queued, consumes `batch` directly (`consumed`). False
  // once delivery failed.
  bool CallerTakeTurn(Decoder& d, size_t s, TableBatch& batch, bool& consumed);

  // Moves `batch` (of `bytes`, with a budget) into the decoder's group, publishing the group once
  // full. With a budget the batch is accounted first, or handed over (HandOver), or the split
  // started over (Admit).
  Step QueueBatch(Decoder& d, size_t s, TableBatch& batch, uint64_t bytes, bool on_caller);

  // Accounts `bytes` of split `s` in the budget: kGo once they are. The split being delivered
  // takes them if they fit; nullopt if not (hand the batch over). A later split takes them only
  // while no thread waits for the budget; if not, it drops what it queued and waits, holding
  // nothing, for its turn: kStartOver. kStartOver too when its batches were dropped meanwhile.
  std::optional<Step> Admit(Decoder& d, size_t s, uint64_t bytes);

  // Pool worker decoding the split being delivered, whose `batch` the budget cannot take: queues
  // its group, then, once the calling thread has delivered everything queued, has it consume
  // `batch` from the cursor (whose page memory still accounts for it).
  Step HandOver(Decoder& d, size_t s, TableBatch& batch);

  // Drops what split `s` (after the one being delivered) has queued and accounted, giving the
  // bytes back; its decoder starts it over (under the lock).
  void EvictLocked(size_t s);

  // The budget's reclaimer (any thread about to wait for it): drops what the splits after the one
  // being delivered have queued. On a decoder of this scan whose split has become the one being
  // delivered, also queues the group it fills (one group over kMaxGroups at most), which would
  // otherwise stay accounted while it waits: only the calling thread drains queues.
  void EvictQueuedAhead();

  // Moves the decoder's group into split `s`'s queue (under the lock).
  void QueueGroupLocked(Decoder& d, size_t s);

  // ---- Publishing.

  // Queues the decoder's group for split `s`. While the split has kMaxGroups queued, a pool
  // worker waits for the calling thread to deliver some; the calling thread, whose split is not
  // the one being delivered then, delivers until there is room. kStop once the scan is stopping
  // (or, on the calling thread, delivery failed); kStartOver when the split's batches were dropped.
  Step Publish(Decoder& d, size_t s, bool on_caller);

  // Calling thread, about to queue a group of split `s`: while `s` is not being delivered and has
  // kMaxGroups queued, delivers the splits before it as their groups come. They do come: the
  // decoder of the split being delivered waits for room only when this thread has groups to
  // deliver, and this thread holds none of a memory budget while it waits (memory_budget.h).
  // False once delivery failed (final_error_ says why).
  bool CallerMakeRoom(Decoder& d, size_t s);

  void FinishSplit(size_t s, absl::Status status);

  // ---- Delivering (calling thread).

  // Keeps the first delivery error; true when `status` is OK.
  bool Deliver(absl::Status status);

  bool IsDelivering(size_t s);

  // Whether the split being delivered has a group queued or has ended: what the calling thread
  // waits for (under the lock).
  bool CanDeliverLocked() const;

  // Hands every queued group of the split being delivered to the callback, moving on past
  // finished splits, until it reaches one with nothing queued. An error is final: the callback's,
  // or a split's decode error in its place.
  absl::Status DeliverReady();

  absl::Status ConsumeGroup(BatchGroup& group);

  // Calling thread, with a budget: delivers until split `s`, which it claimed, is the one being
  // delivered (the file comment says why it decodes no other).
  absl::Status AwaitCallerTurn(size_t s);

  // ---- The threads' loops.

  absl::Status CallerLoop();

  // Calling thread: decodes the split `s` it claimed. A delivery error is final (returned); the
  // split's decode error is delivered at its place.
  absl::Status CallerDecodeSplit(Decoder& d, size_t s);

  void WorkerLoop(int worker);

  const TableScanner& scanner_;
  const std::function<absl::Status(int, TableBatch&)>& consume_;
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
  TableBatch* handoff_ = nullptr;  // a batch of the split being delivered, in its decoder's cursor
  uint64_t queued_ = 0;                  // with a budget: bytes of the batches in groups, queued or filling
  uint64_t queued_peak_ = 0;
  absl::Status final_error_;  // calling thread only
  std::atomic<size_t> batches_made_{0};
};

}  // namespace tsread

#endif  // TSREAD_READ_ORDERED_SCAN_H_

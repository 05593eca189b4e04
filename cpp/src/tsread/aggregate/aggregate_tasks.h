// AggregateTasks: one Aggregate call (table_aggregate.h) cut into tasks that threads run at once —
// a run of the dataset's files where there are files enough, else a share of one file's devices (a
// run of its device index) — each aggregated by a GroupBuilder of its own, the groups merged in
// task order at the end: devices in first-seen order, a device's groups over files merged as Aggregate merges
// them (the earlier file's first value wins a tie, the later file's last). Every figure equals
// Aggregate's except FLOAT/DOUBLE sums of a group that spans tasks (a device in several files, or
// every group by table), which may differ in the last bits: partial sums are added in another
// order.
#ifndef TSREAD_AGGREGATE_AGGREGATE_TASKS_H_
#define TSREAD_AGGREGATE_AGGREGATE_TASKS_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/aggregate/group_merge.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

class AggregateTasks {
 public:
  // Tasks for `threads` threads: with at least two files a thread, up to four runs of files a
  // thread (a builder a run: a group per device and run, not per file); else each file's devices
  // in `threads` shares (each share plans the file: more would cost plans). Errors: Aggregate's for
  // the options (unknown table or column, negative bucket width). `dataset` must outlive the tasks.
  static absl::StatusOr<std::unique_ptr<AggregateTasks>> Create(const Dataset& dataset, const AggregateOptions& options,
                                                                size_t threads);

  size_t size() const { return tasks_.size(); }
  // Runs task `task` (< size(), each once) with the calling thread's `cursor` (its page buffers,
  // reused from task to task). Distinct tasks may run on different threads at once; errors name
  // the file.
  absl::Status Run(size_t task, std::optional<TableScanner::Cursor>& cursor);
  // Once every task has run: the groups merged in task order (and the empty buckets filled when
  // asked). The tasks are spent.
  absl::StatusOr<TableAggregate> Finish();

 private:
  struct Task {
    size_t first_file = 0, end_file = 0;  // files [first_file, end_file)
    size_t part = 0, parts = 1;           // share `part` of `parts` of each file's devices
    BuilderOutput output;
  };
  AggregateTasks(const AggregateOptions& options, TableAggregate shape, std::unique_ptr<DatasetScanner> scanner,
                 std::vector<Task> tasks);

  AggregateOptions options_;
  TableAggregate shape_;  // without groups
  std::unique_ptr<DatasetScanner> scanner_;
  std::vector<Task> tasks_;
};

// Aggregate on `threads` threads (at most one per task): Aggregate itself with one.
absl::StatusOr<TableAggregate> AggregateOnThreads(const Dataset& dataset, const AggregateOptions& options,
                                                  int threads);

}  // namespace tsread

#endif  // TSREAD_AGGREGATE_AGGREGATE_TASKS_H_

// AggregateTasks (aggregate_tasks.h): a GroupBuilder per task, merged in task order.
#include "tsread/aggregate/aggregate_tasks.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tsread/aggregate/aggregate_shape.h"
#include "tsread/aggregate/group_builder.h"
#include "tsread/aggregate/group_merge.h"
#include "tsread/common/run_in_order.h"
#include "tsread/io/status_macros.h"

namespace tsread {
AggregateTasks::AggregateTasks(const AggregateOptions& options, TableAggregate shape,
                               std::unique_ptr<DatasetScanner> scanner, std::vector<Task> tasks)
    : options_(options), shape_(std::move(shape)), scanner_(std::move(scanner)), tasks_(std::move(tasks)) {}

absl::StatusOr<std::unique_ptr<AggregateTasks>> AggregateTasks::Create(const Dataset& dataset,
                                                                       const AggregateOptions& options, size_t threads) {
  TSREAD_ASSIGN_OR_RETURN(TableAggregate shape, DatasetAggregateShape(dataset, options));
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<DatasetScanner> scanner,
                          DatasetScanner::Create(dataset, AggregateScanOptions(shape, options)));
  threads = std::max<size_t>(threads, 1);
  const size_t files = dataset.files().size();
  std::vector<Task> tasks;
  if (files >= 2 * threads) {
    const size_t runs = std::min(files, 4 * threads);
    for (size_t r = 0; r < runs; ++r) tasks.push_back(Task{files * r / runs, files * (r + 1) / runs, 0, 1, {}});
  } else {
    for (size_t f = 0; f < files; ++f) {
      for (size_t p = 0; p < threads; ++p) tasks.push_back(Task{f, f + 1, p, threads, {}});
    }
  }
  return std::unique_ptr<AggregateTasks>(
      new AggregateTasks(options, std::move(shape), std::move(scanner), std::move(tasks)));
}

absl::Status AggregateTasks::Run(size_t task, std::optional<TableScanner::Cursor>& cursor) {
  Task& t = tasks_[task];
  GroupBuilder builder(shape_, options_);
  for (size_t f = t.first_file; f < t.end_file; ++f) {
    TSREAD_RETURN_IF_ERROR(AggregateFileInto(*scanner_, f, t.part, t.parts, builder, cursor));
  }
  t.output.groups = builder.TakeGroups();
  t.output.work = builder.work();
  return absl::OkStatus();
}

absl::StatusOr<TableAggregate> AggregateTasks::Finish() {
  TableAggregate out = shape_;
  std::vector<BuilderOutput> outputs;
  outputs.reserve(tasks_.size());
  for (Task& t : tasks_) outputs.push_back(std::move(t.output));
  MergeBuilderOutputs(outputs, out);
  if (options_.fill_empty_buckets) TSREAD_RETURN_IF_ERROR(FillEmptyBuckets(options_, out));
  return out;
}

absl::StatusOr<TableAggregate> AggregateOnThreads(const Dataset& dataset, const AggregateOptions& options,
                                                  int threads) {
  if (threads <= 1) return Aggregate(dataset, options);
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<AggregateTasks> tasks,
                          AggregateTasks::Create(dataset, options, static_cast<size_t>(threads)));
  // Each worker's cursor keeps its page buffers from task to task.
  std::vector<std::optional<TableScanner::Cursor>> cursors(static_cast<size_t>(threads));
  TSREAD_RETURN_IF_ERROR(RunInOrder(tasks->size(), threads, [&](size_t task, size_t worker) {
    return tasks->Run(task, cursors[worker]);
  }));
  return tasks->Finish();
}

}  // namespace tsread

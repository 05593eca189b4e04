#include "tsread/dataset/dataset_scanner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <thread>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"
#include "tsread/dataset/split_codec.h"

namespace tsread {
namespace {

bool AcceptsNull(const TagPredicate& predicate) {
  return std::any_of(predicate.values.begin(), predicate.values.end(),
                     [](const std::optional<std::string>& v) { return !v.has_value(); });
}

}  // namespace

DatasetScanner::DatasetScanner(const Dataset& dataset, DatasetScanOptions options, TableSchema schema,
                               std::vector<ProjectedColumn> projection)
    : dataset_(&dataset), options_(std::move(options)), schema_(std::move(schema)), projection_(std::move(projection)) {}

absl::StatusOr<std::unique_ptr<DatasetScanner>> DatasetScanner::Create(const Dataset& dataset, DatasetScanOptions options) {
  TSREAD_ASSIGN_OR_RETURN(options.table, dataset.TableToRead(options.table));
  TSREAD_ASSIGN_OR_RETURN(TableSchema schema, dataset.ReconciledSchema(options.table));
  return CreateWithSchema(dataset, std::move(options), std::move(schema));
}

absl::StatusOr<std::unique_ptr<DatasetScanner>> DatasetScanner::CreateWithSchema(const Dataset& dataset,
                                                                                 DatasetScanOptions options,
                                                                                 TableSchema schema) {
  if (options.num_threads < 1) return absl::InvalidArgumentError("num_threads must be at least 1");
  TSREAD_ASSIGN_OR_RETURN(std::vector<ProjectedColumn> projection, ResolveProjection(schema, options.columns));
  for (const TagPredicate& p : options.tag_predicates) {
    std::optional<size_t> index = schema.FindColumn(p.column);
    if (!index.has_value() || schema.columns[*index].category != ColumnCategory::kTag) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", p.column, "\" is not a TAG column of table \"", schema.name, "\""));
    }
  }
  // Value predicates bind per file (types are the same in every file, ReconciledSchema checks);
  // binding them here first reports a bad one before any file is opened.
  absl::Status bad;
  for (const PredicateExpr& expr : options.value_predicates) {
    ForEachComparison(expr, [&](const ValuePredicate& p) {
      if (!bad.ok()) return;
      std::optional<size_t> index = schema.FindColumn(p.column);
      if (!index.has_value()) {
        bad = absl::InvalidArgumentError(absl::StrCat("predicate ", DescribePredicate(p), ": table \"", schema.name,
                                                      "\" has no column \"", p.column, "\""));
        return;
      }
      const ColumnSchema& column = schema.columns[*index];
      const DataType type = column.category == ColumnCategory::kTag ? DataType::kString : column.data_type;
      if (absl::StatusOr<BoundPredicate> bound = BindPredicate(p, type, 0); !bound.ok()) bad = bound.status();
    });
    TSREAD_RETURN_IF_ERROR(bad);
  }
  if (options.predicate_work == nullptr) options.predicate_work = std::make_shared<PredicateWork>();
  options.columns.clear();
  for (const ProjectedColumn& p : projection) options.columns.push_back(p.name);
  options.columns_if_absent = schema.columns;
  // One budget for the whole dataset scan: every file's scanner shares it (ScanOptions copies).
  if (options.memory_budget > 0 && options.shared_memory_budget == nullptr) {
    options.shared_memory_budget = std::make_shared<MemoryBudget>(options.memory_budget);
  }
  return std::unique_ptr<DatasetScanner>(
      new DatasetScanner(dataset, std::move(options), std::move(schema), std::move(projection)));
}

std::optional<std::vector<TagPredicate>> DatasetScanner::PredicatesFor(const TableSchema& table) const {
  std::vector<TagPredicate> predicates;
  for (const TagPredicate& p : options_.tag_predicates) {
    if (table.FindColumn(p.column).has_value()) {
      predicates.push_back(p);
    } else if (!AcceptsNull(p)) {
      return std::nullopt;  // the file's rows all have a null there
    }
  }
  return predicates;
}

absl::StatusOr<bool> DatasetScanner::MayHaveRowsInRange(const TsFileReader& reader) const {
  const TimeRange& range = options_.time_range;
  if (range.start == TimeRange().start && range.end == TimeRange().end) return true;
  if (reader.metadata().FindIndex(options_.table) == nullptr) return false;
  TSREAD_ASSIGN_OR_RETURN(DeviceIterator it, reader.Devices(options_.table));
  ReadAhead index_reads;  // the devices' metadata, in index order
  while (true) {
    TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* entry, it.Next());
    if (entry == nullptr) return false;
    // The aligned time column "" sorts first in the device's measurement index.
    TSREAD_ASSIGN_OR_RETURN(std::optional<TimeseriesMetadata> time,
                            reader.FindTimeseries(entry->location, "", &index_reads));
    if (!time.has_value() || range.Overlaps(time->statistics)) return true;
  }
}

absl::StatusOr<std::optional<DatasetScanner::FileScan>> DatasetScanner::PlanFile(size_t index, int threads,
                                                                         StatisticsFilter* filter) const {
  const DatasetFile& file = dataset_->files()[index];
  if (!file.status.ok()) return file.status;
  const TableSchema* table = file.FindTable(options_.table);
  if (table == nullptr) return std::nullopt;
  std::optional<std::vector<TagPredicate>> predicates = PredicatesFor(*table);
  if (!predicates.has_value()) return std::nullopt;
  // A type that differs was unified by the dataset (DatasetOptions::unify_types): the file reads
  // its own, which the caller casts.
  const bool types_unified = static_cast<bool>(dataset_->options().unify_types);
  for (const ColumnSchema& column : table->columns) {
    std::optional<size_t> reconciled = schema_.FindColumn(column.name);
    if (reconciled.has_value() &&
        ((schema_.columns[*reconciled].data_type != column.data_type && !types_unified) ||
         schema_.columns[*reconciled].category != column.category)) {
      return absl::FailedPreconditionError(absl::StrCat(file.path, ": column \"", column.name,
                                                        "\" changed type or category since the scan was planned"));
    }
  }
  TSREAD_ASSIGN_OR_RETURN(std::shared_ptr<const TsFileReader> reader, dataset_->OpenFile(index));
  absl::StatusOr<bool> in_range = MayHaveRowsInRange(*reader);
  if (!in_range.ok()) return WithFileName(in_range.status(), file.path);
  if (!*in_range) return std::nullopt;
  ScanOptions options = options_;
  options.tag_predicates = std::move(*predicates);
  options.num_threads = threads;
  if (filter != nullptr) options.statistics_filter = filter;
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader, std::move(options));
  if (!scanner.ok()) return WithFileName(scanner.status(), file.path);
  if ((*scanner)->device_count() == 0) return std::nullopt;
  return FileScan{std::move(reader), std::move(*scanner)};
}

absl::Status DatasetScanner::FileFailed(size_t file, absl::Status status) const {
  status = WithFileName(status, dataset_->files()[file].path);
  if (!options_.skip_failed_files) return status;
  std::lock_guard<std::mutex> lock(skipped_mutex_);
  skipped_.push_back(SkippedFile{dataset_->files()[file].path, std::move(status)});
  return absl::OkStatus();
}

std::vector<SkippedFile> DatasetScanner::skipped_files() const {
  std::vector<SkippedFile> skipped = dataset_->skipped_files();
  std::lock_guard<std::mutex> lock(skipped_mutex_);
  skipped.insert(skipped.end(), skipped_.begin(), skipped_.end());
  return skipped;
}

absl::Status DatasetScanner::Scan(const Consumer& consume) const {
  {
    std::lock_guard<std::mutex> lock(skipped_mutex_);
    skipped_.clear();
  }
  if (options_.num_threads == 1 || options_.ordered) return ScanOrdered(consume);
  return ScanUnordered(consume);
}

absl::Status DatasetScanner::ScanOrdered(const Consumer& consume) const {
  TableScanner::Workspace workspace;  // every file's scan reuses the buffers of the one before
  for (size_t f = 0; f < dataset_->files().size(); ++f) {
    absl::StatusOr<std::optional<FileScan>> plan = PlanFile(f, options_.num_threads);
    if (!plan.ok()) {
      TSREAD_RETURN_IF_ERROR(FileFailed(f, plan.status()));
      continue;
    }
    if (!plan->has_value()) continue;
    bool consumer_failed = false;
    auto consume_file = [&](int worker, TableBatch& batch) {
      absl::Status s = consume(worker, batch);
      consumer_failed = !s.ok();
      return s;
    };
    absl::Status status = (*plan)->scanner->Scan(consume_file, workspace);
    if (status.ok()) continue;
    if (consumer_failed) return status;
    TSREAD_RETURN_IF_ERROR(FileFailed(f, status));
  }
  return absl::OkStatus();
}

// Workers take the next split from a shared queue or, when it is empty, plan the next file and
// queue its splits. A file is held open by its queued and running splits only, and a worker
// plans a file only when no split is queued, so at most num_threads files are in use.
absl::Status DatasetScanner::ScanUnordered(const Consumer& consume) const {
  struct FileState {
    size_t index = 0;
    FileScan scan;
    std::atomic<bool> failed{false};
  };
  struct Work {
    std::shared_ptr<FileState> file;
    ScanSplit split;
  };
  const int threads = options_.num_threads;
  const size_t files = dataset_->files().size();
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Work> queue;
  size_t next_file = 0;
  int planning = 0;
  std::atomic<bool> stop{false};
  absl::Status first_error;

  auto fail = [&](absl::Status status) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!stop.exchange(true)) first_error = std::move(status);
    changed.notify_all();
  };
  auto run = [&](int worker, const Work& work, std::optional<TableScanner::Cursor>& cursor) {
    if (work.file->failed.load()) return;
    bool consumer_failed = false;
    // The worker's one cursor reads all its splits, in every file (no fresh buffers per split).
    absl::Status status = work.file->scan.scanner->ScanSplitRows(work.split, cursor, [&](TableBatch& batch) {
      if (stop.load(std::memory_order_relaxed)) return absl::CancelledError("scan stopped");
      absl::Status s = consume(worker, batch);
      consumer_failed = !s.ok();
      return s;
    });
    if (status.ok() || stop.load()) return;
    if (consumer_failed) return fail(std::move(status));
    if (work.file->failed.exchange(true)) return;  // reported by another split of the file
    if (absl::Status s = FileFailed(work.file->index, std::move(status)); !s.ok()) fail(std::move(s));
  };
  auto work_loop = [&](int worker) {
    std::optional<TableScanner::Cursor> cursor;
    while (true) {
      Work work;
      size_t plan_index = files;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || !queue.empty() || next_file < files || planning == 0; });
        if (stop) return;
        if (!queue.empty()) {
          work = std::move(queue.front());
          queue.pop_front();
        } else if (next_file < files) {
          plan_index = next_file++;
          ++planning;
        } else {
          return;  // nothing queued, nothing left to plan, nobody planning
        }
      }
      if (plan_index < files) {
        absl::StatusOr<std::optional<FileScan>> plan = PlanFile(plan_index, 1);
        std::vector<ScanSplit> splits;
        auto file = std::make_shared<FileState>();
        file->index = plan_index;
        if (!plan.ok()) {
          if (absl::Status s = FileFailed(plan_index, plan.status()); !s.ok()) fail(std::move(s));
        } else if (plan->has_value()) {
          file->scan = std::move(**plan);
          splits = file->scan.scanner->ShrinkingSplits(static_cast<size_t>(threads));
        }
        std::lock_guard<std::mutex> lock(mutex);
        --planning;
        for (size_t s = 1; s < splits.size(); ++s) queue.push_back(Work{file, splits[s]});
        changed.notify_all();
        if (splits.empty()) continue;
        work = Work{file, splits[0]};
      }
      run(worker, work, cursor);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(work_loop, w);
  work_loop(0);
  for (std::thread& t : pool) t.join();
  return first_error;
}

absl::StatusOr<std::vector<DatasetSplit>> DatasetScanner::Splits(uint64_t target_bytes) const {
  std::vector<DatasetSplit> splits;
  target_bytes = std::max<uint64_t>(1, target_bytes);
  for (size_t f = 0; f < dataset_->files().size(); ++f) {
    absl::StatusOr<std::optional<FileScan>> plan = PlanFile(f, 1);
    if (!plan.ok()) {
      TSREAD_RETURN_IF_ERROR(FileFailed(f, plan.status()));
      continue;
    }
    if (!plan->has_value()) continue;
    const TableScanner& scanner = *(*plan)->scanner;
    absl::StatusOr<std::vector<ScanSplit>> whole = scanner.Splits(1);
    if (!whole.ok()) return WithFileName(whole.status(), dataset_->files()[f].path);
    const uint64_t bytes = whole->empty() ? 0 : (*whole)[0].bytes;
    const size_t count = static_cast<size_t>(std::max<uint64_t>(1, (bytes + target_bytes - 1) / target_bytes));
    TSREAD_ASSIGN_OR_RETURN(std::vector<ScanSplit> file_splits, scanner.Splits(count));
    for (const ScanSplit& s : file_splits) splits.push_back(DatasetSplit{f, s});
  }
  return splits;
}

absl::Status DatasetScanner::ScanSplitRows(const DatasetSplit& split,
                                           const std::function<absl::Status(TableBatch&)>& consume) const {
  if (split.file >= dataset_->files().size()) return absl::InvalidArgumentError("split names no file of the dataset");
  const std::string& path = dataset_->files()[split.file].path;
  TSREAD_ASSIGN_OR_RETURN(std::optional<FileScan> plan, PlanFile(split.file, 1));
  if (!plan.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": the file has no rows for this split any more"));
  }
  bool consumer_failed = false;
  absl::Status status = plan->scanner->ScanSplitRows(split.devices, [&](TableBatch& batch) {
    absl::Status s = consume(batch);
    consumer_failed = !s.ok();
    return s;
  });
  return consumer_failed ? status : WithFileName(status, path);
}

std::string DatasetScanner::SerializeSplit(const DatasetSplit& split) const {
  const DatasetFile& file = dataset_->files()[split.file];
  SplitDescription description;
  description.path = file.path;
  description.file_size = file.size;
  description.schema = schema_;
  description.columns = options_.columns;
  description.time_range = options_.time_range;
  description.tag_predicates = options_.tag_predicates;
  description.value_predicates = options_.value_predicates;
  description.devices = split.devices;
  return EncodeSplit(description);
}

absl::StatusOr<TableBatch*> DatasetScanner::Cursor::Next() {
  while (true) {
    if (in_file_) {
      absl::StatusOr<TableBatch*> batch = cursor_->Next();
      if (!batch.ok()) return WithFileName(batch.status(), reader_->file().name());
      if (*batch != nullptr) return *batch;
      in_file_ = false;
    }
    if (next_file_ >= scanner_->dataset_->files().size()) return static_cast<TableBatch*>(nullptr);
    TSREAD_ASSIGN_OR_RETURN(std::optional<FileScan> plan, scanner_->PlanFile(next_file_++, 1));
    if (!plan.has_value()) continue;
    // The new file's scanner replaces the old one before the cursor moves onto it (the cursor
    // keeps its buffers, not its pointers into the old file).
    file_scanner_ = std::move(plan->scanner);
    reader_ = std::move(plan->reader);
    TSREAD_RETURN_IF_ERROR(file_scanner_->OpenCursorInto(ScanSplit{0, file_scanner_->device_count(), 0}, cursor_));
    in_file_ = true;
  }
}

namespace {

// The split's projection narrowed to `columns` (each one it projects; an empty projection is
// every column of the schema).
absl::Status NarrowProjection(SplitDescription& description, std::vector<std::string> columns) {
  for (const std::string& name : columns) {
    const bool projected =
        description.columns.empty()
            ? description.schema.FindColumn(name).has_value()
            : std::find(description.columns.begin(), description.columns.end(), name) != description.columns.end();
    if (!projected) {
      return absl::InvalidArgumentError(
          absl::StrCat("column \"", absl::CHexEscape(name), "\" is not one the split projects"));
    }
  }
  description.columns = std::move(columns);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<SplitReader>> SplitReader::Open(std::string_view serialized, size_t batch_size,
                                                               ReadLimits limits,
                                                               std::optional<std::vector<std::string>> columns) {
  TSREAD_ASSIGN_OR_RETURN(SplitDescription description, DecodeSplit(serialized));
  if (columns.has_value()) TSREAD_RETURN_IF_ERROR(NarrowProjection(description, *std::move(columns)));
  std::unique_ptr<SplitReader> reader(new SplitReader());
  TSREAD_ASSIGN_OR_RETURN(reader->dataset_, Dataset::OpenPaths({description.path}));
  const DatasetFile& file = reader->dataset_->files()[0];
  // A file that changed since the split was planned says so first, whatever else is now wrong
  // with it (appended bytes, for one, move its tail).
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> raw = OpenPosixFile(description.path);
  if (raw.ok() && (*raw)->size() != description.file_size) {
    return absl::FailedPreconditionError(absl::StrCat(file.path, ": the file is ", (*raw)->size(),
                                                      " bytes, the split was planned on ", description.file_size,
                                                      ": it changed since"));
  }
  TSREAD_RETURN_IF_ERROR(file.status);
  DatasetScanOptions options;
  options.table = description.schema.name;
  options.columns = std::move(description.columns);
  options.time_range = description.time_range;
  options.tag_predicates = std::move(description.tag_predicates);
  options.value_predicates = std::move(description.value_predicates);
  options.batch_size = batch_size;
  options.limits = limits;
  TSREAD_ASSIGN_OR_RETURN(reader->scanner_, DatasetScanner::CreateWithSchema(*reader->dataset_, std::move(options),
                                                                             std::move(description.schema)));
  reader->split_ = DatasetSplit{0, description.devices};
  return reader;
}

}  // namespace tsread

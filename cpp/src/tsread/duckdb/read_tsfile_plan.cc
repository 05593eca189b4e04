// read_tsfile's planning step: row estimates from a sample of devices, the scan's splits, Init
// (projection pushdown into the scan options) and NextBatch (a thread's walk over its splits).
#include "tsread/duckdb/read_tsfile_plan.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tsread/dataset/dataset.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/duckdb/function_support.h"
#include "tsread/duckdb/read_tsfile_bind.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::duckdb_ext::read_tsfile_internal {
namespace {

// IoTDB data: at most this many shares of a time partition's devices (threads reading one at once).
constexpr size_t kMaxMergedParts = 16;

// A file's rows estimated from a few devices: the planned device count times the mean row count
// (time column statistics) of the table's first kSampleDevices devices. Reading every device's
// series metadata would cost as much as a tenth of a full scan.
absl::StatusOr<uint64_t> EstimateFileRows(const TsFileReader& reader, const std::string& table, size_t devices) {
  constexpr size_t kSampleDevices = 8;
  absl::StatusOr<DeviceIterator> it = reader.Devices(table);
  if (!it.ok()) return absl::IsNotFound(it.status()) ? absl::StatusOr<uint64_t>(0) : it.status();
  uint64_t rows = 0;
  size_t sampled = 0;
  while (sampled < kSampleDevices) {
    absl::StatusOr<const DeviceEntry*> device = it->Next();
    if (!device.ok()) return device.status();
    if (*device == nullptr) break;
    absl::StatusOr<std::optional<TimeseriesMetadata>> time = reader.FindTimeseries((*device)->location, "");
    if (!time.ok()) return time.status();
    if (time->has_value() && (*time)->is_time_column()) rows += (*time)->statistics.count;
    ++sampled;
  }
  return sampled == 0 ? 0 : rows * devices / sampled;
}

// The scan's splits: per file that can contribute rows, one split per kSplitBytes of file (at
// least one), of equal device counts. Only the device indexes are read: byte-balanced splits
// (DatasetScanner::Splits) would read every device's series metadata here, on one thread, before
// DuckDB's threads start. Splits are small (1 MB of file) so that the threads finish together:
// a split costs a cursor and one read-ahead window of series metadata.
absl::StatusOr<std::vector<DatasetSplit>> PlanSplits(const DatasetScanner& scanner) {
  constexpr uint64_t kSplitBytes = uint64_t{1} << 20;
  const Dataset& dataset = scanner.dataset();
  std::vector<DatasetSplit> splits;
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = scanner.PlanFile(f, 1);
    if (!plan.ok()) return WithFileName(plan.status(), dataset.files()[f].path);
    if (!plan->has_value()) continue;
    const size_t count =
        static_cast<size_t>(std::max<uint64_t>(1, (dataset.files()[f].size + kSplitBytes - 1) / kSplitBytes));
    for (const ScanSplit& split : (*plan)->scanner->EvenSplits(count)) splits.push_back(DatasetSplit{f, split});
  }
  return splits;
}

}  // namespace

absl::StatusOr<uint64_t> EstimateRows(const Dataset& dataset, const DatasetScanner& scanner) {
  constexpr size_t kEstimateFiles = 32;
  const auto& files = dataset.files();
  uint64_t rows = 0, sampled_bytes = 0, total_bytes = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    total_bytes += files[i].size;
    if (i >= kEstimateFiles) continue;
    absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan = scanner.PlanFile(i, 1);
    if (!plan.ok()) return plan.status();
    sampled_bytes += files[i].size;
    if (!plan->has_value()) continue;
    absl::StatusOr<uint64_t> file_rows =
        EstimateFileRows(*(*plan)->reader, scanner.options().table, (*plan)->scanner->device_count());
    if (!file_rows.ok()) return WithFileName(file_rows.status(), files[i].path);
    rows += *file_rows;
  }
  if (sampled_bytes > 0 && total_bytes > sampled_bytes) {
    rows = static_cast<uint64_t>(static_cast<double>(rows) * total_bytes / sampled_bytes);
  }
  return rows;
}

absl::Status Init(duckdb_init_info info) {
  auto* bind = static_cast<BindData*>(duckdb_init_get_bind_data(info));
  auto state = std::make_unique<GlobalState>();
  const size_t n_schema = bind->schema.columns.size();
  DatasetScanOptions options;
  options.table = bind->table;
  options.time_range = bind->range;
  options.tag_predicates = bind->predicates;
  options.value_predicates = bind->value_predicates;
  options.batch_size = 0;  // one batch per page, read in place (Scan cuts it into vectors)
  const idx_t count = duckdb_init_get_column_count(info);
  for (idx_t i = 0; i < count; ++i) {
    const idx_t id = duckdb_init_get_column_index(info, i);
    OutColumn out;
    if (id == 0) {
      out.kind = OutColumn::kTime;
    } else if (id <= n_schema) {
      out.kind = OutColumn::kSchema;
      out.scan_index = options.columns.size();
      out.schema_index = id - 1;
      options.columns.push_back(bind->schema.columns[id - 1].name);
    } else if (id == n_schema + 1 && bind->filename) {
      out.kind = OutColumn::kFilename;
    }
    state->out.push_back(out);
  }
  // A count from statistics holds only without value predicates (those need the rows decoded).
  state->rows_only = options.columns.empty() && options.value_predicates.empty() && std::none_of(state->out.begin(), state->out.end(), [](const OutColumn& c) {
                       return c.kind == OutColumn::kTime;
                     });
  state->range = bind->range;
  if (options.columns.empty() && !bind->schema.columns.empty()) {
    // Only time, filename or a row count: read the cheapest column (a TAG if any). Empty would mean all.
    const ColumnSchema* pick = &bind->schema.columns[0];
    for (const ColumnSchema& c : bind->schema.columns) {
      if (c.category == ColumnCategory::kTag) {
        pick = &c;
        break;
      }
    }
    options.columns.push_back(pick->name);
  }
  if (bind->iotdb != nullptr) {
    // IoTDB's merged rows, counted by reading them (statistics describe the files as written).
    state->rows_only = false;
    absl::StatusOr<std::unique_ptr<MergedScanner>> merged = bind->iotdb->ScanTable(options);
    if (!merged.ok()) return merged.status();
    state->merged = std::move(*merged);
    // As many shares of a group as the machine has threads: DuckDB runs at most that many.
    state->merged_parts = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, kMaxMergedParts);
    state->merged_plans = std::make_unique<SharedGroupPlans>(state->merged->inner(), state->merged->groups(),
                                                             state->merged_parts);
    duckdb_init_set_max_threads(info, state->merged_parts);
    duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState>);
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<DatasetScanner>> scanner = DatasetScanner::Create(*bind->dataset, options);
  if (!scanner.ok()) return scanner.status();
  state->scanner = std::move(*scanner);
  absl::StatusOr<std::vector<DatasetSplit>> splits = PlanSplits(*state->scanner);
  if (!splits.ok()) return splits.status();
  state->splits = std::move(*splits);
  duckdb_init_set_max_threads(info, std::max<idx_t>(1, state->splits.size()));
  duckdb_init_set_init_data(info, state.release(), DeleteAs<GlobalState>);
  return absl::OkStatus();
}

namespace {

// NextBatch on IoTDB data: the thread's item's next batch, taking items until one has rows.
absl::Status NextMergedBatch(GlobalState& global, LocalState& local) {
  local.offset = 0;
  local.batch = nullptr;
  const size_t items = global.merged->groups().size() * global.merged_parts;
  while (true) {
    if (local.merged_cursor.has_value()) {
      absl::StatusOr<TableBatch*> batch = local.merged_cursor->Next();
      if (!batch.ok()) return batch.status();
      if (*batch != nullptr) {
        local.batch = *batch;
        local.path = (*batch)->file;
        return absl::OkStatus();
      }
      local.merged_cursor.reset();
    }
    const size_t item = global.next_item.fetch_add(1);
    if (item >= items) return absl::OkStatus();
    const size_t group = item / global.merged_parts;
    absl::StatusOr<MergedScanner::Cursor> cursor = global.merged->OpenCursor(
        MergedPart{item % global.merged_parts, global.merged_parts, group, group + 1}, global.merged_plans.get());
    if (!cursor.ok()) return cursor.status();
    local.merged_cursor.emplace(std::move(*cursor));
  }
}

}  // namespace

absl::Status NextBatch(GlobalState& global, LocalState& local) {
  if (global.merged != nullptr) return NextMergedBatch(global, local);
  const Dataset& dataset = global.scanner->dataset();
  local.batch = nullptr;
  local.offset = 0;
  while (true) {
    if (local.in_split) {
      absl::StatusOr<TableBatch*> batch = local.cursor->Next();
      if (!batch.ok()) return WithFileName(batch.status(), *local.path);
      if (global.rows_only) {
        // Decoded rows (of pages the range cuts) and the rows their statistics counted alike.
        local.pending_rows += local.counter.TakeCounted() + (*batch == nullptr ? 0 : (*batch)->num_rows());
        if (*batch == nullptr) local.in_split = false;
        if (local.pending_rows > 0) return absl::OkStatus();
        continue;
      }
      if (*batch != nullptr && (*batch)->num_rows() > 0) {
        local.batch = *batch;
        return absl::OkStatus();
      }
      if (*batch != nullptr) continue;
      local.in_split = false;
    }
    const size_t index = global.next_split.fetch_add(1);
    if (index >= global.splits.size()) return absl::OkStatus();
    const DatasetSplit& split = global.splits[index];
    local.path = &dataset.files()[split.file].path;
    if (local.plan_file != split.file) {
      local.plan.reset();
      local.plan_file.reset();
      local.counter = RowCounter(global.range);
      absl::StatusOr<std::optional<DatasetScanner::FileScan>> plan =
          global.scanner->PlanFile(split.file, 1, global.rows_only ? &local.counter : nullptr);
      if (!plan.ok()) return WithFileName(plan.status(), *local.path);
      if (!plan->has_value()) {
        return absl::FailedPreconditionError(absl::StrCat(*local.path, ": the file has no rows for this split any more"));
      }
      local.plan = std::move(**plan);
      local.plan_file = split.file;
    }
    if (absl::Status s = local.plan->scanner->OpenCursorInto(split.devices, local.cursor); !s.ok()) {
      return WithFileName(s, *local.path);
    }
    local.in_split = true;
  }
}

}  // namespace tsread::duckdb_ext::read_tsfile_internal

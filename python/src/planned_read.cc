#include "planned_read.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <string_view>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "columns.h"
#include "tag_codes.h"
#include "text_values.h"
#include "tsread/io/status_macros.h"

namespace py = pybind11;

namespace tsread::python {
namespace {

// Splits per thread and file with several threads: enough that a worker finishing early finds
// work, few enough that each split's setup (its cursor's page buffers) stays negligible.
constexpr size_t kSplitsPerThread = 4;
// Files whose scanners stay open from planning to scanning; further files are planned again
// when their first split is read, so a dataset of any size holds few files open.
constexpr size_t kFilesKeptOpen = 16;
// The most a column set may be mapped for, per byte of input, when the plan is trusted: about
// the densest encodings (a constant-delta time column, RLE booleans) times the widest row. A
// plan beyond it (a file announcing rows it cannot hold) goes to the Collector, which allocates
// only what is decoded.
constexpr uint64_t kMaxBytesPerInputByte = 4096;
constexpr uint64_t kMinMappable = uint64_t{64} << 20;
// More threads than this (the CLI's limit too) only add thread start-up.
constexpr int kMaxThreads = 256;
// How many rows ahead of the writes a slice is populated (bytes: rows x width).
constexpr size_t kPopulateAheadRows = size_t{1} << 19;

// The status a consumer returns to stop a split that holds more rows than planned.
absl::Status Overflow() { return absl::AbortedError("tsread: a split holds more rows than its metadata announces"); }

// The scanner's planned devices as one split (none without devices, as Splits gives).
absl::StatusOr<std::vector<ScanSplit>> WholeSplitOf(const TableScanner& scanner) {
  if (scanner.device_count() == 0) return std::vector<ScanSplit>();
  TSREAD_ASSIGN_OR_RETURN(ScanSplit whole, scanner.WholeSplit());
  return std::vector<ScanSplit>{whole};
}

}  // namespace

struct PlannedRead::File {
  size_t index = 0;  // in the dataset
  std::mutex mutex;
  std::optional<DatasetScanner::FileScan> scan;  // while kept open or while pieces of it run
  size_t pieces_left = 0;
};

struct PlannedRead::Piece {
  File* file = nullptr;
  ScanSplit split;
  size_t offset = 0;     // the first row of the slice
  size_t rows = 0;       // rows written
  size_t populated = 0;  // rows of the slice populated
  // Per projected column (only TAG columns use them): the piece's values and their local codes
  // (what is written), then the global code of each local one (Seal).
  std::vector<TagDictionary> tags;
  std::vector<std::vector<int32_t>> tag_global;
  // Per projected column (only TEXT/STRING/BLOB FIELD columns use them): the bytes and the
  // offsets (rows + 1) of the piece's values.
  std::vector<std::string> bytes;
  std::vector<std::vector<int64_t>> offsets;
};

struct PlannedRead::Column {
  ProjectedColumn meta;
  size_t width = 0;  // bytes per row in `values`; 0 = no values buffer (binary, ATTRIBUTE)
  Buffer values;     // fixed-width values; TAG: codes (`width` bytes, tag_codes.h)
  Buffer mask;       // one byte per row, 1 = null: keep_mask and binary columns
  bool needs_mask = false;
  bool keep_mask = false;
  std::atomic<bool> has_nulls{false};
  std::vector<std::string> categories;  // TAG, after Seal
};

PlannedRead::PlannedRead(const DatasetScanner& scanner, ConvertOptions options, int threads)
    : scanner_(&scanner), options_(options), threads_(std::clamp(threads, 1, kMaxThreads)) {}

PlannedRead::~PlannedRead() = default;

absl::StatusOr<std::unique_ptr<PlannedRead>> PlannedRead::Plan(const DatasetScanner& scanner, ConvertOptions options,
                                                               int threads) {
  std::unique_ptr<PlannedRead> read(new PlannedRead(scanner, options, threads));
  const Dataset& dataset = scanner.dataset();
  uint64_t input_bytes = 0;
  uint64_t cut_rows = 0;  // rows of splits the time range cuts into: only a bound on what they yield
  const TimeRange& range = scanner.options().time_range;
  size_t devices = 0;  // a bound on each TAG column's categories: one value per device
  for (size_t f = 0; f < dataset.files().size(); ++f) {
    TSREAD_ASSIGN_OR_RETURN(std::optional<DatasetScanner::FileScan> scan, scanner.PlanFile(f, 1));
    if (!scan.has_value()) continue;
    devices += scan->scanner->device_count();
    const size_t max_splits = read->threads_ == 1 ? 1 : static_cast<size_t>(read->threads_) * kSplitsPerThread;
    // One split (one thread) needs no bytes: rows from the time columns alone.
    absl::StatusOr<std::vector<ScanSplit>> splits =
        max_splits == 1 ? WholeSplitOf(*scan->scanner) : scan->scanner->Splits(max_splits);
    if (!splits.ok()) return WithFileName(splits.status(), dataset.files()[f].path);
    auto file = std::make_unique<File>();
    file->index = f;
    file->pieces_left = splits->size();
    if (read->files_.size() < kFilesKeptOpen) file->scan = std::move(scan);
    input_bytes += dataset.files()[f].size;
    for (const ScanSplit& split : *splits) {
      auto piece = std::make_unique<Piece>();
      piece->file = file.get();
      piece->split = split;
      piece->offset = read->planned_rows_;
      if (split.rows > std::numeric_limits<size_t>::max() - read->planned_rows_) return nullptr;
      read->planned_rows_ += split.rows;
      if (split.rows > 0 && (split.min_time < range.start || split.max_time > range.end)) cut_rows += split.rows;
      read->pieces_.push_back(std::move(piece));
    }
    read->files_.push_back(std::move(file));
  }

  const std::vector<ProjectedColumn>& projection = scanner.projection();
  uint64_t row_width = sizeof(int64_t);
  for (const ProjectedColumn& meta : projection) {
    auto column = std::make_unique<Column>();
    column->meta = meta;
    column->width = ValuesWidthOf(meta, TagCodeWidth(devices));
    if (meta.category == ColumnCategory::kField) {
      column->keep_mask = KeepsMask(meta, options);
      column->needs_mask = column->keep_mask || column->width == 0;
    }
    row_width += column->width + (column->needs_mask ? 1 : 0);
    read->columns_.push_back(std::move(column));
  }
  const uint64_t limit = std::max(kMinMappable, input_bytes > std::numeric_limits<uint64_t>::max() / kMaxBytesPerInputByte
                                                    ? std::numeric_limits<uint64_t>::max()
                                                    : input_bytes * kMaxBytesPerInputByte);
  if (read->planned_rows_ > limit / row_width) return nullptr;
  // Memory follows the rows kept: when most announced rows lie in splits the time range cuts
  // into (a one-minute window of a day's files), the plan would map, and several threads
  // filling it would touch, columns for every announced row. The Collector grows with the rows
  // read instead.
  if (cut_rows > read->planned_rows_ / 4) return nullptr;

  const size_t rows = read->planned_rows_;
  if (!read->times_.Reserve(rows * sizeof(int64_t))) return nullptr;
  for (auto& column : read->columns_) {
    if (column->width > 0 && !column->values.Reserve(rows * column->width)) return nullptr;
    if (column->needs_mask && !column->mask.Reserve(rows)) return nullptr;
  }
  for (auto& piece : read->pieces_) {
    piece->tags.resize(projection.size());
    piece->tag_global.resize(projection.size());
    piece->bytes.resize(projection.size());
    piece->offsets.resize(projection.size());
  }
  return read;
}

absl::StatusOr<const TableScanner*> PlannedRead::AcquireFile(File& file) {
  std::lock_guard<std::mutex> lock(file.mutex);
  if (!file.scan.has_value()) {
    TSREAD_ASSIGN_OR_RETURN(std::optional<DatasetScanner::FileScan> scan, scanner_->PlanFile(file.index, 1));
    if (!scan.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(scanner_->dataset().files()[file.index].path,
                                                        ": the file has no rows for this scan any more"));
    }
    file.scan = std::move(scan);
  }
  return file.scan->scanner.get();
}

void PlannedRead::ReleaseFile(File& file) {
  // A file's pieces are consecutive and handed out in order: a file is open from its first
  // piece to its last, so about as many files as threads are open at once.
  std::lock_guard<std::mutex> lock(file.mutex);
  if (--file.pieces_left == 0) file.scan.reset();
}

void PlannedRead::PopulatePiece(Piece& piece, size_t rows) {
  if (rows <= piece.populated) return;
  const size_t end = std::min<size_t>(piece.split.rows, std::max(rows, piece.populated + kPopulateAheadRows));
  const size_t from = piece.offset + piece.populated;
  const size_t to = piece.offset + end;
  PopulateForWrite(times_.data() + from * sizeof(int64_t), times_.data() + to * sizeof(int64_t));
  for (auto& column : columns_) {
    if (column->width > 0) PopulateForWrite(column->values.data() + from * column->width, column->values.data() + to * column->width);
  }
  piece.populated = end;
}

absl::Status PlannedRead::AppendBatch(Piece& piece, const TableBatch& batch) {
  TSREAD_RETURN_IF_ERROR(interrupts_.Poll());
  const size_t rows = batch.num_rows();
  if (rows > piece.split.rows - piece.rows) {
    overflowed_ = true;
    return Overflow();
  }
  PopulatePiece(piece, piece.rows + rows);
  const size_t at = piece.offset + piece.rows;
  const std::string_view file = scanner_->dataset().files()[piece.file->index].path;
  TSREAD_RETURN_IF_ERROR(
      CopyTimes(batch.times.data(), rows, options_.time_ns, file, reinterpret_cast<int64_t*>(times_.data()) + at));
  for (size_t j = 0; j < columns_.size(); ++j) {
    Column& column = *columns_[j];
    if (column.meta.category == ColumnCategory::kTag) {
      // One value per batch (its device's): a code looked up once, then filled in.
      TSREAD_ASSIGN_OR_RETURN(const int32_t code, piece.tags[j].CodeOf(batch.tag(j), column.width));
      FillTagCodes(column.values.data() + at * column.width, column.width, code, rows);
      continue;
    }
    if (column.meta.category != ColumnCategory::kField) continue;
    const ColumnVector& values = batch.columns[j];
    if (values.null_count > 0 && column.needs_mask) {
      if (!column.has_nulls.load(std::memory_order_relaxed)) column.has_nulls = true;
      CopyNullMask(values, column.mask.data() + at);
    }
    if (column.width > 0) {
      // An invalid DATE read as null (invalid_dates='null'): its row joins the null mask, which
      // every DATE column has (needs_mask).
      const auto mark_null = [&](size_t r) {
        column.mask.data()[at + r] = 1;
        if (!column.has_nulls.load(std::memory_order_relaxed)) column.has_nulls = true;
      };
      TSREAD_RETURN_IF_ERROR(CopyFieldValues(values, options_, {file, column.meta.name, batch.times.data()}, mark_null,
                                             column.values.data() + at * column.width));
      continue;
    }
    std::string& bytes = piece.bytes[j];
    std::vector<int64_t>& offsets = piece.offsets[j];
    if (offsets.empty()) offsets.push_back(0);
    const auto base = static_cast<int64_t>(bytes.size());
    for (size_t r = 0; r < rows; ++r) offsets.push_back(base + values.offsets[r + 1]);
    if (rows > 0) bytes.append(values.bytes.data(), static_cast<size_t>(values.offsets[rows]));
  }
  piece.rows += rows;
  return absl::OkStatus();
}

absl::Status PlannedRead::ReadPiece(Piece& piece, std::optional<TableScanner::Cursor>& cursor) {
  TSREAD_ASSIGN_OR_RETURN(const TableScanner* scanner, AcquireFile(*piece.file));
  bool consumer_failed = false;
  absl::Status status = scanner->ScanSplitRows(piece.split, cursor, [&](const TableBatch& batch) {
    absl::Status s = AppendBatch(piece, batch);
    consumer_failed = !s.ok();
    return s;
  });
  ReleaseFile(*piece.file);
  if (status.ok() || consumer_failed) return status;
  return WithFileName(status, scanner_->dataset().files()[piece.file->index].path);
}

absl::Status PlannedRead::ParallelFor(size_t n, const std::function<absl::Status(size_t, int)>& fn) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::vector<absl::Status> statuses(n);
  auto work = [&](int thread) {
    for (size_t i = next++; i < n && !failed; i = next++) {
      statuses[i] = fn(i, thread);
      if (!statuses[i].ok()) failed = true;
    }
  };
  const size_t helpers = std::min(n, static_cast<size_t>(threads_)) - (n > 0 ? 1 : 0);
  std::vector<std::thread> threads;
  threads.reserve(helpers);
  for (size_t t = 0; t < helpers; ++t) threads.emplace_back(work, static_cast<int>(t) + 1);
  work(0);
  for (std::thread& t : threads) t.join();
  for (const absl::Status& s : statuses) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> PlannedRead::Run() {
  // One cursor per thread for all its pieces: its buffers are allocated (and faulted in) once.
  std::vector<std::optional<TableScanner::Cursor>> cursors(static_cast<size_t>(threads_));
  absl::Status status = ParallelFor(pieces_.size(), [&](size_t p, int thread) {
    return ReadPiece(*pieces_[p], cursors[static_cast<size_t>(thread)]);
  });
  if (overflowed_) return false;
  TSREAD_RETURN_IF_ERROR(status);
  Seal();
  // TAG codes made global where a piece's local codes differ (in parallel: a pass over rows).
  TSREAD_RETURN_IF_ERROR(ParallelFor(pieces_.size(), [&](size_t p, int) {
    Piece& piece = *pieces_[p];
    for (size_t j = 0; j < columns_.size(); ++j) {
      const std::vector<int32_t>& global = piece.tag_global[j];
      bool identity = true;
      for (size_t k = 0; k < global.size(); ++k) identity &= global[k] == static_cast<int32_t>(k);
      if (identity) continue;
      Column& column = *columns_[j];
      RemapTagCodes(column.values.data() + piece.offset * column.width, column.width, piece.rows, global);
    }
    return absl::OkStatus();
  }));
  Compact();
  return true;
}

void PlannedRead::Seal() {
  // Categories in the order a one-threaded read meets them: piece by piece, first seen first.
  for (size_t j = 0; j < columns_.size(); ++j) {
    Column& column = *columns_[j];
    if (column.meta.category != ColumnCategory::kTag) continue;
    std::unordered_map<std::string_view, int32_t> codes;
    for (auto& piece : pieces_) {
      for (const std::string& value : piece->tags[j].values()) {
        auto [it, added] = codes.try_emplace(value, static_cast<int32_t>(column.categories.size()));
        if (added) column.categories.emplace_back(value);
        piece->tag_global[j].push_back(it->second);
      }
    }
  }
}

void PlannedRead::Compact() {
  // A time range leaves each slice short of its planned rows: close the gaps, piece by piece.
  size_t to = 0;
  for (auto& piece : pieces_) {
    if (piece->offset != to && piece->rows > 0) {
      auto move = [&](Buffer& buffer, size_t width) {
        std::memmove(buffer.data() + to * width, buffer.data() + piece->offset * width, piece->rows * width);
      };
      move(times_, sizeof(int64_t));
      for (auto& column : columns_) {
        if (column->width > 0) move(column->values, column->width);
        if (column->needs_mask && column->has_nulls) move(column->mask, 1);
      }
    }
    to += piece->rows;
  }
  rows_ = to;
}

py::list PlannedRead::Finish() {
  py::list out;
  times_.SetSize(rows_ * sizeof(int64_t));
  py::array time_values = times_.Release(py::dtype::of<int64_t>());
  const auto* times = static_cast<const int64_t*>(time_values.data());  // for error messages; kept by `out`
  out.append(TimeColumn(time_values));
  for (size_t j = 0; j < columns_.size(); ++j) {
    Column& column = *columns_[j];
    const ProjectedColumn& meta = column.meta;
    py::dict c = ColumnHead(meta);
    if (meta.category == ColumnCategory::kTag) {
      c["kind"] = "tag";
      column.values.SetSize(rows_ * column.width);
      c["values"] = ReleaseTagCodes(column.values, column.width, column.categories.size());
      c["categories"] = CategoriesOf(column.categories, meta.name, options_.invalid_utf8);
    } else if (meta.category != ColumnCategory::kField) {
      c["kind"] = "str";  // ATTRIBUTE columns carry no values in table scans: all null
      c["values"] = NoneArray(rows_);
    } else if (column.width > 0) {
      c["kind"] = KindOf(meta.data_type);
      column.values.SetSize(rows_ * column.width);
      c["values"] = column.values.Release(DtypeOf(meta.data_type));
      if (column.keep_mask && column.has_nulls) {
        column.mask.SetSize(rows_);
        c["mask"] = column.mask.Release(py::dtype("bool"));
      }
    } else {
      // TEXT/STRING as str (or bytes, as invalid_utf8 says), BLOB as bytes, None for null; piece
      // by piece in scan order.
      const TextDecoder decoder(meta, options_.invalid_utf8, times, options_.time_ns);
      c["kind"] = decoder.kind();
      py::array objects = NoneArray(rows_);
      auto** slots = static_cast<PyObject**>(objects.mutable_data());
      const char* mask = column.has_nulls ? column.mask.data() : nullptr;
      size_t row = 0;
      for (auto& piece : pieces_) {
        const std::vector<int64_t>& offsets = piece->offsets[j];
        const std::string& bytes = piece->bytes[j];
        for (size_t r = 0; r < piece->rows; ++r, ++row) {
          if (mask != nullptr && mask[row]) continue;  // None already
          const std::string_view value_bytes(bytes.data() + offsets[r], static_cast<size_t>(offsets[r + 1] - offsets[r]));
          PyObject* value = decoder.Decode(value_bytes);
          if (value == nullptr) {
            decoder.RaiseInvalid(value_bytes, row, scanner_->dataset().files()[piece->file->index].path);
          }
          PyObject* old = slots[row];
          slots[row] = value;
          Py_XDECREF(old);
        }
      }
      c["values"] = objects;
    }
    out.append(c);
  }
  return out;
}

}  // namespace tsread::python

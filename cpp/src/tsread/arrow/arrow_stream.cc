// The Arrow C stream of a scan (arrow_stream.h): the ArrowArrayStream callbacks over a scan's
// cursor (one thread: each get_next decodes the next batch) or over arrays a threaded scan
// produces ahead (produced_arrays.h); the schema and arrays built by arrow_schema.h and
// arrow_array.h.
#include "tsread/arrow/arrow_stream.h"

#include <cerrno>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/arrow/arrow_array.h"
#include "tsread/arrow/arrow_schema.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/parallel_arrays.h"
#include "tsread/arrow/produced_arrays.h"
#include "tsread/arrow/tree_batches.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

using arrow_internal::BuildBatch;
using arrow_internal::BuildSchema;
using arrow_internal::ParallelArrays;
using arrow_internal::ProducedArrays;

// What a stream reads from. Members are destroyed in reverse order: `next` (and with it the
// cursor or the threaded scan it owns, its threads joined) before the scanner and files it reads.
struct StreamPrivate {
  std::shared_ptr<const void> keep_alive;  // the scanner and the reader(s) it reads (Kept)
  const std::vector<ProjectedColumn>* projection = nullptr;
  ArrowExportOptions options;
  // The arrays' buffers, recycled into the scan's next batches (shared with arrays still out).
  std::shared_ptr<arrow_internal::BufferPool> pool = std::make_shared<arrow_internal::BufferPool>();
  // Fills the next array (release == nullptr at the end).
  std::function<absl::Status(ArrowArray*)> next;
  std::string last_error;
  bool failed = false;
};

int StreamError(StreamPrivate* priv, const absl::Status& status) {
  priv->last_error = std::string(status.message());
  priv->failed = true;
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument: return EINVAL;
    case absl::StatusCode::kResourceExhausted: return ENOMEM;
    default: return EIO;
  }
}

// The callbacks are called from C and other languages: nothing may unwind through them.
int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  auto* priv = static_cast<StreamPrivate*>(stream->private_data);
  try {
    BuildSchema(*priv->projection, priv->options, out);
  } catch (const std::bad_alloc&) {
    priv->last_error = "out of memory while building the schema";
    return ENOMEM;
  }
  return 0;
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* priv = static_cast<StreamPrivate*>(stream->private_data);
  if (priv->failed) return EIO;
  absl::Status status;
  try {
    status = priv->next(out);
  } catch (const std::bad_alloc&) {
    status = absl::ResourceExhaustedError("out of memory while building a batch");
  }
  return status.ok() ? 0 : StreamError(priv, status);
}

const char* GetLastError(ArrowArrayStream* stream) {
  auto* priv = static_cast<StreamPrivate*>(stream->private_data);
  return priv->last_error.empty() ? nullptr : priv->last_error.c_str();
}

void ReleaseStream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  std::unique_ptr<StreamPrivate> owned(static_cast<StreamPrivate*>(stream->private_data));
  stream->release = nullptr;
}

// The next array of a pull-based cursor (`next_batch` returns nullptr at the end): decoded and
// built on the consumer's thread. A partly built array is released on error.
template <typename Cursor>
std::function<absl::Status(ArrowArray*)> ArraysOfCursor(std::shared_ptr<Cursor> cursor, const StreamPrivate& priv) {
  return [cursor, &priv](ArrowArray* out) -> absl::Status {
    out->release = nullptr;
    TSREAD_ASSIGN_OR_RETURN(TableBatch* batch, cursor->Next());
    if (batch == nullptr) return absl::OkStatus();  // end of stream
    absl::Status status = BuildBatch(*priv.projection, priv.options, *batch, priv.pool, out);
    if (!status.ok() && out->release != nullptr) out->release(out);
    return status;
  };
}

// The arrays of a threaded scan (ProducedArrays: in order, built by the scan's threads ahead of the
// consumer; ParallelArrays: in any order, workers and the consumer sharing the splits) or of a
// tree export (TreeArrays), owned by `next`.
template <typename Arrays>
void UseArrays(StreamPrivate& priv, std::unique_ptr<Arrays> arrays) {
  priv.next = [arrays = std::shared_ptr<Arrays>(std::move(arrays))](ArrowArray* out) { return arrays->Next(out); };
}

void FillStream(std::unique_ptr<StreamPrivate> priv, ArrowArrayStream* out) {
  out->get_schema = GetSchema;
  out->get_next = GetNext;
  out->get_last_error = GetLastError;
  out->release = ReleaseStream;
  out->private_data = priv.release();
}

// What a stream keeps alive: the scanner, then what it reads (released in that order; the cursor
// or threads reading the scanner go first, with StreamPrivate's later members).
template <typename Scanner>
struct Kept {
  std::shared_ptr<const void> source;
  std::shared_ptr<const Scanner> scanner;
};

template <typename Scanner>
std::shared_ptr<const void> Keep(std::shared_ptr<const void> source, std::shared_ptr<const Scanner> scanner) {
  return std::make_shared<Kept<Scanner>>(Kept<Scanner>{std::move(source), std::move(scanner)});
}

// The splits the workers and the consumer of a parallel stream share, and the pull cursor of a
// one-thread stream, of each kind of scanner.
std::unique_ptr<arrow_internal::SplitSource> SplitsOf(const std::shared_ptr<const TableScanner>& scanner, int threads) {
  return arrow_internal::SplitsOfScanner(scanner, threads);
}
std::unique_ptr<arrow_internal::SplitSource> SplitsOf(const std::shared_ptr<const DatasetScanner>& scanner, int threads) {
  return arrow_internal::SplitsOfDataset(scanner.get(), threads);
}
absl::StatusOr<TableScanner::Cursor> CursorOf(const TableScanner& scanner) { return scanner.OpenCursor(); }
absl::StatusOr<DatasetScanner::Cursor> CursorOf(const DatasetScanner& scanner) { return scanner.OpenCursor(); }
absl::StatusOr<MergedScanner::Cursor> CursorOf(const MergedScanner& scanner) { return scanner.OpenCursor(); }

// A one-thread stream: each get_next pulls the cursor's next batch.
template <typename Scanner>
absl::Status UseCursor(StreamPrivate& priv, const Scanner& scanner) {
  TSREAD_ASSIGN_OR_RETURN(auto cursor, CursorOf(scanner));
  priv.next = ArraysOfCursor(std::make_shared<decltype(cursor)>(std::move(cursor)), priv);
  return absl::OkStatus();
}

// The stream of a table or dataset scan: pulled (one thread), produced ahead in order by the
// scan's threads, or shared by workers and the consumer (several threads, unordered).
template <typename Scanner>
absl::Status ExportScan(std::shared_ptr<const void> source, std::shared_ptr<const Scanner> scanner,
                        const ArrowExportOptions& options, ArrowArrayStream* out) {
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  priv->options = options;
  const Scanner* s = scanner.get();
  const int threads = s->options().num_threads;
  if (threads > 1 && !s->options().ordered) {
    UseArrays(*priv, std::make_unique<ParallelArrays>(SplitsOf(scanner, threads), threads, priv->projection,
                                                      priv->options, priv->pool, 2 * static_cast<size_t>(threads)));
  } else if (threads > 1) {
    UseArrays(*priv, std::make_unique<ProducedArrays>(
                         [s](const ProducedArrays::Consumer& consume) { return s->Scan(consume); }, priv->projection,
                         priv->options, priv->pool, 2 * static_cast<size_t>(threads) + 2));
  } else {
    TSREAD_RETURN_IF_ERROR(UseCursor(*priv, *s));
  }
  priv->keep_alive = Keep(std::move(source), std::move(scanner));
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

}  // namespace

absl::Status ExportArrowStream(std::shared_ptr<const TsFileReader> reader, std::shared_ptr<const TableScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  return ExportScan(std::move(reader), std::move(scanner), options, out);
}

absl::Status ExportArrowStream(std::shared_ptr<const Dataset> dataset, std::shared_ptr<const DatasetScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  return ExportScan(std::move(dataset), std::move(scanner), options, out);
}

absl::Status ExportArrowStream(std::shared_ptr<const void> owner, std::shared_ptr<const MergedScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  priv->options = options;
  TSREAD_RETURN_IF_ERROR(UseCursor(*priv, *scanner));  // a merged scan reads on one thread
  priv->keep_alive = Keep(std::move(owner), std::move(scanner));
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

absl::Status ExportTreeArrowStream(std::shared_ptr<const void> owner, TreeStepFn step, std::vector<DataType> value_types,
                                   size_t batch_rows, const ArrowExportOptions& options, ArrowArrayStream* out) {
  if (!options.file_column.empty()) return absl::InvalidArgumentError("a tree-model scan has no file column");
  constexpr size_t kDefaultTreeBatchRows = 65536;
  if (batch_rows == 0) batch_rows = kDefaultTreeBatchRows;
  auto projection =
      std::make_shared<const std::vector<ProjectedColumn>>(arrow_internal::TreeProjection(std::move(value_types)));
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = projection.get();
  priv->options = options;
  UseArrays(*priv, std::make_unique<arrow_internal::TreeArrays>(std::move(step), priv->projection, batch_rows,
                                                                 priv->options, priv->pool));
  priv->keep_alive = Keep(std::move(owner), std::move(projection));
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

}  // namespace tsread

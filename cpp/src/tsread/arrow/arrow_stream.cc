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
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/arrow/arrow_array.h"
#include "tsread/arrow/arrow_schema.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/parallel_arrays.h"
#include "tsread/arrow/produced_arrays.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

using arrow_internal::BuildBatch;
using arrow_internal::BuildSchema;
using arrow_internal::ParallelArrays;
using arrow_internal::ProducedArrays;

// What a stream reads from. Members are destroyed in reverse order: the producer's threads are
// joined before the scanner and files they read are let go.
struct StreamPrivate {
  std::shared_ptr<const void> keep_alive;  // the reader(s), scanner and cursor `next` reads
  const std::vector<ProjectedColumn>* projection = nullptr;
  ArrowExportOptions options;
  // Fills the next array (release == nullptr at the end).
  // The arrays' buffers, recycled into the scan's next batches (shared with arrays still out).
  std::shared_ptr<arrow_internal::BufferPool> pool = std::make_shared<arrow_internal::BufferPool>();
  std::function<absl::Status(ArrowArray*)> next;
  std::unique_ptr<ProducedArrays> producer;  // threaded scans in order
  std::unique_ptr<ParallelArrays> parallel;  // threaded scans in any order
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

// A scan with several threads: arrays built by its threads, a few queued ahead of the consumer.
std::unique_ptr<ProducedArrays> ProducerOf(ProducedArrays::ScanFn scan, const StreamPrivate& priv, int threads) {
  return std::make_unique<ProducedArrays>(std::move(scan), priv.projection, priv.options, priv.pool,
                                          2 * static_cast<size_t>(threads) + 2);
}

void UseProducer(StreamPrivate& priv, std::unique_ptr<ProducedArrays> producer) {
  priv.producer = std::move(producer);
  ProducedArrays* p = priv.producer.get();
  priv.next = [p](ArrowArray* out) { return p->Next(out); };
}

// A scan with several threads in any order: workers and the consumer share its splits.
void UseParallel(StreamPrivate& priv, std::unique_ptr<arrow_internal::SplitSource> splits, int threads) {
  priv.parallel = std::make_unique<ParallelArrays>(std::move(splits), threads, priv.projection, priv.options, priv.pool,
                                                   2 * static_cast<size_t>(threads));
  ParallelArrays* p = priv.parallel.get();
  priv.next = [p](ArrowArray* out) { return p->Next(out); };
}

void FillStream(std::unique_ptr<StreamPrivate> priv, ArrowArrayStream* out) {
  out->get_schema = GetSchema;
  out->get_next = GetNext;
  out->get_last_error = GetLastError;
  out->release = ReleaseStream;
  out->private_data = priv.release();
}

}  // namespace

absl::Status ExportArrowStream(std::shared_ptr<const TsFileReader> reader, std::shared_ptr<const TableScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  priv->options = options;
  const TableScanner* s = scanner.get();
  if (const int threads = s->options().num_threads; threads > 1 && !s->options().ordered) {
    UseParallel(*priv, arrow_internal::SplitsOfScanner(scanner, threads), threads);
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<const TableScanner>, std::shared_ptr<const TsFileReader>>>(
        std::move(scanner), std::move(reader));
  } else if (threads > 1) {
    UseProducer(*priv, ProducerOf([s](const ProducedArrays::Consumer& consume) { return s->Scan(consume); }, *priv,
                                  threads));
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<const TableScanner>, std::shared_ptr<const TsFileReader>>>(
        std::move(scanner), std::move(reader));
  } else {
    TSREAD_ASSIGN_OR_RETURN(TableScanner::Cursor cursor, s->OpenCursor());
    auto shared_cursor = std::make_shared<TableScanner::Cursor>(std::move(cursor));
    priv->next = ArraysOfCursor(shared_cursor, *priv);
    // The cursor reads the scanner, which reads the reader: released in that order.
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<TableScanner::Cursor>, std::shared_ptr<const TableScanner>,
                                                   std::shared_ptr<const TsFileReader>>>(shared_cursor, std::move(scanner),
                                                                                        std::move(reader));
  }
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

absl::Status ExportArrowStream(std::shared_ptr<const Dataset> dataset, std::shared_ptr<const DatasetScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  priv->options = options;
  const DatasetScanner* s = scanner.get();
  if (const int threads = s->options().num_threads; threads > 1 && !s->options().ordered) {
    UseParallel(*priv, arrow_internal::SplitsOfDataset(s, threads), threads);
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<const DatasetScanner>, std::shared_ptr<const Dataset>>>(
        std::move(scanner), std::move(dataset));
  } else if (threads > 1) {
    UseProducer(*priv, ProducerOf([s](const ProducedArrays::Consumer& consume) { return s->Scan(consume); }, *priv,
                                  threads));
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<const DatasetScanner>, std::shared_ptr<const Dataset>>>(
        std::move(scanner), std::move(dataset));
  } else {
    auto cursor = std::make_shared<DatasetScanner::Cursor>(s->OpenCursor());
    priv->next = ArraysOfCursor(cursor, *priv);
    priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<DatasetScanner::Cursor>, std::shared_ptr<const DatasetScanner>,
                                                   std::shared_ptr<const Dataset>>>(cursor, std::move(scanner),
                                                                                   std::move(dataset));
  }
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

absl::Status ExportArrowStream(std::shared_ptr<const void> owner, std::shared_ptr<const MergedScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(MergedScanner::Cursor cursor, scanner->OpenCursor());
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  priv->options = options;
  auto shared_cursor = std::make_shared<MergedScanner::Cursor>(std::move(cursor));
  priv->next = ArraysOfCursor(shared_cursor, *priv);
  priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<MergedScanner::Cursor>, std::shared_ptr<const MergedScanner>,
                                                 std::shared_ptr<const void>>>(shared_cursor, std::move(scanner),
                                                                              std::move(owner));
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

}  // namespace tsread

// The Arrow C stream of a scan (arrow_stream.h): the ArrowArrayStream callbacks over a table or
// dataset scan's cursor, the schema and arrays built by arrow_schema.h and arrow_array.h.
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
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

using arrow_internal::BuildBatch;
using arrow_internal::BuildSchema;

// What a stream reads from: a single-file scan's cursor or a dataset scan's.
struct StreamPrivate {
  std::shared_ptr<const void> keep_alive;  // the reader(s) and scanner the cursor reads
  const std::vector<ProjectedColumn>* projection = nullptr;
  std::function<absl::StatusOr<TableBatch*>()> next;
  ArrowExportOptions options;
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

int NextArray(StreamPrivate* priv, ArrowArray* out) {
  if (priv->failed) return EIO;
  absl::StatusOr<TableBatch*> batch = priv->next();
  if (!batch.ok()) return StreamError(priv, batch.status());
  if (*batch == nullptr) {
    out->release = nullptr;  // end of stream
    return 0;
  }
  absl::Status status = BuildBatch(*priv->projection, priv->options, **batch, out);
  if (!status.ok()) {
    out->release(out);
    out->release = nullptr;
    return StreamError(priv, status);
  }
  return 0;
}

// The callbacks are called from C and other languages: nothing may unwind through them.
int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  auto* priv = static_cast<StreamPrivate*>(stream->private_data);
  try {
    return NextArray(priv, out);
  } catch (const std::bad_alloc&) {
    return StreamError(priv, absl::ResourceExhaustedError("out of memory while building a batch"));
  }
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
  TSREAD_ASSIGN_OR_RETURN(TableScanner::Cursor cursor, scanner->OpenCursor());
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  auto shared_cursor = std::make_shared<TableScanner::Cursor>(std::move(cursor));
  priv->next = [shared_cursor] { return shared_cursor->Next(); };
  // The cursor reads the scanner, which reads the reader: released in that order.
  priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<TableScanner::Cursor>, std::shared_ptr<const TableScanner>,
                                                 std::shared_ptr<const TsFileReader>>>(shared_cursor, std::move(scanner),
                                                                                      std::move(reader));
  priv->options = options;
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

absl::Status ExportArrowStream(std::shared_ptr<const Dataset> dataset, std::shared_ptr<const DatasetScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  auto cursor = std::make_shared<DatasetScanner::Cursor>(scanner->OpenCursor());
  priv->next = [cursor] { return cursor->Next(); };
  priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<DatasetScanner::Cursor>, std::shared_ptr<const DatasetScanner>,
                                                 std::shared_ptr<const Dataset>>>(cursor, std::move(scanner),
                                                                                 std::move(dataset));
  priv->options = options;
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

absl::Status ExportArrowStream(std::shared_ptr<const void> owner, std::shared_ptr<const MergedScanner> scanner,
                               const ArrowExportOptions& options, ArrowArrayStream* out) {
  TSREAD_ASSIGN_OR_RETURN(MergedScanner::Cursor cursor, scanner->OpenCursor());
  auto priv = std::make_unique<StreamPrivate>();
  priv->projection = &scanner->projection();
  auto shared_cursor = std::make_shared<MergedScanner::Cursor>(std::move(cursor));
  priv->next = [shared_cursor] { return shared_cursor->Next(); };
  priv->keep_alive = std::make_shared<std::tuple<std::shared_ptr<MergedScanner::Cursor>, std::shared_ptr<const MergedScanner>,
                                                 std::shared_ptr<const void>>>(shared_cursor, std::move(scanner),
                                                                              std::move(owner));
  priv->options = options;
  FillStream(std::move(priv), out);
  return absl::OkStatus();
}

}  // namespace tsread

// The Arrow arrays of an exported scan (arrow_stream.h): one struct array per batch, its
// children's buffers handed over from the batch. Internal to the Arrow export; not part of the
// public API.
#ifndef TSREAD_ARROW_ARROW_ARRAY_H_
#define TSREAD_ARROW_ARROW_ARRAY_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "tsread/arrow/arrow_stream.h"
#include "tsread/arrow/buffer_pool.h"
#include "tsread/arrow/c_data_interface.h"
#include "tsread/read/projection.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace arrow_internal {

// Fills `out` with `batch` as a struct array matching BuildSchema(projection, options), moving
// the batch's buffers out (a FIELD column null on every row keeps its buffers: the array reads
// zeros from a block its batch's all-null columns share); with a `pool` (may be null), the batch's emptied buffers are refilled
// from it and the array's go back to it on release (buffer_pool.h). An error (invalid UTF-8 or
// DATE, a column stored with another type than its schema's, strings past utf8's offsets) names
// the column; `out` then holds a partly built array, which the caller releases with out->release.
absl::Status BuildBatch(const std::vector<ProjectedColumn>& projection, const ArrowExportOptions& options,
                        TableBatch& batch, const std::shared_ptr<BufferPool>& pool, ArrowArray* out);

}  // namespace arrow_internal
}  // namespace tsread

#endif  // TSREAD_ARROW_ARROW_ARRAY_H_

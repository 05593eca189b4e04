// Reading an Arrow C stream to its end in tests of the C ABI: rows, each column's non-null count,
// and the first error.
#ifndef TSREAD_TESTING_ARROW_C_STREAM_H_
#define TSREAD_TESTING_ARROW_C_STREAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tsread/tsread.h"

namespace tsread::testing {

struct StreamContents {
  std::vector<std::string> names;     // the schema's children
  std::vector<std::string> formats;
  int64_t rows = 0;
  int64_t batches = 0;
  std::vector<int64_t> non_null;      // per child
  std::vector<int64_t> times;         // the first child's values, when it is time (int64 or timestamp)
  int error = 0;                      // get_next's first non-zero result
  std::string message;                // get_last_error then
};

// Reads `stream` to its end (or its first error) and releases it.
inline StreamContents ReadStream(ArrowArrayStream& stream) {
  StreamContents out;
  ArrowSchema schema{};
  out.error = stream.get_schema(&stream, &schema);
  if (out.error == 0) {
    for (int64_t k = 0; k < schema.n_children; ++k) {
      out.names.emplace_back(schema.children[k]->name);
      out.formats.emplace_back(schema.children[k]->format);
    }
    out.non_null.assign(static_cast<size_t>(schema.n_children), 0);
    schema.release(&schema);
    while (true) {
      ArrowArray batch{};
      out.error = stream.get_next(&stream, &batch);
      if (out.error != 0 || batch.release == nullptr) break;
      ++out.batches;
      out.rows += batch.length;
      if (batch.n_children > 0 && !out.formats.empty() && (out.formats[0] == "l" || out.formats[0].rfind("ts", 0) == 0)) {
        const auto* values = static_cast<const int64_t*>(batch.children[0]->buffers[1]);
        out.times.insert(out.times.end(), values + batch.children[0]->offset,
                         values + batch.children[0]->offset + batch.children[0]->length);
      }
      for (int64_t k = 0; k < batch.n_children && k < static_cast<int64_t>(out.non_null.size()); ++k) {
        out.non_null[k] += batch.children[k]->length - batch.children[k]->null_count;
      }
      batch.release(&batch);
    }
  }
  if (out.error != 0) {
    const char* message = stream.get_last_error(&stream);
    out.message = message == nullptr ? "" : message;
  }
  stream.release(&stream);
  return out;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_ARROW_C_STREAM_H_

// Where a writer's bytes go: a std::string in memory or a file on disk. Bytes are only appended;
// position() is the file offset of the next byte, which chunk and index offsets refer to.
#ifndef TSREAD_WRITE_OUTPUT_SINK_H_
#define TSREAD_WRITE_OUTPUT_SINK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tsread {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual absl::Status Append(std::string_view bytes) = 0;
  // Makes every appended byte durable in the destination (file: flushed and closed).
  virtual absl::Status Close() = 0;
  uint64_t position() const { return position_; }

 protected:
  uint64_t position_ = 0;
};

// Appends to `*buffer` (cleared first), which must outlive the sink.
std::unique_ptr<OutputSink> StringOutputSink(std::string* buffer);
// Creates or truncates `path`. Unavailable / PermissionDenied / NotFound on failure.
absl::StatusOr<std::unique_ptr<OutputSink>> FileOutputSink(const std::string& path);

}  // namespace tsread

#endif  // TSREAD_WRITE_OUTPUT_SINK_H_

// Salvage's checks (salvage_checks.h): the error form, the device key, the sealed-tail test
// (format reference §1, §7) and the per-page checks (§8, §4).
#include "tsread/check/salvage_checks.h"

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "tsread/format/chunk_header.h"
#include "tsread/format/file_layout.h"
#include "tsread/format/tsfile_metadata.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace check_internal {

absl::Status Corrupt(uint64_t offset, std::string_view what) {
  return absl::DataLossError(absl::StrCat("at offset ", offset, ": ", ToAbsl(what)));
}

std::string DeviceKey(const DeviceId& id) {
  std::string key(1, id.is_plain() ? 'p' : 's');
  for (const std::optional<std::string>& segment : id.segments()) {
    if (!segment.has_value()) {
      key.append("\x00n", 2);
      continue;
    }
    key.push_back('\x01');
    key.append(absl::StrCat(segment->size(), ":"));
    key.append(*segment);
  }
  return key;
}

bool HasValidTail(const RandomAccessFile& file) {
  absl::StatusOr<FileLayout> layout = ReadFileLayout(file);
  if (!layout.ok()) return false;
  absl::StatusOr<Buffer> bytes = file.Read(layout->metadata_offset, layout->metadata_size);
  if (!bytes.ok()) return false;
  absl::StatusOr<TsFileMetadata> metadata =
      ReadTsFileMetadata(bytes->bytes(), layout->metadata_offset, layout->version);
  if (!metadata.ok() || metadata->meta_offset < kHeadSize || metadata->meta_offset >= layout->metadata_offset) {
    return false;
  }
  absl::StatusOr<Buffer> separator = file.Read(metadata->meta_offset, 1);
  return separator.ok() && static_cast<uint8_t>(separator->data()[0]) == kSeparatorMarker;
}

absl::Status CheckIncreasing(const std::vector<int64_t>& times, const PageHeader& page) {
  for (size_t r = 1; r < times.size(); ++r) {
    if (times[r] <= times[r - 1]) {
      return Corrupt(page.offset, absl::StrCat("page timestamp ", times[r], " at row ", r,
                                               " does not increase (previous ", times[r - 1], ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckPageStatistics(const PageHeader& page, const std::vector<int64_t>& times,
                                 const ColumnVector* values) {
  if (!page.statistics.has_value()) return absl::OkStatus();
  uint64_t count = 0;
  int64_t first = 0, last = 0;
  for (size_t r = 0; r < times.size(); ++r) {
    if (values != nullptr && !values->IsValid(r)) continue;
    if (count == 0) first = times[r];
    last = times[r];
    ++count;
  }
  const Statistics& s = *page.statistics;
  if (s.count != count) {
    return Corrupt(page.offset, absl::StrCat("page statistics count ", s.count, ", the page decodes to ", count));
  }
  if (count > 0 && (s.start_time != first || s.end_time != last)) {
    return Corrupt(page.offset, absl::StrCat("page statistics time range [", s.start_time, ", ", s.end_time,
                                             "], the page decodes to [", first, ", ", last, "]"));
  }
  return absl::OkStatus();
}

}  // namespace check_internal
}  // namespace tsread

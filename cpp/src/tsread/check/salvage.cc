// SalvageDataSection (salvage.h): checks the head (format reference §1), then walks the data
// section (§2.4) with SalvageWalker (salvage_walker.h) and reports where and why it stopped.
#include "tsread/check/salvage.h"

#include "absl/strings/str_cat.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/check/salvage_checks.h"
#include "tsread/check/salvage_walker.h"
#include "tsread/format/file_layout.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<SalvageReport> SalvageDataSection(const RandomAccessFile& file, const SalvageOptions& options,
                                                 const KeptGroupFn& on_kept) {
  SalvageReport report;
  report.file_size = file.size();
  if (report.file_size < kHeadSize) {
    return absl::DataLossError(absl::StrCat(file.name(), " is ", report.file_size,
                                            " bytes, too short for a TsFile head (", kHeadSize, ")"));
  }
  TSREAD_ASSIGN_OR_RETURN(Buffer head, file.Read(0, kHeadSize));
  if (head.bytes().substr(0, kMagic.size()) != kMagic) {
    return absl::DataLossError("bad head magic at offset 0: expected \"TsFile\"");
  }
  report.version = static_cast<uint8_t>(head.data()[6]);
  if (report.version != kVersion3 && report.version != kVersion4) {
    return absl::UnimplementedError(absl::StrCat("unsupported TsFile version byte ", report.version,
                                                 " at offset 6: tsread reads versions 3 and 4"));
  }
  report.sealed = check_internal::HasValidTail(file);
  check_internal::SalvageWalker walker(options, on_kept, report);
  DataRange range;
  range.version = report.version;
  range.end = report.file_size;
  const absl::Status walk = WalkDataSection(file, range, walker, options.walk);
  if (walker.callback_failed()) return walk;
  switch (walk.code()) {
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:        // I/O,
    case absl::StatusCode::kResourceExhausted:  // or the memory budget: not the file's content
      return walk;
    default: break;
  }
  walker.Finish(walk, report.file_size);
  return report;
}

}  // namespace tsread

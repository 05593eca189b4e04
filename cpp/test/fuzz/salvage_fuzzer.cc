// libFuzzer target: salvage of an arbitrary file (seeds: prefixes of small fixtures, so most
// inputs are unsealed files with damaged data sections). Salvage must return a report or a status
// for any input; when it keeps a group, the sealed copy it writes must open and read back whole —
// salvage keeps only what decodes, so a copy that does not read is a bug (trap). The same file read
// in place (BuildSealedIndex + io/spliced_file.h, as IoTDB data reads a crashed server's file)
// must be the copy's bytes exactly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "testing/read_everything.h"
#include "tsread/io/random_access_file.h"
#include "tsread/io/spliced_file.h"
#include "tsread/check/salvage.h"
#include "tsread/check/sealed_copy.h"
#include "tsread/write/output_sink.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::unique_ptr<tsread::RandomAccessFile> file = tsread::MemoryFileView(bytes);
  absl::StatusOr<tsread::SalvageReport> report = tsread::SalvageDataSection(*file);
  if (!report.ok() || report->groups_kept == 0) return 0;
  std::string copy;
  std::unique_ptr<tsread::OutputSink> sink = tsread::StringOutputSink(&copy);
  absl::StatusOr<tsread::SealedCopyResult> sealed = tsread::WriteSealedCopy(*file, *sink);
  if (!sealed.ok()) {
    // Only when every kept group is an empty header: then there is nothing to index.
    for (const tsread::SalvagedDevice& device : report->devices) {
      if (!device.series.empty() || device.rows > 0) std::abort();
    }
    return 0;
  }
  if (sealed->report.groups_kept != report->groups_kept) std::abort();
  uint64_t rows = 0;
  if (!tsread::testing::ReadEverything(copy, &rows).ok()) std::abort();
  absl::StatusOr<tsread::SealedIndex> index = tsread::BuildSealedIndex(*file);
  if (!index.ok() || index->bytes.empty()) std::abort();
  absl::StatusOr<std::unique_ptr<tsread::RandomAccessFile>> in_place =
      tsread::SpliceFile(tsread::MemoryFileView(bytes), index->report.data_end,
                         std::make_shared<const std::string>(std::move(index->bytes)));
  if (!in_place.ok() || (*in_place)->size() != copy.size()) std::abort();
  absl::StatusOr<tsread::Buffer> whole = (*in_place)->Read(0, copy.size());
  if (!whole.ok() || whole->bytes() != copy) std::abort();
  return 0;
}

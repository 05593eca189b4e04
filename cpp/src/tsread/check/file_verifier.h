// VerifyFile: an end-to-end check of a TsFile, for `tsread verify`. It walks the data section
// (§2.4), checks that the index and the chunks agree (every ChunkMetadata points at a chunk of
// that series and type), decodes every page, and compares page and chunk statistics with the
// decoded data (count, start/end time, min/max) and timestamps with their order.
#ifndef TSREAD_CHECK_FILE_VERIFIER_H_
#define TSREAD_CHECK_FILE_VERIFIER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tsread/check/data_section_walker.h"
#include "tsread/read/page_decoder.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {

struct VerifyReport {
  uint64_t chunks = 0;
  uint64_t pages = 0;
  uint64_t values = 0;  // non-null values decoded (timestamps of time columns included)
  // One line per problem found: "offset N, device D, column C: what is wrong".
  std::vector<std::string> problems;
  // Findings that do not make the file corrupt, same form: FLOAT/DOUBLE min/max statistics that
  // differ from the decoded values in a chunk of a lossy encoding (SPRINTZ, RLBE). The writer
  // computes statistics from the values before encoding; the reference reader decodes the bytes
  // to the values tsread decodes (fixtures README, "Known reference quirks").
  std::vector<std::string> notices;
  bool truncated = false;  // stopped after max_problems

  bool clean() const { return problems.empty(); }
};

// Verifies `reader`'s file. Problems in the data are collected in the report (up to
// max_problems); the returned status is an error only when the walk itself cannot go on (also
// ResourceExhausted when a chunk alone needs more than `walk`'s memory budget: that is no
// problem of the file's). The data-section walk reads through `walk`'s bounded window; the
// chunks are then loaded one at a time.
absl::StatusOr<VerifyReport> VerifyFile(const TsFileReader& reader, const ReadLimits& limits = {},
                                        size_t max_problems = 100, const WalkOptions& walk = {});

}  // namespace tsread

#endif  // TSREAD_CHECK_FILE_VERIFIER_H_

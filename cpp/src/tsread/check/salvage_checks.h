// The checks salvage (salvage.h) makes of what it reads, without the index: the error that names
// an offset, the key that tells devices apart, whether the file has a tail that parses (format
// reference §1, §7), and what a decoded page must satisfy (timestamps increase, §8; its page
// statistics, §3.2 and §4, describe it).
#ifndef TSREAD_CHECK_SALVAGE_CHECKS_H_
#define TSREAD_CHECK_SALVAGE_CHECKS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "tsread/format/device_id.h"
#include "tsread/format/page_header.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/column_vector.h"

namespace tsread {
namespace check_internal {

// A DataLoss error "at offset N: what".
absl::Status Corrupt(uint64_t offset, std::string_view what);

// A map key that tells every two device ids apart (ToString prints a null segment as "null").
std::string DeviceKey(const DeviceId& id);

// Whether the file has a tail whose TsFileMetadata parses (§1, §7): then it is sealed.
bool HasValidTail(const RandomAccessFile& file);

// Times of one page must increase strictly (§8; J: the writers reject anything else).
absl::Status CheckIncreasing(const std::vector<int64_t>& times, const PageHeader& page);

// A multi-page chunk's page statistics must describe what the page decodes to: the count and the
// time range of its non-null values (`values` null: every row has one; the rest is checked by
// `tsread verify` on the sealed copy).
absl::Status CheckPageStatistics(const PageHeader& page, const std::vector<int64_t>& times,
                                 const ColumnVector* values);

}  // namespace check_internal
}  // namespace tsread

#endif  // TSREAD_CHECK_SALVAGE_CHECKS_H_

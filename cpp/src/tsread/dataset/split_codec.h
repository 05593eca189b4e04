// The serialized form of a dataset split (DatasetScanner::SerializeSplit): everything another
// process needs to execute it with the same result — the file (path and size), the table, its
// schema reconciled across the dataset, the projection, the time range, the tag and value
// predicates and the device range. Bytes, not text (paths and tag values are arbitrary bytes).
//
// Layout: "TSRSPLIT" magic, version byte 3, then fields in the order of SplitDescription.
// Strings and lists are a LEB128 count followed by their items; 64-bit integers are 8 bytes
// big-endian (as in TsFile).
#ifndef TSREAD_DATASET_SPLIT_CODEC_H_
#define TSREAD_DATASET_SPLIT_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/table_schema.h"
#include "tsread/read/table_scanner.h"

namespace tsread {

struct SplitDescription {
  std::string path;
  uint64_t file_size = 0;
  TableSchema schema;  // the table's reconciled schema (column names, categories, types)
  std::vector<std::string> columns;  // the projection, in order
  TimeRange time_range;
  std::vector<TagPredicate> tag_predicates;
  std::vector<PredicateExpr> value_predicates;
  ScanSplit devices;
};

std::string EncodeSplit(const SplitDescription& split);
// InvalidArgument naming what is wrong for bytes that are not an encoded split (wrong magic or
// version, truncated, trailing bytes, an unknown type or category).
absl::StatusOr<SplitDescription> DecodeSplit(std::string_view bytes);

}  // namespace tsread

#endif  // TSREAD_DATASET_SPLIT_CODEC_H_

#include "tsread/iotdb/altered_types.h"

#include <algorithm>

namespace tsread::iotdb {

bool CastsTo(DataType from, DataType to) {
  if (from == to) return true;
  switch (to) {
    case DataType::kInt64: return from == DataType::kInt32 || from == DataType::kTimestamp;
    case DataType::kFloat: return from == DataType::kInt32;
    case DataType::kDouble:
      return from == DataType::kInt32 || from == DataType::kInt64 || from == DataType::kFloat ||
             from == DataType::kTimestamp;
    case DataType::kTimestamp: return from == DataType::kInt32 || from == DataType::kInt64;
    case DataType::kText:
    case DataType::kString:
      return from == DataType::kBoolean || from == DataType::kInt32 || from == DataType::kInt64 ||
             from == DataType::kFloat || from == DataType::kDouble || from == DataType::kDate ||
             from == DataType::kTimestamp || from == DataType::kBlob || from == DataType::kText ||
             from == DataType::kString;
    case DataType::kBlob: return from == DataType::kString || from == DataType::kText;
    default: return false;
  }
}

std::optional<DataType> AlteredType(const std::vector<DataType>& types) {
  // Newest first: among types every other casts to, the latest file's wins.
  for (auto it = types.rbegin(); it != types.rend(); ++it) {
    const DataType to = *it;
    if (std::all_of(types.begin(), types.end(), [to](DataType from) { return CastsTo(from, to); })) return to;
  }
  return std::nullopt;
}

}  // namespace tsread::iotdb

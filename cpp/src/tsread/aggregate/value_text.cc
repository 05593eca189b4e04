#include "tsread/aggregate/value_text.h"

#include "absl/strings/str_cat.h"
#include "tsread/common/blob_text.h"
#include "tsread/common/java_number_text.h"

namespace tsread {

std::string AggregateValueText(DataType type, const AggregateValue& v) {
  std::string out;
  switch (type) {
    case DataType::kBoolean: return v.i ? "true" : "false";
    case DataType::kFloat: AppendJavaFloat(out, static_cast<float>(v.d)); return out;
    case DataType::kDouble: AppendJavaDouble(out, v.d); return out;
    case DataType::kText:
    case DataType::kString: return v.s;
    case DataType::kBlob: AppendBlobHex(out, v.s); return out;
    default: return absl::StrCat(v.i);
  }
}

}  // namespace tsread

#include "tsread/aggregate/value_text.h"

#include "absl/strings/str_cat.h"
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
    case DataType::kBlob: {
      static constexpr char kHex[] = "0123456789abcdef";
      out = "0x";
      for (char c : v.s) {
        const auto b = static_cast<unsigned char>(c);
        out.push_back(kHex[b >> 4]);
        out.push_back(kHex[b & 15]);
      }
      return out;
    }
    default: return absl::StrCat(v.i);
  }
}

}  // namespace tsread

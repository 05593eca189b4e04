#include "tsread/format/statistics.h"

#include <bit>
#include <optional>

#include "tsread/io/endian.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

absl::Status ReadIntPart32(ByteStream& in, Statistics& s) {
  TSREAD_ASSIGN_OR_RETURN(s.int_min, in.ReadI32("INT32 statistics min"));
  TSREAD_ASSIGN_OR_RETURN(s.int_max, in.ReadI32("INT32 statistics max"));
  TSREAD_ASSIGN_OR_RETURN(s.int_first, in.ReadI32("INT32 statistics first"));
  TSREAD_ASSIGN_OR_RETURN(s.int_last, in.ReadI32("INT32 statistics last"));
  TSREAD_ASSIGN_OR_RETURN(s.int_sum, in.ReadI64("INT32 statistics sum"));
  return absl::OkStatus();
}

absl::Status ReadIntPart64(ByteStream& in, Statistics& s) {
  TSREAD_ASSIGN_OR_RETURN(s.int_min, in.ReadI64("INT64 statistics min"));
  TSREAD_ASSIGN_OR_RETURN(s.int_max, in.ReadI64("INT64 statistics max"));
  TSREAD_ASSIGN_OR_RETURN(s.int_first, in.ReadI64("INT64 statistics first"));
  TSREAD_ASSIGN_OR_RETURN(s.int_last, in.ReadI64("INT64 statistics last"));
  TSREAD_ASSIGN_OR_RETURN(s.float_sum, in.ReadF64("INT64 statistics sum"));
  return absl::OkStatus();
}

absl::Status ReadFloatPart(ByteStream& in, Statistics& s) {
  TSREAD_ASSIGN_OR_RETURN(s.float_min, in.ReadF32("FLOAT statistics min"));
  TSREAD_ASSIGN_OR_RETURN(s.float_max, in.ReadF32("FLOAT statistics max"));
  TSREAD_ASSIGN_OR_RETURN(s.float_first, in.ReadF32("FLOAT statistics first"));
  TSREAD_ASSIGN_OR_RETURN(s.float_last, in.ReadF32("FLOAT statistics last"));
  TSREAD_ASSIGN_OR_RETURN(s.float_sum, in.ReadF64("FLOAT statistics sum"));
  return absl::OkStatus();
}

absl::Status ReadDoublePart(ByteStream& in, Statistics& s) {
  TSREAD_ASSIGN_OR_RETURN(s.float_min, in.ReadF64("DOUBLE statistics min"));
  TSREAD_ASSIGN_OR_RETURN(s.float_max, in.ReadF64("DOUBLE statistics max"));
  TSREAD_ASSIGN_OR_RETURN(s.float_first, in.ReadF64("DOUBLE statistics first"));
  TSREAD_ASSIGN_OR_RETURN(s.float_last, in.ReadF64("DOUBLE statistics last"));
  TSREAD_ASSIGN_OR_RETURN(s.float_sum, in.ReadF64("DOUBLE statistics sum"));
  return absl::OkStatus();
}

absl::Status ReadBinary(ByteStream& in, std::string& out, const char* what) {
  TSREAD_ASSIGN_OR_RETURN(std::string_view v, in.ReadI32String(what));
  out.assign(v);
  return absl::OkStatus();
}

absl::Status ReadTypedPart(ByteStream& in, Statistics& s) {
  switch (s.type) {
    case DataType::kBoolean: {
      TSREAD_ASSIGN_OR_RETURN(s.bool_first, in.ReadBool("BOOLEAN statistics first"));
      TSREAD_ASSIGN_OR_RETURN(s.bool_last, in.ReadBool("BOOLEAN statistics last"));
      TSREAD_ASSIGN_OR_RETURN(s.int_sum, in.ReadI64("BOOLEAN statistics sum"));
      return absl::OkStatus();
    }
    case DataType::kInt32:
    case DataType::kDate: return ReadIntPart32(in, s);
    case DataType::kInt64:
    case DataType::kTimestamp: return ReadIntPart64(in, s);
    case DataType::kFloat: return ReadFloatPart(in, s);
    case DataType::kDouble: return ReadDoublePart(in, s);
    case DataType::kText:
      TSREAD_RETURN_IF_ERROR(ReadBinary(in, s.bin_first, "TEXT statistics first"));
      return ReadBinary(in, s.bin_last, "TEXT statistics last");
    case DataType::kString:
      TSREAD_RETURN_IF_ERROR(ReadBinary(in, s.bin_first, "STRING statistics first"));
      TSREAD_RETURN_IF_ERROR(ReadBinary(in, s.bin_last, "STRING statistics last"));
      TSREAD_RETURN_IF_ERROR(ReadBinary(in, s.bin_min, "STRING statistics min"));
      return ReadBinary(in, s.bin_max, "STRING statistics max");
    case DataType::kBlob:
    case DataType::kVector: return absl::OkStatus();
    case DataType::kUnknown: break;
  }
  return in.Corrupt("statistics", "no statistics exist for data type UNKNOWN");
}

// Bytes of the type-specific part when it has a fixed size (§4): every type but TEXT and STRING.
std::optional<size_t> FixedTypedPartSize(DataType type) {
  switch (type) {
    case DataType::kBoolean: return 1 + 1 + 8;
    case DataType::kInt32:
    case DataType::kDate:
    case DataType::kFloat: return 4 * 4 + 8;
    case DataType::kInt64:
    case DataType::kTimestamp:
    case DataType::kDouble: return 5 * 8;
    case DataType::kBlob:
    case DataType::kVector: return 0;
    default: return std::nullopt;
  }
}

int64_t I32At(const char* p) { return static_cast<int32_t>(LoadBigEndian32(p)); }
int64_t I64At(const char* p) { return static_cast<int64_t>(LoadBigEndian64(p)); }
double F32At(const char* p) { return std::bit_cast<float>(LoadBigEndian32(p)); }
double F64At(const char* p) { return std::bit_cast<double>(LoadBigEndian64(p)); }

// The type-specific part from `p`, which holds its FixedTypedPartSize bytes (checked by the
// caller once: metadata of small chunks is mostly statistics, read field by field it was a tenth
// of a scan). Same values as ReadTypedPart.
void DecodeFixedTypedPart(const char* p, Statistics& s) {
  switch (s.type) {
    case DataType::kBoolean:
      s.bool_first = p[0] == 1;
      s.bool_last = p[1] == 1;
      s.int_sum = I64At(p + 2);
      return;
    case DataType::kInt32:
    case DataType::kDate:
      s.int_min = I32At(p), s.int_max = I32At(p + 4), s.int_first = I32At(p + 8), s.int_last = I32At(p + 12);
      s.int_sum = I64At(p + 16);
      return;
    case DataType::kInt64:
    case DataType::kTimestamp:
      s.int_min = I64At(p), s.int_max = I64At(p + 8), s.int_first = I64At(p + 16), s.int_last = I64At(p + 24);
      s.float_sum = F64At(p + 32);
      return;
    case DataType::kFloat:
      s.float_min = F32At(p), s.float_max = F32At(p + 4), s.float_first = F32At(p + 8), s.float_last = F32At(p + 12);
      s.float_sum = F64At(p + 16);
      return;
    case DataType::kDouble:
      s.float_min = F64At(p), s.float_max = F64At(p + 8), s.float_first = F64At(p + 16), s.float_last = F64At(p + 24);
      s.float_sum = F64At(p + 32);
      return;
    default: return;
  }
}

// Every field back to a default Statistics' value, keeping the strings' capacity.
void ResetStatistics(Statistics& s) {
  s.count = 0;
  s.start_time = s.end_time = 0;
  s.int_min = s.int_max = s.int_first = s.int_last = s.int_sum = 0;
  s.float_min = s.float_max = s.float_first = s.float_last = s.float_sum = 0;
  s.bool_first = s.bool_last = false;
  s.bin_first.clear();
  s.bin_last.clear();
  s.bin_min.clear();
  s.bin_max.clear();
}

}  // namespace

absl::Status ReadStatisticsInto(ByteStream& in, DataType type, Statistics& s) {
  ResetStatistics(s);
  s.type = type;
  TSREAD_ASSIGN_OR_RETURN(s.count, in.ReadUVarSize("statistics count"));
  const std::optional<size_t> fixed = FixedTypedPartSize(type);
  if (fixed.has_value() && in.remaining() >= 16 + *fixed) [[likely]] {
    TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, in.ReadBytes(16 + *fixed, "statistics"));
    s.start_time = I64At(bytes.data());
    s.end_time = I64At(bytes.data() + 8);
    DecodeFixedTypedPart(bytes.data() + 16, s);
    return absl::OkStatus();
  }
  // Field by field: TEXT/STRING, and truncated statistics (whose error names the field).
  TSREAD_ASSIGN_OR_RETURN(s.start_time, in.ReadI64("statistics start time"));
  TSREAD_ASSIGN_OR_RETURN(s.end_time, in.ReadI64("statistics end time"));
  return ReadTypedPart(in, s);
}

absl::StatusOr<Statistics> ReadStatistics(ByteStream& in, DataType type) {
  Statistics s;
  TSREAD_RETURN_IF_ERROR(ReadStatisticsInto(in, type, s));
  return s;
}

absl::Status SkipStatistics(ByteStream& in, DataType type) {
  const std::optional<size_t> fixed = FixedTypedPartSize(type);
  if (fixed.has_value()) {
    const ByteStream start = in;
    if (in.ReadUVarSize("statistics count").ok() && in.Skip(16 + *fixed, "statistics").ok()) return absl::OkStatus();
    in = start;  // fails below with the field's own error
  }
  return ReadStatistics(in, type).status();
}

}  // namespace tsread

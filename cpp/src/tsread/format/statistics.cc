#include "tsread/format/statistics.h"

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

}  // namespace

absl::StatusOr<Statistics> ReadStatistics(ByteStream& in, DataType type) {
  Statistics s;
  s.type = type;
  TSREAD_ASSIGN_OR_RETURN(s.count, in.ReadUVarSize("statistics count"));
  TSREAD_ASSIGN_OR_RETURN(s.start_time, in.ReadI64("statistics start time"));
  TSREAD_ASSIGN_OR_RETURN(s.end_time, in.ReadI64("statistics end time"));
  TSREAD_RETURN_IF_ERROR(ReadTypedPart(in, s));
  return s;
}

absl::Status SkipStatistics(ByteStream& in, DataType type) {
  return ReadStatistics(in, type).status();
}

}  // namespace tsread

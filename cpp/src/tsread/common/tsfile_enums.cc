#include "tsread/common/tsfile_enums.h"

namespace tsread {

std::optional<DataType> DataTypeFromByte(uint8_t b) {
  if (b <= 11 && b != 7) return static_cast<DataType>(b);
  return std::nullopt;
}

std::optional<Encoding> EncodingFromByte(uint8_t b) {
  if (b <= 13) return static_cast<Encoding>(b);
  return std::nullopt;
}

std::optional<Compression> CompressionFromByte(uint8_t b) {
  if (b <= 9) return static_cast<Compression>(b);
  return std::nullopt;
}

std::optional<ColumnCategory> ColumnCategoryFromInt(int32_t v) {
  if (v >= 0 && v <= 2) return static_cast<ColumnCategory>(v);
  return std::nullopt;
}

std::string_view DataTypeName(DataType t) {
  switch (t) {
    case DataType::kBoolean: return "BOOLEAN";
    case DataType::kInt32: return "INT32";
    case DataType::kInt64: return "INT64";
    case DataType::kFloat: return "FLOAT";
    case DataType::kDouble: return "DOUBLE";
    case DataType::kText: return "TEXT";
    case DataType::kVector: return "VECTOR";
    case DataType::kUnknown: return "UNKNOWN";
    case DataType::kTimestamp: return "TIMESTAMP";
    case DataType::kDate: return "DATE";
    case DataType::kBlob: return "BLOB";
    case DataType::kString: return "STRING";
  }
  return "UNKNOWN";
}

std::string_view EncodingName(Encoding e) {
  switch (e) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kDictionary: return "DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kDiff: return "DIFF";
    case Encoding::kTs2Diff: return "TS_2DIFF";
    case Encoding::kBitmap: return "BITMAP";
    case Encoding::kGorillaV1: return "GORILLA_V1";
    case Encoding::kRegular: return "REGULAR";
    case Encoding::kGorilla: return "GORILLA";
    case Encoding::kZigzag: return "ZIGZAG";
    case Encoding::kFreq: return "FREQ";
    case Encoding::kChimp: return "CHIMP";
    case Encoding::kSprintz: return "SPRINTZ";
    case Encoding::kRlbe: return "RLBE";
  }
  return "UNKNOWN";
}

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kUncompressed: return "UNCOMPRESSED";
    case Compression::kSnappy: return "SNAPPY";
    case Compression::kGzip: return "GZIP";
    case Compression::kLzo: return "LZO";
    case Compression::kSdt: return "SDT";
    case Compression::kPaa: return "PAA";
    case Compression::kPla: return "PLA";
    case Compression::kLz4: return "LZ4";
    case Compression::kZstd: return "ZSTD";
    case Compression::kLzma2: return "LZMA2";
  }
  return "UNKNOWN";
}

std::string_view ColumnCategoryName(ColumnCategory c) {
  switch (c) {
    case ColumnCategory::kTag: return "TAG";
    case ColumnCategory::kField: return "FIELD";
    case ColumnCategory::kAttribute: return "ATTRIBUTE";
  }
  return "UNKNOWN";
}

PhysicalType PhysicalTypeOf(DataType t) {
  switch (t) {
    case DataType::kBoolean: return PhysicalType::kBoolean;
    case DataType::kInt32:
    case DataType::kDate: return PhysicalType::kInt32;
    case DataType::kFloat: return PhysicalType::kFloat;
    case DataType::kDouble: return PhysicalType::kDouble;
    case DataType::kText:
    case DataType::kBlob:
    case DataType::kString: return PhysicalType::kBinary;
    case DataType::kInt64:
    case DataType::kTimestamp:
    case DataType::kVector:
    case DataType::kUnknown: return PhysicalType::kInt64;
  }
  return PhysicalType::kInt64;
}

}  // namespace tsread

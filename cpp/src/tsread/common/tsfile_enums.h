// The on-disk enumerations of TsFile (format reference §11, §9.1, §10.1): data types, encodings,
// compression codecs and column categories, with their names. Shared by every pipeline stage.
#ifndef TSREAD_COMMON_TSFILE_ENUMS_H_
#define TSREAD_COMMON_TSFILE_ENUMS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace tsread {

// TSDataType (§11). VECTOR marks the aligned time column; UNKNOWN never appears on disk.
enum class DataType : uint8_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kFloat = 3,
  kDouble = 4,
  kText = 5,
  kVector = 6,
  kUnknown = 7,
  kTimestamp = 8,
  kDate = 9,
  kBlob = 10,
  kString = 11,
};

// TSEncoding (§9.1).
enum class Encoding : uint8_t {
  kPlain = 0,
  kDictionary = 1,
  kRle = 2,
  kDiff = 3,
  kTs2Diff = 4,
  kBitmap = 5,
  kGorillaV1 = 6,
  kRegular = 7,
  kGorilla = 8,
  kZigzag = 9,
  kFreq = 10,
  kChimp = 11,
  kSprintz = 12,
  kRlbe = 13,
};

// CompressionType (§10.1).
enum class Compression : uint8_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kSdt = 4,
  kPaa = 5,
  kPla = 6,
  kLz4 = 7,
  kZstd = 8,
  kLzma2 = 9,
};

// ColumnCategory of a table column (§11), stored as an i32 ordinal.
enum class ColumnCategory : uint8_t {
  kTag = 0,
  kField = 1,
  kAttribute = 2,
};

// The enum for a byte read from a file, or nullopt if the byte names none (§13 item 21).
std::optional<DataType> DataTypeFromByte(uint8_t b);
std::optional<Encoding> EncodingFromByte(uint8_t b);
std::optional<Compression> CompressionFromByte(uint8_t b);
std::optional<ColumnCategory> ColumnCategoryFromInt(int32_t v);

// Upper-case names as Apache spells them ("INT64", "TS_2DIFF", "LZ4", "TAG").
std::string_view DataTypeName(DataType t);
std::string_view EncodingName(Encoding e);
std::string_view CompressionName(Compression c);
std::string_view ColumnCategoryName(ColumnCategory c);

// The physical value kind a data type decodes to.
enum class PhysicalType : uint8_t { kBoolean, kInt32, kInt64, kFloat, kDouble, kBinary };
// Physical type of a value column's data type; VECTOR (time) is kInt64.
PhysicalType PhysicalTypeOf(DataType t);
// INT32, DATE, INT64, TIMESTAMP: the value types that are integers (not BOOLEAN).
inline bool IsIntegerType(DataType t) {
  return t == DataType::kInt32 || t == DataType::kDate || t == DataType::kInt64 || t == DataType::kTimestamp;
}
// FLOAT, DOUBLE.
inline bool IsFloatType(DataType t) { return t == DataType::kFloat || t == DataType::kDouble; }

}  // namespace tsread

#endif  // TSREAD_COMMON_TSFILE_ENUMS_H_

// ReadStatistics / ReadStatisticsInto / SkipStatistics (format reference §4) on hand-built bytes:
// the values of every fixed-size type, objects reused across types, and truncation at every byte.
#include "tsread/format/statistics.h"

#include <bit>
#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace tsread {
namespace {

std::string BigEndian(uint64_t v, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  return out;
}
std::string I32(int32_t v) { return BigEndian(static_cast<uint32_t>(v), 4); }
std::string I64(int64_t v) { return BigEndian(static_cast<uint64_t>(v), 8); }
std::string F32(float v) { return BigEndian(std::bit_cast<uint32_t>(v), 4); }
std::string F64(double v) { return BigEndian(std::bit_cast<uint64_t>(v), 8); }
std::string IStr(const std::string& s) { return I32(static_cast<int32_t>(s.size())) + s; }

// count 3 (one-byte varint), times 10 .. 30.
std::string Head() { return std::string(1, '\x03') + I64(10) + I64(30); }

std::string Int32Bytes() { return Head() + I32(-5) + I32(7) + I32(1) + I32(2) + I64(-300); }
std::string Int64Bytes() { return Head() + I64(-5000000000) + I64(7) + I64(1) + I64(2) + F64(2.5); }
std::string FloatBytes() { return Head() + F32(-1.5f) + F32(3.25f) + F32(0.5f) + F32(1.0f) + F64(4.0); }
std::string DoubleBytes() { return Head() + F64(-1e300) + F64(1e300) + F64(0.1) + F64(0.2) + F64(0.3); }
std::string BooleanBytes() { return Head() + std::string("\x01\x00", 2) + I64(2); }
std::string StringBytes() { return Head() + IStr("first") + IStr("last") + IStr("a") + IStr("zz"); }

Statistics Read(const std::string& bytes, DataType type) {
  ByteStream in(bytes, 100);
  absl::StatusOr<Statistics> s = ReadStatistics(in, type);
  EXPECT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(in.empty());
  return s.ok() ? *s : Statistics{};
}

TEST(StatisticsTest, FixedSizeTypesReadEveryField) {
  const Statistics i32 = Read(Int32Bytes(), DataType::kInt32);
  EXPECT_EQ(i32.count, 3u);
  EXPECT_EQ(i32.start_time, 10);
  EXPECT_EQ(i32.end_time, 30);
  EXPECT_EQ(i32.int_min, -5);
  EXPECT_EQ(i32.int_max, 7);
  EXPECT_EQ(i32.int_first, 1);
  EXPECT_EQ(i32.int_last, 2);
  EXPECT_EQ(i32.int_sum, -300);
  const Statistics i64 = Read(Int64Bytes(), DataType::kInt64);
  EXPECT_EQ(i64.int_min, -5000000000);
  EXPECT_EQ(i64.float_sum, 2.5);
  const Statistics f32 = Read(FloatBytes(), DataType::kFloat);
  EXPECT_EQ(f32.float_min, -1.5);
  EXPECT_EQ(f32.float_max, 3.25);
  EXPECT_EQ(f32.float_first, 0.5);
  EXPECT_EQ(f32.float_last, 1.0);
  EXPECT_EQ(f32.float_sum, 4.0);
  const Statistics f64 = Read(DoubleBytes(), DataType::kDouble);
  EXPECT_EQ(f64.float_min, -1e300);
  EXPECT_EQ(f64.float_sum, 0.3);
  const Statistics b = Read(BooleanBytes(), DataType::kBoolean);
  EXPECT_TRUE(b.bool_first);
  EXPECT_FALSE(b.bool_last);
  EXPECT_EQ(b.int_sum, 2);
  const Statistics time = Read(Head(), DataType::kVector);
  EXPECT_EQ(time.count, 3u);
  EXPECT_EQ(time.end_time, 30);
}

TEST(StatisticsTest, AReusedObjectKeepsNothingOfTheTypeReadBefore) {
  Statistics s;
  const std::string string_bytes = StringBytes(), double_bytes = DoubleBytes(), int_bytes = Int32Bytes();
  ByteStream strings(string_bytes, 0);
  ASSERT_TRUE(ReadStatisticsInto(strings, DataType::kString, s).ok());
  EXPECT_EQ(s.bin_first, "first");
  EXPECT_EQ(s.bin_max, "zz");
  ByteStream doubles(double_bytes, 0);
  ASSERT_TRUE(ReadStatisticsInto(doubles, DataType::kDouble, s).ok());
  ByteStream ints(int_bytes, 0);
  ASSERT_TRUE(ReadStatisticsInto(ints, DataType::kInt32, s).ok());
  // Equal, field by field, to the same bytes read into a fresh object.
  const Statistics fresh = Read(Int32Bytes(), DataType::kInt32);
  EXPECT_EQ(s.type, DataType::kInt32);
  EXPECT_EQ(s.int_min, fresh.int_min);
  EXPECT_EQ(s.int_sum, fresh.int_sum);
  EXPECT_EQ(s.float_min, 0.0);
  EXPECT_EQ(s.float_sum, 0.0);
  EXPECT_TRUE(s.bin_first.empty());
  EXPECT_TRUE(s.bin_last.empty());
  EXPECT_TRUE(s.bin_min.empty());
  EXPECT_TRUE(s.bin_max.empty());
}

TEST(StatisticsTest, TruncationAtEveryByteIsDataLossNamingTheField) {
  const std::pair<std::string, DataType> cases[] = {{Int32Bytes(), DataType::kInt32},
                                                     {Int64Bytes(), DataType::kInt64},
                                                     {FloatBytes(), DataType::kFloat},
                                                     {DoubleBytes(), DataType::kDouble},
                                                     {BooleanBytes(), DataType::kBoolean},
                                                     {StringBytes(), DataType::kString}};
  for (const auto& [bytes, type] : cases) {
    for (size_t cut = 0; cut < bytes.size(); ++cut) {
      const std::string head = bytes.substr(0, cut);
      ByteStream in(head, 100);
      absl::StatusOr<Statistics> s = ReadStatistics(in, type);
      ASSERT_FALSE(s.ok()) << DataTypeName(type) << " cut at " << cut;
      EXPECT_EQ(s.status().code(), absl::StatusCode::kDataLoss);
      EXPECT_NE(s.status().message().find("statistics"), std::string::npos) << s.status();
      ByteStream skipped(head, 100);
      EXPECT_EQ(SkipStatistics(skipped, type).message(), s.status().message());
    }
  }
  // A cut inside the minimum names it, as the field-by-field reading always did.
  const std::string cut_in_min = Int64Bytes().substr(0, 1 + 16 + 3);
  ByteStream in(cut_in_min, 100);
  EXPECT_NE(ReadStatistics(in, DataType::kInt64).status().message().find("INT64 statistics min at offset 117"),
            std::string::npos);
}

TEST(StatisticsTest, SkipStopsWhereReadStops) {
  for (const auto& [bytes, type] : {std::pair{Int32Bytes(), DataType::kInt32}, std::pair{StringBytes(), DataType::kString},
                                    std::pair{BooleanBytes(), DataType::kBoolean}}) {
    const std::string stream = bytes + "tail";
    ByteStream in(stream, 0);
    ASSERT_TRUE(SkipStatistics(in, type).ok());
    EXPECT_EQ(in.rest(), "tail");
  }
}

}  // namespace
}  // namespace tsread

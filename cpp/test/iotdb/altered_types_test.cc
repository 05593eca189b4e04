// The casts IoTDB allows after ALTER COLUMN ... SET DATA TYPE, written out from
// iotdb-data-directories.md ("Allowed casts", apache/tsfile TSDataType.compatibleTypes).
#include "tsread/iotdb/altered_types.h"

#include "gtest/gtest.h"

namespace tsread::iotdb {
namespace {

constexpr DataType kAll[] = {DataType::kBoolean, DataType::kInt32,  DataType::kInt64, DataType::kFloat,
                             DataType::kDouble,  DataType::kText,   DataType::kTimestamp, DataType::kDate,
                             DataType::kBlob,    DataType::kString};

TEST(AlteredTypesTest, CastsAreIotdbsTable) {
  using T = DataType;
  const std::vector<std::pair<T, std::vector<T>>> allowed = {
      {T::kInt64, {T::kInt32, T::kTimestamp}},
      {T::kFloat, {T::kInt32}},
      {T::kDouble, {T::kInt32, T::kInt64, T::kFloat, T::kTimestamp}},
      {T::kTimestamp, {T::kInt32, T::kInt64}},
      {T::kText, {T::kBoolean, T::kInt32, T::kInt64, T::kFloat, T::kDouble, T::kDate, T::kTimestamp, T::kBlob, T::kString}},
      {T::kString, {T::kBoolean, T::kInt32, T::kInt64, T::kFloat, T::kDouble, T::kDate, T::kTimestamp, T::kBlob, T::kText}},
      {T::kBlob, {T::kString, T::kText}},
      {T::kBoolean, {}},
      {T::kInt32, {}},
      {T::kDate, {}},
  };
  for (const auto& [to, froms] : allowed) {
    for (DataType from : kAll) {
      const bool expected = from == to || std::find(froms.begin(), froms.end(), from) != froms.end();
      EXPECT_EQ(CastsTo(from, to), expected) << DataTypeName(from) << " -> " << DataTypeName(to);
    }
  }
}

TEST(AlteredTypesTest, TheTypeEveryFileCastsToTheNewestAmongSeveral) {
  EXPECT_EQ(AlteredType({DataType::kInt32, DataType::kDouble}), DataType::kDouble);
  EXPECT_EQ(AlteredType({DataType::kDouble, DataType::kInt32}), DataType::kDouble);  // an older type in a newer file
  EXPECT_EQ(AlteredType({DataType::kInt32, DataType::kInt64, DataType::kDouble}), DataType::kDouble);
  EXPECT_EQ(AlteredType({DataType::kString, DataType::kText}), DataType::kText);  // both qualify: the newest
  EXPECT_EQ(AlteredType({DataType::kText, DataType::kString}), DataType::kString);
  EXPECT_EQ(AlteredType({DataType::kBoolean, DataType::kFloat, DataType::kString}), DataType::kString);
  EXPECT_EQ(AlteredType({DataType::kBoolean, DataType::kInt64}), std::nullopt);
  EXPECT_EQ(AlteredType({DataType::kDate, DataType::kInt32}), std::nullopt);
}

}  // namespace
}  // namespace tsread::iotdb

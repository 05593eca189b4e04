// Dataset splits (DatasetScanner::Splits, SerializeSplit) and their serialized form (the format of
// tsread/dataset/split_codec.h) read back by SplitReader: splits executed in any order give the
// whole dataset, with and without a projection, a time range and tag predicates; bytes that are no
// split, truncated, or whose file changed size are refused; a reader narrowed to some of the
// planned columns reads only those, in its order.
#include "tsread/dataset/dataset_scanner.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/dataset_files.h"
#include "testing/row_key.h"

namespace tsread {
namespace {

using testing::CopyFixture;
using testing::MakeScanner;
using testing::MakeTimeSlices;
using testing::OpenDataset;
using testing::Sorted;
using testing::SortedKeys;
using testing::TimeSlices;

// A canonical text of one row, its file first: compares scans whose order differs.
std::string RowKey(const TableBatch& batch, size_t r) { return testing::RowKey(batch, r, /*with_file=*/true); }

TEST(DatasetTest, SerializedSplitsExecutedInAnyOrderGiveTheWholeDataset) {
  TimeSlices slices = MakeTimeSlices("splits");
  CopyFixture("table_comp_ZSTD", slices.dir + "/z.tsfile");
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir});
  ASSERT_NE(dataset, nullptr);
  for (const bool filtered : {false, true}) {
    DatasetScanOptions options;
    if (filtered) {
      options.columns = {"f_double", "id", "f_string"};
      options.time_range = TimeRange{1700000500000, 1700002500000};
      options.tag_predicates = {TagPredicate{"region", {"north", std::nullopt}}};
      // Value predicates of every operand kind, on projected columns and not.
      options.value_predicates = {ValuePredicate{"f_double", CompareOp::kGt, {-1e9}},
                                  ValuePredicate{"f_int32", CompareOp::kNe, {int64_t{7}}},
                                  ValuePredicate{"f_boolean", CompareOp::kEq, {true, false}},
                                  ValuePredicate{"f_string", CompareOp::kNe, {std::string("mode_5")}},
                                  ValuePredicate{"f_float", CompareOp::kIsNotNull, {}}};
    }
    std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
    ASSERT_NE(scanner, nullptr);
    const std::vector<std::string> whole = SortedKeys(*scanner);
    ASSERT_FALSE(whole.empty());
    absl::StatusOr<std::vector<DatasetSplit>> splits = scanner->Splits(20000);
    ASSERT_TRUE(splits.ok()) << splits.status();
    EXPECT_GT(splits->size(), dataset->files().size());
    std::vector<std::string> serialized;
    for (const DatasetSplit& split : *splits) serialized.push_back(scanner->SerializeSplit(split));
    std::shuffle(serialized.begin(), serialized.end(), std::mt19937(7));
    std::vector<std::string> keys;
    for (const std::string& bytes : serialized) {
      absl::StatusOr<std::unique_ptr<SplitReader>> reader = SplitReader::Open(bytes);
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_EQ((*reader)->projection().size(), scanner->projection().size());
      ASSERT_TRUE((*reader)->Scan([&](const TableBatch& batch) {
                     for (size_t r = 0; r < batch.num_rows(); ++r) keys.push_back(RowKey(batch, r));
                     return absl::OkStatus();
                   }).ok());
    }
    EXPECT_EQ(Sorted(keys), whole);
  }
  // Not a split, a truncated one (with value predicates), and one whose file changed size.
  DatasetScanOptions options;
  options.value_predicates = {ValuePredicate{"f_double", CompareOp::kLt, {1e9}},
                              ValuePredicate{"f_string", CompareOp::kEq, {std::string("a"), std::string("b")}}};
  std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
  std::vector<DatasetSplit> splits = scanner->Splits(1 << 30).value();
  const std::string bytes = scanner->SerializeSplit(splits[0]);
  EXPECT_EQ(SplitReader::Open("hello").status().code(), absl::StatusCode::kInvalidArgument);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(SplitReader::Open(bytes.substr(0, n)).status().code(), absl::StatusCode::kInvalidArgument) << n;
  }
  EXPECT_EQ(SplitReader::Open(bytes + "x").status().code(), absl::StatusCode::kInvalidArgument);
  std::ofstream(dataset->files()[splits[0].file].path, std::ios::app) << "more";
  EXPECT_EQ(SplitReader::Open(bytes).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(DatasetTest, NarrowedSplitsReadOnlyTheNamedColumnsInTheirOrder) {
  TimeSlices slices = MakeTimeSlices("narrowed");
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir});
  ASSERT_NE(dataset, nullptr);
  const std::vector<std::string> narrowed = {"f_string", "id"};
  for (const bool all_columns : {true, false}) {
    DatasetScanOptions planned;
    if (!all_columns) planned.columns = {"f_double", "id", "f_string"};
    planned.time_range = TimeRange{1700000500000, 1700002500000};
    std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, planned);
    ASSERT_NE(scanner, nullptr);
    DatasetScanOptions direct = planned;
    direct.columns = narrowed;
    std::unique_ptr<DatasetScanner> expected = MakeScanner(*dataset, direct);
    ASSERT_NE(expected, nullptr);
    absl::StatusOr<std::vector<DatasetSplit>> splits = scanner->Splits(20000);
    ASSERT_TRUE(splits.ok()) << splits.status();
    std::vector<std::string> keys;
    for (const DatasetSplit& split : *splits) {
      const std::string bytes = scanner->SerializeSplit(split);
      absl::StatusOr<std::unique_ptr<SplitReader>> reader = SplitReader::Open(bytes, 0, {}, narrowed);
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_EQ((*reader)->projection().size(), 2u);
      EXPECT_EQ((*reader)->projection()[0].name, "f_string");
      EXPECT_EQ((*reader)->projection()[1].name, "id");
      ASSERT_TRUE((*reader)->Scan([&](const TableBatch& batch) {
                     for (size_t r = 0; r < batch.num_rows(); ++r) keys.push_back(RowKey(batch, r));
                     return absl::OkStatus();
                   }).ok());
      // A column the split does not project (planned without it, or not in the table at all).
      const std::vector<std::string> outside = {all_columns ? "no_such_column" : "f_int32"};
      EXPECT_EQ(SplitReader::Open(bytes, 0, {}, outside).status().code(), absl::StatusCode::kInvalidArgument);
    }
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(Sorted(keys), SortedKeys(*expected)) << all_columns;
  }
}

}  // namespace
}  // namespace tsread

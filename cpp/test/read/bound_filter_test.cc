// BoundFilter (bound_filter.h): verdicts combined through AND and OR, rows evaluated through them
// with columns decoded only where needed; and scans with ORs — on every table fixture the rows of
// `A OR B` are the union of the rows of A and of B, each scanned alone (whose rows the value
// predicate tests check against the fixtures), and the reference CSV's own count for the text a
// new user typed.
#include "tsread/read/bound_filter.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/fixtures.h"
#include "testing/scan_with_predicates.h"
#include "tsread/read/predicate_text.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread {
namespace {

using Kind = PredicateExpr::Kind;

BoundPredicate Int64Leaf(CompareOp op, int64_t v, size_t index = 0) {
  return BindPredicate(ValuePredicate{"c" + std::to_string(index), op, {v}}, DataType::kInt64, index).value();
}

// (c0 > 5 OR c1 < 0) AND c0 != 7 as a filter: leaves 0, 1, 2.
BoundFilter OrUnderAnd() {
  BoundFilter f;
  const size_t either = f.AddNode(0, Kind::kOr);
  f.AddLeaf(either, Int64Leaf(CompareOp::kGt, 5, 0));
  f.AddLeaf(either, Int64Leaf(CompareOp::kLt, 0, 1));
  f.AddLeaf(0, Int64Leaf(CompareOp::kNe, 7, 0));
  return f;
}

TEST(BoundFilterTest, VerdictsCombineAsAndAndOrDo) {
  const BoundFilter f = OrUnderAnd();
  std::vector<Verdict> nodes;
  using V = Verdict;
  // An OR is out only when every operand is; an AND when any is.
  EXPECT_EQ(f.Combine({V::kNone, V::kNone, V::kAll}, nodes), V::kNone);
  EXPECT_EQ(f.Combine({V::kNone, V::kSome, V::kAll}, nodes), V::kSome);
  EXPECT_EQ(f.Combine({V::kAll, V::kNone, V::kAll}, nodes), V::kAll);
  EXPECT_EQ(f.Combine({V::kSome, V::kAll, V::kAll}, nodes), V::kAll);
  EXPECT_EQ(f.Combine({V::kAll, V::kAll, V::kNone}, nodes), V::kNone);
  EXPECT_EQ(f.Combine({V::kSome, V::kSome, V::kSome}, nodes), V::kSome);
  // An empty filter holds for every row.
  EXPECT_EQ(BoundFilter().Combine({}, nodes), V::kAll);
}

// Rows of columns c0 and c1; AndRows with the leaf evaluation counting which leaves it needed.
struct Evaluation {
  std::vector<uint8_t> keep;
  std::vector<size_t> leaves_evaluated;
};

Evaluation Evaluate(const BoundFilter& f, const std::vector<Verdict>& leaf_verdicts, const std::vector<int64_t>& c0,
                    const std::vector<int64_t>& c1) {
  std::vector<Verdict> nodes;
  f.Combine(leaf_verdicts, nodes);
  std::vector<ColumnVector> columns(2);
  for (size_t j = 0; j < 2; ++j) {
    columns[j].type = DataType::kInt64;
    columns[j].Resize(c0.size());
    columns[j].int64s = j == 0 ? c0 : c1;
    columns[j].SetAllValid();
  }
  Evaluation e;
  e.keep.assign(c0.size(), 1);
  std::vector<std::vector<uint8_t>> scratch;
  absl::Status s = f.AndRows(
      nodes,
      [&](size_t leaf, std::vector<uint8_t>& keep) {
        e.leaves_evaluated.push_back(leaf);
        KeepMatches(f.leaves()[leaf], columns[f.leaves()[leaf].index], keep);
        return absl::OkStatus();
      },
      e.keep, scratch);
  EXPECT_TRUE(s.ok()) << s;
  return e;
}

TEST(BoundFilterTest, RowsAreTheTruthOfTheExpression) {
  const BoundFilter f = OrUnderAnd();
  const std::vector<int64_t> c0 = {1, 6, 7, 9, 2, 7};
  const std::vector<int64_t> c1 = {-1, 0, 0, 5, 3, -4};
  const std::vector<Verdict> open(3, Verdict::kSome);
  // (c0 > 5 OR c1 < 0) AND c0 != 7, row by row.
  EXPECT_EQ(Evaluate(f, open, c0, c1).keep, (std::vector<uint8_t>{1, 1, 0, 1, 0, 0}));
}

TEST(BoundFilterTest, SettledLeavesAreNotEvaluated) {
  const BoundFilter f = OrUnderAnd();
  const std::vector<int64_t> c0 = {1, 6, 7}, c1 = {-1, 0, 0};
  // c0 > 5 settled for every row: the OR holds without c1, only c0 != 7 is evaluated.
  Evaluation e = Evaluate(f, {Verdict::kAll, Verdict::kSome, Verdict::kSome}, c0, c1);
  EXPECT_EQ(e.leaves_evaluated, (std::vector<size_t>{2}));
  EXPECT_EQ(e.keep, (std::vector<uint8_t>{1, 1, 0}));
  // c0 > 5 settled for no row: the OR is c1 < 0 alone.
  e = Evaluate(f, {Verdict::kNone, Verdict::kSome, Verdict::kSome}, c0, c1);
  EXPECT_EQ(e.leaves_evaluated, (std::vector<size_t>{1, 2}));
  EXPECT_EQ(e.keep, (std::vector<uint8_t>{1, 0, 0}));
}

TEST(BoundFilterTest, ShortCircuitsSpareColumns) {
  const BoundFilter f = OrUnderAnd();
  // Every row matches the OR's first operand: its second (column c1) is never evaluated.
  Evaluation e = Evaluate(f, std::vector<Verdict>(3, Verdict::kSome), {6, 8, 9}, {1, 1, 1});
  EXPECT_EQ(e.leaves_evaluated, (std::vector<size_t>{0, 2}));
  // No row matches the OR: the AND's other operand is never evaluated.
  e = Evaluate(f, std::vector<Verdict>(3, Verdict::kSome), {1, 2, 3}, {1, 1, 1});
  EXPECT_EQ(e.leaves_evaluated, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(e.keep, (std::vector<uint8_t>{0, 0, 0}));
}

TEST(BoundFilterTest, NestedOrsUnderOrsAndAnds) {
  // c0 = 1 OR (c1 = 2 AND (c0 = 3 OR c1 = 4)).
  BoundFilter f;
  const size_t top = f.AddNode(0, Kind::kOr);
  f.AddLeaf(top, Int64Leaf(CompareOp::kEq, 1, 0));
  const size_t both = f.AddNode(top, Kind::kAnd);
  f.AddLeaf(both, Int64Leaf(CompareOp::kEq, 2, 1));
  const size_t inner = f.AddNode(both, Kind::kOr);
  f.AddLeaf(inner, Int64Leaf(CompareOp::kEq, 3, 0));
  f.AddLeaf(inner, Int64Leaf(CompareOp::kEq, 4, 1));
  const std::vector<int64_t> c0 = {1, 3, 3, 5, 5, 1};
  const std::vector<int64_t> c1 = {0, 2, 4, 2, 4, 2};
  EXPECT_EQ(Evaluate(f, std::vector<Verdict>(4, Verdict::kSome), c0, c1).keep,
            (std::vector<uint8_t>{1, 1, 0, 0, 0, 1}));
}

TEST(BoundFilterTest, TagLeavesAreDecidedByTheDeviceId) {
  BoundFilter f;
  const size_t either = f.AddNode(0, Kind::kOr);
  f.AddLeaf(either, BindPredicate(ValuePredicate{"region", CompareOp::kEq, {std::string("east")}}, DataType::kString, 0).value(), 1);
  f.AddLeaf(either, Int64Leaf(CompareOp::kGt, 5));
  EXPECT_TRUE(f.HasTagLeaves());
  std::vector<Verdict> leaves(2, Verdict::kSome), nodes;
  f.DecideTagLeaves([](size_t segment) -> std::optional<std::string_view> { return segment == 1 ? "east" : "x"; }, leaves);
  EXPECT_EQ(leaves[0], Verdict::kAll);
  EXPECT_EQ(leaves[1], Verdict::kSome);  // FIELD leaves are left to the statistics and rows
  EXPECT_EQ(f.Combine(leaves, nodes), Verdict::kAll);
  f.DecideTagLeaves([](size_t) -> std::optional<std::string_view> { return std::nullopt; }, leaves);
  EXPECT_EQ(leaves[0], Verdict::kNone);
  EXPECT_EQ(f.Combine(leaves, nodes), Verdict::kSome);
}

// ---- Scans ----

// Each scanned row as (device, time), in scan order.
std::vector<std::pair<std::string, int64_t>> ScanKeys(const TsFileReader& reader, const std::string& table,
                                                      std::vector<PredicateExpr> predicates,
                                                      PredicateCounts* counts = nullptr) {
  ScanOptions options;
  options.table = table;
  options.columns = {};
  options.value_predicates = std::move(predicates);
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(reader, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  if (!scanner.ok()) return {};
  std::vector<std::pair<std::string, int64_t>> keys;
  absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
    for (size_t r = 0; r < batch.num_rows(); ++r) keys.emplace_back(batch.device->ToString(), batch.times[r]);
    return absl::OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s;
  if (counts != nullptr) *counts = (*scanner)->predicate_counts();
  return keys;
}

// The rows of `all` (scan order) that are in a or in b.
std::vector<std::pair<std::string, int64_t>> Union(const std::vector<std::pair<std::string, int64_t>>& all,
                                                   const std::vector<std::pair<std::string, int64_t>>& a,
                                                   const std::vector<std::pair<std::string, int64_t>>& b) {
  std::set<std::pair<std::string, int64_t>> either(a.begin(), a.end());
  either.insert(b.begin(), b.end());
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& key : all) {
    if (either.count(key) != 0) out.push_back(key);
  }
  return out;
}

// A predicate on `column` that, on the fixtures' data, keeps some rows and not others.
ValuePredicate SomeRows(const ColumnSchema& column) {
  if (column.category == ColumnCategory::kTag) return {column.name, CompareOp::kIsNotNull, {}};
  return testing::SomeRowsPredicate(column);
}

class OrScanTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OrScanTest, AnOrKeepsTheUnionOfItsOperandsRows) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(testing::FixturePath(GetParam() + ".tsfile")).value();
  for (const TableSchema& schema : reader->metadata().table_schemas) {
    SCOPED_TRACE(schema.name);
    const auto all = ScanKeys(*reader, schema.name, {});
    std::vector<ValuePredicate> tests;
    std::set<std::pair<ColumnCategory, DataType>> seen;
    for (const ColumnSchema& column : schema.columns) {
      if (column.category == ColumnCategory::kAttribute || !seen.insert({column.category, column.data_type}).second) continue;
      tests.push_back(SomeRows(column));
    }
    for (size_t i = 0; i + 1 < tests.size(); ++i) {
      const ValuePredicate& a = tests[i];
      const ValuePredicate& b = tests[i + 1];
      SCOPED_TRACE(DescribePredicate(a) + " OR " + DescribePredicate(b));
      const auto rows_a = ScanKeys(*reader, schema.name, {a});
      const auto rows_b = ScanKeys(*reader, schema.name, {b});
      EXPECT_EQ(ScanKeys(*reader, schema.name, {PredicateExpr::Or({a, b})}), Union(all, rows_a, rows_b));
      // ANDed with a third condition: the union's rows that also satisfy it.
      const ValuePredicate& c = tests[(i + 2) % tests.size()];
      const auto rows_c = ScanKeys(*reader, schema.name, {c});
      const std::set<std::pair<std::string, int64_t>> in_c(rows_c.begin(), rows_c.end());
      std::vector<std::pair<std::string, int64_t>> want;
      for (const auto& key : Union(all, rows_a, rows_b)) {
        if (in_c.count(key) != 0) want.push_back(key);
      }
      EXPECT_EQ(ScanKeys(*reader, schema.name, {PredicateExpr::Or({a, b}), c}), want);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, OrScanTest, ::testing::ValuesIn(testing::TableFixtureStems()),
                         [](const auto& info) { return info.param; });

// The reference CSV's rows whose column `j` is one of `values`.
size_t CsvRowsWith(const std::string& csv, size_t j, const std::set<std::string>& values) {
  size_t n = 0;
  const std::vector<testing::CsvRow> rows = testing::ParseCsv(testing::ReadWholeFile(testing::FixturePath(csv)));
  for (size_t r = 1; r < rows.size(); ++r) n += values.count(rows[r][j].text) != 0 ? 1 : 0;
  return n;
}

TEST(OrTextScanTest, TheNewUsersOrCountsWhatTheReferenceHolds) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(testing::FixturePath("table_alltypes.tsfile")).value();
  const size_t want = CsvRowsWith("table_alltypes.t_all.csv", 1, {"east", "west"});
  ASSERT_EQ(want, 45000u);  // the count the issue quotes
  for (const char* text : {"region = east OR region = west", "region = 'east' or region = 'west'",
                           "(region = east) OR (region = west)", "region = east, west"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(ScanKeys(*reader, "t_all", ParsePredicates(text).value()).size(), want);
  }
  // A TAG and a FIELD under one OR: rows of either, each counted once.
  const auto east = ScanKeys(*reader, "t_all", ParsePredicates("region = east").value());
  const auto neg = ScanKeys(*reader, "t_all", ParsePredicates("f_int32 < 0").value());
  const auto all = ScanKeys(*reader, "t_all", {});
  EXPECT_EQ(ScanKeys(*reader, "t_all", ParsePredicates("region = east OR f_int32 < 0").value()), Union(all, east, neg));
  // A tag that is null, or east.
  const size_t null_or_east = CsvRowsWith("table_alltypes.t_all.csv", 1, {"", "east"});
  EXPECT_EQ(ScanKeys(*reader, "t_all", ParsePredicates("region = east OR region IS NULL").value()).size(), null_or_east);
}

TEST(OrTextScanTest, StatisticsRuleOutAnOrOnlyWhereEveryOperandIsOut) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(testing::FixturePath("table_alltypes.tsfile")).value();
  PredicateCounts counts;
  // Both operands beyond every value: nothing is decoded, every device is out.
  EXPECT_TRUE(ScanKeys(*reader, "t_all", ParsePredicates("f_int64 > 9223372036854775807 OR f_int32 < -2147483648").value(), &counts)
                  .empty());
  EXPECT_GT(counts.devices_skipped, 0u);
  EXPECT_EQ(counts.pages_evaluated, 0u);
  // One operand true of every row (a device's tag is null or not): every page matches whole,
  // nothing is evaluated.
  const auto all = ScanKeys(*reader, "t_all", {});
  EXPECT_EQ(ScanKeys(*reader, "t_all", ParsePredicates("f_int64 < 0 OR region IS NOT NULL OR region IS NULL").value(),
                     &counts),
            all);
  EXPECT_EQ(counts.pages_evaluated, 0u);
  EXPECT_GT(counts.pages_matched, 0u);
}

}  // namespace
}  // namespace tsread

// Scans with value predicates against the test's own filter of the unfiltered scan's rows: every
// table of every fixture, a column of each type, operators around each column's smallest, middle
// and largest value and outside its range, null tests, AND; with the predicate column projected
// and not. A written file adds NaN, -0.0, extremes, nulls, a match of exactly one row at a page
// boundary, and counters that show statistics skipping pages.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/read_log.h"
#include "testing/table_schemas.h"
#include "testing/test_mode.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

// One value as the test holds it.
struct Cell {
  bool null = true;
  int64_t i = 0;  // BOOLEAN, INT32, DATE, INT64, TIMESTAMP
  double d = 0;   // FLOAT (widened), DOUBLE
  std::string s;  // TEXT, STRING, BLOB; TAG
};

struct Row {
  std::string device;
  int64_t time = 0;
  std::vector<Cell> cells;  // one per schema column
};

bool IsInteger(DataType t) {
  return t == DataType::kBoolean || t == DataType::kInt32 || t == DataType::kInt64 || t == DataType::kDate ||
         t == DataType::kTimestamp;
}
bool IsFloat(DataType t) { return t == DataType::kFloat || t == DataType::kDouble; }

Cell CellOf(const TableBatch& batch, size_t j, size_t r) {
  Cell c;
  const ProjectedColumn& column = (*batch.projection)[j];
  if (column.category == ColumnCategory::kTag) {
    std::optional<std::string_view> tag = batch.tag(j);
    c.null = !tag.has_value();
    if (tag.has_value()) c.s = std::string(*tag);
    return c;
  }
  const ColumnVector& v = batch.columns[j];
  if (!v.IsValid(r)) return c;
  c.null = false;
  switch (v.type) {
    case DataType::kBoolean: c.i = v.bools[r]; break;
    case DataType::kInt32:
    case DataType::kDate: c.i = v.int32s[r]; break;
    case DataType::kInt64:
    case DataType::kTimestamp: c.i = v.int64s[r]; break;
    case DataType::kFloat: c.d = v.floats[r]; break;
    case DataType::kDouble: c.d = v.doubles[r]; break;
    default: c.s = std::string(v.binary(r));
  }
  return c;
}

std::vector<Row> Scan(const TsFileReader& reader, const std::string& table, const std::vector<std::string>& columns,
                      const std::vector<ValuePredicate>& predicates, PredicateCounts* counts = nullptr) {
  ScanOptions options;
  options.table = table;
  options.columns = columns;
  options.value_predicates.assign(predicates.begin(), predicates.end());
  absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(reader, options);
  EXPECT_TRUE(scanner.ok()) << scanner.status();
  if (!scanner.ok()) return {};
  std::vector<Row> rows;
  absl::Status status = (*scanner)->Scan([&](int, const TableBatch& batch) {
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      Row row{batch.device->ToString(), batch.times[r], {}};
      for (size_t j = 0; j < batch.projection->size(); ++j) row.cells.push_back(CellOf(batch, j, r));
      rows.push_back(std::move(row));
    }
    return absl::OkStatus();
  });
  EXPECT_TRUE(status.ok()) << status;
  if (counts != nullptr) *counts = (*scanner)->predicate_counts();
  return rows;
}

// The test's own predicate: SQL semantics written out value by value.
bool Compare(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kEq: return c == 0;
    case CompareOp::kNe: return c != 0;
    case CompareOp::kLt: return c < 0;
    case CompareOp::kLe: return c <= 0;
    case CompareOp::kGt: return c > 0;
    case CompareOp::kGe: return c >= 0;
    default: return false;
  }
}

bool Matches(const Cell& cell, DataType type, const ValuePredicate& p) {
  if (p.op == CompareOp::kIsNull) return cell.null;
  if (p.op == CompareOp::kIsNotNull) return !cell.null;
  if (cell.null) return false;
  for (const PredicateValue& v : p.values) {
    bool m = false;
    if (IsFloat(type)) {
      double x = std::holds_alternative<double>(v) ? std::get<double>(v) : static_cast<double>(std::get<int64_t>(v));
      if (type == DataType::kFloat) x = static_cast<float>(x);
      // IEEE: every comparison with NaN is false but !=.
      if (std::isnan(cell.d) || std::isnan(x)) {
        m = p.op == CompareOp::kNe;
      } else {
        m = Compare(p.op, cell.d < x ? -1 : (cell.d > x ? 1 : 0));
      }
    } else if (IsInteger(type)) {
      const int64_t x = std::holds_alternative<bool>(v) ? std::get<bool>(v) : std::get<int64_t>(v);
      m = Compare(p.op, cell.i < x ? -1 : (cell.i > x ? 1 : 0));
    } else {
      const std::string& x = std::get<std::string>(v);
      // Unsigned bytes.
      const int c = std::memcmp(cell.s.data(), x.data(), std::min(cell.s.size(), x.size()));
      m = Compare(p.op, c != 0 ? c : (cell.s.size() < x.size() ? -1 : (cell.s.size() > x.size() ? 1 : 0)));
    }
    if (m) return true;
  }
  return false;
}

bool SameCell(const Cell& a, const Cell& b) {
  return a.null == b.null && a.i == b.i && std::memcmp(&a.d, &b.d, sizeof a.d) == 0 && a.s == b.s;
}

// Indexes of the rows of `all` that satisfy every predicate, by the test's own filter.
std::vector<size_t> Expected(const std::vector<Row>& all, const TableSchema& schema,
                             const std::vector<ValuePredicate>& predicates) {
  std::vector<size_t> out;
  for (size_t r = 0; r < all.size(); ++r) {
    bool match = true;
    for (const ValuePredicate& p : predicates) {
      const size_t j = *schema.FindColumn(p.column);
      const DataType type = schema.columns[j].category == ColumnCategory::kTag ? DataType::kString
                                                                               : schema.columns[j].data_type;
      match = match && Matches(all[r].cells[j], type, p);
    }
    if (match) out.push_back(r);
  }
  return out;
}

// The scanned rows are the expected rows of `all`, in order, with the same values in the
// projected columns `columns` (schema indexes); reported briefly.
void ExpectRows(const std::vector<Row>& got, const std::vector<Row>& all, const std::vector<size_t>& want,
                const std::vector<size_t>& columns) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const Row& expected = all[want[i]];
    ASSERT_EQ(got[i].device, expected.device) << "row " << i;
    ASSERT_EQ(got[i].time, expected.time) << "row " << i;
    for (size_t k = 0; k < columns.size(); ++k) {
      ASSERT_TRUE(SameCell(got[i].cells[k], expected.cells[columns[k]])) << "row " << i << " column " << columns[k];
    }
  }
}

PredicateValue OperandOf(const Cell& c, DataType type) {
  if (type == DataType::kBoolean) return PredicateValue(c.i != 0);
  if (IsInteger(type)) return PredicateValue(c.i);
  if (IsFloat(type)) return PredicateValue(c.d);
  return PredicateValue(c.s);
}

bool Less(const Cell& a, const Cell& b, DataType type) {
  if (IsInteger(type)) return a.i < b.i;
  if (IsFloat(type)) return a.d < b.d;
  return a.s < b.s;  // std::string: unsigned bytes
}

// Checks the predicates against the test's filter, with every column projected and with only a
// column the predicates do not use (theirs are read only to evaluate them).
void Check(const TsFileReader& reader, const TableSchema& schema, const std::vector<Row>& all,
           const std::vector<ValuePredicate>& predicates) {
  SCOPED_TRACE(DescribePredicate(predicates[0]) + (predicates.size() > 1 ? " AND ..." : ""));
  const std::vector<size_t> want = Expected(all, schema, predicates);
  std::vector<size_t> every(schema.columns.size());
  for (size_t j = 0; j < every.size(); ++j) every[j] = j;
  ExpectRows(Scan(reader, schema.name, {}, predicates), all, want, every);
  for (size_t j = 0; j < schema.columns.size(); ++j) {
    const bool used = std::any_of(predicates.begin(), predicates.end(),
                                  [&](const ValuePredicate& p) { return p.column == schema.columns[j].name; });
    if (!used && schema.columns[j].category == ColumnCategory::kField) {
      ExpectRows(Scan(reader, schema.name, {schema.columns[j].name}, predicates), all, want, {j});
      return;
    }
  }
}

class ValuePredicateFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ValuePredicateFixtureTest, EqualsTheTestsFilterOfTheUnfilteredRows) {
  std::unique_ptr<TsFileReader> reader = TsFileReader::Open(testing::FixturePath(GetParam() + ".tsfile")).value();
  for (const TableSchema& schema : reader->metadata().table_schemas) {
    const std::string& table = schema.name;
    SCOPED_TRACE(table);
    const std::vector<Row> all = Scan(*reader, table, {}, {});
    // One column of each type (and the first TAG column): wide tables repeat types.
    std::set<std::pair<ColumnCategory, DataType>> seen;
    std::vector<ValuePredicate> firsts;  // one predicate per tested column, ANDed at the end
    for (size_t j = 0; j < schema.columns.size(); ++j) {
      const ColumnSchema& column = schema.columns[j];
      if (column.category == ColumnCategory::kAttribute) continue;
      if (!seen.insert({column.category, column.data_type}).second) continue;
      SCOPED_TRACE(column.name);
      const DataType type = column.category == ColumnCategory::kTag ? DataType::kString : column.data_type;
      Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kIsNull, {}}});
      Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kIsNotNull, {}}});
      std::vector<Cell> values;
      for (const Row& row : all) {
        const Cell& c = row.cells[j];
        if (!c.null && !(IsFloat(type) && std::isnan(c.d))) values.push_back(c);
      }
      if (values.empty()) continue;
      std::sort(values.begin(), values.end(), [&](const Cell& a, const Cell& b) { return Less(a, b, type); });
      const PredicateValue lo = OperandOf(values.front(), type), mid = OperandOf(values[values.size() / 2], type),
                           hi = OperandOf(values.back(), type);
      for (CompareOp op : {CompareOp::kLt, CompareOp::kLe, CompareOp::kEq}) {
        Check(*reader, schema, all, {ValuePredicate{column.name, op, {lo}}});
      }
      // Sanitizer builds run several times slower: there, the operators around the middle value only.
      if (!testing::SanitizerBuild() || testing::FullMode()) {
        for (CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt,
                             CompareOp::kGe}) {
          Check(*reader, schema, all, {ValuePredicate{column.name, op, {mid}}});
        }
        Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kEq, {lo, hi}}});
      } else {
        Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kGe, {mid}}});
        continue;
      }
      for (CompareOp op : {CompareOp::kGt, CompareOp::kGe, CompareOp::kNe}) {
        Check(*reader, schema, all, {ValuePredicate{column.name, op, {hi}}});
      }
      // Outside the range of the values: true for every row or for none.
      if (IsFloat(type) || (IsInteger(type) && type != DataType::kBoolean)) {
        const PredicateValue below = IsFloat(type) ? PredicateValue(-1e300) : PredicateValue(values.front().i - 1);
        const PredicateValue above = IsFloat(type) ? PredicateValue(1e300) : PredicateValue(values.back().i + 1);
        if (!(IsInteger(type) && values.front().i == std::numeric_limits<int64_t>::min())) {
          Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kGt, {below}}});
          Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kLt, {below}}});
        }
        if (!(IsInteger(type) && values.back().i == std::numeric_limits<int64_t>::max())) {
          Check(*reader, schema, all, {ValuePredicate{column.name, CompareOp::kLt, {above}}});
        }
      }
      firsts.push_back(ValuePredicate{column.name, CompareOp::kGe, {mid}});
    }
    if (firsts.size() >= 2) Check(*reader, schema, all, {firsts[0], firsts[1]});
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, ValuePredicateFixtureTest,
                         ::testing::ValuesIn(testing::TableFixtureStems()),
                         [](const auto& info) { return info.param; });

// One device, 1,000 rows in pages of 100 (times 0, 10, ...): v_long is the row number but for
// INT64_MIN and INT64_MAX in the first and last rows; v_double the row number but for NaN at 250,
// -0.0 at 300, infinities at 400/401 and the largest double at 402; v_int null every 7th row;
// v_bool true every 3rd; v_text a word per row.
std::string WriteEdgeFile(const std::string& path) {
  const TableSchema schema = testing::TagAndFields("t", "id", {{"v_long", DataType::kInt64},
                                                              {"v_double", DataType::kDouble},
                                                              {"v_int", DataType::kInt32},
                                                              {"v_bool", DataType::kBoolean},
                                                              {"v_text", DataType::kString}});
  TableWriterOptions options;
  options.max_points_per_page = 100;
  auto writer = TsFileWriter::Create(path, schema, options).value();
  std::vector<int64_t> times;
  std::vector<ColumnValues> fields(5);
  const DataType types[] = {DataType::kInt64, DataType::kDouble, DataType::kInt32, DataType::kBoolean,
                            DataType::kString};
  for (size_t c = 0; c < 5; ++c) fields[c].type = types[c];
  const std::vector<std::string> words = {"pear", "apple", "fig", "\xe6\xa8\xa1"};
  for (int64_t i = 0; i < 1000; ++i) {
    times.push_back(i * 10);
    fields[0].int64s.push_back(i == 0 ? std::numeric_limits<int64_t>::min()
                                      : (i == 999 ? std::numeric_limits<int64_t>::max() : i));
    double d = static_cast<double>(i);
    if (i == 250) d = std::nan("");
    if (i == 300) d = -0.0;
    if (i == 400) d = std::numeric_limits<double>::infinity();
    if (i == 401) d = -std::numeric_limits<double>::infinity();
    if (i == 402) d = std::numeric_limits<double>::max();
    fields[1].doubles.push_back(d);
    fields[2].valid.push_back(i % 7 != 0);
    fields[2].int32s.push_back(i % 7 != 0 ? static_cast<int32_t>(i) : 0);
    fields[3].bools.push_back(i % 3 == 0);
    fields[4].binaries.push_back(words[static_cast<size_t>(i) % words.size()]);
  }
  EXPECT_TRUE(writer->WriteRows(writer->MakeDeviceId({"d0"}), times, fields).ok());
  EXPECT_TRUE(writer->Close().ok());
  return path;
}

class ValuePredicateEdgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "/tsread_predicates_" + std::to_string(::getpid()) + ".tsfile";
    reader_ = TsFileReader::Open(WriteEdgeFile(path_)).value();
    schema_ = *reader_->FindTable("t");
    all_ = Scan(*reader_, "t", {}, {});
    ASSERT_EQ(all_.size(), 1000u);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  PredicateCounts CountsOf(const std::vector<ValuePredicate>& predicates, size_t* rows) {
    PredicateCounts counts;
    *rows = Scan(*reader_, "t", {"v_long"}, predicates, &counts).size();
    return counts;
  }

  std::string path_;
  std::unique_ptr<TsFileReader> reader_;
  TableSchema schema_;
  std::vector<Row> all_;
};

TEST_F(ValuePredicateEdgeTest, NanSignedZerosInfinitiesAndExtremesFollowSqlOnNumbers) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const ValuePredicate& p : std::vector<ValuePredicate>{
           {"v_double", CompareOp::kEq, {0.0}},  // 0.0 and -0.0
           {"v_double", CompareOp::kEq, {-0.0}},
           {"v_double", CompareOp::kNe, {5.0}},  // NaN included
           {"v_double", CompareOp::kEq, {std::nan("")}},
           {"v_double", CompareOp::kNe, {std::nan("")}},
           {"v_double", CompareOp::kGt, {1e308}},
           {"v_double", CompareOp::kGe, {inf}},
           {"v_double", CompareOp::kLt, {-1e308}},
           {"v_double", CompareOp::kLe, {250.0}},
           {"v_long", CompareOp::kLe, {std::numeric_limits<int64_t>::min()}},
           {"v_long", CompareOp::kGe, {std::numeric_limits<int64_t>::max()}},
           {"v_long", CompareOp::kNe, {std::numeric_limits<int64_t>::max()}},
           {"v_int", CompareOp::kIsNull, {}},
           {"v_int", CompareOp::kLt, {int64_t{10}}},
           {"v_int", CompareOp::kGt, {int64_t{5000000000}}},  // beyond INT32: no row
           {"v_int", CompareOp::kLt, {int64_t{5000000000}}},  // every non-null row
           {"v_bool", CompareOp::kEq, {true}},
           {"v_bool", CompareOp::kNe, {true}},
           {"v_text", CompareOp::kGt, {std::string("fig")}},  // unsigned bytes: the non-ASCII word too
           {"v_text", CompareOp::kEq, {std::string("apple"), std::string("\xe6\xa8\xa1")}},
       }) {
    Check(*reader_, schema_, all_, {p});
  }
}

TEST_F(ValuePredicateEdgeTest, NumbersBindAcrossTypes) {
  // A fractional operand against integers, text against numbers and booleans.
  for (const auto& [p, want] : std::vector<std::pair<ValuePredicate, size_t>>{
           {{"v_long", CompareOp::kLt, {2.5}}, 3},  // INT64_MIN, 1, 2
           {{"v_long", CompareOp::kGe, {997.5}}, 2},
           {{"v_long", CompareOp::kEq, {2.5}}, 0},
           {{"v_long", CompareOp::kNe, {2.5}}, 1000},
           {{"v_long", CompareOp::kLe, {std::string("3")}}, 4},
           {{"v_double", CompareOp::kLt, {int64_t{3}}}, 5},  // 0, 1, 2, -0.0, -inf (not NaN)
           {{"v_bool", CompareOp::kEq, {std::string("TRUE")}}, 334},
       }) {
    SCOPED_TRACE(DescribePredicate(p));
    size_t rows = 0;
    CountsOf({p}, &rows);
    EXPECT_EQ(rows, want);
  }
}

TEST_F(ValuePredicateEdgeTest, StatisticsSkipPagesAndOneRowAtAPageBoundaryIsFound) {
  size_t rows = 0;
  // 100 is the first row of the second page; every other page's range excludes it.
  PredicateCounts counts = CountsOf({{"v_long", CompareOp::kEq, {int64_t{100}}}}, &rows);
  EXPECT_EQ(rows, 1u);
  EXPECT_EQ(counts.pages_skipped, 9u);
  EXPECT_EQ(counts.pages_evaluated, 1u);
  // 99, the last row of the first page.
  counts = CountsOf({{"v_long", CompareOp::kEq, {int64_t{99}}}}, &rows);
  EXPECT_EQ(rows, 1u);
  EXPECT_EQ(counts.pages_skipped, 9u);
  // True for every row: settled by statistics (no evaluation); for none: no page read.
  counts = CountsOf({{"v_long", CompareOp::kGe, {std::numeric_limits<int64_t>::min()}}}, &rows);
  EXPECT_EQ(rows, 1000u);
  EXPECT_EQ(counts.pages_evaluated, 0u);
  counts = CountsOf({{"v_int", CompareOp::kGt, {int64_t{5000}}}}, &rows);
  EXPECT_EQ(rows, 0u);
  EXPECT_EQ(counts.devices_skipped, 1u);
  // A page that holds NaN settles nothing for !=, but skips where the range rules out.
  counts = CountsOf({{"v_double", CompareOp::kGt, {950.0}}}, &rows);
  EXPECT_EQ(rows, 49u + 2);  // 951..999, infinity, the largest double
  EXPECT_EQ(counts.pages_skipped, 8u);  // pages 0-3 (their largest value is below) and 5-8; 4 holds inf

}

TEST_F(ValuePredicateEdgeTest, BadPredicatesAreInvalidArgumentsNamingThem) {
  for (const ValuePredicate& p : std::vector<ValuePredicate>{
           {"nope", CompareOp::kEq, {int64_t{1}}},
           {"v_long", CompareOp::kEq, {std::string("abc")}},
           {"v_text", CompareOp::kEq, {int64_t{1}}},
           {"v_bool", CompareOp::kEq, {int64_t{2}}},
           {"v_long", CompareOp::kLt, {}},
           {"v_long", CompareOp::kIsNull, {int64_t{1}}},
       }) {
    ScanOptions options;
    options.table = "t";
    options.value_predicates = {p};
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(*reader_, options);
    ASSERT_FALSE(scanner.ok()) << DescribePredicate(p);
    EXPECT_EQ(scanner.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(scanner.status().message()).find(p.column), std::string::npos) << scanner.status();
  }
}

TEST(ValuePredicateLossyTest, FloatStatisticsRuleOutOnlyWhereTheEncodingKeepsValuesExact) {
  // The same values in GORILLA (lossless) and TS_2DIFF (scaled to a precision: statistics describe
  // the values before encoding, §4). f_double lies in [-82.56, 329.84], 632 of 12,000 rows null.
  for (const auto& [stem, lossless] : {std::pair<std::string, bool>{"table_enc_GORILLA", true},
                                       std::pair<std::string, bool>{"table_enc_TS_2DIFF", false}}) {
    SCOPED_TRACE(stem);
    std::unique_ptr<TsFileReader> reader = TsFileReader::Open(testing::FixturePath(stem + ".tsfile")).value();
    PredicateCounts counts;
    EXPECT_EQ(Scan(*reader, "t_enc", {"f_int32"}, {{"f_double", CompareOp::kGt, {1000.0}}}, &counts).size(), 0u);
    EXPECT_EQ(counts.devices_skipped > 0, lossless);
    EXPECT_EQ(Scan(*reader, "t_enc", {"f_int32"}, {{"f_double", CompareOp::kGt, {-1000.0}}}, &counts).size(),
              12000u - 632u);
    EXPECT_EQ(Scan(*reader, "t_enc", {"f_int32"}, {{"f_double", CompareOp::kIsNotNull, {}}}, &counts).size(),
              12000u - 632u);
  }
}

TEST(ValuePredicateLossyTest, AReaderRemembersChunkEncodingsForItsNextScan) {
  // f_double > 1000 matches no row. GORILLA: every device is ruled out by its statistics once its
  // chunk headers show the encoding exact; the first scan reads those headers (below the index),
  // the next scan of the same reader nothing of the data section. TS_2DIFF: read both times.
  for (const auto& [stem, lossless] : {std::pair<std::string, bool>{"table_enc_GORILLA", true},
                                       std::pair<std::string, bool>{"table_enc_TS_2DIFF", false}}) {
    SCOPED_TRACE(stem);
    const std::string path = testing::FixturePath(stem + ".tsfile");
    testing::ReadLog log;
    std::unique_ptr<TsFileReader> reader = TsFileReader::Open(log.Opener()(path).value()).value();
    const uint64_t meta_offset = reader->metadata().meta_offset;
    for (int scan = 0; scan < 2; ++scan) {
      SCOPED_TRACE(scan);
      log.Clear();
      EXPECT_EQ(Scan(*reader, "t_enc", {"f_int32"}, {{"f_double", CompareOp::kGt, {1000.0}}}).size(), 0u);
      const uint64_t data_bytes = log.BytesReadBelow(path, meta_offset);
      if (lossless && scan == 1) {
        EXPECT_EQ(data_bytes, 0u);
      } else {
        EXPECT_GT(data_bytes, 0u);
      }
    }
  }
}

TEST_F(ValuePredicateEdgeTest, DoublesTrueForEveryRowOfAPageAreSettledByItsStatistics) {
  // v_double: 0..999 with NaN at row 250 (page 2) and infinities at 400 and 401 (page 4); every
  // other page is settled from its statistics and GORILLA header, not evaluated.
  size_t rows = 0;
  PredicateCounts counts = CountsOf({{"v_double", CompareOp::kGt, {-1e300}}}, &rows);
  EXPECT_EQ(rows, 1000u - 2);  // not NaN, not -infinity
  EXPECT_EQ(counts.pages_matched, 8u);
  EXPECT_EQ(counts.pages_evaluated, 2u);
}

}  // namespace
}  // namespace tsread

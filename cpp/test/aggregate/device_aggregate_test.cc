// AggregateByDevice against an aggregation the test computes itself from the rows a decoding
// scan returns, for every table of every fixture: without a range, with a range that cuts pages,
// and with a tag predicate; and the counters say statistics answered where they can.
#include "tsread/aggregate/device_aggregate.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/dataset/dataset_scanner.h"

namespace tsread {
namespace {

// The test's own aggregate of one column: plain loops over decoded values.
struct Reference {
  uint64_t count = 0;
  int64_t first_time = 0, last_time = 0;
  int64_t i_first = 0, i_last = 0, i_min = 0, i_max = 0;
  double d_first = 0, d_last = 0, d_min = 0, d_max = 0;
  std::string s_first, s_last;
  __int128 i_sum = 0;
  double d_sum = 0, d_abs = 0;
};

struct ReferenceGroup {
  uint64_t rows = 0;
  int64_t first_time = 0, last_time = 0;
  std::vector<Reference> columns;
};

void Add(Reference& a, const ColumnVector& v, size_t r, int64_t t) {
  if (!v.IsValid(r)) return;
  const bool first = a.count++ == 0;
  if (first) a.first_time = t;
  a.last_time = t;
  switch (PhysicalTypeOf(v.type)) {
    case PhysicalType::kBinary: {
      const std::string s(v.binary(r));
      if (first) a.s_first = s;
      a.s_last = s;
      return;
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: {
      const double d = PhysicalTypeOf(v.type) == PhysicalType::kFloat ? v.floats[r] : v.doubles[r];
      if (first) a.d_first = a.d_min = a.d_max = d;
      if (d < a.d_min) a.d_min = d;
      if (d > a.d_max) a.d_max = d;
      a.d_last = d;
      a.d_sum += d;
      a.d_abs += std::fabs(d);
      return;
    }
    default: {
      const int64_t i = PhysicalTypeOf(v.type) == PhysicalType::kBoolean ? v.bools[r] != 0
                        : PhysicalTypeOf(v.type) == PhysicalType::kInt32 ? v.int32s[r]
                                                                          : v.int64s[r];
      if (first) a.i_first = a.i_min = a.i_max = i;
      if (i < a.i_min) a.i_min = i;
      if (i > a.i_max) a.i_max = i;
      a.i_last = i;
      a.i_sum += i;
    }
  }
}

// Per device id: what a scan with these options returns, aggregated here.
std::map<std::string, ReferenceGroup> ScanAndAggregate(const Dataset& dataset, const AggregateOptions& options,
                                                       const std::vector<ColumnSchema>& columns) {
  DatasetScanOptions scan;
  scan.table = options.table;
  scan.time_range = options.time_range;
  scan.tag_predicates = options.tag_predicates;
  for (const ColumnSchema& c : columns) scan.columns.push_back(c.name);
  std::unique_ptr<DatasetScanner> scanner = DatasetScanner::Create(dataset, scan).value();
  std::map<std::string, ReferenceGroup> out;
  DatasetScanner::Cursor cursor = scanner->OpenCursor();
  while (true) {
    absl::StatusOr<TableBatch*> batch = cursor.Next();
    EXPECT_TRUE(batch.ok()) << batch.status();
    if (!batch.ok() || *batch == nullptr) break;
    const TableBatch& b = **batch;
    ReferenceGroup& g = out[b.device->ToString()];
    g.columns.resize(columns.size());
    for (size_t r = 0; r < b.num_rows(); ++r) {
      if (g.rows++ == 0) g.first_time = b.times[r];
      g.last_time = b.times[r];
      for (size_t j = 0; j < columns.size(); ++j) Add(g.columns[j], b.columns[j], r, b.times[r]);
    }
  }
  return out;
}

void ExpectEqual(const TableAggregate& got, const std::map<std::string, ReferenceGroup>& want) {
  ASSERT_EQ(got.devices.size(), want.size());
  for (const DeviceAggregate& g : got.devices) {
    SCOPED_TRACE(g.device);
    auto it = want.find(g.device);
    ASSERT_NE(it, want.end());
    const ReferenceGroup& w = it->second;
    EXPECT_EQ(g.rows, w.rows);
    EXPECT_EQ(g.first_time, w.first_time);
    EXPECT_EQ(g.last_time, w.last_time);
    for (size_t j = 0; j < got.columns.size(); ++j) {
      SCOPED_TRACE(got.columns[j].name);
      const ColumnAggregate& c = g.columns[j];
      const Reference& e = w.columns[j];
      ASSERT_EQ(c.count(), e.count);
      if (e.count == 0) continue;
      EXPECT_EQ(c.first_time(), e.first_time);
      EXPECT_EQ(c.last_time(), e.last_time);
      switch (PhysicalTypeOf(c.type())) {
        case PhysicalType::kBinary:
          EXPECT_EQ(c.first().s, e.s_first);
          EXPECT_EQ(c.last().s, e.s_last);
          break;
        case PhysicalType::kFloat:
        case PhysicalType::kDouble:
          EXPECT_EQ(c.first().d, e.d_first);
          EXPECT_EQ(c.last().d, e.d_last);
          EXPECT_EQ(c.min().d, e.d_min);
          EXPECT_EQ(c.max().d, e.d_max);
          // A sum from statistics may round differently (column_aggregate.h).
          EXPECT_NEAR(c.float_sum(), e.d_sum, 1e-9 * e.d_abs + 1e-12);
          break;
        default:
          EXPECT_EQ(c.first().i, e.i_first);
          EXPECT_EQ(c.last().i, e.i_last);
          if (c.has_min_max()) {
            EXPECT_EQ(c.min().i, e.i_min);
            EXPECT_EQ(c.max().i, e.i_max);
          }
          if (c.has_sum()) EXPECT_TRUE(c.int_sum() == e.i_sum);
      }
    }
  }
}

class DeviceAggregateFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DeviceAggregateFixtureTest, EqualsTheAggregateOfTheScannedRows) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath(GetParam() + ".tsfile")}).value();
  for (const std::string& table : dataset->TableNames()) {
    SCOPED_TRACE(table);
    AggregateOptions options;
    options.table = table;
    absl::StatusOr<TableAggregate> whole = AggregateByDevice(*dataset, options);
    ASSERT_TRUE(whole.ok()) << whole.status();
    const std::map<std::string, ReferenceGroup> rows = ScanAndAggregate(*dataset, options, whole->columns);
    ExpectEqual(*whole, rows);
    if (rows.empty()) continue;

    // A range that cuts the devices' pages: the middle third of the table's time span.
    int64_t lo = rows.begin()->second.first_time, hi = rows.begin()->second.last_time;
    for (const auto& [id, g] : rows) {
      lo = std::min(lo, g.first_time);
      hi = std::max(hi, g.last_time);
    }
    options.time_range.start = lo + (hi - lo) / 3;
    options.time_range.end = hi - (hi - lo) / 3;
    absl::StatusOr<TableAggregate> cut = AggregateByDevice(*dataset, options);
    ASSERT_TRUE(cut.ok()) << cut.status();
    ExpectEqual(*cut, ScanAndAggregate(*dataset, options, cut->columns));
    EXPECT_GT(cut->chunks_decoded, 0u);

    // A tag predicate: the first TAG column equal to the first device's value.
    if (!whole->tag_columns.empty()) {
      options.time_range = {};
      options.tag_predicates = {TagPredicate{whole->tag_columns[0], {whole->devices[0].tags[0]}}};
      absl::StatusOr<TableAggregate> some = AggregateByDevice(*dataset, options);
      ASSERT_TRUE(some.ok()) << some.status();
      EXPECT_LE(some->devices.size(), whole->devices.size());
      ExpectEqual(*some, ScanAndAggregate(*dataset, options, some->columns));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DeviceAggregateFixtureTest,
                         ::testing::ValuesIn([] {
                           std::vector<std::string> tables;
                           for (const std::string& stem : testing::FixtureStems()) {
                             if (stem.rfind("table_", 0) == 0) tables.push_back(stem);
                           }
                           return tables;
                         }()),
                         [](const auto& info) { return info.param; });

TEST(DeviceAggregateTest, StatisticsAnswerWholeDevicesOfExactColumns) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  // FLOAT/DOUBLE in GORILLA (lossless); not BLOB (no first/last in its statistics), not f_int64
  // (values up to INT64_MAX: a double sum is not exact).
  options.columns = {"f_int32", "f_boolean", "f_text", "f_string", "f_date", "f_timestamp", "f_float", "f_double"};
  absl::StatusOr<TableAggregate> got = AggregateByDevice(*dataset, options);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->chunks_decoded, 0u);
  EXPECT_GT(got->chunks_from_statistics, 0u);
  ExpectEqual(*got, ScanAndAggregate(*dataset, options, got->columns));
  options.columns = {"f_int64"};
  got = AggregateByDevice(*dataset, options);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_GT(got->chunks_decoded, 0u);
  ExpectEqual(*got, ScanAndAggregate(*dataset, options, got->columns));
}

TEST(DeviceAggregateTest, FloatsInLossyEncodingsAreDecoded) {
  // The same values written with GORILLA (lossless: statistics answer) and TS_2DIFF (scaled to a
  // precision: the statistics describe the values before encoding, so the chunks are decoded).
  for (const auto& [stem, lossless] : {std::pair<std::string, bool>{"table_enc_GORILLA", true},
                                       std::pair<std::string, bool>{"table_enc_TS_2DIFF", false}}) {
    SCOPED_TRACE(stem);
    std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath(stem + ".tsfile")}).value();
    AggregateOptions options;
    options.columns = {"f_float", "f_double"};
    TableAggregate got = AggregateByDevice(*dataset, options).value();
    EXPECT_EQ(got.chunks_decoded == 0, lossless);
    EXPECT_EQ(got.chunks_from_statistics == 0, !lossless);
    ExpectEqual(got, ScanAndAggregate(*dataset, options, got.columns));
  }
}

TEST(DeviceAggregateTest, ADatasetMergesADeviceAcrossFiles) {
  const std::string file = testing::FixturePath("table_alltypes.tsfile");
  std::unique_ptr<Dataset> one = Dataset::Open({file}).value();
  std::unique_ptr<Dataset> two = Dataset::Open({file, file + "/../table_alltypes.tsfile"}).value();
  ASSERT_EQ(two->files().size(), 1u);  // the same file spelled twice is one file
  const std::string dir = ::testing::TempDir() + "/tsread_agg_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(file, dir + "/a.tsfile", std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(file, dir + "/b.tsfile", std::filesystem::copy_options::overwrite_existing);
  std::unique_ptr<Dataset> copies = Dataset::Open({dir}).value();
  AggregateOptions options;
  options.columns = {"f_int32", "f_double", "f_text"};
  TableAggregate single = AggregateByDevice(*one, options).value();
  TableAggregate doubled = AggregateByDevice(*copies, options).value();
  ASSERT_EQ(doubled.devices.size(), single.devices.size());
  for (size_t d = 0; d < single.devices.size(); ++d) {
    EXPECT_EQ(doubled.devices[d].rows, 2 * single.devices[d].rows);
    EXPECT_EQ(doubled.devices[d].columns[0].count(), 2 * single.devices[d].columns[0].count());
    EXPECT_TRUE(doubled.devices[d].columns[0].int_sum() == 2 * single.devices[d].columns[0].int_sum());
    EXPECT_EQ(doubled.devices[d].columns[2].last().s, single.devices[d].columns[2].last().s);
  }
  ExpectEqual(doubled, ScanAndAggregate(*copies, options, doubled.columns));
  std::filesystem::remove_all(dir);
}

TEST(DeviceAggregateTest, UnknownColumnsAreInvalidArguments) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  options.columns = {"region"};  // a TAG column
  EXPECT_EQ(AggregateByDevice(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.columns = {"nope"};
  EXPECT_EQ(AggregateByDevice(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.columns = {};
  options.table = "nope";
  EXPECT_FALSE(AggregateByDevice(*dataset, options).ok());
}

}  // namespace
}  // namespace tsread

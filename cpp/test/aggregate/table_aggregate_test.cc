// Aggregate against an aggregation the test computes itself from the rows a decoding scan
// returns, for every table of every fixture: by device and by table, without and with time
// buckets, without a range, with a range that cuts pages and with a tag predicate; and the
// counters say statistics answered where they can (down to single pages of a written file).
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/aggregate/aggregate_tasks.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/table_schemas.h"
#include "testing/read_log.h"
#include "tsread/dataset/dataset_scanner.h"
#include "tsread/read/predicate_text.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

// The test's own aggregate of one column: plain loops over decoded values.
struct Reference {
  uint64_t count = 0;
  int64_t first_time = 0, last_time = 0;
  int64_t i_first = 0, i_last = 0, i_min = 0, i_max = 0;
  double d_first = 0, d_last = 0, d_min = 0, d_max = 0;
  std::string s_first, s_last, s_min, s_max;  // min/max by unsigned bytes (std::string's <)
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
  // By time, not by arrival: a group of several devices (or files) sees rows out of time order.
  // Equal times: the first seen stays first, the last seen becomes last.
  const bool empty = a.count++ == 0;
  const bool first = empty || t < a.first_time;
  const bool last = empty || t >= a.last_time;
  if (first) a.first_time = t;
  if (last) a.last_time = t;
  switch (PhysicalTypeOf(v.type)) {
    case PhysicalType::kBinary: {
      const std::string s(v.binary(r));
      if (first) a.s_first = s;
      if (last) a.s_last = s;
      if (empty || s < a.s_min) a.s_min = s;
      if (empty || s > a.s_max) a.s_max = s;
      return;
    }
    case PhysicalType::kFloat:
    case PhysicalType::kDouble: {
      const double d = PhysicalTypeOf(v.type) == PhysicalType::kFloat ? v.floats[r] : v.doubles[r];
      if (empty) a.d_min = a.d_max = d;
      if (first) a.d_first = d;
      if (d < a.d_min) a.d_min = d;
      if (d > a.d_max) a.d_max = d;
      if (last) a.d_last = d;
      a.d_sum += d;
      a.d_abs += std::fabs(d);
      return;
    }
    default: {
      const int64_t i = PhysicalTypeOf(v.type) == PhysicalType::kBoolean ? v.bools[r] != 0
                        : PhysicalTypeOf(v.type) == PhysicalType::kInt32 ? v.int32s[r]
                                                                          : v.int64s[r];
      if (empty) a.i_min = a.i_max = i;
      if (first) a.i_first = i;
      if (i < a.i_min) a.i_min = i;
      if (i > a.i_max) a.i_max = i;
      if (last) a.i_last = i;
      a.i_sum += i;
    }
  }
}

// A group: its device id ("" by table) and bucket start.
using GroupKey = std::pair<std::string, std::optional<int64_t>>;

// The start of the bucket of width `w` holding `t` (origin 0, floored): computed here apart from
// the library's TimeBuckets.
int64_t BucketStart(int64_t t, int64_t w) { return t - ((t % w) + w) % w; }

// Which rows of a batch count (the test's own evaluation of AggregateOptions::value_predicates).
using RowKeep = std::function<bool(const TableBatch& batch, size_t row)>;

// Per group: what a scan with these options returns (but its value predicates: rows `keep` says
// count), aggregated here.
std::map<GroupKey, ReferenceGroup> ScanAndAggregate(const Dataset& dataset, const AggregateOptions& options,
                                                    const std::vector<ColumnSchema>& columns,
                                                    const RowKeep& keep = nullptr) {
  DatasetScanOptions scan;
  scan.table = options.table;
  scan.time_range = options.time_range;
  scan.tag_predicates = options.tag_predicates;
  for (const ColumnSchema& c : columns) scan.columns.push_back(c.name);
  std::unique_ptr<DatasetScanner> scanner = DatasetScanner::Create(dataset, scan).value();
  std::map<GroupKey, ReferenceGroup> out;
  DatasetScanner::Cursor cursor = scanner->OpenCursor();
  while (true) {
    absl::StatusOr<TableBatch*> batch = cursor.Next();
    EXPECT_TRUE(batch.ok()) << batch.status();
    if (!batch.ok() || *batch == nullptr) break;
    const TableBatch& b = **batch;
    const std::string device = options.by == AggregateGroupBy::kDevice ? b.device->ToString() : "";
    for (size_t r = 0; r < b.num_rows(); ++r) {
      if (keep && !keep(b, r)) continue;
      const int64_t t = b.times[r];
      std::optional<int64_t> bucket;
      if (options.bucket_width > 0) bucket = BucketStart(t, options.bucket_width);
      ReferenceGroup& g = out[GroupKey{device, bucket}];
      g.columns.resize(columns.size());
      if (g.rows++ == 0) g.first_time = g.last_time = t;
      g.first_time = std::min(g.first_time, t);
      g.last_time = std::max(g.last_time, t);
      for (size_t j = 0; j < columns.size(); ++j) Add(g.columns[j], b.columns[j], r, t);
    }
  }
  return out;
}

void ExpectEqual(const TableAggregate& got, const std::map<GroupKey, ReferenceGroup>& want) {
  ASSERT_EQ(got.groups.size(), want.size());
  for (const GroupAggregate& g : got.groups) {
    SCOPED_TRACE(g.device + " bucket " + (g.bucket ? std::to_string(*g.bucket) : "-"));
    auto it = want.find(GroupKey{g.device, g.bucket});
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
          EXPECT_EQ(c.has_min_max(), c.type() == DataType::kString);
          if (c.has_min_max()) {
            EXPECT_EQ(c.min().s, e.s_min);
            EXPECT_EQ(c.max().s, e.s_max);
          }
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
          if (c.has_sum()) {
            EXPECT_TRUE(c.int_sum() == e.i_sum);
          }
      }
    }
  }
}

// The time span of a table's rows: [first, last] over all groups of an aggregate by device.
std::pair<int64_t, int64_t> Span(const TableAggregate& a) {
  int64_t lo = a.groups[0].first_time, hi = a.groups[0].last_time;
  for (const GroupAggregate& g : a.groups) {
    lo = std::min(lo, g.first_time);
    hi = std::max(hi, g.last_time);
  }
  return {lo, hi};
}

// Aggregates with `options` — on one thread, and on two and three (AggregateOnThreads: each file
// cut into parts, or a file a task) — and checks each result against the scan's rows aggregated
// here; the threads' groups come in the one thread's order, with the same work counted.
TableAggregate CheckAggregate(const Dataset& dataset, const AggregateOptions& options, const RowKeep& keep = nullptr) {
  absl::StatusOr<TableAggregate> got = Aggregate(dataset, options);
  EXPECT_TRUE(got.ok()) << got.status();
  if (!got.ok()) return {};
  const std::map<GroupKey, ReferenceGroup> want = ScanAndAggregate(dataset, options, got->columns, keep);
  ExpectEqual(*got, want);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    absl::StatusOr<TableAggregate> parallel = AggregateOnThreads(dataset, options, threads);
    EXPECT_TRUE(parallel.ok()) << parallel.status();
    if (!parallel.ok()) continue;
    ExpectEqual(*parallel, want);
    EXPECT_EQ(parallel->groups.size(), got->groups.size());
    for (size_t g = 0; g < std::min(got->groups.size(), parallel->groups.size()); ++g) {
      EXPECT_EQ(parallel->groups[g].device, got->groups[g].device);
      EXPECT_EQ(parallel->groups[g].bucket, got->groups[g].bucket);
    }
    EXPECT_EQ(parallel->work.chunks_from_statistics, got->work.chunks_from_statistics);
    EXPECT_EQ(parallel->work.chunks_read, got->work.chunks_read);
    EXPECT_EQ(parallel->work.pages_from_statistics, got->work.pages_from_statistics);
    EXPECT_EQ(parallel->work.pages_decoded, got->work.pages_decoded);
    EXPECT_EQ(parallel->work.page_tails_from_statistics, got->work.page_tails_from_statistics);
  }
  return *std::move(got);
}

class TableAggregateFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TableAggregateFixtureTest, EqualsTheAggregateOfTheScannedRows) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath(GetParam() + ".tsfile")}).value();
  for (const std::string& table : dataset->TableNames()) {
    SCOPED_TRACE(table);
    AggregateOptions options;
    options.table = table;
    const TableAggregate whole = CheckAggregate(*dataset, options);
    if (whole.groups.empty()) continue;
    const auto [lo, hi] = Span(whole);
    // 10 minutes, 1 hour, and a width that makes about seven buckets of the table's span.
    for (int64_t width : {int64_t{0}, int64_t{600000}, int64_t{3600000}, std::max<int64_t>(1, (hi - lo) / 7)}) {
      for (AggregateGroupBy by : {AggregateGroupBy::kDevice, AggregateGroupBy::kTable}) {
        SCOPED_TRACE(::testing::Message() << "bucket " << width << (by == AggregateGroupBy::kTable ? " by table" : ""));
        options.bucket_width = width;
        options.by = by;
        options.time_range = {};
        options.tag_predicates = {};
        CheckAggregate(*dataset, options);
        // A range that cuts pages: the middle third of the table's time span.
        options.time_range.start = lo + (hi - lo) / 3;
        options.time_range.end = hi - (hi - lo) / 3;
        const TableAggregate cut = CheckAggregate(*dataset, options);
        if (hi - lo >= 3) {
          EXPECT_GT(cut.work.pages_decoded, 0u);
        }
        // A tag predicate: the first TAG column equal to the first device's value.
        if (!whole.tag_columns.empty()) {
          options.time_range = {};
          options.tag_predicates = {TagPredicate{whole.tag_columns[0], {whole.groups[0].tags[0]}}};
          CheckAggregate(*dataset, options);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, TableAggregateFixtureTest,
                         ::testing::ValuesIn(testing::TableFixtureStems()),
                         [](const auto& info) { return info.param; });

TEST(TableAggregateTest, StatisticsAnswerWholeDevicesOfExactColumns) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  // FLOAT/DOUBLE in GORILLA (lossless); not BLOB (no first/last in its statistics), not f_int64
  // (values up to INT64_MAX: a double sum is not exact), not f_string (its min/max are not ASCII:
  // exact_statistics.h).
  options.columns = {"f_int32", "f_boolean", "f_text", "f_date", "f_timestamp", "f_float", "f_double"};
  TableAggregate got = CheckAggregate(*dataset, options);
  EXPECT_EQ(got.work.pages_decoded, 0u);
  EXPECT_EQ(got.work.chunks_read, 0u);
  EXPECT_GT(got.work.chunks_from_statistics, 0u);
  for (const char* decoded : {"f_int64", "f_string"}) {
    options.columns = {decoded};
    got = CheckAggregate(*dataset, options);
    EXPECT_GT(got.work.pages_decoded, 0u) << decoded;
  }
}

TEST(TableAggregateTest, FloatsInLossyEncodingsAreDecoded) {
  // The same values written with GORILLA (lossless: statistics answer) and TS_2DIFF (scaled to a
  // precision: the statistics describe the values before encoding, so the pages are decoded).
  for (const auto& [stem, lossless] : {std::pair<std::string, bool>{"table_enc_GORILLA", true},
                                       std::pair<std::string, bool>{"table_enc_TS_2DIFF", false}}) {
    SCOPED_TRACE(stem);
    std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath(stem + ".tsfile")}).value();
    AggregateOptions options;
    options.columns = {"f_float", "f_double"};
    const TableAggregate got = CheckAggregate(*dataset, options);
    EXPECT_EQ(got.work.pages_decoded == 0, lossless);
    EXPECT_EQ(got.work.chunks_from_statistics == 0, !lossless);
  }
}

// A file of `devices` devices, each written as `groups` chunk groups of `rows` rows with pages of
// 1,000 rows: times first_time, first_time + 10, ... ms; an INT64, a DOUBLE with every seventh value null, a
// BOOLEAN and a STRING column.
std::string WriteManyPages(const std::string& path, int devices, int groups, int rows, int64_t first_time = 0) {
  const TableSchema schema = testing::TagAndFields(
      "t", "id", {{"v_long", DataType::kInt64}, {"v_double", DataType::kDouble}, {"v_bool", DataType::kBoolean},
                  {"v_text", DataType::kString}});
  TableWriterOptions options;
  options.max_points_per_page = 1000;
  auto writer = TsFileWriter::Create(path, schema, options).value();
  const std::vector<std::string> words = {"pear", "apple", "fig", "quince"};
  for (int d = 0; d < devices; ++d) {
    const DeviceId id = writer->MakeDeviceId({"d" + std::to_string(d)});
    for (int g = 0; g < groups; ++g) {
      std::vector<int64_t> times;
      std::vector<ColumnValues> fields(4);
      fields[0].type = DataType::kInt64;
      fields[1].type = DataType::kDouble;
      fields[2].type = DataType::kBoolean;
      fields[3].type = DataType::kString;
      for (int r = 0; r < rows; ++r) {
        const int64_t i = int64_t{g} * rows + r;
        times.push_back(first_time + i * 10);
        fields[0].int64s.push_back((i * 7919 + d) % 100003 - 50000);
        fields[1].valid.push_back(i % 7 != 0);
        fields[1].doubles.push_back(i % 7 != 0 ? static_cast<double>((i * 31 + d) % 1009) / 8 : 0);
        fields[2].bools.push_back((i + d) % 3 == 0);
        fields[3].binaries.push_back(words[static_cast<size_t>(i + d) % words.size()]);
      }
      EXPECT_TRUE(writer->WriteRows(id, times, fields).ok());
    }
  }
  EXPECT_TRUE(writer->Close().ok());
  return path;
}

TEST(TableAggregateTest, OnlyPagesACutOrABucketBoundaryStraddlesAreDecoded) {
  const std::string dir = ::testing::TempDir() + "/tsread_agg_pages_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  // 3 devices x 4 chunk groups x 10 pages of 1,000 rows, 10 ms apart: a page spans 10 s.
  std::unique_ptr<Dataset> dataset = Dataset::Open({WriteManyPages(dir + "/pages.tsfile", 3, 4, 10000)}).value();
  AggregateOptions options;
  TableAggregate got = CheckAggregate(*dataset, options);
  EXPECT_EQ(got.work.pages_decoded, 0u);
  EXPECT_EQ(got.work.chunks_read, 0u);
  // Cut inside the 2nd page of each device's 2nd chunk group and inside the 5th page of its 3rd: the
  // 1st and 4th groups lie outside; of the 2nd and 3rd only the two cut pages are decoded.
  options.time_range.start = 10000 * 10 + 1000 * 10 + 5;
  options.time_range.end = 20000 * 10 + 4000 * 10 + 5;
  got = CheckAggregate(*dataset, options);
  // Per device: two pages of the time column and the four value columns.
  EXPECT_EQ(got.work.pages_decoded, 3u * 2 * 5);
  EXPECT_EQ(got.work.pages_from_statistics, 3u * (9 + 4 - 1) * 5);  // the rest of groups 2 and 3
  EXPECT_EQ(got.work.chunks_read, 3u * 2 * 5);
  EXPECT_EQ(got.work.chunks_from_statistics, 0u);  // groups 1 and 4 are outside the range
  // The page the range's start cuts is decoded only up to its second row: the rest of it is its
  // statistics less the first row, for the time column and each column whose extremes that row
  // does not hold (most: a column falls back to decoding the page when it does).
  EXPECT_GE(got.work.page_tails_from_statistics, 3u * 4);
  // Buckets of 25 s: a page of 10 s straddles a boundary when it holds a multiple of 25 s inside.
  options.time_range = {};
  options.bucket_width = 25000;
  got = CheckAggregate(*dataset, options);
  EXPECT_GT(got.work.pages_from_statistics, 0u);
  EXPECT_GT(got.work.pages_decoded, 0u);
  EXPECT_GT(got.work.page_tails_from_statistics, 0u);  // rows after the boundary
  // Buckets wider than a chunk group (100 s each): whole chunk groups answer.
  options.bucket_width = 100000;
  got = CheckAggregate(*dataset, options);
  EXPECT_EQ(got.work.pages_decoded, 0u);
  EXPECT_EQ(got.work.chunks_from_statistics, 3u * 4 * 5);
  options.by = AggregateGroupBy::kTable;
  got = CheckAggregate(*dataset, options);
  ASSERT_EQ(got.groups.size(), 4u);
  EXPECT_EQ(got.groups[0].rows, 3u * 10000);
  EXPECT_EQ(*got.groups[3].bucket, 300000);
  std::filesystem::remove_all(dir);
}

TEST(TableAggregateTest, BucketsFloorNegativeTimes) {
  const std::string dir = ::testing::TempDir() + "/tsread_agg_negative_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  // Times -55,555 ms onwards, across zero; buckets of 7 s floor down (-56,000 holds the first).
  std::unique_ptr<Dataset> dataset =
      Dataset::Open({WriteManyPages(dir + "/negative.tsfile", 2, 1, 9000, -55555)}).value();
  AggregateOptions options;
  options.bucket_width = 7000;
  TableAggregate got = CheckAggregate(*dataset, options);
  ASSERT_FALSE(got.groups.empty());
  EXPECT_EQ(*got.groups[0].bucket, -56000);
  options.by = AggregateGroupBy::kTable;
  options.time_range.end = -1;
  got = CheckAggregate(*dataset, options);
  ASSERT_FALSE(got.groups.empty());
  EXPECT_EQ(*got.groups.back().bucket, -7000);
  options.bucket_width = -1;
  EXPECT_EQ(Aggregate(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

// fill_empty_buckets: every bucket of the range, the ones without rows as groups of 0 rows; the
// others as without filling. An origin shifts the buckets.
TEST(TableAggregateTest, EmptyBucketsAreFilledAcrossTheRange) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  options.columns = {"f_int32"};
  options.bucket_width = 3600000;
  options.bucket_origin = 1700000000000;
  options.time_range = TimeRange{1699980000000, 1700020000000};  // beyond the data at both ends
  for (AggregateGroupBy by : {AggregateGroupBy::kTable, AggregateGroupBy::kDevice}) {
    options.by = by;
    options.fill_empty_buckets = false;
    const TableAggregate plain = Aggregate(*dataset, options).value();
    options.fill_empty_buckets = true;
    const TableAggregate filled = Aggregate(*dataset, options).value();
    // Buckets from floor((start - origin) / w) = -6 to floor((end - origin) / w) = 5: 12 a device.
    std::map<std::string, std::vector<const GroupAggregate*>> by_device;
    for (const GroupAggregate& g : filled.groups) by_device[g.device].push_back(&g);
    size_t matched = 0;
    for (const auto& [device, groups] : by_device) {
      ASSERT_EQ(groups.size(), 12u) << device;
      for (size_t k = 0; k < groups.size(); ++k) {
        EXPECT_EQ(*groups[k]->bucket, 1700000000000 + (static_cast<int64_t>(k) - 6) * 3600000) << device << " " << k;
      }
    }
    uint64_t rows = 0;
    for (const GroupAggregate& g : filled.groups) {
      rows += g.rows;
      if (g.rows == 0) {
        EXPECT_EQ(g.columns[0].count(), 0u);
        continue;
      }
      const auto same = std::find_if(plain.groups.begin(), plain.groups.end(), [&](const GroupAggregate& p) {
        return p.device == g.device && p.bucket == g.bucket;
      });
      ASSERT_NE(same, plain.groups.end());
      EXPECT_EQ(same->rows, g.rows);
      ++matched;
    }
    EXPECT_EQ(matched, plain.groups.size());
    EXPECT_GT(filled.groups.size(), plain.groups.size());
    uint64_t plain_rows = 0;
    for (const GroupAggregate& g : plain.groups) plain_rows += g.rows;
    EXPECT_EQ(rows, plain_rows);
  }
  // Too many buckets: refused before anything is allocated for them.
  options.bucket_width = 1;
  options.time_range = TimeRange{0, 1700000000000};
  EXPECT_EQ(Aggregate(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
}

// Value predicates: only the rows they hold for are aggregated — here against the rows a scan without
// them returns, filtered by the test's own reading of the condition. Conditions on TAG values alone
// still let statistics answer; any other leaves statistics to rule pages out only.
TEST(TableAggregateTest, ValuePredicatesAggregateOnlyTheRowsTheyHold) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  options.columns = {"f_int32", "f_double", "f_text"};  // columns 0, 1, 2 of a batch
  auto int32 = [](const TableBatch& b, size_t r) -> std::optional<int32_t> {
    if (!b.columns[0].IsValid(r)) return std::nullopt;
    return b.columns[0].int32s[r];
  };
  struct Case {
    std::string where;
    RowKeep keep;
  };
  const std::vector<Case> cases = {
      {"f_int32 > 100", [&](const TableBatch& b, size_t r) { return int32(b, r) > 100; }},
      {"f_int32 <= 5 OR f_double IS NULL",
       [&](const TableBatch& b, size_t r) { return (int32(b, r) && *int32(b, r) <= 5) || !b.columns[1].IsValid(r); }},
      {"f_int32 IS NOT NULL AND f_text IS NULL",
       [&](const TableBatch& b, size_t r) { return int32(b, r).has_value() && !b.columns[2].IsValid(r); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.where);
    options.value_predicates = ParsePredicates(c.where).value();
    for (int64_t width : {int64_t{0}, int64_t{600000}}) {
      options.bucket_width = width;
      for (AggregateGroupBy by : {AggregateGroupBy::kDevice, AggregateGroupBy::kTable}) {
        options.by = by;
        const TableAggregate got = CheckAggregate(*dataset, options, c.keep);
        EXPECT_EQ(got.work.pages_from_statistics + got.work.chunks_from_statistics, 0u);
      }
    }
  }
  // `region = east OR region IS NULL` names devices: statistics answer them whole.
  options.bucket_width = 0;
  options.by = AggregateGroupBy::kDevice;
  options.value_predicates = ParsePredicates("region = east OR region IS NULL").value();
  const TableAggregate tagged = CheckAggregate(*dataset, options, [](const TableBatch& b, size_t) {
    const std::optional<std::string_view> region = b.device->segment(1);
    return !region.has_value() || *region == "east";
  });
  EXPECT_EQ(tagged.groups.size(), 6u);  // five in the east, one without a region
  EXPECT_GT(tagged.work.chunks_from_statistics, 0u);
  EXPECT_EQ(tagged.work.pages_decoded, 0u);
}

TEST(TableAggregateTest, ADatasetMergesADeviceAcrossFiles) {
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
  TableAggregate single = Aggregate(*one, options).value();
  TableAggregate doubled = CheckAggregate(*copies, options);
  ASSERT_EQ(doubled.groups.size(), single.groups.size());
  for (size_t d = 0; d < single.groups.size(); ++d) {
    EXPECT_EQ(doubled.groups[d].rows, 2 * single.groups[d].rows);
    EXPECT_EQ(doubled.groups[d].columns[0].count(), 2 * single.groups[d].columns[0].count());
    EXPECT_TRUE(doubled.groups[d].columns[0].int_sum() == 2 * single.groups[d].columns[0].int_sum());
    EXPECT_EQ(doubled.groups[d].columns[2].last().s, single.groups[d].columns[2].last().s);
  }
  options.by = AggregateGroupBy::kTable;
  CheckAggregate(*copies, options);
  std::filesystem::remove_all(dir);
}

TEST(TableAggregateTest, AHundredFileDatasetIsAggregatedFromMetadata) {
  const std::string dir = ::testing::TempDir() + "/tsread_agg_hundred_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string fixture = testing::FixturePath("table_enc_GORILLA.tsfile");
  std::vector<std::string> paths;
  for (int i = 0; i < 100; ++i) {
    paths.push_back(dir + "/" + std::to_string(100 + i) + ".tsfile");
    std::filesystem::copy_file(fixture, paths.back(), std::filesystem::copy_options::overwrite_existing);
  }
  const uint64_t meta_offset = testing::MetaOffset(fixture);
  testing::ReadLog log;
  DatasetOptions dataset_options;
  dataset_options.opener = log.Opener();
  std::unique_ptr<Dataset> dataset = Dataset::Open({dir}, dataset_options).value();
  // Integer and time columns: nothing of the data section is read.
  AggregateOptions options;
  options.columns = {"f_int32", "f_int64", "f_date", "f_timestamp"};
  TableAggregate got = CheckAggregate(*dataset, options);
  ASSERT_EQ(got.groups.size(), 4u);
  EXPECT_EQ(got.groups[0].rows, 100u * Aggregate(*Dataset::Open({fixture}).value(), options).value().groups[0].rows);
  log.Clear();
  got = Aggregate(*dataset, options).value();
  EXPECT_EQ(got.work.pages_decoded, 0u);
  for (const std::string& path : paths) EXPECT_EQ(log.BytesReadBelow(path, meta_offset), 0u) << path;
  // FLOAT/DOUBLE too: of the data section only each of their chunks' headers (the encoding), the
  // name's length + 32 bytes each.
  options.columns = {};
  log.Clear();
  got = Aggregate(*dataset, options).value();
  EXPECT_EQ(got.work.pages_decoded, 0u);
  const std::unique_ptr<TsFileReader> reader = TsFileReader::Open(fixture).value();
  uint64_t header_bytes = 0;
  ASSERT_TRUE(reader
                  ->ForEachDevice("t_enc",
                                  [&](const DeviceEntry& device) {
                                    const std::vector<TimeseriesMetadata> all =
                                        reader->ReadTimeseries(device.location).value();
                                    for (const TimeseriesMetadata& series : all) {
                                      if (series.data_type == DataType::kFloat || series.data_type == DataType::kDouble) {
                                        header_bytes += series.chunks.size() * (series.measurement.size() + 32);
                                      }
                                    }
                                    return absl::OkStatus();
                                  })
                  .ok());
  EXPECT_GT(header_bytes, 0u);
  for (const std::string& path : paths) EXPECT_EQ(log.BytesReadBelow(path, meta_offset), header_bytes) << path;
  std::filesystem::remove_all(dir);
}

// A DOUBLE column of values near ±DBL_MAX whose sum is 1.5: the writer's statistics sum overflows
// (infinity), so the pages are decoded and summed without overflowing (was: "sum": NaN or inf).
TEST(TableAggregateTest, AFiniteSumOfHugeDoublesIsComputedFromTheValues) {
  const std::string path = ::testing::TempDir() + "/tsread_agg_huge_" + std::to_string(::getpid()) + ".tsfile";
  const TableSchema schema = testing::TagAndFields("t", "id", {{"f64", DataType::kDouble}});
  auto writer = TsFileWriter::Create(path, schema, TableWriterOptions{}).value();
  constexpr double kBig = 1.7e308;
  std::vector<int64_t> times;
  std::vector<ColumnValues> fields(1);
  fields[0].type = DataType::kDouble;
  fields[0].doubles = {kBig, kBig, -kBig, -kBig, kBig, -kBig, 1.5, kBig, kBig, -kBig, -kBig};
  for (size_t r = 0; r < fields[0].doubles.size(); ++r) times.push_back(static_cast<int64_t>(r));
  ASSERT_TRUE(writer->WriteRows(writer->MakeDeviceId({"d0"}), times, fields).ok());
  ASSERT_TRUE(writer->Close().ok());
  std::unique_ptr<Dataset> dataset = Dataset::Open({path}).value();
  for (AggregateGroupBy by : {AggregateGroupBy::kDevice, AggregateGroupBy::kTable}) {
    AggregateOptions options;
    options.by = by;
    TableAggregate got = Aggregate(*dataset, options).value();
    ASSERT_EQ(got.groups.size(), 1u);
    EXPECT_EQ(got.groups[0].columns[0].count(), 11u);
    EXPECT_EQ(got.groups[0].columns[0].float_sum(), 1.5);
  }
  std::remove(path.c_str());
}

TEST(TableAggregateTest, UnknownColumnsAreInvalidArguments) {
  std::unique_ptr<Dataset> dataset = Dataset::Open({testing::FixturePath("table_alltypes.tsfile")}).value();
  AggregateOptions options;
  options.columns = {"region"};  // a TAG column
  EXPECT_EQ(Aggregate(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.columns = {"nope"};
  EXPECT_EQ(Aggregate(*dataset, options).status().code(), absl::StatusCode::kInvalidArgument);
  options.columns = {};
  options.table = "nope";
  EXPECT_FALSE(Aggregate(*dataset, options).ok());
}

}  // namespace
}  // namespace tsread

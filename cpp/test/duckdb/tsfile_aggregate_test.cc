// tsfile_aggregate against what SQL computes itself from read_tsfile's rows (GROUP BY device and
// bucket), and count(*) over read_tsfile (answered from statistics) against count(time) (which
// decodes every time), with 1 and 2 threads.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "duckdb/duckdb_test_base.h"
#include "duckdb/one_device_file.h"

namespace tsread::testing {
namespace {

struct Case {
  std::string file, params, tags;
  int64_t bucket;  // ms; 0 = none
};

// The groups of tsfile_aggregate(c) for the exact aggregates (every column but the DOUBLE sum).
std::string Got(const Case& c) {
  return "SELECT " + c.tags + ", bucket, rows, first_time, last_time, f_int32_count, f_int32_min, f_int32_max, " +
         "f_int32_first, f_int32_last, f_int32_sum, f_double_count, f_double_min, f_double_max, f_double_first, " +
         "f_double_last, f_boolean_sum, f_text_first, f_text_last, f_string_min, f_string_max, f_date_min, f_timestamp_max "
         "FROM tsfile_aggregate('" +
         c.file + "', time_as := 'bigint'" + c.params + (c.bucket ? ", bucket := INTERVAL 1 MILLISECOND * " +
         std::to_string(c.bucket) : std::string()) + ")";
}

// The groups' DOUBLE sums.
std::string GotDoubleSums(const Case& c) {
  return "SELECT " + c.tags + ", bucket, f_double_sum FROM tsfile_aggregate('" + c.file + "', time_as := 'bigint'" +
         c.params + (c.bucket ? ", bucket := " + std::to_string(c.bucket) : std::string()) + ")";
}

// The same aggregates, by SQL over the rows.
std::string Want(const Case& c) {
  const std::string bucket = c.bucket ? "time // " + std::to_string(c.bucket) + " * " + std::to_string(c.bucket)
                                      : std::string("NULL::BIGINT");
  const auto first = [](const std::string& col) {
    return "arg_min(" + col + ", time) FILTER (WHERE " + col + " IS NOT NULL)";
  };
  const auto last = [](const std::string& col) {
    return "arg_max(" + col + ", time) FILTER (WHERE " + col + " IS NOT NULL)";
  };
  return "SELECT " + c.tags + ", " + bucket + " AS b, count(*), min(time), max(time), count(f_int32), min(f_int32), " +
         "max(f_int32), " + first("f_int32") + ", " + last("f_int32") + ", sum(f_int32), count(f_double), " +
         "min(f_double), max(f_double), " + first("f_double") + ", " + last("f_double") + ", " +
         "sum(f_boolean::INTEGER), " + first("f_text") + ", " + last("f_text") + ", min(f_string), max(f_string), " +
         "min(f_date), max(f_timestamp) " +
         "FROM read_tsfile('" + c.file + "', time_as := 'bigint'" + c.params + ") GROUP BY " + c.tags + ", b";
}

TEST_P(DuckDbTest, TsfileAggregateEqualsGroupByOverTheRows) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  const std::string cut = ", start_time := 1700000500000, end_time := 1700003000000";
  for (const Case& c : {Case{file, "", "region, id", 0}, Case{file, "", "region, id", 600000},
                        Case{file, "", "region, id", 3600000}, Case{file, cut, "region, id", 600000},
                        Case{file, cut + ", tags := MAP {'region': 'east'}", "region, id", 0}}) {
    SCOPED_TRACE(c.params + " bucket " + std::to_string(c.bucket));
    const std::string got = Got(c), want = Want(c);
    EXPECT_GT(Int("SELECT count(*) FROM (" + got + ")"), 0);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), Int("SELECT count(*) FROM (" + want + ")"));
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + want + ")"), 0);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + want + " EXCEPT " + got + ")"), 0);
    // DOUBLE sums: equal to SQL's up to rounding (the writer summed in its order).
    const std::string bucket = c.bucket ? "time // " + std::to_string(c.bucket) + " * " + std::to_string(c.bucket)
                                        : std::string("NULL::BIGINT");
    EXPECT_EQ(Int("SELECT count(*) FROM (SELECT g.bucket FROM (" + GotDoubleSums(c) + ") g JOIN (SELECT " +
                  "region, id, " + bucket + " AS b, sum(f_double) AS s FROM read_tsfile('" + c.file +
                  "', time_as := 'bigint'" + c.params + ") GROUP BY ALL) w ON g.region IS NOT DISTINCT FROM w.region " +
                  "AND g.id IS NOT DISTINCT FROM w.id AND g.bucket IS NOT DISTINCT FROM w.b WHERE " +
                  "abs(g.f_double_sum - w.s) > 1e-9 * abs(w.s) + 1e-9)"),
              0);
  }
}

// filter := the rows that count: SQL's WHERE over read_tsfile's rows, then GROUP BY; tsfile_last's too.
TEST_P(DuckDbTest, TsfileAggregateAndLastTakeAFilter) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  for (const std::string condition : {"f_int32 > 100 OR f_double IS NULL", "f_int32 <= 5 AND f_text IS NOT NULL",
                                      "region = 'east' OR f_boolean = true"}) {
    SCOPED_TRACE(condition);
    // The condition in SQL and in the filter grammar alike; quotes doubled inside the SQL string.
    std::string filter;
    for (char ch : condition) filter += ch == '\'' ? std::string("''") : std::string(1, ch);
    const std::string got = "SELECT region, id, bucket, rows, first_time, last_time, f_int32_count, f_int32_sum, "
                            "f_int32_min, f_int32_max, f_double_count, f_text_last FROM tsfile_aggregate('" + file +
                            "', time_as := 'bigint', bucket := 3600000, filter := '" + filter + "')";
    const std::string want = "SELECT region, id, time // 3600000 * 3600000 AS b, count(*), min(time), max(time), "
                             "count(f_int32), sum(f_int32), min(f_int32), max(f_int32), count(f_double), "
                             "arg_max(f_text, time) FILTER (WHERE f_text IS NOT NULL) FROM read_tsfile('" + file +
                             "', time_as := 'bigint') WHERE " + condition + " GROUP BY ALL";
    EXPECT_GT(Int("SELECT count(*) FROM (" + want + ")"), 20);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), Int("SELECT count(*) FROM (" + want + ")"));
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + want + ")"), 0);
    const std::string last = "SELECT region, id, time, f_int32, f_int32_time FROM tsfile_last('" + file +
                             "', filter := '" + filter + "')";
    const std::string last_want = "SELECT region, id, max(time), arg_max(f_int32, time) FILTER (WHERE f_int32 IS NOT "
                                  "NULL), max(time) FILTER (WHERE f_int32 IS NOT NULL) FROM read_tsfile('" + file +
                                  "') WHERE " + condition + " GROUP BY ALL";
    EXPECT_EQ(Int("SELECT count(*) FROM (" + last + ")"), Int("SELECT count(*) FROM (" + last_want + ")"));
    EXPECT_EQ(Int("SELECT count(*) FROM (" + last + " EXCEPT " + last_want + ")"), 0);
  }
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', filter := 'f_int32 >')").find("tsfile_aggregate: filter"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM tsfile_last('" + file + "', filter := 'nope = 1')").find("nope"), std::string::npos);
}

TEST_P(DuckDbTest, TsfileAggregateTimesAndParameters) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  // Buckets as TIMESTAMPTZ by default: the first is the hour holding the first time.
  EXPECT_EQ(Text("SELECT min(bucket)::VARCHAR FROM tsfile_aggregate('" + file + "', bucket := INTERVAL '1 hour')"),
            "2023-11-14 22:00:00+00");
  EXPECT_EQ(Int("SELECT sum(rows) FROM tsfile_aggregate('" + file + "')"), 100000);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate('" + file + "') WHERE bucket IS NULL"), 20);
  // Only rows asked for: no FIELD column aggregated.
  EXPECT_EQ(Int("SELECT sum(rows) FROM tsfile_aggregate('" + file + "', bucket := 600000)"), 100000);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate('" + FixturePath("table_multi.tsfile") +
                "', table_name := 'tbl_b')"),
            5);
  for (const char* bad : {"INTERVAL '1 month 1 day'", "INTERVAL 1 MICROSECOND", "0", "'soon'", "INTERVAL '-1 month'"}) {
    EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', bucket := " + bad + ")").find("bucket takes"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + FixturePath("table_multi.tsfile") + "')").find("table_name"),
            std::string::npos);
}

TEST_P(DuckDbTest, CountStarIsAnsweredFromStatistics) {
  for (const char* stem : {"table_alltypes", "table_many_devices", "table_multi", "table_comp_LZ4"}) {
    const std::string file = FixturePath(std::string(stem) + ".tsfile");
    const std::string table = std::string(stem) == "table_multi" ? ", table_name := 'tbl_a'" : "";
    for (const std::string& range : {std::string(), std::string(", start_time := 1700000500000"),
                                    std::string(", start_time := 1700000500000, end_time := 1700003000000"),
                                    std::string(", end_time := 0")}) {
      SCOPED_TRACE(std::string(stem) + range);
      const std::string from = "FROM read_tsfile('" + file + "'" + table + range;
      EXPECT_EQ(Int("SELECT count(*) " + from + ")"), Int("SELECT count(time) " + from + ")"));
      // Per file (the filename column), and with a row-id-like virtual column left out.
      EXPECT_EQ(Int("SELECT sum(n) FROM (SELECT filename, count(*) AS n " + from + ", filename := true) GROUP BY ALL)"),
                Int("SELECT count(time) " + from + ")"));
    }
  }
  const std::string file = FixturePath("table_alltypes.tsfile");
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + file + "', tags := MAP {'region': 'east'})"),
            Int("SELECT count(time) FROM read_tsfile('" + file + "') WHERE region = 'east'"));
}

}  // namespace
}  // namespace tsread::testing

namespace tsread::testing {
namespace {

// by := 'table' (the CLI's --by table): one group per bucket over every device, no TAG columns.
TEST_P(DuckDbTest, TsfileAggregateByTableIsOneGroupPerBucket) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  const std::string got = "SELECT bucket, rows, first_time, last_time, f_int32_count, f_int32_min, f_int32_max, "
                          "f_int32_sum FROM tsfile_aggregate('" + file +
                          "', time_as := 'bigint', by := 'table', bucket := 3600000)";
  const std::string want = "SELECT time // 3600000 * 3600000 AS b, count(*), min(time), max(time), count(f_int32), "
                           "min(f_int32), max(f_int32), sum(f_int32) FROM read_tsfile('" + file +
                           "', time_as := 'bigint') GROUP BY b";
  EXPECT_GT(Int("SELECT count(*) FROM (" + got + ")"), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), Int("SELECT count(*) FROM (" + want + ")"));
  EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + want + ")"), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT * FROM tsfile_aggregate('" + file + "', by := 'table'))"), 1);
  EXPECT_EQ(Int("SELECT count(*) FROM (DESCRIBE SELECT * FROM tsfile_aggregate('" + file +
                "', by := 'table')) WHERE column_name IN ('region', 'id')"),
            0);
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', by := 'region')").find("by takes"), std::string::npos);
  // origin := shifts the buckets: GROUP BY floor((time - origin) / w).
  const std::string shifted = "SELECT bucket, rows, f_int32_count FROM tsfile_aggregate('" + file +
                              "', time_as := 'bigint', by := 'table', bucket := 600000, origin := 1700000000123)";
  // floor, not //: DuckDB's integer division truncates toward zero, and 11 rows lie before the origin.
  const std::string by_sql = "SELECT floor((time - 1700000000123) / 600000)::BIGINT * 600000 + 1700000000123 AS b, "
                             "count(*), "
                             "count(f_int32) FROM read_tsfile('" + file + "', time_as := 'bigint') GROUP BY b";
  EXPECT_EQ(Int("SELECT count(*) FROM (" + shifted + ")"), Int("SELECT count(*) FROM (" + by_sql + ")"));
  EXPECT_EQ(Int("SELECT count(*) FROM (" + shifted + " EXCEPT " + by_sql + ")"), 0);
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', origin := 5)").find("origin needs bucket"),
            std::string::npos);
  // fill_empty := true: every bucket of the window, the empty ones with rows 0 and NULL times.
  const std::string window = ", start_time := 1699980000000, end_time := 1700020000000, bucket := 3600000, "
                             "origin := 1700000000000, by := 'table'";
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate('" + file + "', fill_empty := true" + window + ")"), 12);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate('" + file + "', fill_empty := true" + window +
                ") WHERE rows = 0 AND first_time IS NULL AND f_int32_count = 0"),
            12 - Int("SELECT count(*) FROM tsfile_aggregate('" + file + "'" + window + ")"));
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', fill_empty := true)").find("fill_empty needs bucket"),
            std::string::npos);
  // avg: DuckDB's avg over the rows, per device.
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_aggregate('" + file + "') a JOIN (SELECT region, id, avg(f_int32) AS i, "
                "avg(f_double) AS d FROM read_tsfile('" + file + "') GROUP BY ALL) r ON a.region IS NOT DISTINCT FROM "
                "r.region AND a.id IS NOT DISTINCT FROM r.id WHERE abs(a.f_int32_avg - r.i) > 1e-9 * abs(r.i) OR "
                "abs(a.f_double_avg - r.d) > 1e-9 * abs(r.d) OR (a.f_int32_avg IS NULL) != (r.i IS NULL)"),
            0);
}

// The fast form of the SQL suite's Q8 (docs/duckdb.md): the average per TAG value and 5-minute bucket from
// tsfile_aggregate's per-device sums and counts equals time_bucket + avg over read_tsfile's rows.
TEST_P(DuckDbTest, TsfileAggregateRegroupedByTagEqualsTimeBucketOverTheRows) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  const std::string got = "SELECT region, bucket, sum(f_double_sum) / sum(f_double_count) AS a, sum(f_double_count) AS n "
                          "FROM tsfile_aggregate('" + file + "', bucket := INTERVAL '5 minutes') GROUP BY ALL";
  const std::string want = "SELECT region, time_bucket(INTERVAL '5 minutes', time) AS bucket, avg(f_double) AS a, "
                           "count(f_double) AS n FROM read_tsfile('" + file + "') GROUP BY ALL";
  const int64_t groups = Int("SELECT count(*) FROM (" + want + ")");
  EXPECT_GT(groups, 100);
  EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), groups);
  EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ") g JOIN (" + want + ") w ON g.region IS NOT DISTINCT FROM "
                "w.region AND g.bucket = w.bucket AND g.n = w.n AND (g.a IS NOT DISTINCT FROM w.a OR "
                "abs(g.a - w.a) <= 1e-9 * abs(w.a))"),
            groups);
  // A week: time_bucket's weeks start on Monday 2000-01-03, the epoch's on a Thursday — the origin says so.
  const std::string weeks = "SELECT bucket FROM tsfile_aggregate('" + file + "', bucket := INTERVAL 7 DAY, origin := "
                            "TIMESTAMPTZ '2000-01-03 00:00:00+00')";
  const std::string weeks_want = "SELECT DISTINCT time_bucket(INTERVAL 7 DAY, time) FROM read_tsfile('" + file + "')";
  EXPECT_EQ(Int("SELECT count(DISTINCT bucket) FROM (" + weeks + ")"), Int("SELECT count(*) FROM (" + weeks_want + ")"));
  EXPECT_EQ(Int("SELECT count(*) FROM (" + weeks + " EXCEPT " + weeks_want + ")"), 0);
}

// Calendar buckets: days, weeks and months of a time zone (across both of 2024's daylight-saving
// changes in Berlin and New York) equal DuckDB's own time_bucket with that zone over the rows.
TEST_P(DuckDbTest, CalendarBucketsEqualTimeBucketInTheZone) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("tsread_duckdb_calendar_" + std::to_string(::getpid()) + "_" +
                                      std::to_string(GetParam()) + ".tsfile");
  // Every 47 minutes from 2024-03-20 to 2024-11-10 (UTC).
  std::vector<int64_t> times, values;
  for (int64_t t = 1710892800000; t < 1731196800000; t += 47 * 60 * 1000) {
    times.push_back(t);
    values.push_back(static_cast<int64_t>(times.size()));
  }
  const std::string file = WriteOneDeviceFile(path, "id", times, values);
  ASSERT_NE(file, "");
  struct Case {
    std::string params, interval, zone;
  };
  for (const Case& c : {Case{"bucket := INTERVAL 1 DAY, time_zone := 'Europe/Berlin'", "INTERVAL 1 DAY", "Europe/Berlin"},
                        Case{"bucket := INTERVAL 7 DAY, time_zone := 'America/New_York'", "INTERVAL 7 DAY",
                             "America/New_York"},
                        Case{"bucket := INTERVAL 1 MONTH, time_zone := 'Asia/Kolkata'", "INTERVAL 1 MONTH", "Asia/Kolkata"},
                        Case{"bucket := INTERVAL 1 MONTH", "INTERVAL 1 MONTH", "UTC"},
                        Case{"bucket := INTERVAL 3 DAY, time_zone := '+05:30'", "INTERVAL 3 DAY", "Asia/Kolkata"}}) {
    SCOPED_TRACE(c.params);
    const std::string got = "SELECT bucket, rows, v_sum, first_time FROM tsfile_aggregate('" + file + "', " + c.params + ")";
    const std::string want = "SELECT time_bucket(" + c.interval + ", time, '" + c.zone + "') AS b, count(*), sum(v), "
                             "min(time) FROM read_tsfile('" + file + "') GROUP BY b";
    EXPECT_GT(Int("SELECT count(*) FROM (" + want + ")"), 7);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), Int("SELECT count(*) FROM (" + want + ")"));
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + want + ")"), 0);
  }
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', bucket := INTERVAL 1 HOUR, time_zone := 'UTC')")
                .find("time_zone applies to calendar buckets"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', bucket := INTERVAL 1 DAY, time_zone := 'Mars/Base')")
                .find("unknown time zone"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM tsfile_aggregate('" + file + "', bucket := INTERVAL '1 month 2 days')")
                .find("whole months"),
            std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tsread::testing

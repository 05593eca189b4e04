// tsfile_aggregate_tree and tsfile_last_tree against what SQL computes itself from
// read_tsfile_tree's points (count, min/max of numbers, arg_min/arg_max by time), with 1 and 2
// threads, on every tree fixture and over a window.
#include <string>

#include "duckdb/duckdb_test_base.h"

namespace tsread::testing {
namespace {

TEST_P(DuckDbTest, TreeAggregatesEqualSqlOverThePoints) {
  for (const char* stem : {"tree_aligned", "tree_nonaligned", "tree_depths", "v3_sample"}) {
    for (const std::string params : {std::string(), std::string(", start_time := 1700000300000, end_time := 1700001500000")}) {
      const std::string file = FixturePath(std::string(stem) + ".tsfile");
      SCOPED_TRACE(file + params);
      const std::string points = "read_tsfile_tree('" + file + "'" + params + ")";
      const std::string expected =
          "SELECT device, measurement, count(*), arg_min(value, time), arg_max(value, time), min(time), max(time) "
          "FROM " + points + " GROUP BY device, measurement";
      const std::string got = "SELECT device, measurement, count, first, last, first_time, last_time FROM "
                              "tsfile_aggregate_tree('" + file + "'" + params + ")";
      const int64_t series = Int("SELECT count(*) FROM (" + expected + ")");
      EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), series);
      EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + expected + ")"), 0);
      EXPECT_EQ(Int("SELECT count(*) FROM (" + expected + " EXCEPT " + got + ")"), 0);
      // Numeric min, max and sum where the values are numbers.
      const std::string numbers =
          "SELECT device, measurement, min(TRY_CAST(value AS DOUBLE)), max(TRY_CAST(value AS DOUBLE)) FROM " + points +
          " WHERE TRY_CAST(value AS DOUBLE) IS NOT NULL AND value NOT IN ('true', 'false') GROUP BY device, measurement";
      const std::string got_numbers =
          "SELECT device, measurement, CAST(min AS DOUBLE), CAST(max AS DOUBLE) FROM tsfile_aggregate_tree('" + file +
          "'" + params + ") WHERE data_type IN ('INT32', 'INT64', 'FLOAT', 'DOUBLE')";
      EXPECT_EQ(Int("SELECT count(*) FROM (" + got_numbers + " EXCEPT " + numbers + ")"), 0);
      // The last point of each series.
      const std::string last = "SELECT device, measurement, max(time), arg_max(value, time) FROM " + points +
                               " GROUP BY device, measurement";
      const std::string got_last =
          "SELECT device, measurement, time, value FROM tsfile_last_tree('" + file + "'" + params + ")";
      EXPECT_EQ(Int("SELECT count(*) FROM (" + got_last + ")"), series);
      EXPECT_EQ(Int("SELECT count(*) FROM (" + got_last + " EXCEPT " + last + ")"), 0);
    }
  }
  EXPECT_NE(Error("SELECT * FROM tsfile_last_tree('" + FixturePath("table_alltypes.tsfile") + "')")
                .find("no tree-model data"),
            std::string::npos);
}

}  // namespace
}  // namespace tsread::testing

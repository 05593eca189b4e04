// tsfile_last against what SQL computes itself from read_tsfile's rows (arg_max of each column over
// its non-null rows, max(time) per device), with 1 and 2 threads.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "duckdb/duckdb_test_base.h"
#include "duckdb/one_device_file.h"

namespace tsread::testing {
namespace {

// `SELECT tags, max(time), arg_max(c, time) FILTER (c IS NOT NULL), max(time) FILTER (c IS NOT
// NULL)... FROM read_tsfile(...) GROUP BY tags`.
std::string ExpectedLast(const std::string& file, const std::string& params, const std::string& tags,
                         const std::vector<std::string>& columns) {
  std::string sql = "SELECT " + tags + ", max(time)";
  for (const std::string& c : columns) {
    sql += ", arg_max(" + c + ", time) FILTER (WHERE " + c + " IS NOT NULL)";
    sql += ", max(time) FILTER (WHERE " + c + " IS NOT NULL)";
  }
  return sql + " FROM read_tsfile('" + file + "'" + params + ") GROUP BY " + tags;
}

std::string Selected(const std::string& file, const std::string& params, const std::string& tags,
                     const std::vector<std::string>& columns) {
  std::string sql = "SELECT " + tags + ", time";
  for (const std::string& c : columns) sql += ", " + c + ", " + c + "_time";
  return sql + " FROM tsfile_last('" + file + "'" + params + ")";
}

TEST_P(DuckDbTest, TsfileLastEqualsArgMaxOverTheRows) {
  struct Case {
    std::string file, params, tags;
    std::vector<std::string> columns;
    int64_t devices;
  };
  const std::vector<std::string> all = {"f_boolean", "f_int32", "f_int64", "f_float", "f_double", "f_text",
                                        "f_string", "f_blob", "f_date", "f_timestamp"};
  for (const Case& c : {Case{FixturePath("table_alltypes.tsfile"), "", "region, id", all, 20},
                        Case{FixturePath("table_alltypes.tsfile"), ", tags := MAP {'region': 'east'}", "region, id", all, 5},
                        Case{FixturePath("table_alltypes.tsfile"), ", time_as := 'bigint'", "region, id", all, 20},
                        Case{FixturePath("table_multi.tsfile"), ", table_name := 'tbl_b'", "region, plant",
                             {"power", "voltage", "running", "day"}, 5}}) {
    SCOPED_TRACE(c.file + c.params);
    const std::string got = Selected(c.file, c.params, c.tags, c.columns);
    const std::string want = ExpectedLast(c.file, c.params, c.tags, c.columns);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + ")"), c.devices);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + got + " EXCEPT " + want + ")"), 0);
    EXPECT_EQ(Int("SELECT count(*) FROM (" + want + " EXCEPT " + got + ")"), 0);
  }
}

// The first column is the device id as tsfile_devices (and `tsread devices`) gives it.
TEST_P(DuckDbTest, TsfileLastNamesEachDevice) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  EXPECT_EQ(Text("SELECT column_name FROM (DESCRIBE SELECT * FROM tsfile_last('" + file + "')) LIMIT 1"), "device");
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT device, region, id FROM tsfile_last('" + file +
                "') EXCEPT SELECT device, region, id FROM tsfile_devices('" + file + "'))"),
            0);
  EXPECT_EQ(Int("SELECT count(DISTINCT device) FROM tsfile_last('" + file + "')"), 20);
}

// A TAG named `device` (the benchmark schema) keeps its name; the id's column becomes `_device`.
TEST_P(DuckDbTest, TsfileLastsDeviceIdNeverTakesAColumnsName) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("tsread_duckdb_last_device_" + std::to_string(::getpid()) + "_" +
                                      std::to_string(GetParam()) + ".tsfile");
  ASSERT_NE(WriteOneDeviceFile(path, "device", {1, 2}, {7, 8}), "");
  const std::string from = " FROM tsfile_last('" + path.string() + "')";
  EXPECT_EQ(Text("SELECT _device || '|' || device || '|' || v || '|' || epoch_ms(v_time)" + from), "t.d1|d1|8|2");
  std::filesystem::remove(path);
}

TEST_P(DuckDbTest, TsfileLastErrors) {
  EXPECT_NE(Error("SELECT * FROM tsfile_last('" + FixturePath("tree_aligned.tsfile") + "')").find("tsfile_last"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM tsfile_last('" + FixturePath("table_multi.tsfile") + "')").find("table_name"),
            std::string::npos);
  EXPECT_NE(Error("SELECT * FROM tsfile_last('" + FixturePath("table_alltypes.tsfile") + "', tags := 5)"), "");
}

}  // namespace
}  // namespace tsread::testing

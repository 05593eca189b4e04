// tsfile_metadata and tsfile_devices (metadata only) checked against what the Java tools wrote
// beside each fixture — its summary.json (devices, rows, per-column non-null counts, schema) and
// its expected CSVs (per-device rows and time ranges) — never against tsread's own output.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "duckdb/duckdb_test_base.h"
#include "nlohmann/json.hpp"

namespace tsread::testing {
namespace {

class MetadataTest : public DuckDbTest {};

nlohmann::json Summary(const std::string& summary_path) { return nlohmann::json::parse(ReadWholeFile(summary_path)); }

// Every fixture (and the benchmark file) with its summary.json.
std::vector<std::pair<std::string, std::string>> FilesWithSummaries() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& stem : FixtureStems()) {
    out.emplace_back(FixturePath(stem + ".tsfile"), FixturePath(stem + ".summary.json"));
  }
  const std::string large = BenchDir() + "/table_large.tsfile";
  if (std::filesystem::exists(large)) out.emplace_back(large, BenchDir() + "/table_large.summary.json");
  return out;
}

std::string Str(duckdb_result* result, idx_t c, idx_t r) {
  if (duckdb_value_is_null(result, c, r)) return "NULL";
  char* v = duckdb_value_varchar(result, c, r);
  std::string s = v ? v : "";
  duckdb_free(v);
  return s;
}

TEST_P(MetadataTest, TableColumnsMatchEverySummary) {
  size_t tables = 0;
  for (const auto& [file, summary_path] : FilesWithSummaries()) {
    SCOPED_TRACE(file);
    const nlohmann::json summary = Summary(summary_path);
    for (const nlohmann::json& table : summary["tables"]) {
      ++tables;
      const std::string name = table["name"];
      const int64_t rows = table["rows"];
      duckdb_result result;
      ASSERT_EQ(Query("SELECT column_name, category, data_type, devices, rows, non_null FROM tsfile_metadata('" + file +
                          "') WHERE table_name = '" + name + "'",
                      &result),
                "");
      const nlohmann::json& columns = table["columns"];
      ASSERT_EQ(duckdb_row_count(&result), columns.size() + 1) << name;
      // The time column first: the table's devices and rows.
      EXPECT_EQ(Str(&result, 0, 0), "time");
      EXPECT_EQ(Str(&result, 1, 0), "TIME");
      EXPECT_EQ(duckdb_value_int64(&result, 3, 0), table["devices"].get<int64_t>()) << name;
      EXPECT_EQ(duckdb_value_int64(&result, 4, 0), rows) << name;
      EXPECT_EQ(duckdb_value_int64(&result, 5, 0), rows) << name;
      // Then every column in schema order, with its non-null count.
      for (size_t c = 0; c < columns.size(); ++c) {
        const std::string column = columns[c]["name"];
        SCOPED_TRACE(name + "." + column);
        EXPECT_EQ(Str(&result, 0, c + 1), column);
        EXPECT_EQ(Str(&result, 1, c + 1), columns[c]["category"].get<std::string>());
        EXPECT_EQ(Str(&result, 2, c + 1), columns[c]["type"].get<std::string>());
        EXPECT_EQ(duckdb_value_int64(&result, 4, c + 1), rows);
        EXPECT_EQ(duckdb_value_int64(&result, 5, c + 1), table["columns_stats"][column]["non_null"].get<int64_t>());
      }
      duckdb_destroy_result(&result);
    }
  }
  EXPECT_GE(tables, 20u);
}

TEST_P(MetadataTest, TreeModelMatchesEverySummary) {
  size_t trees = 0;
  for (const auto& [file, summary_path] : FilesWithSummaries()) {
    const nlohmann::json summary = Summary(summary_path);
    if (!summary.contains("tree")) continue;
    SCOPED_TRACE(file);
    ++trees;
    const nlohmann::json& tree = summary["tree"];
    const std::string meta = "FROM tsfile_metadata('" + file + "') WHERE table_name IS NULL";
    const std::string devices = "FROM tsfile_devices('" + file + "') WHERE table_name IS NULL";
    // Per measurement, `devices` counts the devices with that series: their sum is the series.
    EXPECT_EQ(Int("SELECT sum(devices) " + meta), tree["series"].get<int64_t>());
    EXPECT_EQ(Int("SELECT sum(non_null) " + meta), tree["points"].get<int64_t>());
    EXPECT_EQ(Int("SELECT count(*) " + devices), tree["devices"].get<int64_t>());
    EXPECT_EQ(Int("SELECT sum(points) " + devices), tree["points"].get<int64_t>());
    EXPECT_EQ(Int("SELECT count(*) " + devices + " AND tags IS NOT NULL"), 0);
  }
  EXPECT_GE(trees, 3u);
}

// Per device of every fixture table: rows and time range equal the CSV's rows of the device (its
// tag values), and the table's time range the CSV's.
TEST_P(MetadataTest, DevicesMatchTheCsvs) {
  for (const ExpectedTable& t : FixtureTables()) {
    SCOPED_TRACE(t.csv_path);
    const std::string file = FixturePath(t.stem + ".tsfile");
    const nlohmann::json summary = Summary(FixturePath(t.stem + ".summary.json"));
    std::vector<std::string> tags;
    for (const nlohmann::json& table : summary["tables"]) {
      if (table["name"] != t.table) continue;
      for (const nlohmann::json& c : table["columns"]) {
        if (c["category"] == "TAG") tags.push_back(c["name"]);
      }
    }
    // The CSV's devices: key = tag values joined ("\1" for null), value = rows, first, last time.
    std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(t.csv_path));
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < csv[0].size(); ++i) index[csv[0][i].text] = i;
    std::map<std::string, std::tuple<int64_t, int64_t, int64_t>> expected;
    int64_t table_start = std::numeric_limits<int64_t>::max(), table_end = std::numeric_limits<int64_t>::min();
    for (size_t r = 1; r < csv.size(); ++r) {
      std::string key;
      for (const std::string& tag : tags) {
        const CsvField& f = csv[r][index.at(tag)];
        key += (f.is_null() ? std::string("\1") : f.text) + "|";
      }
      const int64_t time = std::stoll(csv[r][index.at("time")].text);
      auto [it, inserted] = expected.try_emplace(key, 0, time, time);
      auto& [n, start, end] = it->second;
      ++n;
      start = std::min(start, time);
      end = std::max(end, time);
      table_start = std::min(table_start, time);
      table_end = std::max(table_end, time);
    }
    std::string select = "SELECT rows, epoch_ms(start_time), epoch_ms(end_time), table_name";
    for (const std::string& tag : tags) select += ", tags['" + tag + "']";
    duckdb_result result;
    ASSERT_EQ(Query(select + " FROM tsfile_devices('" + file + "', table_name := '" + t.table + "')", &result), "");
    std::map<std::string, std::tuple<int64_t, int64_t, int64_t>> actual;
    for (idx_t r = 0; r < duckdb_row_count(&result); ++r) {
      EXPECT_EQ(Str(&result, 3, r), t.table);
      if (duckdb_value_int64(&result, 0, r) == 0) continue;  // a device without rows is not in the CSV
      std::string key;
      for (size_t k = 0; k < tags.size(); ++k) {
        key += (duckdb_value_is_null(&result, 4 + k, r) ? std::string("\1") : Str(&result, 4 + k, r)) + "|";
      }
      EXPECT_TRUE(actual
                      .try_emplace(key, duckdb_value_int64(&result, 0, r), duckdb_value_int64(&result, 1, r),
                                   duckdb_value_int64(&result, 2, r))
                      .second)
          << key;
    }
    duckdb_destroy_result(&result);
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(Int("SELECT epoch_ms(start_time) FROM tsfile_metadata('" + file + "') WHERE table_name = '" + t.table +
                  "' AND column_name = 'time'"),
              table_start);
    EXPECT_EQ(Int("SELECT epoch_ms(end_time) FROM tsfile_metadata('" + file + "') WHERE table_name = '" + t.table +
                  "' AND column_name = 'time'"),
              table_end);
  }
}

TEST_P(MetadataTest, GlobsTimeUnitAndErrors) {
  const std::string glob = FixturesDir() + "/table_comp_*.tsfile";
  EXPECT_EQ(Int("SELECT count(DISTINCT file) FROM tsfile_metadata('" + glob + "')"), 6);
  EXPECT_EQ(Int("SELECT count(DISTINCT file) FROM tsfile_devices('" + glob + "')"), 6);
  // time_unit := 'us' reads the stored milliseconds as microseconds.
  const std::string multi = FixturePath("table_multi.tsfile");
  EXPECT_EQ(Int("SELECT epoch_us(start_time) FROM tsfile_metadata('" + multi +
                "', time_unit := 'us') WHERE table_name = 'tbl_a' AND column_name = 'time'"),
            Int("SELECT epoch_ms(start_time) FROM tsfile_metadata('" + multi +
                "') WHERE table_name = 'tbl_a' AND column_name = 'time'"));
  EXPECT_NE(Error("SELECT * FROM tsfile_devices('" + multi + "', table_name := 'nope')"), "");
  EXPECT_NE(Error("SELECT * FROM tsfile_metadata('" + multi + "', time_unit := 'days')"), "");

  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tsread_duckdb_meta_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
  std::filesystem::create_directories(dir);
  const std::string data = ReadWholeFile(multi);
  const std::string truncated = (dir / "truncated.tsfile").string();
  std::ofstream(truncated, std::ios::binary).write(data.data(), data.size() - 100);
  const std::string garbage = (dir / "garbage.tsfile").string();
  std::ofstream(garbage, std::ios::binary) << "this is not a tsfile at all";
  for (const std::string& path : {truncated, garbage}) {
    for (const char* function : {"tsfile_metadata", "tsfile_devices"}) {
      const std::string error = Error(std::string("SELECT * FROM ") + function + "('" + path + "')");
      EXPECT_NE(error.find(path), std::string::npos) << function << ": " << error;
    }
  }
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_devices('" + multi + "')"), 4 + 5 + 5);  // summary.json: per table
  std::filesystem::remove_all(dir);
}

TEST_P(MetadataTest, DevicesOfOneTableHaveItsTagColumnsAndJoinItsRows) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  // Every row of read_tsfile meets exactly its device (null tags compared as values).
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_devices('" + file + "') d JOIN read_tsfile('" + file +
                "') r ON d.region IS NOT DISTINCT FROM r.region AND d.id IS NOT DISTINCT FROM r.id"),
            100000);
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_devices('" + file + "') WHERE id = 'dev_17' AND region IS NULL"), 1);
  const std::string multi = FixturePath("table_multi.tsfile");
  const std::string columns = "SELECT string_agg(column_name, ',' ORDER BY column_name) FROM (DESCRIBE SELECT * FROM ";
  // Several tables: no table's TAG columns (the tags map holds them).
  EXPECT_EQ(Text(columns + "tsfile_devices('" + multi + "'))"),
            "device,end_time,file,points,rows,start_time,table_name,tags");
  EXPECT_EQ(Text(columns + "tsfile_devices('" + multi + "', table_name := 'tbl_b'))"),
            "device,end_time,file,plant,points,region,rows,start_time,table_name,tags");
  EXPECT_EQ(Int("SELECT count(*) FROM tsfile_devices('" + multi + "', table_name := 'tbl_b') WHERE plant = 'p3'"),
            Int("SELECT count(DISTINCT region) FROM read_tsfile('" + multi + "', table_name := 'tbl_b') WHERE plant = 'p3'") +
                Int("SELECT count(*) > 0 FROM read_tsfile('" + multi + "', table_name := 'tbl_b') WHERE plant = 'p3' "
                    "AND region IS NULL"));
}

INSTANTIATE_TEST_SUITE_P(Threads, MetadataTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

}  // namespace
}  // namespace tsread::testing

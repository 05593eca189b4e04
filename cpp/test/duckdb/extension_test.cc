// The DuckDB extension loaded into the npm libduckdb.so (tools/setup.sh), with 1 and 2 threads:
// every reference fixture table through SQL equals its expected CSV (typed comparison), and
// projections, time ranges, tags, globs, filename and errors.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "duckdb.h"
#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/expected_values.h"
#include "testing/fixtures.h"

namespace tsread::testing {
namespace {

struct ExpectedTable {
  std::string stem, table, csv_path;
};

std::vector<ExpectedTable> FixtureTables() {
  std::vector<ExpectedTable> out;
  for (const auto& entry : std::filesystem::directory_iterator(FixturesDir())) {
    std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".csv") continue;
    std::string base = name.substr(0, name.size() - 4);
    size_t dot = base.rfind('.');
    if (dot == std::string::npos || base.substr(dot + 1) == "tree") continue;
    out.push_back({base.substr(0, dot), base.substr(dot + 1), entry.path().string()});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.csv_path < b.csv_path; });
  return out;
}

class DuckDbTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    duckdb_config config;
    ASSERT_EQ(duckdb_create_config(&config), DuckDBSuccess);
    duckdb_set_config(config, "allow_unsigned_extensions", "true");
    duckdb_set_config(config, "threads", std::to_string(GetParam()).c_str());
    char* error = nullptr;
    ASSERT_EQ(duckdb_open_ext(nullptr, &db_, config, &error), DuckDBSuccess) << (error ? error : "");
    duckdb_destroy_config(&config);
    ASSERT_EQ(duckdb_connect(db_, &con_), DuckDBSuccess);
    std::string load = std::string("LOAD '") + TSREAD_EXTENSION_PATH + "'";
    duckdb_result result;
    ASSERT_EQ(duckdb_query(con_, load.c_str(), &result), DuckDBSuccess) << duckdb_result_error(&result);
    duckdb_destroy_result(&result);
  }
  void TearDown() override {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }

  // Runs `sql`; on success fills `result` (the caller destroys it) and returns "".
  std::string Query(const std::string& sql, duckdb_result* result) {
    if (duckdb_query(con_, sql.c_str(), result) == DuckDBError) {
      std::string error = duckdb_result_error(result);
      duckdb_destroy_result(result);
      return error.empty() ? "error" : error;
    }
    return "";
  }
  std::string Error(const std::string& sql) {
    duckdb_result result;
    std::string error = Query(sql, &result);
    if (error.empty()) duckdb_destroy_result(&result);
    return error;
  }
  int64_t Int(const std::string& sql) {
    duckdb_result result;
    std::string error = Query(sql, &result);
    EXPECT_EQ(error, "") << sql;
    if (!error.empty()) return -1;
    int64_t v = duckdb_value_int64(&result, 0, 0);
    duckdb_destroy_result(&result);
    return v;
  }

  // Compares the result of `sql` with the CSV rows that pass `keep`, column c of the result
  // against CSV column `columns[c]` (by name from the header).
  void ExpectMatches(const std::string& sql, const std::string& csv_path, const std::vector<std::string>& columns,
                     const std::function<bool(const CsvRow&, const std::map<std::string, size_t>&)>& keep = {}) {
    std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(csv_path));
    ASSERT_FALSE(csv.empty()) << csv_path;
    std::map<std::string, size_t> index;
    for (size_t i = 0; i < csv[0].size(); ++i) index[csv[0][i].text] = i;
    std::vector<size_t> wanted;
    for (const auto& c : columns) {
      ASSERT_TRUE(index.count(c)) << c;
      wanted.push_back(index[c]);
    }
    std::vector<const CsvRow*> rows;
    for (size_t r = 1; r < csv.size(); ++r) {
      if (!keep || keep(csv[r], index)) rows.push_back(&csv[r]);
    }
    duckdb_result result;
    std::string error = Query(sql, &result);
    ASSERT_EQ(error, "") << sql;
    ASSERT_EQ(duckdb_column_count(&result), columns.size()) << sql;
    for (size_t c = 0; c < columns.size(); ++c) EXPECT_EQ(duckdb_column_name(&result, c), columns[c]);
    ASSERT_EQ(duckdb_row_count(&result), rows.size()) << sql;
    size_t failures = 0;
    for (size_t r = 0; r < rows.size() && failures < 10; ++r) {
      for (size_t c = 0; c < columns.size(); ++c) {
        const CsvField& expected = (*rows[r])[wanted[c]];
        ::testing::AssertionResult ok = CompareCell(&result, c, r, expected);
        if (!ok) {
          ++failures;
          ADD_FAILURE() << sql << ": row " << r << " column " << columns[c] << ": " << ok.message();
        }
      }
    }
    duckdb_destroy_result(&result);
  }

  static ::testing::AssertionResult CompareCell(duckdb_result* result, size_t c, size_t r, const CsvField& expected) {
    if (duckdb_value_is_null(result, c, r)) return FieldIsNull(expected);
    switch (duckdb_column_type(result, c)) {
      case DUCKDB_TYPE_BOOLEAN:
        return FieldEqualsBool(expected, duckdb_value_boolean(result, c, r));
      case DUCKDB_TYPE_INTEGER:
      case DUCKDB_TYPE_BIGINT:
        return FieldEqualsInt(expected, duckdb_value_int64(result, c, r));
      case DUCKDB_TYPE_FLOAT:
        return FieldEqualsFloat(expected, duckdb_value_float(result, c, r));
      case DUCKDB_TYPE_DOUBLE:
        return FieldEqualsDouble(expected, duckdb_value_double(result, c, r));
      case DUCKDB_TYPE_TIMESTAMP: {
        int64_t micros = duckdb_value_timestamp(result, c, r).micros;
        if (micros % 1000 != 0) return ::testing::AssertionFailure() << "sub-millisecond timestamp " << micros;
        return FieldEqualsInt(expected, micros / 1000);
      }
      case DUCKDB_TYPE_DATE: {
        duckdb_date_struct d = duckdb_from_date(duckdb_value_date(result, c, r));
        return FieldEqualsInt(expected, int64_t{d.year} * 10000 + d.month * 100 + d.day);
      }
      case DUCKDB_TYPE_VARCHAR: {
        char* v = duckdb_value_varchar(result, c, r);
        std::string s = v ? v : "";
        duckdb_free(v);
        return FieldEqualsBinary(expected, DataType::kString, s);
      }
      case DUCKDB_TYPE_BLOB: {
        duckdb_blob b = duckdb_value_blob(result, c, r);
        std::string s(static_cast<const char*>(b.data), b.size);
        duckdb_free(b.data);
        return FieldEqualsBinary(expected, DataType::kBlob, s);
      }
      default:
        return ::testing::AssertionFailure() << "unexpected column type " << duckdb_column_type(result, c);
    }
  }

  static std::vector<std::string> Header(const std::string& csv_path) {
    std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(csv_path));
    std::vector<std::string> names;
    for (const auto& f : csv.at(0)) names.push_back(f.text);
    return names;
  }

  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

std::string AllTypes() { return FixturePath("table_alltypes.tsfile"); }
std::string AllTypesCsv() { return FixturePath("table_alltypes.t_all.csv"); }

TEST_P(DuckDbTest, EveryFixtureTableEqualsItsCsv) {
  std::vector<ExpectedTable> tables = FixtureTables();
  ASSERT_GE(tables.size(), 20u);
  for (const auto& t : tables) {
    SCOPED_TRACE(t.csv_path);
    ExpectMatches("SELECT * FROM read_tsfile('" + FixturePath(t.stem + ".tsfile") + "', table_name := '" + t.table +
                      "')",
                  t.csv_path, Header(t.csv_path));
  }
}

TEST_P(DuckDbTest, ReplacementScanReadsTheOnlyTable) {
  ExpectMatches("SELECT * FROM '" + AllTypes() + "'", AllTypesCsv(), Header(AllTypesCsv()));
}

TEST_P(DuckDbTest, Projection) {
  ExpectMatches("SELECT f_int64, time, id, f_text FROM read_tsfile('" + AllTypes() + "')", AllTypesCsv(),
                {"f_int64", "time", "id", "f_text"});
  ExpectMatches("SELECT region FROM read_tsfile('" + AllTypes() + "')", AllTypesCsv(), {"region"});
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + AllTypes() + "')"), 100000);
}

TEST_P(DuckDbTest, TimeRange) {
  // 2023-11-14 22:13:20 UTC = 1700000000000 ms; end inclusive.
  const int64_t start = 1700000000000, end = 1700000500000;
  ExpectMatches("SELECT time, id, f_double FROM read_tsfile('" + AllTypes() +
                    "', start_time := TIMESTAMP '2023-11-14 22:13:20', end_time := epoch_ms(1700000500000))",
                AllTypesCsv(), {"time", "id", "f_double"}, [&](const CsvRow& row, const auto& index) {
                  int64_t t = std::stoll(row[index.at("time")].text);
                  return t >= start && t <= end;
                });
}

TEST_P(DuckDbTest, TagsArePushedDown) {
  ExpectMatches("SELECT * FROM read_tsfile('" + AllTypes() + "', tags := MAP {'id': ['dev_03', 'dev_17']})",
                AllTypesCsv(), Header(AllTypesCsv()), [](const CsvRow& row, const auto& index) {
                  const std::string& id = row[index.at("id")].text;
                  return id == "dev_03" || id == "dev_17";
                });
  // A NULL in the list matches a null tag.
  ExpectMatches("SELECT time, region, id FROM read_tsfile('" + AllTypes() + "', tags := MAP {'region': [NULL]})",
                AllTypesCsv(), {"time", "region", "id"},
                [](const CsvRow& row, const auto& index) { return row[index.at("region")].is_null(); });
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + AllTypes() + "', tags := MAP {'f_int32': ['1']})"), "");
}

TEST_P(DuckDbTest, GlobListAndFilename) {
  std::string glob = FixturesDir() + "/table_comp_*.tsfile";
  EXPECT_EQ(Int("SELECT count(DISTINCT filename) FROM read_tsfile('" + glob + "', filename := true)"), 6);
  for (const char* codec : {"GZIP", "ZSTD"}) {
    std::string file = FixturePath(std::string("table_comp_") + codec + ".tsfile");
    std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(FixturePath(std::string("table_comp_") + codec + ".t_comp.csv")));
    EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile('" + glob + "', filename := true) WHERE filename = '" + file + "'"),
              static_cast<int64_t>(csv.size() - 1));
  }
  std::string list = "['" + FixturePath("table_comp_LZ4.tsfile") + "', '" + FixturePath("table_comp_GZIP.tsfile") + "']";
  EXPECT_EQ(Int("SELECT count(*) FROM read_tsfile(" + list + ")"), 2 * Int("SELECT count(*) FROM '" +
                                                                            FixturePath("table_comp_LZ4.tsfile") + "'"));
  // Parallel aggregation equals the sequential count of the CSV.
  std::vector<CsvRow> csv = ParseCsv(ReadWholeFile(AllTypesCsv()));
  std::map<std::string, int64_t> per_device;
  for (size_t r = 1; r < csv.size(); ++r) per_device[csv[r][2].text]++;
  duckdb_result result;
  ASSERT_EQ(Query("SELECT id, count(*) FROM read_tsfile('" + AllTypes() + "') GROUP BY id ORDER BY id NULLS FIRST", &result), "");
  ASSERT_EQ(duckdb_row_count(&result), per_device.size());
  size_t r = 0;
  for (const auto& [id, n] : per_device) {
    char* v = duckdb_value_is_null(&result, 0, r) ? nullptr : duckdb_value_varchar(&result, 0, r);
    EXPECT_EQ(std::string(v ? v : ""), id);  // "" = a null id (the CSV has no empty id)
    duckdb_free(v);
    EXPECT_EQ(duckdb_value_int64(&result, 1, r), n);
    ++r;
  }
  duckdb_destroy_result(&result);
}

TEST_P(DuckDbTest, ErrorsAreSqlErrorsNamingTheFile) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tsread_duckdb_test_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam()));
  std::filesystem::create_directories(dir);
  std::string data = ReadWholeFile(AllTypes());
  std::string truncated = (dir / "truncated.tsfile").string();
  std::ofstream(truncated, std::ios::binary).write(data.data(), data.size() / 2);
  std::string garbage = (dir / "garbage.tsfile").string();
  std::ofstream(garbage, std::ios::binary) << "this is not a tsfile at all";
  // Corrupt data section: flip bytes in the middle, keep the metadata.
  std::string corrupt = (dir / "corrupt.tsfile").string();
  std::string flipped = data;
  for (size_t i = 100; i < flipped.size() / 2; i += 97) flipped[i] = static_cast<char>(flipped[i] ^ 0x5A);
  std::ofstream(corrupt, std::ios::binary).write(flipped.data(), flipped.size());

  for (const std::string& path : {truncated, garbage, corrupt}) {
    std::string error = Error("SELECT sum(f_int64), count(f_text) FROM read_tsfile('" + path + "')");
    EXPECT_NE(error, "") << path;
    EXPECT_NE(error.find(path), std::string::npos) << error;
  }
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + (dir / "missing.tsfile").string() + "')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + FixturePath("table_multi.tsfile") + "')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + AllTypes() + "', time_unit := 'hours')"), "");
  EXPECT_NE(Error("SELECT * FROM read_tsfile('" + FixturePath("tree_aligned.tsfile") + "')"), "");
  // The connection is still usable.
  EXPECT_EQ(Int("SELECT count(*) FROM '" + AllTypes() + "'"), 100000);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Threads, DuckDbTest, ::testing::Values(1, 2),
                         [](const auto& info) { return "threads" + std::to_string(info.param); });

}  // namespace
}  // namespace tsread::testing

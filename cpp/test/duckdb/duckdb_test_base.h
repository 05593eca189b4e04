// The fixture of the DuckDB extension's tests: a DuckDB database (the npm libduckdb.so that
// tools/setup.sh fetches) with 1 or 2 threads and the extension loaded, and helpers that run SQL
// and compare results with the fixtures' expected CSVs.
#ifndef TSREAD_TEST_DUCKDB_DUCKDB_TEST_BASE_H_
#define TSREAD_TEST_DUCKDB_DUCKDB_TEST_BASE_H_

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "duckdb.h"
#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/expected_values.h"
#include "testing/fixtures.h"

namespace tsread::testing {

struct ExpectedTable {
  std::string stem, table, csv_path;
};

inline std::vector<ExpectedTable> FixtureTables() {
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

  // The first value of `sql` as text; "NULL" for null, "ERROR: ..." for an error.
  std::string Text(const std::string& sql) {
    duckdb_result result;
    std::string error = Query(sql, &result);
    if (!error.empty()) return "ERROR: " + error;
    std::string out = "NULL";
    if (duckdb_row_count(&result) > 0 && !duckdb_value_is_null(&result, 0, 0)) {
      char* v = duckdb_value_varchar(&result, 0, 0);
      out = v ? v : "";
      duckdb_free(v);
    }
    duckdb_destroy_result(&result);
    return out;
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
    // The C API's cell readers give nothing for TIMESTAMPTZ: such columns are compared as
    // epoch_us (the same query as a subquery, which keeps its row order).
    std::string as_micros;
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string name = std::string("\"") + duckdb_column_name(&result, c) + "\"";
      const bool instant = duckdb_column_type(&result, c) == DUCKDB_TYPE_TIMESTAMP_TZ;
      as_micros += (c ? ", " : "") + (instant ? "make_timestamp(epoch_us(" + name + ")) AS " + name : name);
    }
    duckdb_destroy_result(&result);
    error = Query("SELECT " + as_micros + " FROM (" + sql + ")", &result);
    ASSERT_EQ(error, "") << sql;
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
        const int64_t micros = duckdb_value_timestamp(result, c, r).micros;
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

}  // namespace tsread::testing

#endif  // TSREAD_TEST_DUCKDB_DUCKDB_TEST_BASE_H_

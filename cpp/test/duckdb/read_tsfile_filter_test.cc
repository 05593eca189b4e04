// read_tsfile's filter := (value predicates in the CLI's grammar, pushed into the scan) against
// DuckDB's own WHERE over the unfiltered read: the same rows both ways (EXCEPT ALL), with 1 and 2
// threads, on every type of table_alltypes; and bad filters are SQL errors naming them.
#include <string>
#include <utility>
#include <vector>

#include "duckdb/duckdb_test_base.h"

namespace tsread::testing {
namespace {

// `text` as an SQL string literal.
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

TEST_P(DuckDbTest, FilterEqualsDuckDbsWhere) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  const std::string all = "read_tsfile('" + file + "')";
  // (filter :=, the same condition in DuckDB's SQL). DuckDB orders NaN above every number where
  // tsread follows IEEE (NaN matches only !=), hence the isnan terms.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"f_int32 > 100", "f_int32 > 100"},
      {"f_int32 >= 100 AND f_int64 != 1000000566189", "f_int32 >= 100 AND f_int64 <> 1000000566189"},
      {"f_double < -50", "f_double < -50 AND NOT isnan(f_double)"},
      {"f_double != 0", "f_double <> 0 OR isnan(f_double)"},
      {"f_float >= 18.5", "f_float >= 18.5::FLOAT AND NOT isnan(f_float)"},
      {"f_boolean = true", "f_boolean"},
      {"f_text IS NULL", "f_text IS NULL"},
      {"f_string = 'mode_5', 'mode_7'", "f_string IN ('mode_5', 'mode_7')"},
      {"f_string > 'mode_5'", "f_string > 'mode_5'"},
      {"f_date >= 2024-07-05", "f_date >= DATE '2024-07-05'"},
      {"f_timestamp < 1699999949622", "epoch_ms(f_timestamp) < 1699999949622"},
      {"id = dev_17 AND f_int32 IS NOT NULL", "id = 'dev_17' AND f_int32 IS NOT NULL"},
      {"region IS NULL", "region IS NULL"},
      {"id > 'dev_5'", "id > 'dev_5'"},
      {"f_int64 < 0", "f_int64 < 0"},  // no row
      // OR, AND binding tighter, parentheses; a TAG and FIELDs under one OR.
      {"region = east OR region = west", "region IN ('east', 'west')"},
      {"region = east OR region IS NULL", "region = 'east' OR region IS NULL"},
      {"f_int32 > 120 OR region = north AND f_boolean = true",
       "f_int32 > 120 OR (region = 'north' AND f_boolean)"},
      {"(f_int32 > 120 OR region = north) AND f_boolean = true", "(f_int32 > 120 OR region = 'north') AND f_boolean"},
      {"f_string = 'mode_5' OR (f_text IS NULL AND id = dev_17)", "f_string = 'mode_5' OR (f_text IS NULL AND id = 'dev_17')"},
      {"f_blob = 0x75", "f_blob = '\\x75'::BLOB"},
  };
  for (const auto& [filter, where] : cases) {
    SCOPED_TRACE(filter);
    const std::string filtered = "read_tsfile('" + file + "', filter := " + Quoted(filter) + ")";
    const std::string reference = "(SELECT * FROM " + all + " WHERE " + where + ")";
    const int64_t rows = Int("SELECT count(*) FROM " + reference);
    EXPECT_EQ(Int("SELECT count(*) FROM " + filtered), rows);
    EXPECT_EQ(Int("SELECT count(*) FROM (SELECT * FROM " + filtered + " EXCEPT ALL SELECT * FROM " + reference + ")"),
              0);
    EXPECT_EQ(Int("SELECT count(*) FROM (SELECT * FROM " + reference + " EXCEPT ALL SELECT * FROM " + filtered + ")"),
              0);
    // The filter's columns need not be selected.
    EXPECT_EQ(Int("SELECT count(time) FROM " + filtered), rows);
    EXPECT_EQ(Int("SELECT count(*) FROM (SELECT f_blob FROM " + filtered + ")"), rows);
  }
}

TEST_P(DuckDbTest, BadFiltersAreErrorsNamingThem) {
  const std::string file = FixturePath("table_alltypes.tsfile");
  for (const std::string& filter : {std::string("nope > 1"), std::string("f_int32 > 'abc'"), std::string("f_int32 >"),
                                    std::string("f_text = 5 AND"), std::string("f_date > 2024-13-45"),
                                    std::string("f_date > 20240231"), std::string("region = east OR"),
                                    std::string("(region = east"), std::string("f_blob = 0xz1")}) {
    SCOPED_TRACE(filter);
    const std::string error = Error("SELECT * FROM read_tsfile('" + file + "', filter := " + Quoted(filter) + ")");
    EXPECT_NE(error.find("read_tsfile"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace tsread::testing

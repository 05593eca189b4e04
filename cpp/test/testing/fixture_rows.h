// Helpers for the read tests: the fixture CSVs as expected rows and a typed comparison of one
// decoded cell against its CSV field.
#ifndef TSREAD_TESTING_FIXTURE_ROWS_H_
#define TSREAD_TESTING_FIXTURE_ROWS_H_

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/csv.h"
#include "testing/expected_values.h"
#include "testing/fixtures.h"
#include "tsread/read/column_vector.h"

namespace tsread::testing {

// (fixture stem, table) for every NAME.TABLE.csv of a table-model fixture. Called when the test
// binary starts (parameter lists): it only looks for the files — every test process pays for it,
// and reading the CSVs here cost each test of a sanitizer build seconds.
inline std::vector<std::pair<std::string, std::string>> TableCsvFixtures() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& stem : FixtureStems()) {
    for (const char* table : {"t_all", "t_comp", "t_enc", "t_many", "t_wide", "tbl_a", "tbl_b", "tbl_c"}) {
      std::error_code error;
      if (std::filesystem::file_size(FixturePath(stem + "." + table + ".csv"), error) > 0 && !error) {
        out.emplace_back(stem, table);
      }
    }
  }
  return out;
}

// Whether row `row` of `column` equals the CSV field (null, or the typed value).
inline ::testing::AssertionResult CellMatches(const CsvField& expected, const ColumnVector& column, size_t row) {
  if (!column.IsValid(row)) return FieldIsNull(expected);
  switch (column.type) {
    case DataType::kBoolean: return FieldEqualsBool(expected, column.bools[row] != 0);
    case DataType::kInt32:
    case DataType::kDate: return FieldEqualsInt(expected, column.int32s[row]);
    case DataType::kInt64:
    case DataType::kTimestamp: return FieldEqualsInt(expected, column.int64s[row]);
    case DataType::kFloat: return FieldEqualsFloat(expected, column.floats[row]);
    case DataType::kDouble: return FieldEqualsDouble(expected, column.doubles[row]);
    case DataType::kText:
    case DataType::kString:
    case DataType::kBlob: return FieldEqualsBinary(expected, column.type, column.binary(row));
    default: return ::testing::AssertionFailure() << "unexpected column type";
  }
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_FIXTURE_ROWS_H_

// Comparing a decoded value with a fixture CSV field, typed: integers by value, FLOAT/DOUBLE by
// the bits strtof/strtod give the text (cli-contract.md: "compare by parsed bits"), BLOB by its
// hex bytes, strings by bytes. Independent of tsread's own CSV formatting.
#ifndef TSREAD_TESTING_EXPECTED_VALUES_H_
#define TSREAD_TESTING_EXPECTED_VALUES_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "testing/csv.h"
#include "tsread/common/tsfile_enums.h"

namespace tsread::testing {

::testing::AssertionResult FieldIsNull(const CsvField& expected);
::testing::AssertionResult FieldEqualsBool(const CsvField& expected, bool actual);
::testing::AssertionResult FieldEqualsInt(const CsvField& expected, int64_t actual);
::testing::AssertionResult FieldEqualsFloat(const CsvField& expected, float actual);
::testing::AssertionResult FieldEqualsDouble(const CsvField& expected, double actual);
// TEXT/STRING (quoted) or BLOB (0x hex) according to `type`.
::testing::AssertionResult FieldEqualsBinary(const CsvField& expected, DataType type, std::string_view actual);

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_EXPECTED_VALUES_H_

#include "testing/expected_values.h"

#include <bit>
#include <cstdlib>
#include <cstring>

namespace tsread::testing {
namespace {

::testing::AssertionResult NotNull(const CsvField& expected) {
  if (expected.is_null()) return ::testing::AssertionFailure() << "expected null, got a value";
  return ::testing::AssertionSuccess();
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

::testing::AssertionResult FieldIsNull(const CsvField& expected) {
  if (!expected.is_null()) return ::testing::AssertionFailure() << "expected \"" << expected.text << "\", got null";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult FieldEqualsBool(const CsvField& expected, bool actual) {
  if (auto r = NotNull(expected); !r) return r;
  if (expected.text != (actual ? "true" : "false")) {
    return ::testing::AssertionFailure() << "expected " << expected.text << ", got " << actual;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult FieldEqualsInt(const CsvField& expected, int64_t actual) {
  if (auto r = NotNull(expected); !r) return r;
  char* end = nullptr;
  const long long v = std::strtoll(expected.text.c_str(), &end, 10);
  if (*end != '\0' || v != actual) {
    return ::testing::AssertionFailure() << "expected " << expected.text << ", got " << actual;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult FieldEqualsFloat(const CsvField& expected, float actual) {
  if (auto r = NotNull(expected); !r) return r;
  const float v = std::strtof(expected.text.c_str(), nullptr);
  if (std::bit_cast<uint32_t>(v) != std::bit_cast<uint32_t>(actual)) {
    return ::testing::AssertionFailure() << "expected " << expected.text << ", got " << actual;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult FieldEqualsDouble(const CsvField& expected, double actual) {
  if (auto r = NotNull(expected); !r) return r;
  const double v = std::strtod(expected.text.c_str(), nullptr);
  if (std::bit_cast<uint64_t>(v) != std::bit_cast<uint64_t>(actual)) {
    return ::testing::AssertionFailure() << "expected " << expected.text << ", got " << actual;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult FieldEqualsBinary(const CsvField& expected, DataType type, std::string_view actual) {
  if (auto r = NotNull(expected); !r) return r;
  if (type != DataType::kBlob) {
    if (!expected.quoted || expected.text != actual) {
      return ::testing::AssertionFailure() << "expected \"" << expected.text << "\", got \"" << actual << "\"";
    }
    return ::testing::AssertionSuccess();
  }
  const std::string& hex = expected.text;
  if (hex.size() < 2 || hex.compare(0, 2, "0x") != 0 || hex.size() % 2 != 0) {
    return ::testing::AssertionFailure() << "bad BLOB text " << hex;
  }
  std::string bytes;
  for (size_t i = 2; i < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(HexDigit(hex[i]) * 16 + HexDigit(hex[i + 1])));
  }
  if (bytes != actual) return ::testing::AssertionFailure() << "BLOB differs from " << hex;
  return ::testing::AssertionSuccess();
}

}  // namespace tsread::testing

// AppendJavaFloat / AppendJavaDouble against what Java's Float.toString / Double.toString print
// (the text of the fixtures' CSVs): plain decimals for 1e-3 <= |v| < 1e7, else d.dddE<exp>.
#include "tsread/common/java_number_text.h"

#include <cmath>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace tsread {
namespace {

std::string Double(double v) {
  std::string out;
  AppendJavaDouble(out, v);
  return out;
}

std::string Float(float v) {
  std::string out;
  AppendJavaFloat(out, v);
  return out;
}

TEST(JavaNumberTextTest, PlainRange) {
  EXPECT_EQ(Double(5.0), "5.0");
  EXPECT_EQ(Double(-0.0), "-0.0");
  EXPECT_EQ(Double(0.0), "0.0");
  EXPECT_EQ(Double(0.001), "0.001");
  EXPECT_EQ(Double(123.456), "123.456");
  EXPECT_EQ(Double(9999999.0), "9999999.0");
  EXPECT_EQ(Double(-37.672937104448366), "-37.672937104448366");
  EXPECT_EQ(Float(0.1f), "0.1");
  EXPECT_EQ(Float(89.26f), "89.26");
  EXPECT_EQ(Float(-98.27f), "-98.27");
}

TEST(JavaNumberTextTest, ScientificOutsideThePlainRange) {
  EXPECT_EQ(Double(1e7), "1.0E7");
  EXPECT_EQ(Double(1.5e-4), "1.5E-4");
  EXPECT_EQ(Double(-2.5e300), "-2.5E300");
  EXPECT_EQ(Double(std::numeric_limits<double>::min()), "2.2250738585072014E-308");
  EXPECT_EQ(Float(std::numeric_limits<float>::max()), "3.4028235E38");
  EXPECT_EQ(Float(1e-5f), "1.0E-5");
}

TEST(JavaNumberTextTest, SpecialValues) {
  EXPECT_EQ(Double(std::nan("")), "NaN");
  EXPECT_EQ(Double(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(Float(-std::numeric_limits<float>::infinity()), "-Infinity");
}

}  // namespace
}  // namespace tsread

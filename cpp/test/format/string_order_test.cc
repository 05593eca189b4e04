#include "tsread/format/string_order.h"

#include "gtest/gtest.h"

namespace tsread {
namespace {

TEST(StringOrderTest, AsciiIsByteOrder) {
  EXPECT_LT(CompareJavaStrings("a", "b"), 0);
  EXPECT_LT(CompareJavaStrings("a", "ab"), 0);
  EXPECT_EQ(CompareJavaStrings("ab", "ab"), 0);
  EXPECT_GT(CompareJavaStrings("b", "ab"), 0);
  EXPECT_LT(CompareJavaStrings("", "a"), 0);
}

TEST(StringOrderTest, SupplementaryBeforeHighBmpAsInUtf16) {
  EXPECT_LT(CompareJavaStrings("x\xF0\x9F\x98\x80", "x\xEE\x80\x80"), 0);  // U+1F600 vs U+E000
  EXPECT_GT(CompareJavaStrings("\xEF\xBF\xBF", "\xF0\x90\x80\x80"), 0);   // U+FFFF vs U+10000
  // Below U+D800 UTF-16 and code-point order agree.
  EXPECT_LT(CompareJavaStrings("\xED\x9F\xBF", "\xF0\x90\x80\x80"), 0);   // U+D7FF vs U+10000
}

}  // namespace
}  // namespace tsread

// The predicate grammar (predicate_text.h): what each form parses to, and where bad text stops.
#include "tsread/read/predicate_text.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// The parse of `text` written back as column|op|value|value..., comparisons joined by " && ".
std::string Parsed(const std::string& text) {
  absl::StatusOr<std::vector<ValuePredicate>> parsed = ParsePredicates(text);
  if (!parsed.ok()) return "error: " + std::string(parsed.status().message());
  std::string out;
  for (const ValuePredicate& p : *parsed) {
    if (!out.empty()) out += " && ";
    out += p.column + "|" + std::string(CompareOpText(p.op));
    for (const PredicateValue& v : p.values) out += "|" + std::get<std::string>(v);
  }
  return out;
}

TEST(PredicateTextTest, ComparisonsWithAndWithoutSpaces) {
  EXPECT_EQ(Parsed("s_double>380"), "s_double|>|380");
  EXPECT_EQ(Parsed("  s_double  >  380  "), "s_double|>|380");
  EXPECT_EQ(Parsed("a>=1"), "a|>=|1");
  EXPECT_EQ(Parsed("a<=1"), "a|<=|1");
  EXPECT_EQ(Parsed("a<1"), "a|<|1");
  EXPECT_EQ(Parsed("a==1"), "a|=|1");
  EXPECT_EQ(Parsed("a!=1"), "a|!=|1");
  EXPECT_EQ(Parsed("a<>1"), "a|!=|1");
  EXPECT_EQ(Parsed("a = -1.5e3"), "a|=|-1.5e3");
}

TEST(PredicateTextTest, AndJoinsComparisonsInAnyCase) {
  EXPECT_EQ(Parsed("s_double > 380 AND s_int32 < 5"), "s_double|>|380 && s_int32|<|5");
  EXPECT_EQ(Parsed("a=1 and b=2 And c=3"), "a|=|1 && b|=|2 && c|=|3");
  // AND inside a word or a quoted string is not the keyword.
  EXPECT_EQ(Parsed("brand=ANDROID"), "brand|=|ANDROID");
  EXPECT_EQ(Parsed("s='salt AND pepper' AND n=1"), "s|=|salt AND pepper && n|=|1");
}

TEST(PredicateTextTest, QuotedStringsAndNames) {
  EXPECT_EQ(Parsed("s_text = 'it''s'"), "s_text|=|it's");
  EXPECT_EQ(Parsed("s = ''"), "s|=|");
  EXPECT_EQ(Parsed("\"odd name\" >= 'x'"), "odd name|>=|x");
  EXPECT_EQ(Parsed("\"a\"\"b\"=1"), "a\"b|=|1");
  EXPECT_EQ(Parsed("s = 'a,b'"), "s|=|a,b");
}

TEST(PredicateTextTest, TagListsAsBefore) {
  EXPECT_EQ(Parsed("region=east,west"), "region|=|east|west");
  EXPECT_EQ(Parsed("region = east , 'we st'"), "region|=|east|we st");
  // `tag=` matches a null tag; a bare value keeps its inner spaces.
  EXPECT_EQ(Parsed("region="), "region|IS NULL");
  EXPECT_EQ(Parsed("region=north east"), "region|=|north east");
  EXPECT_EQ(Parsed("region= AND b=1"), "region|IS NULL && b|=|1");
}

TEST(PredicateTextTest, ABareValueRunsToTheNextAnd) {
  // Binding then says the text is not a number, naming it (bound_predicate_test).
  EXPECT_EQ(Parsed("a > 1 b < 2"), "a|>|1 b < 2");
}

TEST(PredicateTextTest, NullTests) {
  EXPECT_EQ(Parsed("a IS NULL"), "a|IS NULL");
  EXPECT_EQ(Parsed("a is not null AND b IS NULL"), "a|IS NOT NULL && b|IS NULL");
}

TEST(PredicateTextTest, BadTextSaysWhere) {
  for (const char* text : {"", "   ", "a", "a 1", "a >", "a IS 5", "a IS NOT", "a = 'open", "\"a = 1",
                           "a > 1 AND", "a > 1 AND ", "a = 1,", "a = 'x' b = 2"}) {
    SCOPED_TRACE(text);
    // Parsed from a copy without a terminator after it, so that a read past the end is caught.
    const std::vector<char> bytes(text, text + std::strlen(text));
    absl::StatusOr<std::vector<ValuePredicate>> parsed =
        ParsePredicates(std::string_view(bytes.data(), bytes.size()));
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(parsed.status().message()).find("at character"), std::string::npos);
  }
}

}  // namespace
}  // namespace tsread

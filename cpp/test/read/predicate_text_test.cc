// The predicate grammar (predicate_text.h): what each form parses to, and where bad text stops.
#include "tsread/read/predicate_text.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// An expression written back as column|op|value|value..., ANDs joined by " && " and ORs by
// " || ", nested ones in brackets.
std::string Written(const PredicateExpr& e) {
  if (e.kind == PredicateExpr::Kind::kComparison) {
    const ValuePredicate& p = e.comparison;
    std::string out = p.column + "|" + std::string(CompareOpText(p.op));
    for (const PredicateValue& v : p.values) out += "|" + std::get<std::string>(v);
    return out;
  }
  std::string out;
  for (const PredicateExpr& operand : e.operands) {
    if (!out.empty()) out += e.kind == PredicateExpr::Kind::kAnd ? " && " : " || ";
    const bool nested = operand.kind != PredicateExpr::Kind::kComparison;
    out += nested ? "[" + Written(operand) + "]" : Written(operand);
  }
  return out;
}

// The parse of `text` written back: its top-level conditions joined by " && ".
std::string Parsed(const std::string& text) {
  absl::StatusOr<std::vector<PredicateExpr>> parsed = ParsePredicates(text);
  if (!parsed.ok()) return "error: " + std::string(parsed.status().message());
  std::string out;
  for (const PredicateExpr& e : *parsed) {
    if (!out.empty()) out += " && ";
    out += e.kind == PredicateExpr::Kind::kOr ? "[" + Written(e) + "]" : Written(e);
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

TEST(PredicateTextTest, OrJoinsConditionsAndAndBindsTighter) {
  // The new user's text: OR was read as part of the value before it (0 rows instead of 45,000).
  EXPECT_EQ(Parsed("region = east OR region = west"), "[region|=|east || region|=|west]");
  EXPECT_EQ(Parsed("a=1 or b=2 Or c=3"), "[a|=|1 || b|=|2 || c|=|3]");
  EXPECT_EQ(Parsed("a=1 AND b=2 OR c=3"), "[[a|=|1 && b|=|2] || c|=|3]");
  EXPECT_EQ(Parsed("a=1 OR b=2 AND c=3"), "[a|=|1 || [b|=|2 && c|=|3]]");
  EXPECT_EQ(Parsed("a=1 AND b=2 OR c=3 AND d IS NULL"), "[[a|=|1 && b|=|2] || [c|=|3 && d|IS NULL]]");
  // A list and the null form end at OR as at AND.
  EXPECT_EQ(Parsed("region = east, west OR region ="), "[region|=|east|west || region|IS NULL]");
  EXPECT_EQ(Parsed("region= OR b=1"), "[region|IS NULL || b|=|1]");
}

TEST(PredicateTextTest, ParenthesesGroup) {
  EXPECT_EQ(Parsed("(a=1 OR b=2) AND c=3"), "[a|=|1 || b|=|2] && c|=|3");
  EXPECT_EQ(Parsed("c=3 AND (a=1 OR b=2)"), "c|=|3 && [a|=|1 || b|=|2]");
  EXPECT_EQ(Parsed("(a=1)"), "a|=|1");
  EXPECT_EQ(Parsed("((a = 1)) AND (b = 2 AND c = 3)"), "a|=|1 && b|=|2 && c|=|3");
  EXPECT_EQ(Parsed("(a>1)OR(b<2)"), "[a|>|1 || b|<|2]");
  EXPECT_EQ(Parsed("(a IS NULL OR (b = x AND c != y))"), "[a|IS NULL || [b|=|x && c|!=|y]]");
  EXPECT_EQ(Parsed("(region = )"), "region|IS NULL");
  // A bare value keeps parentheses it opens; inside a group, the group's ')' ends it.
  EXPECT_EQ(Parsed("s = f(x)"), "s|=|f(x)");
  EXPECT_EQ(Parsed("(s = f(x)) OR t = 1"), "[s|=|f(x) || t|=|1]");
  EXPECT_EQ(Parsed("(s = 'a)b' OR t = ')')"), "[s|=|a)b || t|=|)]");
}

TEST(PredicateTextTest, KeywordsInsideQuotesOrWordsAreValues) {
  EXPECT_EQ(Parsed("s = 'north OR south'"), "s|=|north OR south");
  EXPECT_EQ(Parsed("brand = ORACLE OR brand = FORD"), "[brand|=|ORACLE || brand|=|FORD]");
  EXPECT_EQ(Parsed("\"OR\" = 1 OR \"AND\" = 2"), "[OR|=|1 || AND|=|2]");
  EXPECT_EQ(Parsed("s = 'a' OR s = 'b AND c'"), "[s|=|a || s|=|b AND c]");
}

TEST(PredicateTextTest, BadTextSaysWhere) {
  for (const char* text : {"", "   ", "a", "a 1", "a >", "a IS 5", "a IS NOT", "a = 'open", "\"a = 1",
                           "a > 1 AND", "a > 1 AND ", "a = 1,", "a = 'x' b = 2", "a > 1 OR", "OR a > 1",
                           "(a > 1", "a > 1)", "(a > 1))", "()", "(a > 1 OR)", "a > 1 OR OR b < 2",
                           "(a = 'x' b = 2)", "a IS NULL)"}) {
    SCOPED_TRACE(text);
    // Parsed from a copy without a terminator after it, so that a read past the end is caught.
    const std::vector<char> bytes(text, text + std::strlen(text));
    absl::StatusOr<std::vector<PredicateExpr>> parsed =
        ParsePredicates(std::string_view(bytes.data(), bytes.size()));
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(std::string(parsed.status().message()).find("at character"), std::string::npos);
  }
}

TEST(PredicateTextTest, NestingIsBounded) {
  const std::string deep = std::string(64, '(') + "a = 1" + std::string(64, ')');
  EXPECT_EQ(Parsed(deep), "a|=|1");
  const std::string deeper = "(" + deep + ")";
  EXPECT_NE(Parsed(deeper).find("nested too deep"), std::string::npos);
  // Never a stack overflow, however deep the text.
  EXPECT_NE(Parsed(std::string(100000, '(')).find("error"), std::string::npos);
}

}  // namespace
}  // namespace tsread

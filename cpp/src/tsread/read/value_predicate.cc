#include "tsread/read/value_predicate.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tsread/io/status_macros.h"

namespace tsread {

std::string_view CompareOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
    case CompareOp::kIsNull: return "IS NULL";
    case CompareOp::kIsNotNull: return "IS NOT NULL";
  }
  return "?";
}

namespace {

std::string ValueText(const PredicateValue& value) {
  struct Text {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int64_t i) const { return absl::StrCat(i); }
    std::string operator()(double d) const { return absl::StrCat(d); }
    std::string operator()(const std::string& s) const { return absl::StrCat("'", s, "'"); }
  };
  return std::visit(Text{}, value);
}

}  // namespace

std::string DescribePredicate(const ValuePredicate& predicate) {
  std::string text = absl::StrCat(predicate.column, " ", ToAbsl(CompareOpText(predicate.op)));
  if (!predicate.values.empty()) {
    absl::StrAppend(&text, " ", absl::StrJoin(predicate.values, ", ", [](std::string* out, const PredicateValue& v) {
      out->append(ValueText(v));
    }));
  }
  return text;
}

std::string DescribePredicate(const PredicateExpr& expr) {
  if (expr.kind == PredicateExpr::Kind::kComparison) return DescribePredicate(expr.comparison);
  const std::string_view join = expr.kind == PredicateExpr::Kind::kAnd ? " AND " : " OR ";
  std::string text;
  for (const PredicateExpr& operand : expr.operands) {
    if (!text.empty()) absl::StrAppend(&text, ToAbsl(join));
    const bool nested = operand.kind != PredicateExpr::Kind::kComparison;
    absl::StrAppend(&text, nested ? "(" : "", DescribePredicate(operand), nested ? ")" : "");
  }
  return text;
}

}  // namespace tsread

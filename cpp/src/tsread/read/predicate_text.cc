// The predicate grammar (predicate_text.h): a recursive-descent parser over the text, OR over AND
// over parenthesized groups and comparisons.
#include "tsread/read/predicate_text.h"

#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

bool IsSpace(char c) { return absl::ascii_isspace(static_cast<unsigned char>(c)); }
bool IsOperatorChar(char c) { return c == '=' || c == '!' || c == '<' || c == '>'; }

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  absl::StatusOr<std::vector<PredicateExpr>> All() {
    SkipSpaces();
    if (AtEnd()) return Error("expected a comparison such as s_double > 380");
    absl::StatusOr<PredicateExpr> expr = Disjunction();
    if (!expr.ok()) return expr.status();
    SkipSpaces();
    if (!AtEnd()) return Error(text_[pos_] == ')' ? "')' without a '(' before it" : "expected AND or OR between comparisons");
    if (expr->kind == PredicateExpr::Kind::kAnd) return std::move(expr->operands);
    return std::vector<PredicateExpr>{*std::move(expr)};
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  void SkipSpaces() {
    while (!AtEnd() && IsSpace(text_[pos_])) ++pos_;
  }
  // The keyword `word` (any case) at the cursor, ending at a space or the end.
  bool AtWord(std::string_view word) const {
    if (text_.size() - pos_ < word.size() || !absl::EqualsIgnoreCase(ToAbsl(text_.substr(pos_, word.size())), ToAbsl(word))) {
      return false;
    }
    const size_t end = pos_ + word.size();
    return end == text_.size() || IsSpace(text_[end]) || text_[end] == '(' || text_[end] == ')';
  }
  // The keyword AND or OR at the cursor (the caller has skipped the spaces before it).
  bool AtAnd() const { return AtWord("AND"); }
  bool AtOr() const { return AtWord("OR"); }
  // A keyword that ends a bare value: AND or OR after a space.
  bool KeywordStartsAt(size_t i) const {
    if (i == 0 || !IsSpace(text_[i - 1])) return false;
    const Parser at(text_, i);
    return at.AtAnd() || at.AtOr();
  }
  Parser(std::string_view text, size_t pos) : text_(text), pos_(pos) {}

  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("predicate \"", ToAbsl(text_), "\" at character ", pos_ + 1, ": ", ToAbsl(what)));
  }

  absl::StatusOr<std::string> Quoted(char quote) {
    std::string out;
    ++pos_;
    while (true) {
      if (AtEnd()) return Error(quote == '\'' ? "unterminated 'string'" : "unterminated \"name\"");
      const char c = text_[pos_++];
      if (c != quote) {
        out.push_back(c);
      } else if (!AtEnd() && text_[pos_] == quote) {
        out.push_back(quote);  // a doubled quote is one quote
        ++pos_;
      } else {
        return out;
      }
    }
  }

  absl::StatusOr<std::string> Name() {
    if (AtEnd()) return Error("expected a column name");
    if (text_[pos_] == '"') return Quoted('"');
    const size_t start = pos_;
    int open = 0;  // as in a bare value: parentheses opened in the name close in it
    for (; !AtEnd() && !IsSpace(text_[pos_]) && !IsOperatorChar(text_[pos_]); ++pos_) {
      if (text_[pos_] == '(') ++open;
      if (text_[pos_] == ')' && open-- == 0) break;  // a group's end, or a stray one
    }
    if (pos_ == start) return Error("expected a column name");
    return std::string(text_.substr(start, pos_ - start));
  }

  std::optional<CompareOp> Operator() {
    static constexpr std::pair<std::string_view, CompareOp> kOps[] = {
        {"==", CompareOp::kEq}, {"!=", CompareOp::kNe}, {"<>", CompareOp::kNe}, {"<=", CompareOp::kLe},
        {">=", CompareOp::kGe}, {"=", CompareOp::kEq},  {"<", CompareOp::kLt},  {">", CompareOp::kGt}};
    for (const auto& [text, op] : kOps) {
      if (absl::StartsWith(ToAbsl(text_.substr(pos_)), ToAbsl(text))) {
        pos_ += text.size();
        return op;
      }
    }
    return std::nullopt;
  }

  // A value: quoted, or bare up to the next AND or OR (or, in a list, the next comma; inside
  // parentheses, the ')' that closes them), trimmed. Parentheses opened in the value close in it.
  absl::StatusOr<std::string> Value(bool in_list) {
    SkipSpaces();
    if (!AtEnd() && text_[pos_] == '\'') return Quoted('\'');
    const size_t start = pos_;
    int open = 0;
    for (; !AtEnd() && !(in_list && text_[pos_] == ',') && !KeywordStartsAt(pos_); ++pos_) {
      if (text_[pos_] == '(') ++open;
      if (text_[pos_] == ')' && open-- == 0) break;  // a group's end, or a stray one
    }
    absl::string_view bare = absl::StripAsciiWhitespace(ToAbsl(text_.substr(start, pos_ - start)));
    if (bare.empty()) return Error("expected a value");
    return std::string(bare);
  }

  // conjunction { OR conjunction }, as one expression (an OR of one operand is that operand).
  absl::StatusOr<PredicateExpr> Disjunction() {
    std::vector<PredicateExpr> operands;
    while (true) {
      absl::StatusOr<PredicateExpr> operand = Conjunction();
      if (!operand.ok()) return operand.status();
      operands.push_back(*std::move(operand));
      SkipSpaces();
      if (!AtOr()) break;
      pos_ += 2;
      SkipSpaces();
    }
    if (operands.size() == 1) return std::move(operands.front());
    return PredicateExpr::Or(std::move(operands));
  }

  // primary { AND primary }; nested ANDs are flattened into one.
  absl::StatusOr<PredicateExpr> Conjunction() {
    std::vector<PredicateExpr> operands;
    while (true) {
      absl::StatusOr<PredicateExpr> operand = Primary();
      if (!operand.ok()) return operand.status();
      if (operand->kind == PredicateExpr::Kind::kAnd) {
        for (PredicateExpr& e : operand->operands) operands.push_back(std::move(e));
      } else {
        operands.push_back(*std::move(operand));
      }
      SkipSpaces();
      if (!AtAnd()) break;
      pos_ += 3;
      SkipSpaces();
    }
    if (operands.size() == 1) return std::move(operands.front());
    return PredicateExpr::And(std::move(operands));
  }

  // '(' predicates ')' or a comparison.
  absl::StatusOr<PredicateExpr> Primary() {
    SkipSpaces();
    if (AtEnd()) return Error("expected a comparison");
    if (text_[pos_] != '(') {
      absl::StatusOr<ValuePredicate> comparison = Comparison();
      if (!comparison.ok()) return comparison.status();
      return PredicateExpr(*std::move(comparison));
    }
    if (depth_ >= kMaxDepth) return Error("parentheses nested too deep");
    ++pos_;
    ++depth_;
    absl::StatusOr<PredicateExpr> inner = Disjunction();
    if (!inner.ok()) return inner.status();
    SkipSpaces();
    if (AtEnd() || text_[pos_] != ')') return Error("expected ')'");
    ++pos_;
    --depth_;
    return inner;
  }

  absl::StatusOr<ValuePredicate> Comparison() {
    ValuePredicate p;
    absl::StatusOr<std::string> name = Name();
    if (!name.ok()) return name.status();
    p.column = *std::move(name);
    SkipSpaces();
    if (AtWord("IS")) {
      pos_ += 2;
      SkipSpaces();
      const bool negated = AtWord("NOT");
      if (negated) {
        pos_ += 3;
        SkipSpaces();
      }
      if (!AtWord("NULL")) return Error("expected NULL after IS");
      pos_ += 4;
      p.op = negated ? CompareOp::kIsNotNull : CompareOp::kIsNull;
      return p;
    }
    std::optional<CompareOp> op = Operator();
    if (!op.has_value()) return Error("expected one of = != <> < <= > >= or IS [NOT] NULL");
    p.op = *op;
    SkipSpaces();
    // `name=` and nothing more: a null value (the tag form `--where tag=`).
    if (p.op == CompareOp::kEq && (AtEnd() || AtAnd() || AtOr() || (depth_ > 0 && text_[pos_] == ')'))) {
      p.op = CompareOp::kIsNull;
      return p;
    }
    const bool list = p.op == CompareOp::kEq;
    while (true) {
      absl::StatusOr<std::string> value = Value(list);
      if (!value.ok()) return value.status();
      p.values.emplace_back(*std::move(value));
      SkipSpaces();
      if (!list || AtEnd() || text_[pos_] != ',') return p;
      ++pos_;
    }
  }

  // Deep enough for any hand-written condition, shallow enough that the recursion stays small.
  static constexpr int kMaxDepth = 64;

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;  // parentheses open at the cursor
};

}  // namespace

absl::StatusOr<std::vector<PredicateExpr>> ParsePredicates(std::string_view text) { return Parser(text).All(); }

}  // namespace tsread

// The predicate grammar (predicate_text.h): a hand-written scanner over the text, one comparison
// at a time.
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

  absl::StatusOr<std::vector<ValuePredicate>> All() {
    std::vector<ValuePredicate> predicates;
    SkipSpaces();
    if (AtEnd()) return Error("expected a comparison such as s_double > 380");
    while (true) {
      absl::StatusOr<ValuePredicate> p = Comparison();
      if (!p.ok()) return p.status();
      predicates.push_back(*std::move(p));
      SkipSpaces();
      if (AtEnd()) return predicates;
      if (!AtAnd()) return Error("expected AND between comparisons");
      pos_ += 3;
      SkipSpaces();
    }
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
    return end == text_.size() || IsSpace(text_[end]);
  }
  // AND after a space (or at the cursor, where the caller has skipped the spaces before it).
  bool AtAnd() const { return AtWord("AND"); }
  bool AndStartsAt(size_t i) const { return i > 0 && IsSpace(text_[i - 1]) && Parser(text_, i).AtAnd(); }
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
    while (!AtEnd() && !IsSpace(text_[pos_]) && !IsOperatorChar(text_[pos_])) ++pos_;
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

  // A value: quoted, or bare up to the next AND (or, in a list, the next comma), trimmed.
  absl::StatusOr<std::string> Value(bool in_list) {
    SkipSpaces();
    if (!AtEnd() && text_[pos_] == '\'') return Quoted('\'');
    const size_t start = pos_;
    while (!AtEnd() && !(in_list && text_[pos_] == ',') && !AndStartsAt(pos_)) ++pos_;
    absl::string_view bare = absl::StripAsciiWhitespace(ToAbsl(text_.substr(start, pos_ - start)));
    if (bare.empty()) return Error("expected a value");
    return std::string(bare);
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
    if (p.op == CompareOp::kEq && (AtEnd() || AtAnd())) {
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

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<ValuePredicate>> ParsePredicates(std::string_view text) { return Parser(text).All(); }

}  // namespace tsread

#include "tsread/dataset/split_codec.h"

#include <variant>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

constexpr std::string_view kSplitMagic = "TSRSPLIT";
constexpr uint8_t kVersion = 3;  // 2: value predicates; 3: their ANDs and ORs
// Deeper nesting than any condition a front end builds (the grammar stops at 64): a bound on the
// decoder's recursion.
constexpr int kMaxExprDepth = 100;

void PutCount(uint64_t n, std::string& out) {
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7F) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
}

void PutU64(uint64_t v, std::string& out) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

void PutString(std::string_view s, std::string& out) {
  PutCount(s.size(), out);
  out.append(s);
}

absl::StatusOr<std::string> GetString(ByteStream& in, const char* what) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t n, in.ReadUVarInt(what));
  TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, in.ReadBytes(n, what));
  return std::string(bytes);
}

absl::StatusOr<uint64_t> GetU64(ByteStream& in, const char* what) {
  TSREAD_ASSIGN_OR_RETURN(int64_t v, in.ReadI64(what));
  return static_cast<uint64_t>(v);
}

// A predicate operand: a kind byte (0 bool, 1 int64, 2 double, 3 string), then the value.
void PutValue(const PredicateValue& value, std::string& out) {
  out.push_back(static_cast<char>(value.index()));
  if (const bool* b = std::get_if<bool>(&value)) out.push_back(*b ? 1 : 0);
  if (const int64_t* i = std::get_if<int64_t>(&value)) PutU64(static_cast<uint64_t>(*i), out);
  if (const double* d = std::get_if<double>(&value)) PutU64(absl::bit_cast<uint64_t>(*d), out);
  if (const std::string* s = std::get_if<std::string>(&value)) PutString(*s, out);
}

absl::StatusOr<PredicateValue> GetValue(ByteStream& in) {
  TSREAD_ASSIGN_OR_RETURN(uint8_t kind, in.ReadU8("split predicate value kind"));
  switch (kind) {
    case 0: {
      TSREAD_ASSIGN_OR_RETURN(bool b, in.ReadBool("split predicate boolean"));
      return PredicateValue(b);
    }
    case 1: {
      TSREAD_ASSIGN_OR_RETURN(int64_t i, in.ReadI64("split predicate integer"));
      return PredicateValue(i);
    }
    case 2: {
      TSREAD_ASSIGN_OR_RETURN(uint64_t bits, GetU64(in, "split predicate double"));
      return PredicateValue(absl::bit_cast<double>(bits));
    }
    case 3: {
      TSREAD_ASSIGN_OR_RETURN(std::string s, GetString(in, "split predicate string"));
      return PredicateValue(std::move(s));
    }
    default: return absl::InvalidArgumentError(absl::StrCat("split: unknown predicate value kind ", kind));
  }
}

absl::StatusOr<ValuePredicate> GetValuePredicate(ByteStream& in) {
  ValuePredicate p;
  TSREAD_ASSIGN_OR_RETURN(p.column, GetString(in, "split value predicate column"));
  TSREAD_ASSIGN_OR_RETURN(uint8_t op, in.ReadU8("split value predicate operator"));
  if (op > static_cast<uint8_t>(CompareOp::kIsNotNull)) {
    return absl::InvalidArgumentError(absl::StrCat("split: unknown predicate operator ", op));
  }
  p.op = static_cast<CompareOp>(op);
  TSREAD_ASSIGN_OR_RETURN(uint32_t values, in.ReadUVarInt("split value predicate value count"));
  for (uint32_t v = 0; v < values; ++v) {
    TSREAD_ASSIGN_OR_RETURN(PredicateValue value, GetValue(in));
    p.values.push_back(std::move(value));
  }
  return p;
}

// A condition: a kind byte (0 comparison, 1 AND, 2 OR), then the comparison or a count of operands
// and the operands.
void PutExpr(const PredicateExpr& expr, std::string& out) {
  out.push_back(static_cast<char>(expr.kind));
  if (expr.kind == PredicateExpr::Kind::kComparison) {
    const ValuePredicate& p = expr.comparison;
    PutString(p.column, out);
    out.push_back(static_cast<char>(p.op));
    PutCount(p.values.size(), out);
    for (const PredicateValue& value : p.values) PutValue(value, out);
    return;
  }
  PutCount(expr.operands.size(), out);
  for (const PredicateExpr& operand : expr.operands) PutExpr(operand, out);
}

absl::StatusOr<PredicateExpr> GetExpr(ByteStream& in, int depth) {
  if (depth > kMaxExprDepth) return absl::InvalidArgumentError("split: value predicates nested too deep");
  TSREAD_ASSIGN_OR_RETURN(uint8_t kind, in.ReadU8("split value predicate kind"));
  if (kind == static_cast<uint8_t>(PredicateExpr::Kind::kComparison)) {
    TSREAD_ASSIGN_OR_RETURN(ValuePredicate p, GetValuePredicate(in));
    return PredicateExpr(std::move(p));
  }
  if (kind != static_cast<uint8_t>(PredicateExpr::Kind::kAnd) && kind != static_cast<uint8_t>(PredicateExpr::Kind::kOr)) {
    return absl::InvalidArgumentError(absl::StrCat("split: unknown value predicate kind ", kind));
  }
  TSREAD_ASSIGN_OR_RETURN(uint32_t count, in.ReadUVarInt("split value predicate operand count"));
  std::vector<PredicateExpr> operands;
  for (uint32_t i = 0; i < count; ++i) {
    TSREAD_ASSIGN_OR_RETURN(PredicateExpr operand, GetExpr(in, depth + 1));
    operands.push_back(std::move(operand));
  }
  return kind == static_cast<uint8_t>(PredicateExpr::Kind::kAnd) ? PredicateExpr::And(std::move(operands))
                                                                 : PredicateExpr::Or(std::move(operands));
}

absl::StatusOr<SplitDescription> Decode(ByteStream& in) {
  SplitDescription split;
  TSREAD_ASSIGN_OR_RETURN(std::string_view magic, in.ReadBytes(kSplitMagic.size(), "split magic"));
  TSREAD_ASSIGN_OR_RETURN(uint8_t version, in.ReadU8("split version"));
  if (magic != kSplitMagic || version != kVersion) return absl::InvalidArgumentError("not a tsread split (bad magic or version)");
  TSREAD_ASSIGN_OR_RETURN(split.path, GetString(in, "split path"));
  TSREAD_ASSIGN_OR_RETURN(split.file_size, GetU64(in, "split file size"));
  TSREAD_ASSIGN_OR_RETURN(split.schema.name, GetString(in, "split table"));
  TSREAD_ASSIGN_OR_RETURN(uint32_t columns, in.ReadUVarInt("split column count"));
  for (uint32_t i = 0; i < columns; ++i) {
    ColumnSchema column;
    TSREAD_ASSIGN_OR_RETURN(column.name, GetString(in, "split column name"));
    TSREAD_ASSIGN_OR_RETURN(uint8_t category, in.ReadU8("split column category"));
    TSREAD_ASSIGN_OR_RETURN(uint8_t type, in.ReadU8("split column type"));
    const std::optional<ColumnCategory> parsed_category = ColumnCategoryFromInt(category);
    const std::optional<DataType> parsed_type = DataTypeFromByte(type);
    if (!parsed_category.has_value() || !parsed_type.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("split: column \"", column.name, "\" has an unknown category or type"));
    }
    column.category = *parsed_category;
    column.data_type = *parsed_type;
    split.schema.columns.push_back(std::move(column));
  }
  TSREAD_ASSIGN_OR_RETURN(uint32_t projected, in.ReadUVarInt("split projection count"));
  for (uint32_t i = 0; i < projected; ++i) {
    TSREAD_ASSIGN_OR_RETURN(std::string name, GetString(in, "split projected column"));
    split.columns.push_back(std::move(name));
  }
  TSREAD_ASSIGN_OR_RETURN(split.time_range.start, in.ReadI64("split start time"));
  TSREAD_ASSIGN_OR_RETURN(split.time_range.end, in.ReadI64("split end time"));
  TSREAD_ASSIGN_OR_RETURN(uint32_t predicates, in.ReadUVarInt("split predicate count"));
  for (uint32_t i = 0; i < predicates; ++i) {
    TagPredicate p;
    TSREAD_ASSIGN_OR_RETURN(p.column, GetString(in, "split predicate column"));
    TSREAD_ASSIGN_OR_RETURN(uint32_t values, in.ReadUVarInt("split predicate value count"));
    for (uint32_t v = 0; v < values; ++v) {
      TSREAD_ASSIGN_OR_RETURN(bool present, in.ReadBool("split predicate value null flag"));
      if (!present) {
        p.values.push_back(std::nullopt);
        continue;
      }
      TSREAD_ASSIGN_OR_RETURN(std::string value, GetString(in, "split predicate value"));
      p.values.push_back(std::move(value));
    }
    split.tag_predicates.push_back(std::move(p));
  }
  TSREAD_ASSIGN_OR_RETURN(uint32_t value_predicates, in.ReadUVarInt("split value predicate count"));
  for (uint32_t i = 0; i < value_predicates; ++i) {
    TSREAD_ASSIGN_OR_RETURN(PredicateExpr p, GetExpr(in, 0));
    split.value_predicates.push_back(std::move(p));
  }
  TSREAD_ASSIGN_OR_RETURN(split.devices.first_device, GetU64(in, "split first device"));
  TSREAD_ASSIGN_OR_RETURN(split.devices.device_count, GetU64(in, "split device count"));
  TSREAD_ASSIGN_OR_RETURN(split.devices.bytes, GetU64(in, "split bytes"));
  if (!in.empty()) return absl::InvalidArgumentError(absl::StrCat("split: ", in.remaining(), " trailing bytes"));
  return split;
}

}  // namespace

std::string EncodeSplit(const SplitDescription& split) {
  std::string out(kSplitMagic);
  out.push_back(static_cast<char>(kVersion));
  PutString(split.path, out);
  PutU64(split.file_size, out);
  PutString(split.schema.name, out);
  PutCount(split.schema.columns.size(), out);
  for (const ColumnSchema& column : split.schema.columns) {
    PutString(column.name, out);
    out.push_back(static_cast<char>(column.category));
    out.push_back(static_cast<char>(column.data_type));
  }
  PutCount(split.columns.size(), out);
  for (const std::string& name : split.columns) PutString(name, out);
  PutU64(static_cast<uint64_t>(split.time_range.start), out);
  PutU64(static_cast<uint64_t>(split.time_range.end), out);
  PutCount(split.tag_predicates.size(), out);
  for (const TagPredicate& p : split.tag_predicates) {
    PutString(p.column, out);
    PutCount(p.values.size(), out);
    for (const std::optional<std::string>& value : p.values) {
      out.push_back(value.has_value() ? 1 : 0);
      if (value.has_value()) PutString(*value, out);
    }
  }
  PutCount(split.value_predicates.size(), out);
  for (const PredicateExpr& p : split.value_predicates) PutExpr(p, out);
  PutU64(split.devices.first_device, out);
  PutU64(split.devices.device_count, out);
  PutU64(split.devices.bytes, out);
  return out;
}

absl::StatusOr<SplitDescription> DecodeSplit(std::string_view bytes) {
  ByteStream in(bytes, 0);
  absl::StatusOr<SplitDescription> split = Decode(in);
  if (!split.ok() && split.status().code() != absl::StatusCode::kInvalidArgument) {
    // A truncated or malformed field: the input is not a split, whatever ByteStream calls it.
    return absl::InvalidArgumentError(absl::StrCat("not a valid tsread split: ", split.status().message()));
  }
  return split;
}

}  // namespace tsread

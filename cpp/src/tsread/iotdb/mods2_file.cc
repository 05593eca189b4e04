// IoTDB 2.x `.mods2` files: ModEntry records back to back until the end of the file, no header
// (iotdb-deletion-files.md, "2.x format"; iotdb-data-directories.md §3.3).
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"
#include "tsread/iotdb/deletion_entry.h"

namespace tsread::iotdb {
namespace {

// IoTDB's writer produces AND conditions of tag terms (one level: the SQL WHERE in DNF). Nesting
// deeper than this is not something IoTDB writes, and following it would let a hostile file run
// the recursion as deep as its length.
constexpr int kMaxConditionDepth = 64;

// The kinds this reader knows: IDPredicateType ordinals 0-3, and 4-5 from TagPredicate (apache/iotdb
// PR #18079; iotdb-deletion-files.md "Newer than the fork snapshot").
constexpr uint8_t kLastKnownKind = static_cast<uint8_t>(DeviceCondition::Kind::kSegmentNotNull);

// An owned copy of a nullable string read from the file.
std::optional<std::string> Owned(NullableView v) {
  if (!v.has_value()) return std::nullopt;
  return std::string(*v);
}

// A count of items that each take at least one byte (a kind byte, a varint): more than the bytes
// that remain is damage, found before anything is reserved for them. IoTDB's readers treat a
// negative count as none (`for (i < size)`; DeletionPredicate#deserialize keeps columns only
// `if (measurementLength > 0)`), and so does this one.
absl::StatusOr<int32_t> ReadCount(ByteStream& in, const char* what) {
  const uint64_t start = in.offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t count, in.ReadSVarInt(what));
  if (count < 0) return 0;
  if (static_cast<uint64_t>(count) > in.remaining()) {
    return absl::DataLossError(absl::StrCat("corrupt ", what, " at offset ", start, ": ", count,
                                            " is more than the ", in.remaining(),
                                            " bytes that remain (each takes at least one)"));
  }
  return count;
}

absl::StatusOr<DeviceCondition> ReadCondition(ByteStream& in, int depth);

// AND: zig-zag varint k, then k conditions (IDPredicate.And#deserialize).
absl::Status ReadAndOperands(ByteStream& in, int depth, DeviceCondition& condition) {
  TSREAD_ASSIGN_OR_RETURN(int32_t count, ReadCount(in, "AND operand count"));
  condition.operands.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    TSREAD_ASSIGN_OR_RETURN(DeviceCondition operand, ReadCondition(in, depth + 1));
    condition.operands.push_back(std::move(operand));
  }
  return absl::OkStatus();
}

// DEVICE_IN: zig-zag varint n, then n IDeviceIDs (TagPredicate, iotdb-deletion-files.md).
absl::Status ReadDeviceList(ByteStream& in, DeviceCondition& condition) {
  TSREAD_ASSIGN_OR_RETURN(int32_t count, ReadCount(in, "DEVICE_IN device count"));
  condition.devices.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    // An IDeviceID is a StringArrayDeviceID: uvarint count + nullable vstr segments, trailing nulls
    // trimmed (format/device_id.h reads it as a V4 TsFile does).
    TSREAD_ASSIGN_OR_RETURN(DeviceId device, ReadDeviceId(in, 4));
    condition.devices.push_back(std::move(device));
  }
  return absl::OkStatus();
}

// idPredicate := kind:u8 payload (iotdb-deletion-files.md, "2.x format"). An unknown kind or
// nesting beyond kMaxConditionDepth is InvalidArgument (what the entry deletes is unknown); a
// payload cut short is DataLoss.
absl::StatusOr<DeviceCondition> ReadCondition(ByteStream& in, int depth) {
  const uint64_t start = in.offset();
  TSREAD_ASSIGN_OR_RETURN(uint8_t kind, in.ReadU8("device condition kind"));
  if (kind > kLastKnownKind) {
    return absl::InvalidArgumentError(absl::StrCat("unknown device condition kind ", static_cast<int>(kind),
                                                   " at offset ", start, " (this reader knows 0-",
                                                   static_cast<int>(kLastKnownKind), ")"));
  }
  DeviceCondition condition;
  condition.kind = static_cast<DeviceCondition::Kind>(kind);
  switch (condition.kind) {
    case DeviceCondition::Kind::kAll:
      break;
    case DeviceCondition::Kind::kDevice: {
      TSREAD_ASSIGN_OR_RETURN(DeviceId device, ReadDeviceId(in, 4));
      condition.devices.push_back(std::move(device));
      break;
    }
    case DeviceCondition::Kind::kSegmentEquals: {
      TSREAD_ASSIGN_OR_RETURN(NullableView value, in.ReadNullableVarString("segment value"));
      condition.value = Owned(value);
      TSREAD_ASSIGN_OR_RETURN(condition.segment, in.ReadSVarInt("segment index"));
      break;
    }
    case DeviceCondition::Kind::kAnd:
      if (depth >= kMaxConditionDepth) {
        return absl::InvalidArgumentError(absl::StrCat("AND condition at offset ", start, " nested more than ",
                                                       kMaxConditionDepth,
                                                       " levels deep, more than this reader follows"));
      }
      TSREAD_RETURN_IF_ERROR(ReadAndOperands(in, depth, condition));
      break;
    case DeviceCondition::Kind::kDeviceIn:
      TSREAD_RETURN_IF_ERROR(ReadDeviceList(in, condition));
      break;
    case DeviceCondition::Kind::kSegmentNotNull:
      TSREAD_ASSIGN_OR_RETURN(condition.segment, in.ReadSVarInt("segment index"));
      break;
  }
  return condition;
}

// tree body := vstr pathPattern.getFullPath() (TreeDeletionEntry#serialize). IoTDB would fail on a
// null path (NullPointerException), so it is damage here.
absl::Status ReadTreeBody(ByteStream& in, DeletionEntry& entry) {
  TSREAD_ASSIGN_OR_RETURN(std::string_view path, in.ReadVarString("tree path pattern"));
  entry.pattern = PathNodes(path);
  return absl::OkStatus();
}

// table body := vstr tableName, idPredicate, zig-zag varint nColumns, nColumns × vstr column
// (DeletionPredicate#serialize). A null table or column name is damage: IoTDB's matching would
// fail on the first (tableName.equals) and a null column can name no column.
absl::Status ReadTableBody(ByteStream& in, DeletionEntry& entry) {
  TSREAD_ASSIGN_OR_RETURN(std::string_view table, in.ReadVarString("table name"));
  entry.table = std::string(table);
  TSREAD_ASSIGN_OR_RETURN(entry.devices, ReadCondition(in, 0));
  TSREAD_ASSIGN_OR_RETURN(int32_t count, ReadCount(in, "column count"));
  entry.columns.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    TSREAD_ASSIGN_OR_RETURN(std::string_view column, in.ReadVarString("column name"));
    entry.columns.emplace_back(column);
  }
  return absl::OkStatus();
}

// entry := type:u8 start:i64 end:i64 body (ModEntry#serialize). Errors carry no file or entry
// context; ParseMods2 adds it.
absl::StatusOr<DeletionEntry> ReadEntry(ByteStream& in) {
  DeletionEntry entry;
  TSREAD_ASSIGN_OR_RETURN(uint8_t type, in.ReadU8("deletion type"));
  if (type != static_cast<uint8_t>(DeletionEntry::Model::kTable) &&
      type != static_cast<uint8_t>(DeletionEntry::Model::kTree)) {
    return absl::InvalidArgumentError(absl::StrCat("unknown deletion type byte 0x",
                                                   absl::Hex(type, absl::kZeroPad2),
                                                   " (0x00 is a table deletion, 0x01 a tree deletion)"));
  }
  entry.model = static_cast<DeletionEntry::Model>(type);
  TSREAD_ASSIGN_OR_RETURN(entry.start, in.ReadI64("start time"));
  TSREAD_ASSIGN_OR_RETURN(entry.end, in.ReadI64("end time"));
  if (entry.model == DeletionEntry::Model::kTree) {
    TSREAD_RETURN_IF_ERROR(ReadTreeBody(in, entry));
  } else {
    TSREAD_RETURN_IF_ERROR(ReadTableBody(in, entry));
  }
  return entry;
}

}  // namespace

DeletionFileContents ParseMods2(std::string_view bytes, std::string_view path) {
  DeletionFileContents contents;
  ByteStream in(bytes, 0);
  while (!in.empty()) {
    const uint64_t start = in.offset();
    absl::StatusOr<DeletionEntry> entry = ReadEntry(in);
    if (entry.ok()) {
      contents.entries.push_back(*std::move(entry));
      continue;
    }
    // IoTDB's ModIterator ends the list at an entry it cannot read and keeps the ones before
    // (iotdb-deletion-files.md, "Reading"): so does this, saying why.
    const std::string message = absl::StrCat(ToAbsl(path), ": deletion entry at offset ", start, ": ",
                                             entry.status().message());
    if (absl::IsInvalidArgument(entry.status())) {
      contents.unknown = absl::UnimplementedError(message);
    } else {
      contents.damage = absl::DataLossError(message);
    }
    break;
  }
  return contents;
}

}  // namespace tsread::iotdb

#include "tsread/io/byte_stream.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

bool ByteStream::WantsUnloaded(uint64_t needed) {
  if (unloaded_ == 0 || needed <= remaining() || needed > remaining_in_span()) return false;
  wanted_end_ = offset() + needed;
  return true;
}

absl::Status ByteStream::Truncated(const char* what, size_t needed) {
  WantsUnloaded(needed);
  return absl::DataLossError(absl::StrCat("truncated ", what, " at offset ", offset(), ": needs ",
                                          needed, " bytes, ", remaining_in_span(), " remain"));
}

absl::Status ByteStream::Corrupt(const char* what, std::string_view detail) const {
  return absl::DataLossError(absl::StrCat("corrupt ", what, " at offset ", offset(), ": ", ToAbsl(detail)));
}

absl::StatusOr<uint32_t> ByteStream::ReadLongUVarInt(const char* what) {
  uint32_t value = 0;
  const char* p = pos_;
  for (int i = 0; i < 5; ++i) {
    if (p == end_) return Truncated(what, static_cast<size_t>(p - pos_) + 1);
    uint8_t b = static_cast<uint8_t>(*p++);
    if (i == 4 && (b & 0xF0) != 0) {
      return Corrupt(what, "varint does not fit in 32 bits");
    }
    value |= static_cast<uint32_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) {
      pos_ = p;
      return value;
    }
  }
  return Corrupt(what, "varint longer than 5 bytes");
}

absl::StatusOr<uint32_t> ByteStream::ReadLongUVarSize(const char* what) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t v, ReadLongUVarInt(what));
  if (v > 0x7FFFFFFFu) return Corrupt(what, absl::StrCat("size ", v, " is negative as a Java int"));
  return v;
}

absl::StatusOr<int32_t> ByteStream::ReadLongSVarInt(const char* what) {
  TSREAD_ASSIGN_OR_RETURN(uint32_t u, ReadUVarInt(what));
  return ZigZag(u);
}

absl::StatusOr<NullableView> ByteStream::TakeNullableString(int32_t len, uint64_t start, const char* what) {
  if (len == -1) return NullableView();
  if (len < 0) {
    return absl::DataLossError(absl::StrCat("corrupt ", what, " at offset ", start,
                                            ": negative string length ", len));
  }
  if (static_cast<size_t>(len) > remaining()) {
    WantsUnloaded(static_cast<uint64_t>(len));
    return absl::DataLossError(absl::StrCat("corrupt ", what, " at offset ", start, ": string length ",
                                            len, " exceeds the ", remaining_in_span(), " bytes that remain"));
  }
  std::string_view v(pos_, static_cast<size_t>(len));
  pos_ += len;
  return NullableView(v);
}

absl::StatusOr<NullableView> ByteStream::ReadNullableVarString(const char* what) {
  const uint64_t start = offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t len, ReadSVarInt(what));
  return TakeNullableString(len, start, what);
}

absl::Status ByteStream::SkipNullableVarStrings(uint32_t count, const char* what) {
  for (uint32_t i = 0; i < count; ++i) {
    // One-byte zig-zag length (|len| < 64): decode inline.
    if (pos_ != end_ && static_cast<uint8_t>(*pos_) < 0x80) {
      const uint32_t u = static_cast<uint8_t>(*pos_);
      const int32_t len = static_cast<int32_t>((u >> 1) ^ (0u - (u & 1u)));
      if (len >= 0 && static_cast<size_t>(len) < remaining()) {
        pos_ += 1 + len;
        continue;
      }
      if (len == -1) {
        ++pos_;
        continue;
      }
    }
    TSREAD_RETURN_IF_ERROR(ReadNullableVarString(what).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string_view> ByteStream::NonNull(NullableView v, uint64_t start, const char* what) {
  if (!v.has_value()) {
    return absl::DataLossError(absl::StrCat("corrupt ", what, " at offset ", start, ": null string not allowed"));
  }
  return *v;
}

absl::StatusOr<std::string_view> ByteStream::ReadLongVarString(const char* what) {
  const uint64_t start = offset();
  TSREAD_ASSIGN_OR_RETURN(NullableView v, ReadNullableVarString(what));
  return NonNull(v, start, what);
}

absl::StatusOr<NullableView> ByteStream::ReadNullableI32String(const char* what) {
  const uint64_t start = offset();
  TSREAD_ASSIGN_OR_RETURN(int32_t len, ReadI32(what));
  return TakeNullableString(len, start, what);
}

absl::StatusOr<std::string_view> ByteStream::ReadI32String(const char* what) {
  const uint64_t start = offset();
  TSREAD_ASSIGN_OR_RETURN(NullableView v, ReadNullableI32String(what));
  return NonNull(v, start, what);
}

}  // namespace tsread

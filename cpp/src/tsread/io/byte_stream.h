// ByteStream: a bounds-checked cursor over a byte span that knows the span's absolute file offset.
//
// Every read checks the bytes that remain and fails with absl::DataLossError naming the absolute
// offset and what was being read. Length prefixes are checked against the remaining bytes before
// the caller can allocate anything. Strings come back as views into the span (zero copy).
// A stream may also be a window onto a longer span of which only the first bytes are loaded
// (Window): reads past the loaded bytes fail, as at the end of any span, but the stream remembers
// how far they wanted to read (wanted_end) so that its owner can load more and parse again, and
// its error messages count the bytes that remain in the whole span, so that they read the same
// however much of it was loaded.
// Wire forms are those of the format reference §0: big-endian fixed-width numbers, LEB128 varints
// capped at 5 bytes, zig-zag varints, `vstr` (svar length, -1 = null) and `istr`/`bin` (i32 length).
#ifndef TSREAD_IO_BYTE_STREAM_H_
#define TSREAD_IO_BYTE_STREAM_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tsread/io/endian.h"

namespace tsread {

// A nullable string view: std::nullopt for a null string (length -1 on disk).
using NullableView = std::optional<std::string_view>;

class ByteStream {
 public:
  ByteStream() = default;
  // `bytes` must outlive the stream; `base_offset` is the absolute file offset of bytes[0].
  ByteStream(std::string_view bytes, uint64_t base_offset)
      : begin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()),
        base_offset_(base_offset) {}
  // A stream over `loaded`, the first bytes of a span that goes on for `unloaded` more bytes in the
  // file (see the file comment).
  static ByteStream Window(std::string_view loaded, uint64_t base_offset, uint64_t unloaded) {
    ByteStream s(loaded, base_offset);
    s.unloaded_ = unloaded;
    return s;
  }

  // Absolute file offset of the next byte to read.
  uint64_t offset() const { return base_offset_ + static_cast<uint64_t>(pos_ - begin_); }
  // Bytes consumed since the start of the span.
  size_t position() const { return static_cast<size_t>(pos_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  bool empty() const { return pos_ == end_; }
  // The unread bytes, as a view.
  std::string_view rest() const { return std::string_view(pos_, remaining()); }
  // The bytes that remain in the whole span, loaded or not (remaining() unless a Window).
  uint64_t remaining_in_span() const { return remaining() + unloaded_; }
  // A Window's read that failed for want of bytes that are in the span but not loaded: the
  // absolute offset its bytes would have reached (0: no read did).
  uint64_t wanted_end() const { return wanted_end_; }

  // The fixed-width reads and a varint's one-byte form are inline (metadata is parsed field by
  // field: a call per field was 3 % of a scan of the benchmark file); their errors are not.
  absl::StatusOr<uint8_t> ReadU8(const char* what) {
    if (pos_ == end_) [[unlikely]] return Truncated(what, 1);
    return static_cast<uint8_t>(*pos_++);
  }
  absl::StatusOr<bool> ReadBool(const char* what) {  // Java readBool: byte == 1
    if (pos_ == end_) [[unlikely]] return Truncated(what, 1);
    return *pos_++ == 1;
  }
  absl::StatusOr<int32_t> ReadI32(const char* what) {
    if (remaining() < 4) [[unlikely]] return Truncated(what, 4);
    return static_cast<int32_t>(TakeBigEndian32());
  }
  absl::StatusOr<int64_t> ReadI64(const char* what) {
    if (remaining() < 8) [[unlikely]] return Truncated(what, 8);
    return static_cast<int64_t>(TakeBigEndian64());
  }
  absl::StatusOr<float> ReadF32(const char* what) {
    if (remaining() < 4) [[unlikely]] return Truncated(what, 4);
    return std::bit_cast<float>(TakeBigEndian32());
  }
  absl::StatusOr<double> ReadF64(const char* what) {
    if (remaining() < 8) [[unlikely]] return Truncated(what, 8);
    return std::bit_cast<double>(TakeBigEndian64());
  }
  // `uvar`: unsigned LEB128 of a 32-bit int, at most 5 bytes.
  absl::StatusOr<uint32_t> ReadUVarInt(const char* what) {
    if (pos_ != end_ && static_cast<uint8_t>(*pos_) < 0x80) [[likely]] {
      return static_cast<uint8_t>(*pos_++);
    }
    return ReadLongUVarInt(what);
  }
  // `uvar` used as a size or count: values >= 2^31 are corrupt (§13 item 2).
  absl::StatusOr<uint32_t> ReadUVarSize(const char* what) {
    if (pos_ != end_ && static_cast<uint8_t>(*pos_) < 0x80) [[likely]] {
      return static_cast<uint8_t>(*pos_++);
    }
    return ReadLongUVarSize(what);
  }
  // `svar`: zig-zag varint.
  absl::StatusOr<int32_t> ReadSVarInt(const char* what) {
    if (pos_ != end_ && static_cast<uint8_t>(*pos_) < 0x80) [[likely]] {
      return ZigZag(static_cast<uint8_t>(*pos_++));
    }
    return ReadLongSVarInt(what);
  }

  // Exactly `n` bytes as a view.
  absl::StatusOr<std::string_view> ReadBytes(size_t n, const char* what) {
    if (remaining() < n) [[unlikely]] return Truncated(what, n);
    std::string_view v(pos_, n);
    pos_ += n;
    return v;
  }
  absl::Status Skip(size_t n, const char* what) {
    if (remaining() < n) [[unlikely]] return Truncated(what, n);
    pos_ += n;
    return absl::OkStatus();
  }

  // `vstr` allowing null (Apache's read_var_char_ptr): -1 = null, 0 = "", other negatives and
  // lengths beyond the remaining bytes are errors.
  absl::StatusOr<NullableView> ReadNullableVarString(const char* what);
  // `vstr` where null is not allowed. Inline for the common one-byte length of a name that fits
  // (every measurement name and tag value of a small-chunk file's metadata is read this way).
  absl::StatusOr<std::string_view> ReadVarString(const char* what) {
    if (pos_ != end_ && static_cast<uint8_t>(*pos_) < 0x80 && (*pos_ & 1) == 0) [[likely]] {
      const size_t len = static_cast<uint8_t>(*pos_) >> 1;
      if (len < remaining()) [[likely]] {
        std::string_view v(pos_ + 1, len);
        pos_ += 1 + len;
        return v;
      }
    }
    return ReadLongVarString(what);
  }
  // Skips `count` consecutive nullable `vstr`s (same checks as ReadNullableVarString); a fast path
  // for the common one-byte lengths keeps index-entry decoding cheap.
  absl::Status SkipNullableVarStrings(uint32_t count, const char* what);
  // `istr`: i32 length, -1 = null.
  absl::StatusOr<NullableView> ReadNullableI32String(const char* what);
  // `bin` / `istr` where null is not allowed.
  absl::StatusOr<std::string_view> ReadI32String(const char* what);

  // An error at the current position: "<what> at offset N: <detail>".
  absl::Status Corrupt(const char* what, std::string_view detail) const;

 private:
  uint32_t TakeBigEndian32() {
    const uint32_t v = LoadBigEndian32(pos_);
    pos_ += 4;
    return v;
  }
  uint64_t TakeBigEndian64() {
    const uint64_t v = LoadBigEndian64(pos_);
    pos_ += 8;
    return v;
  }
  // ReadUVarInt and ReadUVarSize from any byte: a varint of two bytes or more, or an error.
  absl::StatusOr<uint32_t> ReadLongUVarInt(const char* what);
  absl::StatusOr<uint32_t> ReadLongUVarSize(const char* what);
  absl::StatusOr<int32_t> ReadLongSVarInt(const char* what);
  // ReadVarString from any length byte, with its errors.
  absl::StatusOr<std::string_view> ReadLongVarString(const char* what);
  static int32_t ZigZag(uint32_t u) { return static_cast<int32_t>((u >> 1) ^ (0u - (u & 1u))); }
  // The error for a read of `needed` bytes at the current position that the loaded bytes cannot
  // serve (records wanted_end when the span holds them).
  absl::Status Truncated(const char* what, size_t needed);
  // Whether `needed` bytes from the current position are in the span but not all loaded; if so,
  // records where they end.
  bool WantsUnloaded(uint64_t needed);
  // Consumes a string of on-disk length `len` that started at `start` (-1 = null).
  absl::StatusOr<NullableView> TakeNullableString(int32_t len, uint64_t start, const char* what);
  static absl::StatusOr<std::string_view> NonNull(NullableView v, uint64_t start, const char* what);

  const char* begin_ = nullptr;
  const char* pos_ = nullptr;
  const char* end_ = nullptr;
  uint64_t base_offset_ = 0;
  uint64_t unloaded_ = 0;
  uint64_t wanted_end_ = 0;
};

}  // namespace tsread

#endif  // TSREAD_IO_BYTE_STREAM_H_

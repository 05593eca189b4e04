#include "tsread/compress/gzip_codec.h"

#include <zlib.h>

#include <limits>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// §10.1: the body is an RFC 1952 gzip member; windowBits 15 + 16 accepts gzip only.
constexpr int kGzipWindowBits = 31;

// Owns an inflate stream so that every return path releases zlib's state.
class Inflater {
 public:
  Inflater() = default;
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() {
    if (initialized_) inflateEnd(&stream_);
  }

  int Init() {
    const int rc = inflateInit2(&stream_, kGzipWindowBits);
    initialized_ = rc == Z_OK;
    return rc;
  }
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
  bool initialized_ = false;
};

std::string_view ZlibMessage(const z_stream& stream, int rc) {
  if (stream.msg != nullptr) return stream.msg;
  return rc == Z_MEM_ERROR ? "out of memory" : "zlib error";
}

absl::Status Error(std::string_view compressed, std::string_view what) {
  return absl::DataLossError(
      absl::StrCat("GZIP page body of ", compressed.size(), " bytes: ", ToAbsl(what)));
}

// Maps inflate's result after one Z_FINISH call over the whole body onto a status.
absl::Status CheckInflateResult(std::string_view compressed, std::span<char> out,
                                const z_stream& stream, int rc) {
  const size_t produced = out.size() - stream.avail_out;
  switch (rc) {
    case Z_STREAM_END:
      if (produced != out.size()) {
        return Error(compressed, absl::StrCat("decodes to ", produced, " bytes, expected ",
                                              out.size()));
      }
      if (stream.avail_in != 0) {
        return Error(compressed, absl::StrCat(stream.avail_in,
                                              " trailing bytes after the gzip member"));
      }
      return absl::OkStatus();
    case Z_BUF_ERROR:
    case Z_OK:
      // Output full but the member not ended: it would expand beyond out.size(). Otherwise the
      // input ran out first.
      if (stream.avail_out == 0 && stream.avail_in != 0) {
        return Error(compressed, absl::StrCat("decodes to more than ", out.size(), " bytes"));
      }
      if (stream.avail_out == 0) {
        return Error(compressed, absl::StrCat("truncated or decodes to more than ", out.size(),
                                              " bytes"));
      }
      return Error(compressed, absl::StrCat("truncated after ", produced, " of ", out.size(),
                                            " bytes"));
    default:
      return Error(compressed,
                   absl::StrCat("invalid gzip data: ", ToAbsl(ZlibMessage(stream, rc))));
  }
}

}  // namespace

absl::Status DecompressGzip(std::string_view compressed, std::span<char> out) {
  // zlib counts in uInt; page sizes are i32 on disk, so this only rejects nonsense.
  constexpr size_t kMaxUInt = std::numeric_limits<uInt>::max();
  if (compressed.size() > kMaxUInt || out.size() > kMaxUInt) {
    return Error(compressed, absl::StrCat("too large for zlib (", out.size(), " output bytes)"));
  }
  Inflater inflater;
  if (const int rc = inflater.Init(); rc != Z_OK) {
    return Error(compressed,
                 absl::StrCat("inflateInit2 failed: ", ToAbsl(ZlibMessage(inflater.stream(), rc))));
  }
  z_stream& stream = inflater.stream();
  // zlib never writes through next_in; its API just lacks const.
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  // inflate rejects a null next_out even when avail_out is 0, which an empty span may carry.
  char no_output = 0;
  stream.next_out = reinterpret_cast<Bytef*>(out.empty() ? &no_output : out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  // One Z_FINISH call with the output bounded by `out`: inflate stops when `out` is full, so a
  // bomb is refused after at most out.size() bytes.
  const int rc = inflate(&stream, Z_FINISH);
  return CheckInflateResult(compressed, out, stream, rc);
}

}  // namespace tsread

#include "tsread/compress/lzma2_codec.h"

#include <lzma.h>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// liblzma allocates the dictionary the stream's LZMA2 filter asks for. Java's default
// LZMA2Options (preset 6) needs about 9 MiB and preset 9 about 65 MiB; anything beyond this
// limit is refused as a hostile or foreign stream rather than allocated.
constexpr uint64_t kMemLimit = 256ull << 20;
// §10.1: exactly one .xz stream per page body, so no LZMA_CONCATENATED (trailing bytes, stream
// padding included, are an error); every check type liblzma knows is verified.
constexpr uint32_t kDecoderFlags = 0;

// Owns a liblzma stream so that every return path releases the decoder.
class XzDecoder {
 public:
  XzDecoder() = default;
  XzDecoder(const XzDecoder&) = delete;
  XzDecoder& operator=(const XzDecoder&) = delete;
  ~XzDecoder() { lzma_end(&stream_); }

  lzma_ret Init() { return lzma_stream_decoder(&stream_, kMemLimit, kDecoderFlags); }
  lzma_stream& stream() { return stream_; }

 private:
  lzma_stream stream_ = LZMA_STREAM_INIT;
};

std::string_view LzmaMessage(lzma_ret rc) {
  switch (rc) {
    case LZMA_FORMAT_ERROR: return "not an .xz stream";
    case LZMA_OPTIONS_ERROR: return "unsupported .xz options";
    case LZMA_DATA_ERROR: return "corrupt data";
    case LZMA_MEMLIMIT_ERROR: return "dictionary exceeds the 256 MiB memory limit";
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
    default: return "liblzma error";
  }
}

absl::Status Error(std::string_view compressed, std::string_view what) {
  return absl::DataLossError(
      absl::StrCat("LZMA2 page body of ", compressed.size(), " bytes: ", ToAbsl(what)));
}

// Maps the final lzma_code result onto a status.
absl::Status CheckDecodeResult(std::string_view compressed, std::span<char> out,
                               const lzma_stream& stream, lzma_ret rc) {
  const size_t produced = out.size() - stream.avail_out;
  if (rc == LZMA_STREAM_END) {
    if (produced != out.size()) {
      return Error(compressed, absl::StrCat("decodes to ", produced, " bytes, expected ",
                                            out.size()));
    }
    if (stream.avail_in != 0) {
      return Error(compressed, absl::StrCat(stream.avail_in, " trailing bytes after the .xz stream"));
    }
    return absl::OkStatus();
  }
  if (rc != LZMA_BUF_ERROR) {
    return Error(compressed, absl::StrCat("invalid .xz data: ", ToAbsl(LzmaMessage(rc))));
  }
  // No progress possible: `out` is full with input left (it would expand beyond out.size()),
  // or the input ran out first (truncated).
  if (stream.avail_out == 0 && stream.avail_in != 0) {
    return Error(compressed, absl::StrCat("decodes to more than ", out.size(), " bytes"));
  }
  if (stream.avail_out == 0) {
    return Error(compressed, absl::StrCat("truncated or decodes to more than ", out.size(), " bytes"));
  }
  return Error(compressed, absl::StrCat("truncated after ", produced, " of ", out.size(), " bytes"));
}

}  // namespace

absl::Status DecompressLzma2(std::string_view compressed, std::span<char> out) {
  XzDecoder decoder;
  if (const lzma_ret rc = decoder.Init(); rc != LZMA_OK) {
    return Error(compressed, absl::StrCat("cannot start the decoder: ", ToAbsl(LzmaMessage(rc))));
  }
  lzma_stream& stream = decoder.stream();
  stream.next_in = reinterpret_cast<const uint8_t*>(compressed.data());
  stream.avail_in = compressed.size();
  stream.next_out = reinterpret_cast<uint8_t*>(out.data());
  stream.avail_out = out.size();
  // The output is bounded by `out`: a bomb stops after out.size() bytes. liblzma may return
  // LZMA_OK several times while it makes progress; with all input given and LZMA_FINISH it
  // reports LZMA_BUF_ERROR once it can make none, so the loop ends.
  lzma_ret rc = LZMA_OK;
  while (rc == LZMA_OK) rc = lzma_code(&stream, LZMA_FINISH);
  return CheckDecodeResult(compressed, out, stream, rc);
}

}  // namespace tsread

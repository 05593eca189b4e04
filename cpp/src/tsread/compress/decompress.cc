#include "tsread/compress/decompress.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "tsread/compress/gzip_codec.h"
#include "tsread/compress/lz4_codec.h"
#include "tsread/compress/lzma2_codec.h"
#include "tsread/compress/snappy_codec.h"
#include "tsread/compress/zstd_codec.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// §10.1: UNCOMPRESSED bodies are the page bytes themselves, compressedSize == uncompressedSize.
absl::Status CopyUncompressed(std::string_view body, std::span<char> out) {
  if (body.size() != out.size()) {
    return absl::DataLossError(absl::StrCat("UNCOMPRESSED page body of ", body.size(),
                                            " bytes, expected ", out.size()));
  }
  std::copy(body.begin(), body.end(), out.begin());
  return absl::OkStatus();
}

// §10.1: LZO is written by the C++ writer only (no Debian library to read it); SDT, PAA and PLA
// are legacy names without a codec.
absl::Status Unsupported(Compression codec) {
  return absl::UnimplementedError(absl::StrCat("compression ", ToAbsl(CompressionName(codec)),
                                               " is not supported"));
}

}  // namespace

absl::Status Decompress(Compression codec, std::string_view compressed, std::span<char> out) {
  switch (codec) {
    case Compression::kLzo:
    case Compression::kSdt:
    case Compression::kPaa:
    case Compression::kPla:
      return Unsupported(codec);
    default:
      break;
  }
  // An empty page (§3.2, §8.3: uncompressedSize 0) has no body at all, whatever the chunk's
  // codec, so nothing in, nothing out is accepted. A codec's own encoding of 0 bytes works too.
  if (compressed.empty() && out.empty()) return absl::OkStatus();
  switch (codec) {
    case Compression::kUncompressed: return CopyUncompressed(compressed, out);
    case Compression::kSnappy: return DecompressSnappy(compressed, out);
    case Compression::kGzip: return DecompressGzip(compressed, out);
    case Compression::kLz4: return DecompressLz4(compressed, out);
    case Compression::kZstd: return DecompressZstd(compressed, out);
    case Compression::kLzma2: return DecompressLzma2(compressed, out);
    default:
      break;
  }
  return absl::DataLossError(
      absl::StrCat("unknown compression id ", static_cast<int>(codec)));
}

}  // namespace tsread

#include "tsread/compress/decompress.h"

#include <algorithm>
#include <cstdint>

#include <snappy.h>
#include <zstd.h>

#include "absl/strings/str_cat.h"
#include "tsread/compress/gzip_codec.h"
#include "tsread/compress/lz4_codec.h"
#include "tsread/compress/lzo_codec.h"
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

// §10.1: SDT, PAA and PLA are legacy names without a codec.
absl::Status Unsupported(Compression codec) {
  return absl::UnimplementedError(absl::StrCat("compression ", ToAbsl(CompressionName(codec)),
                                               " is not supported"));
}

absl::Status SizeMismatch(Compression codec, std::string_view compressed, uint64_t declared, std::string_view why) {
  return absl::DataLossError(absl::StrCat(ToAbsl(CompressionName(codec)), " page body of ", compressed.size(),
                                          " bytes cannot decode to the declared ", declared, " bytes: ",
                                          ToAbsl(why)));
}

// The RFC 1952 trailer's ISIZE: the uncompressed size modulo 2^32, little-endian.
uint32_t GzipTrailerSize(std::string_view body) {
  const auto* p = reinterpret_cast<const unsigned char*>(body.data() + body.size() - 4);
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

}  // namespace

absl::Status CheckDeclaredSize(Compression codec, std::string_view compressed, uint64_t declared) {
  const uint64_t n = compressed.size();
  switch (codec) {
    case Compression::kUncompressed:
      if (n != declared) return SizeMismatch(codec, compressed, declared, "sizes must be equal");
      return absl::OkStatus();
    case Compression::kSnappy: {
      size_t length = 0;
      if (!snappy::GetUncompressedLength(compressed.data(), compressed.size(), &length) || length != declared) {
        return SizeMismatch(codec, compressed, declared, "the snappy length header disagrees");
      }
      return absl::OkStatus();
    }
    case Compression::kLz4:
    case Compression::kLzo:
      // Every 255 input bytes of an LZ4 sequence extend a match by at most 255 bytes.
      if (declared > n * 255 + 64) return SizeMismatch(codec, compressed, declared, "beyond the 255:1 maximum");
      return absl::OkStatus();
    case Compression::kGzip:
      if (n < 18 || GzipTrailerSize(compressed) != static_cast<uint32_t>(declared)) {
        return SizeMismatch(codec, compressed, declared, "the gzip ISIZE trailer disagrees");
      }
      if (declared > n * 1032 + 64) return SizeMismatch(codec, compressed, declared, "beyond deflate's 1032:1 maximum");
      return absl::OkStatus();
    case Compression::kZstd: {
      const unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
      if (size == ZSTD_CONTENTSIZE_ERROR) return SizeMismatch(codec, compressed, declared, "not a zstd frame");
      // Content size unknown: decoding into the bounded buffer checks it.
      if (size != ZSTD_CONTENTSIZE_UNKNOWN && size > declared) {
        return SizeMismatch(codec, compressed, declared, "the zstd frame header records a larger size");
      }
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

absl::Status Decompress(Compression codec, std::string_view compressed, std::span<char> out) {
  switch (codec) {
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
    case Compression::kLzo: return DecompressLzo(compressed, out);
    case Compression::kZstd: return DecompressZstd(compressed, out);
    case Compression::kLzma2: return DecompressLzma2(compressed, out);
    default:
      break;
  }
  return absl::DataLossError(
      absl::StrCat("unknown compression id ", static_cast<int>(codec)));
}

}  // namespace tsread

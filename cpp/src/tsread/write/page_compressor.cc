#include "tsread/write/page_compressor.h"

#include <lz4.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Java uses zstd-jni's default level; the level is not stored, any level reads back the same.
constexpr int kZstdLevel = 3;

// GZIP as Java's GZIPOutputStream writes it (§10.1): a gzip member (header, deflate, CRC32,
// ISIZE), which zlib makes with windowBits 15 + 16.
absl::Status GzipCompress(std::string_view input, std::string& out) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return absl::InternalError("deflateInit2 failed");
  }
  out.resize(deflateBound(&z, input.size()));
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  z.avail_in = static_cast<uInt>(input.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (result != Z_STREAM_END) return absl::InternalError("deflate did not finish");
  return absl::OkStatus();
}

}  // namespace

bool WriterSupportsCompression(Compression compression) {
  return compression == Compression::kUncompressed || compression == Compression::kLz4 ||
         compression == Compression::kZstd || compression == Compression::kSnappy ||
         compression == Compression::kGzip;
}

absl::Status CompressPage(Compression compression, std::string_view input, std::string& out) {
  switch (compression) {
    case Compression::kUncompressed:
      out.assign(input);
      return absl::OkStatus();
    case Compression::kLz4: {
      if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
        return absl::InvalidArgumentError("page too large for LZ4");
      }
      out.resize(static_cast<size_t>(LZ4_compressBound(static_cast<int>(input.size()))));
      const int n =
          LZ4_compress_default(input.data(), out.data(), static_cast<int>(input.size()), static_cast<int>(out.size()));
      if (n <= 0) return absl::InternalError("LZ4_compress_default failed");
      out.resize(static_cast<size_t>(n));
      return absl::OkStatus();
    }
    case Compression::kZstd: {
      out.resize(ZSTD_compressBound(input.size()));
      const size_t n = ZSTD_compress(out.data(), out.size(), input.data(), input.size(), kZstdLevel);
      if (ZSTD_isError(n)) return absl::InternalError(absl::StrCat("ZSTD_compress: ", ZSTD_getErrorName(n)));
      out.resize(n);
      return absl::OkStatus();
    }
    case Compression::kSnappy:
      // Raw snappy (Snappy.compress in Java): the uncompressed length varint, then the blocks.
      out.clear();
      snappy::Compress(input.data(), input.size(), &out);
      return absl::OkStatus();
    case Compression::kGzip:
      if (input.size() > UINT32_MAX) return absl::InvalidArgumentError("page too large for GZIP");
      return GzipCompress(input, out);
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("the writer does not produce compression ", ToAbsl(CompressionName(compression))));
  }
}

}  // namespace tsread

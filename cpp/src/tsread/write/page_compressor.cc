#include "tsread/write/page_compressor.h"

#include <lz4.h>
#include <zstd.h>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Java uses zstd-jni's default level; the level is not stored, any level reads back the same.
constexpr int kZstdLevel = 3;

}  // namespace

bool WriterSupportsCompression(Compression compression) {
  return compression == Compression::kUncompressed || compression == Compression::kLz4 ||
         compression == Compression::kZstd;
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
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("the writer does not produce compression ", ToAbsl(CompressionName(compression))));
  }
}

}  // namespace tsread

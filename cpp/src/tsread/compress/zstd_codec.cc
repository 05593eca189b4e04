#include "tsread/compress/zstd_codec.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <memory>

#include "absl/strings/str_cat.h"

namespace tsread {
namespace {

struct DCtxDeleter {
  void operator()(ZSTD_DCtx* dctx) const { ZSTD_freeDCtx(dctx); }
};

absl::Status Error(std::string_view compressed, const std::string& what) {
  return absl::DataLossError(
      absl::StrCat("ZSTD page body of ", compressed.size(), " bytes: ", what));
}

// §10.1: the frame header may carry a content size. It is the payload's claim, so it only
// serves to refuse a frame that announces more than out.size() before decoding anything.
absl::Status CheckDeclaredSize(std::string_view compressed, size_t expected) {
  const unsigned long long declared =
      ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) {
    return Error(compressed, "no valid, complete zstd frame header");
  }
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > expected) {
    return Error(compressed, absl::StrCat("frame declares ", declared, " bytes, expected ",
                                          expected));
  }
  return absl::OkStatus();
}

absl::Status DecodeError(std::string_view compressed, size_t expected, size_t rc) {
  switch (ZSTD_getErrorCode(rc)) {
    case ZSTD_error_dstSize_tooSmall:
      return Error(compressed, absl::StrCat("decodes to more than ", expected, " bytes"));
    case ZSTD_error_srcSize_wrong:
      return Error(compressed, absl::StrCat("truncated (", ZSTD_getErrorName(rc), ")"));
    default:
      return Error(compressed, absl::StrCat("invalid zstd data: ", ZSTD_getErrorName(rc)));
  }
}

}  // namespace

absl::Status DecompressZstd(std::string_view compressed, std::span<char> out) {
  if (absl::Status s = CheckDeclaredSize(compressed, out.size()); !s.ok()) return s;
  // A per-call context keeps the codec free of shared mutable state. One-shot decoding writes
  // straight into `out`, bounded by its capacity, with no window buffer sized by the frame.
  std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx(ZSTD_createDCtx());
  if (dctx == nullptr) return absl::ResourceExhaustedError("ZSTD: cannot allocate a context");
  const size_t rc =
      ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(rc)) return DecodeError(compressed, out.size(), rc);
  if (rc != out.size()) {
    return Error(compressed, absl::StrCat("decodes to ", rc, " bytes, expected ", out.size()));
  }
  return absl::OkStatus();
}

}  // namespace tsread

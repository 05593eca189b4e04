// ZSTD page bodies (format reference §10.1): standard zstd frames.
#include "tsread/compress/zstd_codec.h"

#include <zstd.h>

#include <memory>
#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kCodec = Compression::kZstd;

std::string Encode(std::string_view data) {
  std::string body(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress(body.data(), body.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  body.resize(n);
  return body;
}

// A frame with the given header flags: without a content size (as a streaming writer produces)
// and/or with a content checksum.
std::string EncodeWithFlags(std::string_view data, bool content_size, bool checksum) {
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, content_size ? 1 : 0);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, checksum ? 1 : 0);
  std::string body(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress2(cctx.get(), body.data(), body.size(), data.data(), data.size());
  EXPECT_FALSE(ZSTD_isError(n));
  body.resize(n);
  return body;
}

std::string EncodeWithoutContentSize(std::string_view data) {
  return EncodeWithFlags(data, /*content_size=*/false, /*checksum=*/false);
}

TEST(ZstdCodecTest, EmptyPage) {
  ExpectEmptyRoundTrip(kCodec, Encode);
  ExpectEmptyRoundTrip(kCodec, EncodeWithoutContentSize);
}

TEST(ZstdCodecTest, RoundTripsVariedData) {
  for (size_t n : {1, 13, 100, 5000, 70000}) {
    ExpectRoundTrip(kCodec, Encode, VariedData(n, 7));
    ExpectRoundTrip(kCodec, EncodeWithoutContentSize, VariedData(n, 8));
  }
  ExpectRoundTrip(kCodec, Encode, RandomBytes(4096, 3));
}

TEST(ZstdCodecTest, DirectCallMatchesDispatch) {
  const std::string data = VariedData(3000, 11);
  const std::string body = Encode(data);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(DecompressZstd(body, std::span<char>(out)).ok());
  EXPECT_EQ(out, data);
}

TEST(ZstdCodecTest, OutputSizeMismatchFails) {
  ExpectSizeMismatchFails(kCodec, Encode, VariedData(5000, 5));
  ExpectSizeMismatchFails(kCodec, EncodeWithoutContentSize, VariedData(5000, 5));
}

TEST(ZstdCodecTest, DecompressionBombRefused) {
  ExpectBombRefused(kCodec, Encode);
  // Without a declared size only the bounded output stops it.
  ExpectBombRefused(kCodec, EncodeWithoutContentSize);
}

// A declared content size above the page size is refused before decoding.
TEST(ZstdCodecTest, DeclaredSizeAbovePageRefused) {
  const std::string body = Encode(std::string(1 << 20, '\0'));
  const absl::Status status = DecodeInto(kCodec, body, 1000);
  EXPECT_NE(status.message().find("frame declares 1048576 bytes, expected 1000"),
            std::string::npos)
      << status;
}

TEST(ZstdCodecTest, TruncatedBodiesFail) {
  ExpectTruncationsFail(kCodec, Encode, VariedData(5000, 9));
  ExpectTruncationsFail(kCodec, EncodeWithoutContentSize, VariedData(5000, 9));
}

TEST(ZstdCodecTest, GarbageFails) { ExpectGarbageFails(kCodec); }

TEST(ZstdCodecTest, EmptyBodyForNonEmptyPageFails) {
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, "", 10), "empty body");
}

TEST(ZstdCodecTest, TrailingBytesRefused) {
  const std::string data = VariedData(2000, 4);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, Encode(data) + "xy", data.size()), "trailing bytes");
}

// Frames written with a checksum have it verified.
TEST(ZstdCodecTest, ChecksumVerified) {
  const std::string data = VariedData(2000, 4);
  std::string body = EncodeWithFlags(data, /*content_size=*/true, /*checksum=*/true);
  ASSERT_TRUE(DecodeInto(kCodec, body, data.size()).ok());
  body.back() ^= 0x01;
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body, data.size()), "flipped checksum byte");
}

// zstd's format allows several frames in a row (zstd-jni's decompressor, like ZSTD_decompress,
// accepts them); their total must still equal the page size.
TEST(ZstdCodecTest, ConcatenatedFramesDecodeToTheirTotal) {
  const std::string a = VariedData(1500, 1);
  const std::string b = VariedData(700, 2);
  const std::string body = Encode(a) + Encode(b);
  std::string decoded;
  ASSERT_TRUE(DecodeInto(kCodec, body, a.size() + b.size(), &decoded).ok());
  EXPECT_TRUE(decoded == a + b);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body, a.size()), "first frame only");
}

// Pages of table_comp_ZSTD.tsfile (offsets from its .sketch.txt), written by zstd-jni.
TEST(ZstdCodecTest, FixturePagesMatchUncompressed) {
  ExpectFixturePageMatches(kCodec, {"table_comp_ZSTD.tsfile", 16829, 269, 7173},
                           kUncompressedStringPage);
  ExpectFixturePageMatches(kCodec, {"table_comp_ZSTD.tsfile", 978, 944, 1113},
                           kUncompressedInt64Page);
}

}  // namespace
}  // namespace tsread::compress_test

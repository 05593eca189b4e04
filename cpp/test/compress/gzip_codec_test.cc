// GZIP page bodies (format reference §10.1): one complete RFC 1952 gzip member.
#include "tsread/compress/gzip_codec.h"

#include <zlib.h>

#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kCodec = Compression::kGzip;

// deflate with the given windowBits: 31 writes a gzip member (as the C++ writer does), 15 a
// zlib stream.
std::string Deflate(std::string_view data, int window_bits) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits, 8,
                         Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string body(deflateBound(&stream, static_cast<uLong>(data.size())) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(body.data());
  stream.avail_out = static_cast<uInt>(body.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  body.resize(stream.total_out);
  deflateEnd(&stream);
  return body;
}

std::string Encode(std::string_view data) { return Deflate(data, 31); }

TEST(GzipCodecTest, EmptyPage) { ExpectEmptyRoundTrip(kCodec, Encode); }

TEST(GzipCodecTest, RoundTripsVariedData) {
  for (size_t n : {1, 13, 100, 5000, 70000}) ExpectRoundTrip(kCodec, Encode, VariedData(n, 7));
  ExpectRoundTrip(kCodec, Encode, RandomBytes(4096, 3));  // stored blocks
}

TEST(GzipCodecTest, DirectCallMatchesDispatch) {
  const std::string data = VariedData(3000, 11);
  const std::string body = Encode(data);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(DecompressGzip(body, std::span<char>(out)).ok());
  EXPECT_EQ(out, data);
}

TEST(GzipCodecTest, OutputSizeMismatchFails) {
  ExpectSizeMismatchFails(kCodec, Encode, VariedData(5000, 5));
}

TEST(GzipCodecTest, DecompressionBombRefused) { ExpectBombRefused(kCodec, Encode); }

TEST(GzipCodecTest, BombMessageSaysMoreOutputFollows) {
  const std::string body = Encode(std::string(1 << 20, '\0'));
  const absl::Status status = DecodeInto(kCodec, body, 1000);
  EXPECT_NE(status.message().find("decodes to more than 1000 bytes"), std::string::npos) << status;
}

TEST(GzipCodecTest, TruncatedBodiesFail) {
  ExpectTruncationsFail(kCodec, Encode, VariedData(5000, 9));
}

TEST(GzipCodecTest, GarbageFails) { ExpectGarbageFails(kCodec); }

TEST(GzipCodecTest, EmptyBodyForNonEmptyPageFails) {
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, "", 10), "empty body");
}

// §10.1 names a gzip member; a bare zlib stream is not one.
TEST(GzipCodecTest, ZlibStreamRefused) {
  const std::string data = VariedData(2000, 4);
  const absl::Status status = DecodeInto(kCodec, Deflate(data, 15), data.size());
  TSREAD_EXPECT_DATA_LOSS(status, "zlib stream");
  EXPECT_NE(status.message().find("invalid gzip data"), std::string::npos) << status;
}

TEST(GzipCodecTest, TrailingBytesRefused) {
  const std::string data = VariedData(2000, 4);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, Encode(data) + "x", data.size()), "trailing byte");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, Encode(data) + Encode(""), data.size()),
                          "second member");
}

// The member's CRC32 and ISIZE trailer are verified.
TEST(GzipCodecTest, CorruptTrailerRefused) {
  const std::string data = VariedData(2000, 4);
  const std::string body = Encode(data);
  for (size_t back = 1; back <= 8; ++back) {
    std::string corrupt = body;
    corrupt[corrupt.size() - back] ^= 0x01;
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, corrupt, data.size()),
                            "flipped trailer byte " + std::to_string(back));
  }
}

// Pages of table_comp_GZIP.tsfile (offsets from its .sketch.txt), written by Java's
// GZIPOutputStream.
TEST(GzipCodecTest, FixturePagesMatchUncompressed) {
  ExpectFixturePageMatches(kCodec, {"table_comp_GZIP.tsfile", 17083, 334, 7173},
                           kUncompressedStringPage);
  ExpectFixturePageMatches(kCodec, {"table_comp_GZIP.tsfile", 1022, 982, 1113},
                           kUncompressedInt64Page);
}

}  // namespace
}  // namespace tsread::compress_test

// SNAPPY page bodies (format reference §10.1): raw Snappy blocks with a uvar length prefix.
#include "tsread/compress/snappy_codec.h"

#include <snappy.h>

#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kCodec = Compression::kSnappy;

std::string Encode(std::string_view data) {
  std::string body(snappy::MaxCompressedLength(data.size()), '\0');
  size_t n = 0;
  snappy::RawCompress(data.data(), data.size(), body.data(), &n);
  body.resize(n);
  return body;
}

TEST(SnappyCodecTest, EmptyPage) { ExpectEmptyRoundTrip(kCodec, Encode); }

TEST(SnappyCodecTest, RoundTripsVariedData) {
  for (size_t n : {1, 13, 100, 5000, 70000}) ExpectRoundTrip(kCodec, Encode, VariedData(n, 7));
  ExpectRoundTrip(kCodec, Encode, RandomBytes(4096, 3));
}

TEST(SnappyCodecTest, DirectCallMatchesDispatch) {
  const std::string data = VariedData(3000, 11);
  const std::string body = Encode(data);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(DecompressSnappy(body, std::span<char>(out)).ok());
  EXPECT_EQ(out, data);
}

TEST(SnappyCodecTest, OutputSizeMismatchFails) {
  ExpectSizeMismatchFails(kCodec, Encode, VariedData(5000, 5));
}

TEST(SnappyCodecTest, DecompressionBombRefused) { ExpectBombRefused(kCodec, Encode); }

// The length prefix is only a claim: a body claiming 4 GiB - 1 is refused for a small page.
TEST(SnappyCodecTest, HugeClaimedLengthRefused) {
  const std::string body = "\xff\xff\xff\xff\x0f";
  const absl::Status status = DecodeInto(kCodec, body, 100);
  TSREAD_EXPECT_DATA_LOSS(status, "huge claim");
  EXPECT_NE(status.message().find("declares 4294967295"), std::string::npos) << status;
}

// A correct length prefix followed by a body that stops short (or runs long) is refused.
TEST(SnappyCodecTest, LyingBodyRefused) {
  std::string body = Encode(VariedData(2000, 2));
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body + "\x10" "abcd", 2000), "trailing element");
}

TEST(SnappyCodecTest, TruncatedBodiesFail) {
  ExpectTruncationsFail(kCodec, Encode, VariedData(5000, 9));
}

TEST(SnappyCodecTest, GarbageFails) { ExpectGarbageFails(kCodec); }

TEST(SnappyCodecTest, EmptyBodyForNonEmptyPageFails) {
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, "", 10), "empty body");
}

// Pages of table_comp_SNAPPY.tsfile (offsets from its .sketch.txt).
TEST(SnappyCodecTest, FixturePagesMatchUncompressed) {
  ExpectFixturePageMatches(kCodec, {"table_comp_SNAPPY.tsfile", 17342, 637, 7173},
                           kUncompressedStringPage);
  ExpectFixturePageMatches(kCodec, {"table_comp_SNAPPY.tsfile", 1207, 991, 1113},
                           kUncompressedInt64Page);
}

}  // namespace
}  // namespace tsread::compress_test

// LZ4 page bodies (format reference §10.1): raw LZ4 blocks.
#include "tsread/compress/lz4_codec.h"

#include <lz4.h>

#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kCodec = Compression::kLz4;

std::string Encode(std::string_view data) {
  std::string body(static_cast<size_t>(LZ4_compressBound(static_cast<int>(data.size()))), '\0');
  const int n = LZ4_compress_default(data.data(), body.data(), static_cast<int>(data.size()),
                                     static_cast<int>(body.size()));
  EXPECT_GT(n, 0);
  body.resize(static_cast<size_t>(n));
  return body;
}

TEST(Lz4CodecTest, EmptyPage) { ExpectEmptyRoundTrip(kCodec, Encode); }

TEST(Lz4CodecTest, RoundTripsVariedData) {
  for (size_t n : {1, 13, 100, 5000, 70000}) ExpectRoundTrip(kCodec, Encode, VariedData(n, 7));
  ExpectRoundTrip(kCodec, Encode, RandomBytes(4096, 3));  // incompressible: mostly literals
}

TEST(Lz4CodecTest, DirectCallMatchesDispatch) {
  const std::string data = VariedData(3000, 11);
  const std::string body = Encode(data);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(DecompressLz4(body, std::span<char>(out)).ok());
  EXPECT_EQ(out, data);
}

TEST(Lz4CodecTest, OutputSizeMismatchFails) {
  ExpectSizeMismatchFails(kCodec, Encode, VariedData(5000, 5));
}

TEST(Lz4CodecTest, MismatchMessageNamesBothSizes) {
  const std::string body = Encode(VariedData(1000, 5));
  std::string out(1001, '\0');
  const absl::Status status = DecompressLz4(body, std::span<char>(out));
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("decodes to 1000 bytes, expected 1001"), std::string::npos)
      << status;
}

TEST(Lz4CodecTest, DecompressionBombRefused) { ExpectBombRefused(kCodec, Encode); }

TEST(Lz4CodecTest, TruncatedBodiesFail) {
  ExpectTruncationsFail(kCodec, Encode, VariedData(5000, 9));
}

TEST(Lz4CodecTest, GarbageFails) { ExpectGarbageFails(kCodec); }

TEST(Lz4CodecTest, EmptyBodyForNonEmptyPageFails) {
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, "", 10), "empty body");
}

// Pages of table_comp_LZ4.tsfile (offsets from its .sketch.txt).
TEST(Lz4CodecTest, FixturePagesMatchUncompressed) {
  ExpectFixturePageMatches(kCodec, {"table_comp_LZ4.tsfile", 17351, 491, 7173},
                           kUncompressedStringPage);
  ExpectFixturePageMatches(kCodec, {"table_comp_LZ4.tsfile", 1194, 977, 1113},
                           kUncompressedInt64Page);
  // f_double page 1: Gorilla output is incompressible, so the body is larger than the page.
  ExpectFixturePageMatches(kCodec, {"table_comp_LZ4.tsfile", 2827, 6752, 6744},
                           {"table_comp_UNCOMPRESSED.tsfile", 4241, 6744, 6744});
}

}  // namespace
}  // namespace tsread::compress_test

// LZMA2 page bodies (format reference §10.1): one complete .xz stream.
#include "tsread/compress/lzma2_codec.h"

#include <lzma.h>

#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kCodec = Compression::kLzma2;

// Preset 1 keeps the encoder small; the fixture pages cover Java's default preset 6.
std::string Encode(std::string_view data) {
  std::string body(lzma_stream_buffer_bound(data.size()), '\0');
  size_t n = 0;
  const lzma_ret rc = lzma_easy_buffer_encode(
      1, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(data.data()), data.size(),
      reinterpret_cast<uint8_t*>(body.data()), &n, body.size());
  EXPECT_EQ(rc, LZMA_OK);
  body.resize(n);
  return body;
}

TEST(Lzma2CodecTest, EmptyPage) { ExpectEmptyRoundTrip(kCodec, Encode); }

TEST(Lzma2CodecTest, RoundTripsVariedData) {
  for (size_t n : {1, 13, 100, 5000, 70000}) ExpectRoundTrip(kCodec, Encode, VariedData(n, 7));
  ExpectRoundTrip(kCodec, Encode, RandomBytes(4096, 3));  // uncompressed LZMA2 chunks
}

TEST(Lzma2CodecTest, DirectCallMatchesDispatch) {
  const std::string data = VariedData(3000, 11);
  const std::string body = Encode(data);
  std::string out(data.size(), '\0');
  ASSERT_TRUE(DecompressLzma2(body, std::span<char>(out)).ok());
  EXPECT_EQ(out, data);
}

TEST(Lzma2CodecTest, OutputSizeMismatchFails) {
  ExpectSizeMismatchFails(kCodec, Encode, VariedData(5000, 5));
}

TEST(Lzma2CodecTest, DecompressionBombRefused) { ExpectBombRefused(kCodec, Encode); }

TEST(Lzma2CodecTest, BombMessageSaysMoreOutputFollows) {
  const std::string body = Encode(std::string(1 << 20, '\0'));
  const absl::Status status = DecodeInto(kCodec, body, 1000);
  EXPECT_NE(status.message().find("decodes to more than 1000 bytes"), std::string::npos) << status;
}

TEST(Lzma2CodecTest, TruncatedBodiesFail) {
  ExpectTruncationsFail(kCodec, Encode, VariedData(5000, 9));
}

TEST(Lzma2CodecTest, GarbageFails) { ExpectGarbageFails(kCodec); }

TEST(Lzma2CodecTest, EmptyBodyForNonEmptyPageFails) {
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, "", 10), "empty body");
}

// One stream per body: trailing bytes, stream padding and a second stream are refused.
TEST(Lzma2CodecTest, TrailingBytesRefused) {
  const std::string data = VariedData(2000, 4);
  const std::string body = Encode(data);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body + "x", data.size()), "trailing byte");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body + std::string(4, '\0'), data.size()),
                          "stream padding");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, body + Encode(""), data.size()), "second stream");
}

// Every part of an .xz stream is covered by a CRC (headers, index, footer) or the CRC64 check
// (block data), so a flipped byte anywhere is refused.
TEST(Lzma2CodecTest, CorruptionRefused) {
  const std::string data = VariedData(2000, 4);
  const std::string body = Encode(data);
  for (size_t pos = 0; pos < body.size(); pos += 7) {
    std::string corrupt = body;
    corrupt[pos] ^= 0x20;
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(kCodec, corrupt, data.size()),
                            "flipped byte " + std::to_string(pos));
  }
}

// Reads an .xz multibyte integer (at most 9 bytes of 7 bits) at `pos`.
uint64_t ReadXzVarint(const std::string& b, size_t& pos) {
  uint64_t v = 0;
  for (int shift = 0; shift < 63; shift += 7) {
    const auto byte = static_cast<uint8_t>(b.at(pos++));
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
  }
  return v;
}

// A stream whose block header asks for a 1 GiB dictionary (its CRC32 recomputed) is refused
// by the decoder's memory limit instead of being allocated.
TEST(Lzma2CodecTest, HugeDictionaryRefused) {
  const std::string data = VariedData(2000, 4);
  std::string body = Encode(data);
  constexpr size_t kBlockHeader = 12;  // after the stream header
  const size_t header_size = (static_cast<uint8_t>(body[kBlockHeader]) + 1) * 4;
  const auto flags = static_cast<uint8_t>(body[kBlockHeader + 1]);
  ASSERT_EQ(flags & 0x03, 0) << "expected a single filter";
  size_t pos = kBlockHeader + 2;
  if (flags & 0x40) ReadXzVarint(body, pos);  // compressed size
  if (flags & 0x80) ReadXzVarint(body, pos);  // uncompressed size
  ASSERT_EQ(ReadXzVarint(body, pos), LZMA_FILTER_LZMA2);
  ASSERT_EQ(ReadXzVarint(body, pos), 1u);  // one property byte: the dictionary size
  body[pos] = 36;                          // 2^(36/2 + 12) = 1 GiB
  const size_t crc_pos = kBlockHeader + header_size - 4;
  const uint32_t crc =
      lzma_crc32(reinterpret_cast<const uint8_t*>(body.data()) + kBlockHeader, header_size - 4, 0);
  for (int i = 0; i < 4; ++i) body[crc_pos + i] = static_cast<char>((crc >> (8 * i)) & 0xFF);
  const absl::Status status = DecodeInto(kCodec, body, data.size());
  TSREAD_EXPECT_DATA_LOSS(status, "1 GiB dictionary");
  EXPECT_NE(status.message().find("memory limit"), std::string::npos) << status;
}

// A raw .lzma (LZMA_Alone) body is not an .xz stream.
TEST(Lzma2CodecTest, LzmaAloneRefused) {
  const std::string body("\x5d\x00\x00\x80\x00\xff\xff\xff\xff\xff\xff\xff\xff\x00", 14);
  const absl::Status status = DecodeInto(kCodec, body, 10);
  TSREAD_EXPECT_DATA_LOSS(status, "lzma_alone");
  EXPECT_NE(status.message().find("not an .xz stream"), std::string::npos) << status;
}

// Pages of table_comp_LZMA2.tsfile (offsets from its .sketch.txt), written by Java's
// XZOutputStream with the default LZMA2Options.
TEST(Lzma2CodecTest, FixturePagesMatchUncompressed) {
  ExpectFixturePageMatches(kCodec, {"table_comp_LZMA2.tsfile", 17486, 356, 7173},
                           kUncompressedStringPage);
  ExpectFixturePageMatches(kCodec, {"table_comp_LZMA2.tsfile", 1051, 996, 1113},
                           kUncompressedInt64Page);
}

}  // namespace
}  // namespace tsread::compress_test

// The codec dispatch (format reference §10.1): UNCOMPRESSED, empty pages, unsupported and unknown
// codecs. Each codec has its own test file.
#include "tsread/compress/decompress.h"

#include <string>

#include "compress/codec_test_support.h"
#include "gtest/gtest.h"

namespace tsread::compress_test {
namespace {

constexpr Compression kSupported[] = {Compression::kUncompressed, Compression::kSnappy,
                                      Compression::kGzip,         Compression::kLz4,
                                      Compression::kZstd,         Compression::kLzma2};

TEST(DecompressTest, UncompressedCopiesTheBytes) {
  const std::string data = VariedData(5000, 1);
  std::string decoded;
  ASSERT_TRUE(DecodeInto(Compression::kUncompressed, data, data.size(), &decoded).ok());
  EXPECT_TRUE(decoded == data);
}

TEST(DecompressTest, UncompressedSizeMismatchFails) {
  const std::string data = VariedData(100, 1);
  for (size_t size : {size_t{0}, size_t{99}, size_t{101}}) {
    const absl::Status status = DecodeInto(Compression::kUncompressed, data, size);
    TSREAD_EXPECT_DATA_LOSS(status, size);
    EXPECT_NE(status.message().find("UNCOMPRESSED page body of 100 bytes"), std::string::npos)
        << status;
  }
}

// An empty page (uncompressedSize 0) has no body; every readable codec accepts that.
TEST(DecompressTest, EmptyBodyIntoEmptyPageIsOk) {
  for (Compression codec : kSupported) {
    EXPECT_TRUE(DecodeInto(codec, "", 0).ok()) << CompressionName(codec);
    EXPECT_TRUE(Decompress(codec, std::string_view(), std::span<char>()).ok())
        << CompressionName(codec);
  }
}

TEST(DecompressTest, EmptyBodyIntoNonEmptyPageFails) {
  for (Compression codec : kSupported) {
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, "", 1), CompressionName(codec));
  }
}

TEST(DecompressTest, NonEmptyBodyIntoEmptyPageFails) {
  for (Compression codec : kSupported) {
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, "abc", 0), CompressionName(codec));
  }
}

TEST(DecompressTest, UnsupportedCodecsAreUnimplemented) {
  for (Compression codec :
       {Compression::kSdt, Compression::kPaa, Compression::kPla}) {
    for (size_t size : {size_t{0}, size_t{3}}) {
      const absl::Status status = DecodeInto(codec, std::string(size, 'x'), size);
      EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented) << status;
      EXPECT_NE(status.message().find(std::string(CompressionName(codec))), std::string::npos)
          << status;
    }
  }
}

TEST(DecompressTest, UnknownCodecIdFails) {
  const absl::Status status = DecodeInto(static_cast<Compression>(42), "abc", 3);
  TSREAD_EXPECT_DATA_LOSS(status, "id 42");
  EXPECT_NE(status.message().find("42"), std::string::npos) << status;
}

// The UNCOMPRESSED fixture's pages are their own bodies.
TEST(DecompressTest, UncompressedFixturePages) {
  ExpectFixturePageMatches(Compression::kUncompressed, kUncompressedStringPage,
                           kUncompressedStringPage);
  ExpectFixturePageMatches(Compression::kUncompressed, kUncompressedInt64Page,
                           kUncompressedInt64Page);
}

}  // namespace
}  // namespace tsread::compress_test

namespace tsread {
namespace {

TEST(CheckDeclaredSizeTest, RefusesSizesTheCodecCannotProduce) {
  const std::string body(100, 'x');
  EXPECT_TRUE(CheckDeclaredSize(Compression::kUncompressed, body, 100).ok());
  EXPECT_EQ(CheckDeclaredSize(Compression::kUncompressed, body, 101).code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(CheckDeclaredSize(Compression::kLz4, body, 100 * 255).ok());
  EXPECT_EQ(CheckDeclaredSize(Compression::kLz4, body, uint64_t{1} << 30).code(), absl::StatusCode::kDataLoss);
  // Snappy: the varint length header (0x64 = 100) must equal the declared size.
  const std::string snappy_body = std::string("\x64", 1) + "abc";
  EXPECT_TRUE(CheckDeclaredSize(Compression::kSnappy, snappy_body, 100).ok());
  EXPECT_EQ(CheckDeclaredSize(Compression::kSnappy, snappy_body, 1 << 20).code(), absl::StatusCode::kDataLoss);
  // GZIP: ISIZE trailer (little-endian 1000) must match.
  std::string gzip_body(30, '\0');
  gzip_body[26] = static_cast<char>(1000 & 0xFF);
  gzip_body[27] = static_cast<char>(1000 >> 8);
  EXPECT_TRUE(CheckDeclaredSize(Compression::kGzip, gzip_body, 1000).ok());
  EXPECT_EQ(CheckDeclaredSize(Compression::kGzip, gzip_body, 999).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckDeclaredSize(Compression::kGzip, "short", 5).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(CheckDeclaredSize(Compression::kZstd, body, 100).code(), absl::StatusCode::kDataLoss);  // not a frame
  EXPECT_TRUE(CheckDeclaredSize(Compression::kLzma2, body, uint64_t{1} << 30).ok());  // no bound: the page cap applies
}

}  // namespace
}  // namespace tsread

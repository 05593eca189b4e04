// Page decoding failure modes: unsupported encodings and codecs name the column; oversized
// pages are refused before allocation; value pages must agree with their time page.
#include "tsread/read/page_decoder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/read/table_reader.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

// table_enc_DICTIONARY.sketch.txt: the f_text chunk header of the first device is at 2324:
// marker, vstr "f_text" (7 bytes), uvar dataSize 1846 (2 bytes), type, compression, encoding.
constexpr size_t kTextChunk = 2324;
constexpr size_t kTextCompressionByte = kTextChunk + 1 + 7 + 2 + 1;
constexpr size_t kTextEncodingByte = kTextCompressionByte + 1;

absl::Status ReadAll(const std::string& bytes, const TableReadOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::unique_ptr<TableReader>> rows = TableReader::Create(**reader, "t_enc", options);
  if (!rows.ok()) return rows.status();
  while (true) {
    absl::StatusOr<const TableBatch*> batch = (*rows)->Next();
    if (!batch.ok()) return batch.status();
    if (*batch == nullptr) return absl::OkStatus();
  }
}

std::string DictionaryFixture() { return testing::ReadWholeFile(testing::FixturePath("table_enc_DICTIONARY.tsfile")); }

TEST(PageDecoderTest, FixtureReadsCleanly) { EXPECT_TRUE(ReadAll(DictionaryFixture()).ok()); }

TEST(PageDecoderTest, UnknownEncodingIsUnimplementedAndNamesTheColumn) {
  std::string bytes = DictionaryFixture();
  ASSERT_EQ(bytes[kTextEncodingByte], 1);  // DICTIONARY
  for (char encoding : {char(3), char(5), char(10), char(14), char(99)}) {
    bytes[kTextEncodingByte] = encoding;
    absl::Status s = ReadAll(bytes);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
    EXPECT_THAT(s.message(), HasSubstr("f_text"));
  }
}

TEST(PageDecoderTest, EncodingThatDoesNotApplyToTheTypeIsUnimplemented) {
  std::string bytes = DictionaryFixture();
  bytes[kTextEncodingByte] = 8;  // GORILLA on TEXT
  absl::Status s = ReadAll(bytes);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_THAT(s.message(), HasSubstr("GORILLA"));
  EXPECT_THAT(s.message(), HasSubstr("f_text"));
}

TEST(PageDecoderTest, UnsupportedCodecIsUnimplementedAndNamesTheColumn) {
  std::string bytes = DictionaryFixture();
  ASSERT_EQ(bytes[kTextCompressionByte], 0);  // UNCOMPRESSED
  for (char codec : {char(4), char(6), char(42)}) {
    bytes[kTextCompressionByte] = codec;
    absl::Status s = ReadAll(bytes);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
    EXPECT_THAT(s.message(), HasSubstr("f_text"));
  }
}

TEST(PageDecoderTest, PagesOverTheLimitAreRefused) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
  TableReadOptions options;
  options.limits.max_page_bytes = 100;
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  ASSERT_TRUE(reader.ok());
  absl::StatusOr<std::unique_ptr<TableReader>> rows = TableReader::Create(**reader, "t_comp", options);
  ASSERT_TRUE(rows.ok());
  absl::StatusOr<const TableBatch*> batch = (*rows)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(batch.status().message(), HasSubstr("page limit"));
}

TEST(PageDecoderTest, EmptyValuePageMakesEveryRowNull) {
  ChunkHeader chunk;
  chunk.data_type = DataType::kDouble;
  PageRef page;  // uncompressed_size 0: the one-byte empty page
  PageScratch scratch;
  ColumnVector out;
  ASSERT_TRUE(DecodeValuePage(chunk, page, 5, ReadLimits{}, scratch, out).ok());
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out.null_count, 5u);
  EXPECT_EQ(out.validity, (std::vector<uint8_t>{0}));
  for (double v : out.doubles) EXPECT_EQ(v, 0.0);
}

TEST(PageDecoderTest, ValuePageRowCountMustMatchTheTimePage) {
  ChunkHeader chunk;
  chunk.data_type = DataType::kInt32;
  chunk.encoding_byte = 0;      // PLAIN
  chunk.compression_byte = 0;   // UNCOMPRESSED
  // rowCount 3, bitmap 0b101_00000, values 7 and -1 as zig-zag varints.
  const std::string body = std::string("\x00\x00\x00\x03", 4) + "\xA0" + "\x0E" + "\x01";
  PageRef page;
  page.header.uncompressed_size = static_cast<uint32_t>(body.size());
  page.header.compressed_size = page.header.uncompressed_size;
  page.body = body;
  PageScratch scratch;
  ColumnVector out;
  ASSERT_TRUE(DecodeValuePage(chunk, page, 3, ReadLimits{}, scratch, out).ok());
  // The MSB-first page bitmap 101xxxxx becomes the LSB-first validity bitmap 00000101.
  EXPECT_EQ(out.validity, (std::vector<uint8_t>{0x05}));
  EXPECT_EQ(out.null_count, 1u);
  EXPECT_EQ(out.int32s, (std::vector<int32_t>{7, 0, -1}));
  EXPECT_EQ(DecodeValuePage(chunk, page, 4, ReadLimits{}, scratch, out).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace tsread

// Page decoding failure modes: unsupported encodings and codecs name the column; oversized
// pages are refused before allocation; value pages must agree with their time page.
#include "tsread/read/page_decoder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
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

// An UNCOMPRESSED page whose body is `body` (which must outlive it).
PageRef UncompressedPage(const std::string& body) {
  PageRef page;
  page.header.uncompressed_size = static_cast<uint32_t>(body.size());
  page.header.compressed_size = page.header.uncompressed_size;
  page.body = body;
  return page;
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
  const PageRef page = UncompressedPage(body);
  PageScratch scratch;
  ColumnVector out;
  ASSERT_TRUE(DecodeValuePage(chunk, page, 3, ReadLimits{}, scratch, out).ok());
  // The MSB-first page bitmap 101xxxxx becomes the LSB-first validity bitmap 00000101.
  EXPECT_EQ(out.validity, (std::vector<uint8_t>{0x05}));
  EXPECT_EQ(out.null_count, 1u);
  EXPECT_EQ(out.int32s, (std::vector<int32_t>{7, 0, -1}));
  EXPECT_EQ(DecodeValuePage(chunk, page, 4, ReadLimits{}, scratch, out).code(), absl::StatusCode::kDataLoss);
}

// TS_2DIFF INT32 blocks of width 0 (§9.4: i32 n, i32 width, i32 minDelta, i32 first, no packed
// bits) hold n + 1 values in 16 bytes: a constant column written by Java (n = 128) packs 129
// values per 16 bytes, more than 8 per byte. Such a page must decode, however large.
std::string ConstantTs2DiffInt32Blocks(int blocks, int32_t value) {
  std::string stream;
  for (int b = 0; b < blocks; ++b) {
    testing::PutBigEndian(&stream, 128, 4);  // n deltas
    testing::PutBigEndian(&stream, 0, 4);    // bit width
    testing::PutBigEndian(&stream, 0, 4);    // min delta
    testing::PutBigEndian(&stream, static_cast<uint32_t>(value), 4);
  }
  return stream;
}

TEST(PageDecoderTest, ConstantTs2DiffPagesBeyondEightValuesPerByteDecode) {
  ChunkHeader chunk;
  chunk.data_type = DataType::kInt32;
  chunk.encoding_byte = 4;     // TS_2DIFF
  chunk.compression_byte = 0;  // UNCOMPRESSED
  const uint32_t rows = 300 * 129;  // 38,700 values in 4,800 stream bytes (8 * 4,800 + 256 = 38,656)
  std::string body;
  testing::PutBigEndian(&body, rows, 4);
  body.append((rows + 7) / 8, '\xFF');
  body += ConstantTs2DiffInt32Blocks(300, -5);
  const PageRef page = UncompressedPage(body);
  PageScratch scratch;
  ColumnVector out;
  absl::Status status = DecodeValuePage(chunk, page, rows, ReadLimits{}, scratch, out);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_EQ(out.size(), rows);
  EXPECT_EQ(out.null_count, 0u);
  for (int32_t v : out.int32s) ASSERT_EQ(v, -5);
}

ChunkHeader UncompressedTs2DiffTimeChunk() {
  ChunkHeader chunk;
  chunk.data_type = DataType::kVector;
  chunk.encoding_byte = 4;  // TS_2DIFF
  chunk.compression_byte = 0;
  return chunk;
}

// One TS_2DIFF INT64 block of bit width 0 (§9.4: i32 n, i32 width, i64 min delta, i64 first):
// n + 1 timestamps first, first + step, ... from 24 bytes.
std::string WidthZeroTimeBlock(uint32_t n, int64_t step, int64_t first) {
  std::string block;
  testing::PutBigEndian(&block, n, 4);
  testing::PutBigEndian(&block, 0, 4);
  testing::PutBigEndian(&block, static_cast<uint64_t>(step), 8);
  testing::PutBigEndian(&block, static_cast<uint64_t>(first), 8);
  return block;
}

// A time page whose statistics claim more values than its stream's blocks hold is refused, with
// what the blocks hold; a count beyond 8 a byte of the stream and 65,536 before the timestamps are
// allocated.
TEST(PageDecoderTest, TimePageCountBeyondItsBlocksIsDataLoss) {
  const ChunkHeader chunk = UncompressedTs2DiffTimeChunk();
  const std::string body = WidthZeroTimeBlock(9, 1, 1000);
  const PageRef page = UncompressedPage(body);
  PageScratch scratch;
  std::vector<int64_t> times;
  ASSERT_TRUE(DecodeTimePage(chunk, page, 10, ReadLimits{}, scratch, times).ok());
  EXPECT_EQ(times, (std::vector<int64_t>{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009}));
  absl::Status status = DecodeTimePage(chunk, page, 11, ReadLimits{}, scratch, times);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("11 values expected but the 24-byte TS_2DIFF stream holds at most 10"));
  std::vector<int64_t>().swap(times);
  status = DecodeTimePage(chunk, page, 100000, ReadLimits{}, scratch, times);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("100000 values expected but the 24-byte TS_2DIFF stream holds at most 10"));
  EXPECT_EQ(times.capacity(), 0u);  // walked before anything was allocated
  // A count of 2^31 - 1 from corrupt statistics: refused, not allocated.
  EXPECT_EQ(DecodeTimePage(chunk, page, 0x7FFFFFFF, ReadLimits{}, scratch, times).code(), absl::StatusCode::kDataLoss);
}

// A block header may announce any number of values at bit width 0 (the decoder accepts 2^31 from
// 24 bytes); the page row limit bounds what such a page can make the reader allocate.
TEST(PageDecoderTest, PageRowLimitBoundsHugeWidthZeroBlocks) {
  const ChunkHeader chunk = UncompressedTs2DiffTimeChunk();
  const std::string body = WidthZeroTimeBlock(0x7FFFFFFF, 1, 0);
  const PageRef page = UncompressedPage(body);
  PageScratch scratch;
  std::vector<int64_t> times;
  ReadLimits limits;
  limits.max_page_rows = 1000;
  ASSERT_TRUE(DecodeTimePage(chunk, page, 1000, limits, scratch, times).ok());
  EXPECT_EQ(times.back(), 999);
  absl::Status status = DecodeTimePage(chunk, page, 1001, limits, scratch, times);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("over the 1000-row page limit"));
  EXPECT_THAT(DecodeTimePage(chunk, page, 0x40000000, ReadLimits{}, scratch, times).message(),
              HasSubstr("-row page limit"));
}

}  // namespace
}  // namespace tsread

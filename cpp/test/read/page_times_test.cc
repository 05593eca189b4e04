// Decoded times are checked against what the file says of them: strictly increasing within a
// chunk (across its pages too) and inside the page's and chunk's statistics. A file whose time
// page disagrees is corrupt, named with its chunk and page; before the check a scan returned the
// shifted times (and skipped pages by their statistics) without a sign.
#include "tsread/read/page_times.h"

#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tsread/io/random_access_file.h"
#include "tsread/read/table_reader.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

ChunkHeader Header() {
  ChunkHeader h;
  h.measurement = "";
  h.offset = 1234;
  return h;
}

PageRef Page(std::optional<std::pair<int64_t, int64_t>> range) {
  PageRef page;
  page.header.offset = 1300;
  if (range) {
    Statistics s;
    s.start_time = range->first;
    s.end_time = range->second;
    page.header.statistics = s;
  }
  return page;
}

Statistics ChunkStats(int64_t start, int64_t end) {
  Statistics s;
  s.start_time = start;
  s.end_time = end;
  return s;
}

TEST(PageTimesTest, IncreasingTimesInsideTheStatisticsPass) {
  const std::vector<int64_t> times = {10, 11, 15, 20};
  EXPECT_TRUE(CheckPageTimes(Header(), Page({{10, 20}}), times, ChunkStats(0, 100), std::nullopt).ok());
  EXPECT_TRUE(CheckPageTimes(Header(), Page(std::nullopt), times, ChunkStats(10, 20), 9).ok());
  EXPECT_TRUE(CheckPageTimes(Header(), Page(std::nullopt), {}, ChunkStats(10, 20), 50).ok());
}

TEST(PageTimesTest, ARepeatedOrFallingTimeIsCorruptAndNamesRowAndPage) {
  for (const std::vector<int64_t>& times : {std::vector<int64_t>{10, 11, 11, 20}, std::vector<int64_t>{10, 12, 11, 20}}) {
    absl::Status s = CheckPageTimes(Header(), Page({{10, 20}}), times, ChunkStats(0, 100), std::nullopt);
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_THAT(s.message(), HasSubstr("of row 2 is not after"));
    EXPECT_THAT(s.message(), HasSubstr("chunk at offset 1234, page at offset 1300"));
  }
}

// The order check is exact at the ends of the range, where a difference overflows.
TEST(PageTimesTest, OrderIsExactAtTheEndsOfTheRange) {
  constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  const std::vector<int64_t> increasing = {kMin, kMin + 1, -1, 0, 1, kMax - 1, kMax};
  EXPECT_TRUE(CheckPageTimes(Header(), Page({{kMin, kMax}}), increasing, ChunkStats(kMin, kMax), std::nullopt).ok());
  for (const std::vector<int64_t>& bad : {std::vector<int64_t>{kMax, kMin}, std::vector<int64_t>{kMin, 5, kMin},
                                          std::vector<int64_t>{0, kMax, kMax}, std::vector<int64_t>{-1, kMin}}) {
    absl::Status s = CheckPageTimes(Header(), Page({{kMin, kMax}}), bad, ChunkStats(kMin, kMax), std::nullopt);
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_THAT(s.message(), HasSubstr("is not after"));
  }
}

// A repeated or falling time anywhere in a longer page (the check takes several times a step, then
// the last ones one by one) is found and named by its row; extremes included.
TEST(PageTimesTest, EveryRowOfALongPageIsChecked) {
  constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  for (size_t size : {2, 5, 8, 9, 16, 17, 37}) {
    std::vector<int64_t> times(size);
    for (size_t i = 0; i < size; ++i) times[i] = kMin + static_cast<int64_t>(i) * (kMax / 40);  // i < 40: no overflow
    times.back() = kMax;
    ASSERT_TRUE(CheckPageTimes(Header(), Page(std::nullopt), times, ChunkStats(kMin, kMax), std::nullopt).ok()) << size;
    for (size_t r = 1; r < size; ++r) {
      for (const int64_t bad : {times[r - 1], times[r - 1] == kMin ? kMin : times[r - 1] - 1, kMin}) {
        std::vector<int64_t> broken = times;
        broken[r] = bad;
        absl::Status s = CheckPageTimes(Header(), Page(std::nullopt), broken, ChunkStats(kMin, kMax), std::nullopt);
        ASSERT_EQ(s.code(), absl::StatusCode::kDataLoss) << size << " " << r << " " << bad;
        EXPECT_THAT(s.message(), HasSubstr("of row " + std::to_string(r) + " is not after")) << size << " " << r;
      }
    }
  }
}

TEST(PageTimesTest, APageNotAfterThePreviousPageIsCorrupt) {
  const std::vector<int64_t> times = {10, 11};
  for (int64_t previous : {10, 11, 50}) {
    absl::Status s = CheckPageTimes(Header(), Page({{10, 11}}), times, ChunkStats(0, 100), previous);
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_THAT(s.message(), HasSubstr("previous page"));
  }
}

TEST(PageTimesTest, TimesOutsideThePageOrChunkStatisticsAreCorrupt) {
  const std::vector<int64_t> times = {10, 11, 20};
  // Page statistics too narrow at either end; chunk statistics (the only ones of a one-page chunk).
  for (auto [page, chunk] : std::vector<std::pair<std::optional<std::pair<int64_t, int64_t>>, Statistics>>{
           {{{11, 20}}, ChunkStats(0, 100)},
           {{{10, 19}}, ChunkStats(0, 100)},
           {{{10, 20}}, ChunkStats(12, 100)},
           {std::nullopt, ChunkStats(10, 15)}}) {
    absl::Status s = CheckPageTimes(Header(), Page(page), times, chunk, std::nullopt);
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
    EXPECT_THAT(s.message(), HasSubstr("lie outside"));
  }
}

// A file of one device, 3 pages of 100 rows, times 5000000000000 + r, written uncompressed so a
// TS_2DIFF header (§3.1: its first value, big-endian) can be found and changed in place.
constexpr int64_t kFirstTime = 5'000'000'000'000;

std::string ThreePageFile() {
  TableSchema schema;
  schema.name = "t";
  ColumnSchema id;
  id.name = "id";
  id.data_type = DataType::kString;
  id.category = ColumnCategory::kTag;
  ColumnSchema value;
  value.name = "v";
  value.data_type = DataType::kInt64;
  schema.columns = {id, value};
  TableWriterOptions options;
  options.compression = Compression::kUncompressed;
  options.max_points_per_page = 100;
  std::string bytes;
  std::unique_ptr<TsFileWriter> writer = TsFileWriter::CreateInMemory(&bytes, schema, options).value();
  std::vector<int64_t> times(300);
  for (size_t r = 0; r < times.size(); ++r) times[r] = kFirstTime + static_cast<int64_t>(r);
  std::vector<ColumnValues> fields(1);
  fields[0].int64s = std::vector<int64_t>(times.size(), 7);
  EXPECT_TRUE(writer->WriteRows(writer->MakeDeviceId({"d"}), times, fields).ok());
  EXPECT_TRUE(writer->Close().ok());
  return bytes;
}

std::string BigEndian(int64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) out[i] = static_cast<char>(v & 0xFF);
  return out;
}

absl::StatusOr<std::vector<int64_t>> ReadTimes(const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes, "three_pages.tsfile"));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::unique_ptr<TableReader>> rows = TableReader::Create(**reader, "t", {});
  if (!rows.ok()) return rows.status();
  std::vector<int64_t> times;
  while (true) {
    absl::StatusOr<const TableBatch*> batch = (*rows)->Next();
    if (!batch.ok()) return batch.status();
    if (*batch == nullptr) return times;
    times.insert(times.end(), (*batch)->times.begin(), (*batch)->times.end());
  }
}

TEST(PageTimesTest, ATimeStreamShiftedAgainstItsStatisticsIsReportedNotRead) {
  std::string bytes = ThreePageFile();
  absl::StatusOr<std::vector<int64_t>> clean = ReadTimes(bytes);
  ASSERT_TRUE(clean.ok()) << clean.status();
  ASSERT_EQ(clean->size(), 300u);
  EXPECT_EQ(clean->front(), kFirstTime);
  // The first page's header statistics hold its start time first; the TS_2DIFF header of its
  // body, the same time next. Shifting the latter moves every time of the page by one.
  const std::string start = BigEndian(kFirstTime);
  const size_t in_statistics = bytes.find(start);
  ASSERT_NE(in_statistics, std::string::npos);
  const size_t in_stream = bytes.find(start, in_statistics + 8);
  ASSERT_NE(in_stream, std::string::npos);
  bytes.replace(in_stream, 8, BigEndian(kFirstTime + 1));
  absl::StatusOr<std::vector<int64_t>> shifted = ReadTimes(bytes);
  ASSERT_FALSE(shifted.ok());
  EXPECT_EQ(shifted.status().code(), absl::StatusCode::kDataLoss) << shifted.status();
  EXPECT_THAT(shifted.status().message(), HasSubstr("lie outside its page's and chunk's statistics"));
  EXPECT_THAT(shifted.status().message(), HasSubstr("page at offset "));
}

}  // namespace
}  // namespace tsread

#include "tsread/check/file_verifier.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/io/random_access_file.h"
#include "tsread/write/tsfile_writer.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<VerifyReport> Verify(const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  if (!reader.ok()) return reader.status();
  return VerifyFile(**reader);
}

class VerifierFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(VerifierFixtureTest, JavaWrittenFilesVerify) {
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath(GetParam() + ".tsfile"));
  absl::StatusOr<VerifyReport> report = Verify(bytes);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_GT(report->chunks, 0u);
  if (GetParam() == "table_enc_SPRINTZ") {
    // The Java SPRINTZ decoder reads a few DOUBLEs back differently from what the writer wrote
    // (fixtures README, format reference §9.12), so that page's statistics disagree with its data:
    // a notice (statistics of the values before a lossy encoding), not a problem.
    EXPECT_TRUE(report->clean()) << report->problems[0];
    ASSERT_EQ(report->notices.size(), 1u);
    EXPECT_THAT(report->notices[0], HasSubstr("f_double"));
    EXPECT_THAT(report->notices[0], HasSubstr("page statistics min/max"));
    return;
  }
  EXPECT_TRUE(report->clean()) << report->problems[0];
  EXPECT_TRUE(report->notices.empty()) << report->notices[0];
}

INSTANTIATE_TEST_SUITE_P(Fixtures, VerifierFixtureTest, ::testing::ValuesIn(testing::FixtureStems()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// table_multi.sketch.txt: the first time chunk's first page header is at 22: uvar 334 (2 bytes),
// uvar 155 (2 bytes), then its statistics: uvar count 256 (2 bytes) and i64 startTime at 28.
TEST(FileVerifierTest, ReportsPageStatisticsThatDisagreeWithTheData) {
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_multi.tsfile"));
  ASSERT_EQ(static_cast<uint8_t>(bytes[26]), 0x80);
  bytes[35] = static_cast<char>(bytes[35] ^ 0x01);  // startTime's lowest byte
  absl::StatusOr<VerifyReport> report = Verify(bytes);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_FALSE(report->clean());
  EXPECT_THAT(report->problems[0], HasSubstr("offset 22"));
  EXPECT_THAT(report->problems[0], HasSubstr("time range"));
  EXPECT_THAT(report->problems[0], HasSubstr("tbl_a"));
}

TEST(FileVerifierTest, ReportsIndexEntriesThatPointAtNoChunk) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(testing::FixturePath("v3_sample.tsfile"));
  ASSERT_TRUE(reader.ok());
  std::string bytes = testing::ReadWholeFile(testing::FixturePath("v3_sample.tsfile"));
  // Damage the data section so that the walk stops early: later chunks are unknown to it.
  bytes[11] = 0x7F;
  absl::StatusOr<VerifyReport> report = Verify(bytes);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->clean());
}

// A STRING value that is not UTF-8 is noticed (SQL and Python refuse it as a string), once per
// page, with its row and time; the file stays clean (TsFile stores bytes).
TEST(FileVerifierTest, NoticesStringValuesThatAreNotUtf8) {
  TableSchema schema;
  schema.name = "t";
  schema.columns.push_back(ColumnSchema{"id", DataType::kString, 0, 0, {}, ColumnCategory::kTag});
  schema.columns.push_back(ColumnSchema{"s", DataType::kString, 0, 0, {}, ColumnCategory::kField});
  const std::vector<std::string> strings = {"ok", "caf\xC3\xA9", "bad \xC3\x28", "\xED\xA0\x80"};
  for (const size_t bad : {size_t{2}, size_t{3}}) {
    std::string bytes;
    std::unique_ptr<TsFileWriter> writer = TsFileWriter::CreateInMemory(&bytes, schema).value();
    ColumnValues s;
    s.type = DataType::kString;
    std::vector<int64_t> times;
    for (size_t r = 0; r < 10; ++r) {
      times.push_back(100 + static_cast<int64_t>(r));
      s.binaries.push_back(r == 6 ? strings[bad] : strings[r % 2]);
    }
    ASSERT_TRUE(writer->WriteRows(writer->MakeDeviceId({"d1"}), times, {s}).ok());
    ASSERT_TRUE(writer->Close().ok());
    absl::StatusOr<VerifyReport> report = Verify(bytes);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->clean()) << report->problems[0];
    ASSERT_EQ(report->notices.size(), 1u);
    EXPECT_THAT(report->notices[0], HasSubstr("column s"));
    EXPECT_THAT(report->notices[0], HasSubstr("STRING value at row 6 of the page (time 106) is not valid UTF-8"));
  }
}

}  // namespace
}  // namespace tsread

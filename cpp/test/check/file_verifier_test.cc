#include "tsread/check/file_verifier.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"

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

}  // namespace
}  // namespace tsread

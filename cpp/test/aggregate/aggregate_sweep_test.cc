// Aggregates over damaged files: every truncation of a fixture is an error, and random corruption
// never crashes — through every level the statistics filter answers at (whole devices, chunk
// groups, pages, and the decoded pages a range and buckets cut), and a chunk of the wrong type is an
// error on every decoding path. ASan and the per-test timeout watch for crashes, hangs and
// unbounded allocations.
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/test_mode.h"
#include "tsread/aggregate/table_aggregate.h"
#include "tsread/io/random_access_file.h"

namespace tsread {
namespace {

// Every aggregate of `bytes` as the one file of a dataset (the fixture's path, which the dataset
// lists, opened as `bytes`): OK only if all succeed.
absl::Status AggregateEverything(const std::string& path, const std::string& bytes) {
  DatasetOptions options;
  options.opener = [&bytes](const std::string& name) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
    return MemoryFileView(bytes, name);
  };
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = Dataset::Open({path}, options);
  if (!dataset.ok()) return dataset.status();
  if ((*dataset)->TableNames().empty()) return absl::NotFoundError("no table");
  for (const std::string& table : (*dataset)->TableNames()) {
    for (int64_t bucket : {int64_t{0}, int64_t{600000}}) {
      AggregateOptions a;
      a.table = table;
      a.bucket_width = bucket;
      if (absl::StatusOr<TableAggregate> r = Aggregate(**dataset, a); !r.ok()) return r.status();
      a.time_range.start = 1700000500000;  // cuts the fixtures' pages
      a.by = AggregateGroupBy::kTable;
      if (absl::StatusOr<TableAggregate> r = Aggregate(**dataset, a); !r.ok()) return r.status();
    }
  }
  return absl::OkStatus();
}

class AggregateSweepTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AggregateSweepTest, TruncationsAreErrorsAndCorruptionNeverCrashes) {
  const std::string path = testing::FixturePath(GetParam() + ".tsfile");
  const std::string bytes = testing::ReadWholeFile(path);
  ASSERT_TRUE(AggregateEverything(path, bytes).ok());
  const size_t cases = testing::SanitizerBuild() ? 40 : 150;
  for (size_t i = 1; i <= cases; ++i) {
    // Evenly spaced prefixes, and the last bytes (the metadata) one by one.
    for (size_t n : {bytes.size() * i / (cases + 1), bytes.size() - i}) {
      const std::string prefix = bytes.substr(0, n);  // an exact-size copy: ASan sees overreads
      EXPECT_FALSE(AggregateEverything(path, prefix).ok()) << "prefix of " << n << " bytes aggregated cleanly";
    }
  }
  std::mt19937_64 rng(0x61676772 ^ std::hash<std::string>()(GetParam()));
  for (size_t c = 0; c < cases; ++c) {
    std::string corrupt = bytes;
    for (int f = 0; f < 1 + static_cast<int>(rng() % 4); ++f) corrupt[rng() % bytes.size()] = static_cast<char>(rng());
    (void)AggregateEverything(path, corrupt);  // any status; not a crash
  }
}

TEST(AggregateDamageTest, AChunkStoredAsAnotherTypeIsAnErrorAtEveryLevel) {
  // table_enc_PLAIN with its first f_int64 chunk's header saying DOUBLE (testing/fixtures.h): the
  // aggregate must not read those values as integers, whether the page is decoded whole, up to a
  // range's end, or only before a tail (a range starting after its first row).
  const std::string path = testing::FixturePath("table_enc_PLAIN.tsfile");
  const std::string bytes = testing::PlainFixtureWithADoubleChunkUnderAnInt64Column();
  ASSERT_FALSE(bytes.empty());
  DatasetOptions open;
  open.opener = [&bytes](const std::string& name) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
    return MemoryFileView(bytes, name);
  };
  std::unique_ptr<Dataset> dataset = Dataset::Open({path}, open).value();
  const std::pair<int64_t, int64_t> ranges[] = {{1700000000500, INT64_MAX}, {INT64_MIN, 1700000500000},
                                                {1700000000500, 1700000500000}};
  for (const auto& [start, end] : ranges) {
    AggregateOptions options;
    options.columns = {"f_int64"};
    options.time_range = {start, end};
    absl::StatusOr<TableAggregate> got = Aggregate(*dataset, options);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kDataLoss) << got.status();
    EXPECT_NE(got.status().message().find("is stored as DOUBLE, its schema says INT64"), std::string::npos)
        << got.status();
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, AggregateSweepTest,
                         ::testing::Values("table_enc_GORILLA", "table_comp_LZ4", "table_multi", "table_enc_TS_2DIFF"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace tsread

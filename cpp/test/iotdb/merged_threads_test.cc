// A merged scan read in parts and on threads (dataset/merged_threads.h, MergedScanner::OpenCursor's
// parts, dataset/shared_group_plans.h), on an IoTDB data directory written here: the parts together
// give the rows of one cursor, every device from one part, its rows in time order.
#include "tsread/dataset/merged_threads.h"

#include <map>
#include <mutex>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/iotdb_data.h"

namespace tsread::iotdb {
namespace {

using ::testing::HasSubstr;
using testing::LayoutPath;
using testing::MergedRows;
using testing::Mods2;
using testing::TRow;
using testing::TRowText;
using testing::WriteTableFile;

// Two time partitions of seven devices a..g. In each: a sequence file of every device at times
// 0..19 of the partition; a later one of a, c, e, g at 20..39; an unsequence file rewriting d's,
// a's and g's times 10, 14, 18, 22 and 26 (d has no 22 and 26 before: two rows more). Partition 0's
// first file deletes c's rows 5..8. Rows: 2 x (7 x 20 + 4 x 20 + 2) - 4 = 440.
class MergedThreadsTest : public testing::DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    for (int64_t partition : {0, 1}) {
      const int64_t base = partition * 1000;
      std::vector<TRow> first, second, late;
      for (int d = 0; d < 7; ++d) {
        const std::string tag(1, static_cast<char>('a' + d));
        for (int64_t t = 0; t < 20; ++t) {
          first.push_back({base + t, tag, static_cast<int32_t>(d * 100 + t), {}});
          if (d % 2 == 0) second.push_back({base + 20 + t, tag, static_cast<int32_t>(d * 100 + 20 + t), 1});
          if (d % 3 == 0 && t % 4 == 2) late.push_back({base + t + 8, tag, static_cast<int32_t>(-t), {}});
        }
      }
      WriteTableFile(LayoutPath(root_, true, 1, 1000, "db1", partition), {first});
      WriteTableFile(LayoutPath(root_, true, 2, 2000, "db1", partition), {second});
      WriteTableFile(LayoutPath(root_, false, 3, 3000, "db1", partition), {late});
    }
    Mods2().Table("t", Mods2::Segment("c", 1), {}, 5, 8).WriteTo(LayoutPath(root_, true, 1, 1000, "db1", 0) + ".mods2");
    expected_ = MergedRows({root_});
    ASSERT_EQ(expected_.size(), 440u);
    auto dataset = IotdbDataset::Open({root_});
    ASSERT_TRUE(dataset.ok()) << dataset.status();
    dataset_ = std::move(*dataset);
    DatasetScanOptions options;
    options.columns = {"tag1", "s1", "s2"};
    auto scanner = dataset_->ScanTable(options);
    ASSERT_TRUE(scanner.ok()) << scanner.status();
    scanner_ = std::move(*scanner);
    ASSERT_EQ(scanner_->groups().size(), 2u);
  }

  // Adds `batch`'s rows to `rows` and its device to `devices`, checking that its times follow the
  // device's earlier rows in `last_time`.
  void Take(const TableBatch& batch, std::vector<std::string>& rows, std::map<std::string, int64_t>& last_time) {
    const std::string device = batch.device->ToString();
    for (size_t r = 0; r < batch.num_rows(); ++r) {
      auto [it, fresh] = last_time.emplace(device, batch.times[r]);
      if (!fresh) {
        EXPECT_GT(batch.times[r], it->second) << device;
        it->second = batch.times[r];
      }
      rows.push_back(TRowText(batch, r, scanner_->projection()));
    }
  }

  std::vector<std::string> expected_;
  std::unique_ptr<IotdbDataset> dataset_;
  std::unique_ptr<MergedScanner> scanner_;
};

TEST_F(MergedThreadsTest, PartsTogetherHoldEveryRowOnceEachDeviceInOnePart) {
  // A device's rows in one part: the device keys seen by two parts must not meet. Partitions hold
  // the same devices, so the key is (partition of the time, device).
  for (const bool shared_plans : {false, true}) {
    for (size_t parts : {1u, 2u, 3u, 7u, 9u}) {
      SharedGroupPlans shared(scanner_->inner(), scanner_->groups(), parts);
      std::vector<std::string> rows;
      std::map<std::string, size_t> owner;
      for (size_t part = 0; part < parts; ++part) {
        auto cursor = scanner_->OpenCursor(part, parts, shared_plans ? &shared : nullptr);
        ASSERT_TRUE(cursor.ok()) << cursor.status();
        std::map<std::string, int64_t> last_time;
        while (true) {
          auto batch = cursor->Next();
          ASSERT_TRUE(batch.ok()) << batch.status();
          if (*batch == nullptr) break;
          Take(**batch, rows, last_time);
          const std::string key = absl::StrCat((*batch)->times[0] / 1000, (*batch)->device->ToString());
          EXPECT_EQ(owner.emplace(key, part).first->second, part) << key << " in two parts of " << parts;
        }
      }
      std::sort(rows.begin(), rows.end());
      EXPECT_EQ(rows, expected_) << parts << " parts, shared plans " << shared_plans;
      EXPECT_EQ(owner.size(), 14u);
    }
  }
}

TEST_F(MergedThreadsTest, ThreadsGiveTheRowsOfOneCursor) {
  for (int threads : {1, 2, 3, 4}) {
    std::mutex mutex;
    std::vector<std::vector<std::string>> rows(threads);
    std::vector<std::map<std::string, int64_t>> last_time(threads);
    absl::Status status = ScanMergedOnThreads(*scanner_, threads, [&](int worker, TableBatch& batch) {
      EXPECT_LT(worker, threads);
      std::lock_guard<std::mutex> lock(mutex);
      Take(batch, rows[worker], last_time[worker]);
      return absl::OkStatus();
    });
    ASSERT_TRUE(status.ok()) << status;
    std::vector<std::string> all;
    for (const std::vector<std::string>& r : rows) all.insert(all.end(), r.begin(), r.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(all, expected_) << threads << " threads";
    if (threads > 1) {
      EXPECT_FALSE(rows[1].empty()) << "worker 1 read nothing";
    }
  }
}

TEST_F(MergedThreadsTest, TheFirstErrorStopsEveryWorkerAndIsReturned) {
  std::atomic<int> batches{0};
  absl::Status status = ScanMergedOnThreads(*scanner_, 3, [&](int, TableBatch&) {
    ++batches;
    return absl::DataLossError("consumer gave up");
  });
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("consumer gave up"));
  EXPECT_LE(batches.load(), 3);  // each worker stops at its first batch
}

TEST_F(MergedThreadsTest, APartThatDoesNotExistIsAnError) {
  EXPECT_EQ(scanner_->OpenCursor(2, 2).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(scanner_->OpenCursor(0, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tsread::iotdb

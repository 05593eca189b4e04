// A merged scan read in parts and on threads (dataset/merged_threads.h, MergedScanner::OpenCursor's
// parts, dataset/shared_group_plans.h), on an IoTDB data directory written here: the parts together
// give the rows IoTDB answers (written out from the directory's description), every device from one
// part, its rows in time order.
#include "tsread/dataset/merged_threads.h"

#include <functional>
#include <map>
#include <mutex>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/iotdb_data.h"

namespace tsread::iotdb {
namespace {

using ::testing::HasSubstr;
using testing::MergedRows;
using testing::TRowText;

// The directory of testing::WriteOverlappingPartitions: two groups of seven devices, overlaps and a deletion.
class MergedThreadsTest : public testing::DataDirectoryTest {
 protected:
  void SetUp() override {
    DataDirectoryTest::SetUp();
    testing::WriteOverlappingPartitions(root_);
    expected_ = testing::OverlappingPartitionsRows();
    ASSERT_EQ(MergedRows({root_}), expected_);  // one cursor
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

  // Adds `batch`'s rows to `rows`, checking that its times follow its device's earlier rows (whose
  // last time `last_time` keeps).
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

  // Reads `cursor` to its end into `rows` (Take), calling check(batch) on each batch.
  void ReadAll(MergedScanner::Cursor& cursor, std::vector<std::string>& rows,
               const std::function<void(const TableBatch&)>& check) {
    std::map<std::string, int64_t> last_time;
    while (true) {
      auto batch = cursor.Next();
      ASSERT_TRUE(batch.ok()) << batch.status();
      if (*batch == nullptr) return;
      check(**batch);
      Take(**batch, rows, last_time);
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
        auto cursor = scanner_->OpenCursor(MergedPart{part, parts}, shared_plans ? &shared : nullptr);
        ASSERT_TRUE(cursor.ok()) << cursor.status();
        ReadAll(*cursor, rows, [&](const TableBatch& batch) {
          const std::string key = absl::StrCat(batch.times[0] / 1000, batch.device->ToString());
          EXPECT_EQ(owner.emplace(key, part).first->second, part) << key << " in two parts of " << parts;
        });
      }
      std::sort(rows.begin(), rows.end());
      EXPECT_EQ(rows, expected_) << parts << " parts, shared plans " << shared_plans;
      EXPECT_EQ(owner.size(), 14u);
    }
  }
}

// How SQL reads it: one cursor per (group, part), taken group by group, the plans shared (a group's
// plans go when its last part ends). Asking a cursor past its end must not let its group's plans go
// again (they would be gone for the group's later parts: rows missing).
TEST_F(MergedThreadsTest, OneCursorPerGroupAndPartSharingPlans) {
  const size_t parts = 3;
  SharedGroupPlans shared(scanner_->inner(), scanner_->groups(), parts);
  std::vector<std::string> rows;
  for (size_t group = 0; group < scanner_->groups().size(); ++group) {
    for (size_t part = 0; part < parts; ++part) {
      auto cursor = scanner_->OpenCursor(MergedPart{part, parts, group, group + 1}, &shared);
      ASSERT_TRUE(cursor.ok()) << cursor.status();
      ReadAll(*cursor, rows, [&](const TableBatch& batch) {
        EXPECT_EQ(batch.times[0] / 1000, static_cast<int64_t>(group));  // the partition's times only
      });
      for (int again = 0; again < 3; ++again) {
        auto batch = cursor->Next();
        ASSERT_TRUE(batch.ok()) << batch.status();
        EXPECT_EQ(*batch, nullptr);
      }
    }
  }
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, expected_);
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
  EXPECT_EQ(scanner_->OpenCursor(MergedPart{2, 2}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(scanner_->OpenCursor(MergedPart{0, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(scanner_->OpenCursor(MergedPart{0, 1, 3, 4}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(scanner_->OpenCursor(MergedPart{0, 1, 2, 2}).ok());  // no group: no rows
}

}  // namespace
}  // namespace tsread::iotdb

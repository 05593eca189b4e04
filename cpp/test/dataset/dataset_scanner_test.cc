// DatasetScanner over datasets on disk: time-sliced files read as the fixture's CSV, time ranges
// and tag predicates pinning every tag skipping whole files (counted in bytes read), a bad file in
// the middle (missing, truncated, corrupt) stopping the scan after everything before it or being
// skipped, and no more files open than the limit, with one or more threads, ordered or not.
#include "tsread/dataset/dataset_scanner.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/dataset_files.h"
#include "testing/read_log.h"
#include "tsread/io/random_access_file.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::CopyFixture;
using testing::CsvRows;
using testing::ExpectedRow;
using testing::kCompStems;
using testing::MakeScanner;
using testing::MakeTimeSlices;
using testing::MetaOffset;
using testing::OpenDataset;
using testing::ReadLog;
using testing::RowMatches;
using testing::ScanMatchingInOrder;
using testing::TestDir;
using testing::TimeSlices;
using testing::WriteFile;
namespace fs = std::filesystem;

TEST(DatasetTest, TimeSlicedFilesReadAsTheCsvAndTimeRangesSkipWholeFiles) {
  TimeSlices slices = MakeTimeSlices("slices");
  ReadLog log;
  DatasetOptions dataset_options;
  dataset_options.opener = log.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  ASSERT_EQ(dataset->files().size(), 3u);
  // Opening reads metadata only.
  for (const DatasetFile& file : dataset->files()) EXPECT_EQ(log.BytesReadBelow(file.path, MetaOffset(file.path)), 0u);

  std::vector<ExpectedRow> all;
  for (const auto& rows : slices.expected) all.insert(all.end(), rows.begin(), rows.end());
  ScanMatchingInOrder(*MakeScanner(*dataset, DatasetScanOptions{}), all);

  // A range inside the middle slice: the other files' data sections are never read.
  log.Clear();
  DatasetScanOptions options;
  options.time_range = TimeRange{1700001200000, 1700001300000};
  std::vector<ExpectedRow> in_range;
  for (const ExpectedRow& row : slices.expected[1]) {
    const int64_t t = std::stoll(row.cells[0].text);
    if (options.time_range.Contains(t)) in_range.push_back(row);
  }
  ASSERT_FALSE(in_range.empty());
  for (int threads : {1, 2}) {
    options.num_threads = threads;
    ScanMatchingInOrder(*MakeScanner(*dataset, options), in_range);
  }
  const std::string& first = dataset->files()[0].path;
  const std::string& middle = dataset->files()[1].path;
  const std::string& last = dataset->files()[2].path;
  EXPECT_EQ(log.BytesReadBelow(first, MetaOffset(first)), 0u);
  EXPECT_EQ(log.BytesReadBelow(last, MetaOffset(last)), 0u);
  EXPECT_GT(log.BytesReadBelow(middle, MetaOffset(middle)), 0u);
}

TEST(DatasetTest, TagPredicatesPinningEveryTagSkipFilesWithoutTheDevice) {
  TimeSlices slices = MakeTimeSlices("pinned");
  // A fourth file with other devices only.
  CopyFixture("table_comp_ZSTD", slices.dir + "/z_other.tsfile");
  ReadLog log;
  DatasetOptions dataset_options;
  dataset_options.opener = log.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({slices.dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  DatasetScanOptions options;
  options.tag_predicates = {TagPredicate{"region", {"north"}}, TagPredicate{"id", {"dev_0"}}};
  std::vector<ExpectedRow> expected;
  for (const auto& rows : slices.expected) {
    for (const ExpectedRow& row : rows) {
      if (row.cells[1].text == "north" && row.cells[2].text == "dev_0") expected.push_back(row);
    }
  }
  for (const ExpectedRow& row : CsvRows(testing::FixturePath("table_comp_ZSTD.t_comp.csv"))) {
    if (row.cells[1].text == "north" && row.cells[2].text == "dev_0") expected.push_back(row);
  }
  ASSERT_FALSE(expected.empty());
  ScanMatchingInOrder(*MakeScanner(*dataset, options), expected);
  // An absent device: no file's data is read.
  log.Clear();
  options.tag_predicates = {TagPredicate{"region", {"north"}}, TagPredicate{"id", {"dev_404"}}};
  ScanMatchingInOrder(*MakeScanner(*dataset, options), {});
  for (const DatasetFile& file : dataset->files()) EXPECT_EQ(log.BytesReadBelow(file.path, MetaOffset(file.path)), 0u);
}

// A dataset of four good files with a bad one in the middle (third in path order).
struct BadFileCase {
  std::string name;
  std::function<void(const std::string& path)> make_bad;
  absl::StatusCode code;
};

TEST(DatasetTest, ABadFileInTheMiddleStopsAfterEverythingBeforeItOrIsSkipped) {
  const std::vector<BadFileCase> cases = {
      {"missing", [](const std::string&) {}, absl::StatusCode::kNotFound},
      {"truncated",
       [](const std::string& path) {
         const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
         WriteFile(path, bytes.substr(0, bytes.size() / 2));
       },
       absl::StatusCode::kDataLoss},
      {"corrupt",
       [](const std::string& path) {
         // The first chunk of the second device's time column gets a byte that is no chunk marker.
         std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
         absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
         ASSERT_TRUE(reader.ok());
         absl::StatusOr<DeviceIterator> devices = (*reader)->Devices("t_comp");
         ASSERT_TRUE(devices.ok());
         ASSERT_TRUE(devices->Next().ok());
         absl::StatusOr<const DeviceEntry*> entry = devices->Next();
         ASSERT_TRUE(entry.ok() && *entry != nullptr);
         absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*entry)->location);
         ASSERT_TRUE(series.ok());
         bytes[static_cast<size_t>(series->front().chunks.at(0).offset)] = '\x7F';
         WriteFile(path, bytes);
       },
       absl::StatusCode::kDataLoss},
  };
  for (const BadFileCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string dir = TestDir("bad_" + c.name);
    const testing::ScopedTempPath cleanup(dir);
    std::vector<std::string> inputs;
    std::vector<ExpectedRow> before, after;
    for (int i = 0; i < 5; ++i) {
      const std::string path = absl::StrCat(dir, "/", i, ".tsfile");
      inputs.push_back(path);
      if (i == 2) {
        c.make_bad(path);
        continue;
      }
      const char* stem = kCompStems[i % 4];
      CopyFixture(stem, path);
      std::vector<ExpectedRow> rows = CsvRows(testing::FixturePath(std::string(stem) + ".t_comp.csv"));
      (i < 2 ? before : after).insert((i < 2 ? before : after).end(), rows.begin(), rows.end());
    }
    std::unique_ptr<Dataset> dataset = OpenDataset(inputs);
    ASSERT_NE(dataset, nullptr);
    for (int threads : {1, 2}) {
      for (bool ordered : {true, false}) {
        DatasetScanOptions options;
        options.table = "t_comp";
        options.num_threads = threads;
        options.ordered = ordered;
        std::unique_ptr<DatasetScanner> scanner = MakeScanner(*dataset, options);
        ASSERT_NE(scanner, nullptr);
        std::vector<std::string> keys;
        size_t next = 0;
        std::mutex mutex;
        absl::Status status = scanner->Scan([&](int, const TableBatch& batch) {
          std::lock_guard<std::mutex> lock(mutex);
          for (size_t r = 0; r < batch.num_rows(); ++r) {
            if (ordered && next < before.size()) {
              EXPECT_TRUE(RowMatches(scanner->projection(), batch, r, before[next]));
            }
            if (ordered) {
              EXPECT_EQ(*batch.file, inputs[next < 12000 ? 0 : (next < 24000 ? 1 : 2)]);
            }
            ++next;
          }
          return absl::OkStatus();
        });
        EXPECT_EQ(status.code(), c.code) << status;
        EXPECT_THAT(status.message(), HasSubstr(inputs[2])) << status;
        // Ordered: exactly the rows of the files before it (and, for the corrupt file, its first
        // device's rows, which come before the corrupt chunk).
        if (ordered) {
          EXPECT_EQ(next, before.size() + (c.name == "corrupt" ? 3000 : 0)) << threads;
        }

        // Skipping: every row of the good files, and the bad file listed.
        options.skip_failed_files = true;
        scanner = MakeScanner(*dataset, options);
        std::vector<std::string> files_seen;
        next = 0;
        status = scanner->Scan([&](int, const TableBatch& batch) {
          std::lock_guard<std::mutex> lock(mutex);
          if (*batch.file != inputs[2]) next += batch.num_rows();
          return absl::OkStatus();
        });
        EXPECT_TRUE(status.ok()) << status;
        EXPECT_EQ(next, before.size() + after.size());
        std::vector<SkippedFile> skipped = scanner->skipped_files();
        ASSERT_EQ(skipped.size(), 1u);
        EXPECT_EQ(skipped[0].path, inputs[2]);
        EXPECT_EQ(skipped[0].status.code(), c.code);
      }
    }
    // Skipping at open: files whose metadata cannot be read are listed by the dataset.
    DatasetOptions skip;
    skip.skip_unreadable_files = true;
    std::unique_ptr<Dataset> skipping = OpenDataset(inputs, skip);
    ASSERT_NE(skipping, nullptr);
    EXPECT_EQ(skipping->files().size(), c.name == "corrupt" ? 5u : 4u);
    EXPECT_EQ(skipping->skipped_files().size(), c.name == "corrupt" ? 0u : 1u);
  }
}

// Descriptors open in the process (one at a time: listing /proc/self/fd takes one).
size_t OpenDescriptors() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  size_t n = 0;
  for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n;
}

// Counts the files open through it (each holds one descriptor) and the most open at once.
class OpenFileCounter {
 public:
  FileOpener Opener() {
    return [this](const std::string& path) -> absl::StatusOr<std::unique_ptr<RandomAccessFile>> {
      absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
      if (!file.ok()) return file.status();
      return std::unique_ptr<RandomAccessFile>(new Counted(std::move(*file), this));
    };
  }
  size_t most() const { return most_.load(); }

 private:
  class Counted : public RandomAccessFile {
   public:
    Counted(std::unique_ptr<RandomAccessFile> file, OpenFileCounter* counter) : file_(std::move(file)), counter_(counter) {
      const size_t now = ++counter_->open_;
      size_t seen = counter_->most_.load();
      while (now > seen && !counter_->most_.compare_exchange_weak(seen, now)) {}
    }
    ~Counted() override { --counter_->open_; }
    uint64_t size() const override { return file_->size(); }
    const std::string& name() const override { return file_->name(); }
    absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
      return file_->ReadInto(offset, length, into);
    }

   private:
    std::unique_ptr<RandomAccessFile> file_;
    OpenFileCounter* counter_;
  };
  std::atomic<size_t> open_{0};
  std::atomic<size_t> most_{0};
};

TEST(DatasetTest, NoMoreFilesOpenThanTheLimitWhateverTheDatasetSize) {
  const std::string dir = TestDir("many");
  const testing::ScopedTempPath cleanup(dir);
  const std::string bytes = testing::ReadWholeFile(testing::FixturePath("table_comp_LZ4.tsfile"));
  for (int i = 0; i < 40; ++i) WriteFile(absl::StrCat(dir, "/", 100 + i, ".tsfile"), bytes);
  const size_t baseline = OpenDescriptors();
  OpenFileCounter counter;
  DatasetOptions dataset_options;
  dataset_options.max_open_files = 4;
  dataset_options.opener = counter.Opener();
  std::unique_ptr<Dataset> dataset = OpenDataset({dir}, dataset_options);
  ASSERT_NE(dataset, nullptr);
  EXPECT_LE(counter.most(), 4u);
  EXPECT_LE(OpenDescriptors(), baseline + 4);
  for (int threads : {1, 2, 3}) {
    for (bool ordered : {true, false}) {
      DatasetScanOptions options;
      options.num_threads = threads;
      options.ordered = ordered;
      std::atomic<uint64_t> rows{0};
      size_t most_descriptors = 0;
      ASSERT_TRUE(MakeScanner(*dataset, options)->Scan([&](int, const TableBatch& batch) {
        rows += batch.num_rows();
        // One thread: nothing opens or closes while the descriptors are listed.
        if (threads == 1) most_descriptors = std::max(most_descriptors, OpenDescriptors());
        return absl::OkStatus();
      }).ok());
      EXPECT_EQ(rows.load(), 40u * 12000u);
      EXPECT_LE(most_descriptors, baseline + 4);
      EXPECT_LE(counter.most(), 4u) << threads << (ordered ? " ordered" : " unordered");
    }
  }
  EXPECT_LE(dataset->pool().peak_open_files(), 4u);
}

}  // namespace
}  // namespace tsread

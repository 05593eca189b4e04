#include "tsread/io/read_ahead.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// A file over a string that records the ranges it was asked for and copies them into owned
// blocks, as the pread file does.
class RecordingFile final : public RandomAccessFile {
 public:
  explicit RecordingFile(std::string bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  const std::string& name() const override { return name_; }
  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    reads.emplace_back(offset, length);
    if (offset > bytes_.size() || length > bytes_.size() - offset) return absl::OutOfRangeError("past the end");
    bytes_.copy(into.Reserve(length), length, offset);
    return absl::OkStatus();
  }
  mutable std::vector<std::pair<uint64_t, uint64_t>> reads;

 private:
  std::string bytes_;
  std::string name_ = "recording";
};

std::string Digits(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + i % 10);
  return s;
}

using Reads = std::vector<std::pair<uint64_t, uint64_t>>;

TEST(ReadAheadTest, NearbyReadsAreServedFromOneWindow) {
  RecordingFile file(Digits(1000));
  ReadAhead ahead(100);
  EXPECT_EQ(ahead.Read(file, 10, 5, 1000)->bytes(), "01234");
  EXPECT_EQ(ahead.Read(file, 15, 20, 1000)->bytes(), "56789012345678901234");
  EXPECT_EQ(ahead.Read(file, 105, 5, 1000)->bytes(), "56789");  // the end of the window
  EXPECT_EQ(file.reads, (Reads{{10, 100}}));
  EXPECT_EQ(ahead.Read(file, 108, 5, 1000)->bytes(), "89012");  // crosses it: a new window
  EXPECT_EQ(file.reads, (Reads{{10, 100}, {108, 100}}));
}

TEST(ReadAheadTest, WindowsStopAtTheLimitAndTheFileEnd) {
  RecordingFile file(Digits(150));
  ReadAhead ahead(100);
  ASSERT_TRUE(ahead.Read(file, 0, 5, 30).ok());
  ASSERT_TRUE(ahead.Read(file, 120, 5, 1000).ok());
  ASSERT_TRUE(ahead.Read(file, 40, 20, 10).ok());  // a limit below the range is ignored
  EXPECT_EQ(file.reads, (Reads{{0, 30}, {120, 30}, {40, 20}}));
}

TEST(ReadAheadTest, LargeReadsAreReadWhole) {
  RecordingFile file(Digits(1000));
  ReadAhead ahead(100);
  EXPECT_EQ(ahead.Read(file, 0, 500, 1000)->size(), 500u);
  EXPECT_EQ(file.reads, (Reads{{0, 500}}));
}

TEST(ReadAheadTest, TwoStreamsKeepTheirWindows) {
  RecordingFile file(Digits(1000));
  ReadAhead ahead(100);
  for (uint64_t i = 0; i < 5; ++i) {
    ASSERT_TRUE(ahead.Read(file, 10 * i, 10, 1000).ok());
    ASSERT_TRUE(ahead.Read(file, 500 + 10 * i, 10, 1000).ok());
  }
  EXPECT_EQ(file.reads, (Reads{{0, 100}, {500, 100}}));
}

TEST(ReadAheadTest, SlicesOutliveTheirWindow) {
  RecordingFile file(Digits(1000));
  ReadAhead ahead(100);
  absl::StatusOr<Buffer> first = ahead.Read(file, 0, 10, 1000);
  ASSERT_TRUE(first.ok());
  for (uint64_t at = 100; at < 1000; at += 100) ASSERT_TRUE(ahead.Read(file, at, 10, 1000).ok());
  EXPECT_EQ(first->bytes(), "0123456789");
  ahead.Clear();
  EXPECT_EQ(first->bytes(), "0123456789");
}

TEST(ReadAheadTest, ErrorsPassThroughAndLeaveNoWindow) {
  RecordingFile file(Digits(100));
  ReadAhead ahead(50);
  EXPECT_EQ(ahead.Read(file, 90, 20, 1000).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(ahead.Read(file, 10, 5, 1000)->bytes(), "01234");
  EXPECT_EQ(file.reads, (Reads{{90, 20}, {10, 50}}));
}

TEST(ReadAheadTest, MemoryFilesAreSlicedWithoutCopies) {
  const std::string bytes = Digits(1000);
  std::unique_ptr<RandomAccessFile> file = MemoryFileView(bytes);
  ReadAhead ahead(100);
  EXPECT_EQ(ahead.Read(*file, 30, 10, 1000)->data(), bytes.data() + 30);
  EXPECT_EQ(ahead.Read(*file, 50, 10, 1000)->data(), bytes.data() + 50);
}

TEST(ReadAheadTest, ForgetFileMakesAFileAtAnOldFilesAddressReadItsOwnBytes) {
  // Files in a dataset come and go: the next file can live where the last one did.
  std::optional<RecordingFile> file(std::in_place, std::string(100, 'a'));
  ReadAhead ahead(100);
  ASSERT_EQ(ahead.Read(*file, 0, 3, 100)->bytes(), "aaa");
  const RandomAccessFile* old_address = &*file;
  file.emplace(std::string(100, 'b'));
  ASSERT_EQ(&*file, old_address);
  EXPECT_EQ(ahead.Read(*file, 0, 3, 100)->bytes(), "aaa");  // the hazard: matched by address
  ahead.ForgetFile();
  EXPECT_EQ(ahead.Read(*file, 0, 3, 100)->bytes(), "bbb");
  EXPECT_EQ(file->reads, (Reads{{0, 100}}));
}

TEST(ReadAheadTest, ForgetFileKeepsBlocksForReuse) {
  RecordingFile a(Digits(300)), b(Digits(300));
  ReadAhead ahead(100);
  std::vector<const char*> blocks;
  for (uint64_t at : {0, 200}) blocks.push_back(ahead.Read(a, at, 10, 300)->data());  // both windows
  ahead.ForgetFile();
  // The slices are gone, so b's windows are read into a's blocks.
  const char* first = ahead.Read(b, 0, 10, 300)->data();
  const char* second = ahead.Read(b, 200, 10, 300)->data();
  EXPECT_EQ(std::set<const char*>({first, second}), std::set<const char*>(blocks.begin(), blocks.end()));
  EXPECT_EQ(b.reads, (Reads{{0, 100}, {200, 100}}));
}

}  // namespace
}  // namespace tsread

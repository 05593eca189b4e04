// ChunkHeaderReads (lossless_chunks.h): headers far apart are read one by one, a few dozen bytes
// each; headers close together come out of one window; every read gives the file's own bytes.
#include "tsread/read/lossless_chunks.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/io/random_access_file.h"

namespace tsread {
namespace {

// A file in memory that records the length of every read it serves.
class CountingFile : public RandomAccessFile {
 public:
  explicit CountingFile(std::string bytes) : bytes_(std::move(bytes)), file_(MemoryFileView(bytes_)) {}
  uint64_t size() const override { return file_->size(); }
  const std::string& name() const override { return file_->name(); }
  absl::Status ReadInto(uint64_t offset, uint64_t length, Buffer& into) const override {
    reads.push_back(length);
    return file_->ReadInto(offset, length, into);
  }
  const std::string& bytes() const { return bytes_; }

  mutable std::vector<uint64_t> reads;

 private:
  std::string bytes_;
  std::unique_ptr<RandomAccessFile> file_;
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 7) & 0xFF);
  return s;
}

TEST(ChunkHeaderReadsTest, HeadersFarApartAreReadAlone) {
  CountingFile file(Pattern(200000));
  ChunkHeaderReads reads;
  for (uint64_t offset : {0u, 40000u, 80000u, 120000u}) {
    absl::StatusOr<std::string_view> got = reads.Read(file, offset, 40);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, std::string_view(file.bytes()).substr(offset, 40));
  }
  EXPECT_EQ(file.reads, (std::vector<uint64_t>{40, 40, 40, 40}));  // no window: the benchmark file's case
}

TEST(ChunkHeaderReadsTest, HeadersCloseTogetherShareAWindow) {
  CountingFile file(Pattern(200000));
  ChunkHeaderReads reads;
  for (uint64_t i = 0; i < 200; ++i) {
    const uint64_t offset = 1000 + i * 300;  // a small-chunk file's headers
    absl::StatusOr<std::string_view> got = reads.Read(file, offset, 40);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(*got, std::string_view(file.bytes()).substr(offset, 40)) << i;
  }
  // The first alone, then windows of 16 KiB over 60,000 bytes.
  EXPECT_LE(file.reads.size(), 6u);
  EXPECT_GE(file.reads.size(), 4u);
}

TEST(ChunkHeaderReadsTest, BackwardsEndsAndOtherFiles) {
  CountingFile file(Pattern(5000));
  ChunkHeaderReads reads;
  ASSERT_TRUE(reads.Read(file, 4000, 40).ok());
  // Backwards: read alone.
  absl::StatusOr<std::string_view> back = reads.Read(file, 100, 40);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, std::string_view(file.bytes()).substr(100, 40));
  // Near the end: cut to the file.
  absl::StatusOr<std::string_view> end = reads.Read(file, 4990, 40);
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, std::string_view(file.bytes()).substr(4990));
  // Another file at the same offsets: its own bytes, never the first file's window.
  CountingFile other(std::string(5000, 'x'));
  reads.ForgetFile();
  absl::StatusOr<std::string_view> fresh = reads.Read(other, 4995, 40);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(*fresh, std::string(5, 'x'));
  // Past the end: nothing, not an error.
  absl::StatusOr<std::string_view> past = reads.Read(other, 6000, 40);
  ASSERT_TRUE(past.ok());
  EXPECT_TRUE(past->empty());
}

}  // namespace
}  // namespace tsread

#include "tsread/io/spliced_file.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<RandomAccessFile> Spliced(std::string head, uint64_t head_length, std::string tail) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      SpliceFile(MemoryFile(std::move(head), "f.tsfile"), head_length, std::make_shared<const std::string>(std::move(tail)));
  EXPECT_TRUE(file.ok()) << file.status();
  return file.ok() ? std::move(*file) : nullptr;
}

TEST(SplicedFileTest, ReadsTheHeadPrefixThenTheTail) {
  std::unique_ptr<RandomAccessFile> file = Spliced("0123456789", 6, "abcd");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->size(), 10u);
  EXPECT_EQ(file->name(), "f.tsfile");
  EXPECT_EQ(file->Read(0, 6)->bytes(), "012345");  // inside the head
  EXPECT_EQ(file->Read(6, 4)->bytes(), "abcd");    // inside the tail: bytes 6.. of the head are not read
  EXPECT_EQ(file->Read(4, 4)->bytes(), "45ab");    // across the boundary
  EXPECT_EQ(file->Read(0, 10)->bytes(), "012345abcd");
  EXPECT_EQ(file->Read(10, 0)->size(), 0u);
}

TEST(SplicedFileTest, ReadsBeyondTheEndFailNamingTheFile) {
  std::unique_ptr<RandomAccessFile> file = Spliced("0123456789", 6, "abcd");
  ASSERT_NE(file, nullptr);
  absl::StatusOr<Buffer> past = file->Read(8, 3);
  EXPECT_EQ(past.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(past.status().message(), HasSubstr("f.tsfile"));
  EXPECT_EQ(file->Read(UINT64_MAX, 2).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(SplicedFileTest, AHeadShorterThanItsPrefixIsRefused) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      SpliceFile(MemoryFile("0123", "short.tsfile"), 6, std::make_shared<const std::string>("x"));
  EXPECT_EQ(file.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_THAT(file.status().message(), HasSubstr("short.tsfile"));
}

TEST(SplicedFileTest, AHeadThatShrinksAfterwardsFailsItsReadsAsThatFileDoes) {
  const std::string path = ::testing::TempDir() + "/tsread_spliced_test_" + std::to_string(::getpid()) + ".bin";
  std::ofstream(path, std::ios::binary) << "0123456789";
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> head = OpenPosixFile(path);
  ASSERT_TRUE(head.ok()) << head.status();
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      SpliceFile(std::move(*head), 8, std::make_shared<const std::string>("tail"));
  ASSERT_TRUE(file.ok()) << file.status();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "0123";
  EXPECT_EQ((*file)->Read(2, 4).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ((*file)->Read(6, 4).status().code(), absl::StatusCode::kUnavailable);  // across: the head's part fails
  EXPECT_EQ((*file)->Read(8, 4)->bytes(), "tail");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tsread

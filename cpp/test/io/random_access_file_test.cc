#include "tsread/io/random_access_file.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace tsread {
namespace {

std::string WriteTempFile(const std::string& contents) {
  std::string path = ::testing::TempDir() + "/tsread_raf_test_" + std::to_string(::getpid()) + ".bin";
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

TEST(RandomAccessFileTest, PosixAndMappedFilesReadExactRanges) {
  const std::string path = WriteTempFile("0123456789");
  for (auto open : {OpenPosixFile, OpenMappedFile}) {
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = open(path);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ((*file)->size(), 10u);
    EXPECT_EQ((*file)->Read(3, 4)->bytes(), "3456");
    EXPECT_EQ((*file)->Read(10, 0)->size(), 0u);
    EXPECT_EQ((*file)->Read(8, 3).status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ((*file)->Read(UINT64_MAX, 2).status().code(), absl::StatusCode::kOutOfRange);
  }
  std::remove(path.c_str());
}

TEST(RandomAccessFileTest, MissingFileIsNotFound) {
  EXPECT_EQ(OpenPosixFile("/nonexistent/tsread").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(OpenMappedFile("/nonexistent/tsread").status().code(), absl::StatusCode::kNotFound);
}

TEST(RandomAccessFileTest, MemoryFilesViewAndOwn) {
  const std::string bytes = "hello";
  std::unique_ptr<RandomAccessFile> view = MemoryFileView(bytes);
  EXPECT_EQ(view->Read(1, 3)->data(), bytes.data() + 1);  // no copy
  std::unique_ptr<RandomAccessFile> owned = MemoryFile(std::string("world"));
  EXPECT_EQ(owned->Read(0, 5)->bytes(), "world");
  EXPECT_EQ(owned->Read(4, 2).status().code(), absl::StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace tsread

#include "tsread/io/random_access_file.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

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

TEST(RandomAccessFileTest, OpenFileReadsOrMapsRegularFiles) {
  const std::string path = WriteTempFile("0123456789");
  for (FileAccess access : {FileAccess::kRead, FileAccess::kMap}) {
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path, access);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ((*file)->Read(2, 3)->bytes(), "234");
    EXPECT_EQ((*file)->name(), path);
  }
  std::remove(path.c_str());
}

TEST(RandomAccessFileTest, ReadIntoReusesAnUnsharedBlock) {
  const std::string path = WriteTempFile("0123456789");
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenPosixFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  Buffer buffer;
  ASSERT_TRUE((*file)->ReadInto(0, 8, buffer).ok());
  const char* block = buffer.data();
  ASSERT_TRUE((*file)->ReadInto(4, 6, buffer).ok());
  EXPECT_EQ(buffer.data(), block);  // no new allocation
  EXPECT_EQ(buffer.bytes(), "456789");
  // A slice keeps the block alive and unchanged: the next read takes a new block.
  Buffer slice = buffer.Slice(1, 2);
  ASSERT_TRUE((*file)->ReadInto(0, 6, buffer).ok());
  EXPECT_NE(buffer.data(), block);
  EXPECT_EQ(slice.bytes(), "56");
  EXPECT_EQ(buffer.bytes(), "012345");
  std::remove(path.c_str());
}

// A file truncated after it was opened: reads of what remains succeed, reads past the new end
// fail with Unavailable naming the file, the offset and the bytes expected — never a signal.
TEST(RandomAccessFileTest, ReadOfAFileThatShrankIsAnError) {
  const std::string path = WriteTempFile(std::string(10000, 'x'));
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ(::truncate(path.c_str(), 4000), 0);
  EXPECT_EQ((*file)->size(), 10000u);  // as opened
  EXPECT_EQ((*file)->Read(0, 4000)->size(), 4000u);
  absl::StatusOr<Buffer> past = (*file)->Read(3000, 2000);
  EXPECT_EQ(past.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(past.status().message(),
              AllOf(HasSubstr(path), HasSubstr("expected 2000 bytes at offset 3000, got 1000"),
                    HasSubstr("shrank while being read")));
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  EXPECT_EQ((*file)->Read(0, 1).status().code(), absl::StatusCode::kUnavailable);
  std::remove(path.c_str());
}

// Bytes appended after opening are not part of the file; the bytes it had read as before.
TEST(RandomAccessFileTest, AFileThatGrewReadsAsOpened) {
  const std::string path = WriteTempFile("0123456789");
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  std::ofstream(path, std::ios::binary | std::ios::app) << "abcdef";
  EXPECT_EQ((*file)->size(), 10u);
  EXPECT_EQ((*file)->Read(0, 10)->bytes(), "0123456789");
  EXPECT_EQ((*file)->Read(8, 4).status().code(), absl::StatusCode::kOutOfRange);
  std::remove(path.c_str());
}

// Kills the test process if a call it guards blocks (a FIFO waiting for a writer), so that a
// regression fails the test instead of hanging it. Not an assertion on time.
class HangGuard {
 public:
  HangGuard() { ::alarm(60); }
  ~HangGuard() { ::alarm(0); }
};

// `path` opened both ways must fail at once with FailedPrecondition naming the file type.
void ExpectNotARegularFile(const std::string& path, const std::string& type) {
  for (FileAccess access : {FileAccess::kRead, FileAccess::kMap}) {
    HangGuard guard;
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenFile(path, access);
    EXPECT_EQ(file.status().code(), absl::StatusCode::kFailedPrecondition) << path;
    EXPECT_THAT(file.status().message(), HasSubstr(path + ": not a regular file (" + type + ")"));
  }
}

std::string TempPath(const std::string& stem) {
  return ::testing::TempDir() + "/tsread_raf_" + stem + "_" + std::to_string(::getpid());
}

TEST(RandomAccessFileTest, FifoFailsAtOnceWithoutAWriter) {
  const std::string path = TempPath("fifo");
  std::remove(path.c_str());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
  ExpectNotARegularFile(path, "FIFO");
  std::remove(path.c_str());
}

TEST(RandomAccessFileTest, DevicesFailAtOnce) {
  ExpectNotARegularFile("/dev/null", "character device");
  ExpectNotARegularFile("/dev/zero", "character device");
}

TEST(RandomAccessFileTest, DirectoryFails) { ExpectNotARegularFile(::testing::TempDir(), "directory"); }

TEST(RandomAccessFileTest, UnixSocketFails) {
  const std::string path = TempPath("sock");
  std::remove(path.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(address.sun_path));
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << std::strerror(errno);
  ASSERT_EQ(::listen(fd, 1), 0);
  ExpectNotARegularFile(path, "socket");
  ::close(fd);
  std::remove(path.c_str());
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

// The tsread CLI on files that change under it and on special files (issue 13), end to end: a file
// truncated while `cat` or `scan` reads it fails cleanly (exit 2 or 3 with a message, never a
// signal), and FIFOs, devices, sockets and directories fail at once saying what they are.
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli_runner.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;
using testing::Child;
using testing::RunResult;
using testing::RunTsread;
using testing::TempPath;

// A benchmark-shaped file written by `tsread gen`.
std::string GenerateFile(const std::string& stem, int devices) {
  const std::string path = TempPath(stem) + ".tsfile";
  RunResult gen = RunTsread("gen '" + path + "' --devices " + std::to_string(devices));
  EXPECT_EQ(gen.exit_code, 0) << gen.err;
  return path;
}

// The child ended with exit code 2 (corrupt: the reader saw a shorter file) or 3 (I/O: a read
// came back short) and a message — not by a signal.
void ExpectCleanFailure(int status, const std::string& err) {
  ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status) << "; stderr: " << err;
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_THAT(WEXITSTATUS(status), ::testing::AnyOf(2, 3)) << err;
  EXPECT_THAT(err, HasSubstr("tsread: "));
}

// `cat` is held at a full stdout pipe after it has opened the file and printed its first rows;
// the file is truncated then, deterministically mid-read; the rest of the output is drained.
TEST(CliTest, CatOfAFileTruncatedWhileItRunsFailsCleanly) {
  const std::string path = GenerateFile("cat_truncated", 200);  // 640,000 rows, 7 MB
  for (uint64_t size : {uint64_t{0}, uint64_t{1} << 20}) {
    Child child({"cat", path, "--table", "sensors"});
    ASSERT_TRUE(child.started());
    const std::string head = child.ReadAtLeast(1);  // the file is open, rows are coming
    ASSERT_FALSE(head.empty()) << child.err();
    ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(size)), 0);
    std::string out;
    const int status = child.Finish(&out);
    ExpectCleanFailure(status, child.err());
    EXPECT_EQ(WEXITSTATUS(status), 3);
    EXPECT_THAT(child.err(), HasSubstr(path));
    EXPECT_THAT(child.err(), HasSubstr("shrank while being read"));
    // Regenerate for the next size.
    std::remove(path.c_str());
    GenerateFile("cat_truncated", 200);
  }
  std::remove(path.c_str());
}

// Kills the test process if a step it guards blocks (a child that never touches the file), so
// that a regression fails the test instead of hanging it. Not an assertion on time.
class HangGuard {
 public:
  HangGuard() { alarm(300); }
  ~HangGuard() { alarm(0); }
};

// `scan` prints nothing until it is done, so the test truncates the file as soon as inotify
// reports the child's first read of it (after Open took its size). Usually the scan is then still
// running and must fail cleanly; if it finished first, its result must be the complete one. Never
// a signal. (A reader that maps the file makes no read events: the close event at its exit ends
// the wait instead. `cat` above is the deterministic check against mapping.)
TEST(CliTest, ScanOfAFileTruncatedWhileItRunsFailsCleanly) {
  const std::string path = GenerateFile("scan_truncated", 1000);  // 3.2M rows, 33 MB
  HangGuard guard;
  for (const char* threads : {"1", "2"}) {
    const int watch_fd = inotify_init1(IN_CLOEXEC);
    ASSERT_GE(watch_fd, 0);
    ASSERT_GE(inotify_add_watch(watch_fd, path.c_str(), IN_ACCESS | IN_CLOSE_NOWRITE), 0);
    Child child({"scan", path, "--table", "sensors", "--threads", threads, "--json"});
    ASSERT_TRUE(child.started());
    char event[sizeof(inotify_event) + 256];
    ASSERT_GT(read(watch_fd, event, sizeof(event)), 0);
    ASSERT_EQ(truncate(path.c_str(), 4096), 0);
    close(watch_fd);
    std::string out;
    const int status = child.Finish(&out);
    ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status) << "; stderr: " << child.err();
    // Which way it went, for the log: mid-scan (exit 2/3) or after the scan (exit 0).
    std::cout << threads << " thread(s): exit " << WEXITSTATUS(status) << ": " << child.err();
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      EXPECT_EQ(nlohmann::json::parse(out)["rows"], 3200000) << "finished before the truncation";
    } else {
      ExpectCleanFailure(status, child.err());
    }
    std::remove(path.c_str());
    GenerateFile("scan_truncated", 1000);
  }
  std::remove(path.c_str());
}

// Special files fail at once with exit 3 and say what they are; `timeout` turns a hang (a FIFO
// open waiting for a writer) into a failure instead of a stuck test. A directory is a dataset for
// the commands that read several files, so only the one-file commands refuse it.
void ExpectNotARegularFile(const std::string& path, const std::string& type,
                           const std::vector<std::string>& commands = {"info", "cat", "scan", "sketch", "verify"}) {
  for (const std::string& command : commands) {
    const std::string args = command + " '" + path + "'" + (command == "cat" || command == "scan" ? " --table sensors" : "");
    RunResult r = RunTsread(args, "timeout -s KILL 60");
    EXPECT_EQ(r.exit_code, 3) << command << " " << path << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(path + ": not a regular file (" + type + ")"));
  }
}

TEST(CliTest, SpecialFilesFailAtOnce) {
  const std::string fifo = TempPath("fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  ExpectNotARegularFile(fifo, "FIFO");
  std::remove(fifo.c_str());

  ExpectNotARegularFile("/dev/null", "character device");
  ExpectNotARegularFile("/dev/zero", "character device");
  const std::string dir = TempPath("dir");
  std::filesystem::create_directories(dir);
  ExpectNotARegularFile(dir, "directory", {"sketch", "verify"});
  // A FIFO inside a dataset directory is not listed: the empty dataset is reported, no hang.
  ASSERT_EQ(mkfifo((dir + "/x.tsfile").c_str(), 0600), 0) << std::strerror(errno);
  RunResult listed = RunTsread("scan '" + dir + "'", "timeout -s KILL 60");
  EXPECT_EQ(listed.exit_code, 3) << listed.err;
  EXPECT_THAT(listed.err, HasSubstr("no file ending in .tsfile"));
  std::filesystem::remove_all(dir);

  const std::string socket_path = TempPath("sock");
  std::remove(socket_path.c_str());
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << std::strerror(errno);
  ASSERT_EQ(listen(fd, 1), 0);
  ExpectNotARegularFile(socket_path, "socket");
  close(fd);
  std::remove(socket_path.c_str());
}

}  // namespace
}  // namespace tsread

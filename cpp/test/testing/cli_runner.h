// Test helper (header-only) for the CLI tests: runs the built `tsread` binary (TSREAD_CLI_PATH, set
// by cpp/test/CMakeLists.txt for every tools test) through the shell and collects its exit code,
// stdout and stderr, or keeps it running as a child whose stdout the test reads.
#ifndef TSREAD_TESTING_CLI_RUNNER_H_
#define TSREAD_TESTING_CLI_RUNNER_H_

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "testing/temp_path.h"

#ifndef TSREAD_CLI_PATH
#error "TSREAD_CLI_PATH must name the tsread binary (see cpp/test/CMakeLists.txt)"
#endif

namespace tsread::testing {

// The exit code, stdout and stderr of one `tsread` run.
struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `prefix` goes before the binary in the shell command (e.g. "timeout -s KILL 60").
inline RunResult RunTsread(const std::string& args, const std::string& prefix = "") {
  // ctest runs test cases as parallel processes: keep each process's files apart.
  const std::string err_path = ::testing::TempDir() + "/tsread_cli_err_" + std::to_string(getpid()) + ".txt";
  const std::string command = prefix + " " + std::string(TSREAD_CLI_PATH) + " " + args + " 2>" + err_path;
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) result.out.append(buf, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = ReadWholeFile(err_path);
  std::remove(err_path.c_str());  // one a run: left behind, they fill the temporary folder
  return result;
}

// A fixture path quoted for the shell.
inline std::string Fixture(const std::string& name) { return absl::StrCat("'", FixturePath(name), "'"); }

// A per-process temporary path (ctest runs test cases as parallel processes).
inline std::string TempPath(const std::string& stem) {
  return ::testing::TempDir() + "/tsread_cli_" + stem + "_" + std::to_string(getpid());
}

// A running `tsread` with stdout on a pipe the test reads (or leaves full, to hold the child at
// its next write) and stderr in a file.
class Child {
 public:
  explicit Child(const std::vector<std::string>& args) : err_path_(TempPath("child_err")) {
    int out[2];
    if (pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      const int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(err, STDERR_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(TSREAD_CLI_PATH));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(TSREAD_CLI_PATH, argv.data());
      _exit(127);
    }
    close(out[1]);
    out_ = out[0];
  }
  ~Child() {
    if (out_ >= 0) close(out_);
    std::remove(err_path_.c_str());
  }
  bool started() const { return pid_ > 0 && out_ >= 0; }

  // Reads stdout until at least `n` bytes arrived (or it ended); returns what was read.
  std::string ReadAtLeast(size_t n) {
    std::string got;
    char buf[1 << 16];
    while (got.size() < n) {
      const ssize_t k = read(out_, buf, sizeof(buf));
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) break;
      got.append(buf, static_cast<size_t>(k));
    }
    return got;
  }
  // Drains stdout to the end and waits for the child: its wait status.
  int Finish(std::string* out = nullptr) {
    std::string rest = ReadAtLeast(SIZE_MAX);
    if (out != nullptr) *out += rest;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
  }
  std::string err() const { return ReadWholeFile(err_path_); }
  // Closes the read end of stdout, as `| head` does when it has read enough.
  void CloseOut() {
    if (out_ >= 0) close(out_);
    out_ = -1;
  }

 private:
  std::string err_path_;
  pid_t pid_ = -1;
  int out_ = -1;
};

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_CLI_RUNNER_H_

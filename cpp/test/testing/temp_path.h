// Test helper (header-only): a temporary file or folder that a test removes when it is done with it.
#ifndef TSREAD_TESTING_TEMP_PATH_H_
#define TSREAD_TESTING_TEMP_PATH_H_

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace tsread::testing {

// A temporary file or folder, removed with everything in it when this goes out of scope, so that a
// test's files do not outlive it even when an assertion ends it early.
class ScopedTempPath {
 public:
  explicit ScopedTempPath(std::string path) : path_(std::move(path)) {}
  ScopedTempPath(const ScopedTempPath&) = delete;
  ScopedTempPath& operator=(const ScopedTempPath&) = delete;
  ~ScopedTempPath() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

 private:
  std::string path_;
};

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_TEMP_PATH_H_

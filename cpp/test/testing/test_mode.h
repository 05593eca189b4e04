// How heavy a test's sweep may be: TSREAD_TEST_MODE=full (tools/test.sh full) runs the long
// versions, and sanitizer builds run lighter ones (they run several times slower, and the sweeps
// must stay within the CI budget).
#ifndef TSREAD_TESTING_TEST_MODE_H_
#define TSREAD_TESTING_TEST_MODE_H_

#include <cstdlib>
#include <string_view>

namespace tsread::testing {

// Whether TSREAD_TEST_MODE is "full".
inline bool FullMode() {
  const char* mode = std::getenv("TSREAD_TEST_MODE");
  return mode != nullptr && std::string_view(mode) == "full";
}

// Whether this build runs under AddressSanitizer or ThreadSanitizer.
inline bool SanitizerBuild() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return true;
#endif
#endif
  return false;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_TEST_MODE_H_

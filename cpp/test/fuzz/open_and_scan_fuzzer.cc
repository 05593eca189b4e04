// libFuzzer target: a whole in-memory file — open, metadata summary, every table scanned with
// every column, every tree-model series read. Must return a status for any input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "testing/read_everything.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)tsread::testing::ReadEverything(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

// libFuzzer target: a whole in-memory file — open, metadata summary, every table scanned with
// every column, every tree-model series read; then every table scanned with value predicates on
// its FIELD columns. Must return a status for any input.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "testing/read_everything.h"
#include "testing/scan_with_predicates.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)tsread::testing::ReadEverything(bytes);
  (void)tsread::testing::ScanWithPredicates(bytes);
  return 0;
}

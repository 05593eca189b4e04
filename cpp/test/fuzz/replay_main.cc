// Replays a fuzz target's corpus as a regression test: every file under the directories (or the files)
// named on the command line goes once through the target's LLVMFuzzerTestOneInput, in name order. Linked
// with each cpp/test/fuzz/*_fuzzer.cc in ordinary builds (no libFuzzer), so the Release and ASan+UBSan
// suites run the corpus kept in cpp/test/fuzz/corpus/TARGET: an input that once crashed or hung must now
// return (ctest's timeout catches a hang; the sanitizer build catches memory errors).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> InputsUnder(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> inputs;
  if (std::filesystem::is_directory(root)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  } else {
    inputs.push_back(root);
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

bool ReadWholeFile(const std::filesystem::path& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 1;
  }
  size_t replayed = 0;
  std::string bytes;
  for (int i = 1; i < argc; ++i) {
    for (const auto& path : InputsUnder(argv[i])) {
      if (!ReadWholeFile(path, bytes)) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return 1;
      }
      // A copy in its own allocation, so ASan sees reads one past the input's end.
      const std::vector<uint8_t> input(bytes.begin(), bytes.end());
      LLVMFuzzerTestOneInput(input.data(), input.size());
      ++replayed;
    }
  }
  // A corpus that vanished must not pass as an empty success.
  if (replayed == 0) {
    std::fprintf(stderr, "no inputs found under the given paths\n");
    return 1;
  }
  std::printf("replayed %zu inputs\n", replayed);
  return 0;
}

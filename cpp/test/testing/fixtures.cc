#include "testing/fixtures.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tsread::testing {

std::string FixturesDir() {
  if (const char* env = std::getenv("TSREAD_FIXTURES")) return env;
  return std::string(TSREAD_SOURCE_DIR) + "/../shared/fixtures";
}

std::string BenchDir() {
  if (const char* env = std::getenv("TSREAD_BENCH_DIR")) return env;
  return std::string(TSREAD_SOURCE_DIR) + "/../shared/bench";
}

std::string FixturePath(const std::string& name) { return FixturesDir() + "/" + name; }

std::vector<std::string> FixtureStems() {
  std::vector<std::string> stems;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(FixturesDir(), ec)) {
    if (entry.path().extension() == ".tsfile") stems.push_back(entry.path().stem().string());
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> TableFixtureStems() {
  std::vector<std::string> tables;
  for (const std::string& stem : FixtureStems()) {
    if (stem.rfind("table_", 0) == 0) tables.push_back(stem);
  }
  return tables;
}

std::string PlainFixtureWithADoubleChunkUnderAnInt64Column() {
  std::string bytes = ReadWholeFile(FixturePath("table_enc_PLAIN.tsfile"));
  size_t at = bytes.find(std::string("\x41\x0e") + "f_int64");
  if (at == std::string::npos) return {};
  at += 9;
  while (at < bytes.size() && (static_cast<uint8_t>(bytes[at]) & 0x80)) ++at;
  ++at;
  if (at >= bytes.size() || bytes[at] != 2) return {};  // INT64 (§11)
  bytes[at] = 4;                                        // DOUBLE
  return bytes;
}

}  // namespace tsread::testing

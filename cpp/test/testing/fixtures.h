// Test helpers: where the reference fixtures live and how to load them.
#ifndef TSREAD_TESTING_FIXTURES_H_
#define TSREAD_TESTING_FIXTURES_H_

#include <string>
#include <vector>

namespace tsread::testing {

// The directory of the Apache-written reference fixtures: $TSREAD_FIXTURES if set, else
// ../shared/fixtures relative to the source tree.
std::string FixturesDir();
// ../shared/bench (or $TSREAD_BENCH_DIR).
std::string BenchDir();
// Full path of a fixture file, e.g. FixturePath("table_multi.tsfile").
std::string FixturePath(const std::string& name);
// Stems of every NAME.tsfile in the fixtures directory, sorted.
std::vector<std::string> FixtureStems();
// Those of the table-model fixtures (stems starting "table_"), sorted.
std::vector<std::string> TableFixtureStems();
// Whole file contents; empty string if the file cannot be read.
std::string ReadWholeFile(const std::string& path);

// The bytes of `table_enc_PLAIN.tsfile` with the header of its first f_int64 chunk saying DOUBLE
// (format reference §3: marker 0x41, the name's zigzag length 7 and the name, the data size's
// varint, then the type): the same 8 bytes per PLAIN value and the same statistics layout, so the
// chunk decodes cleanly as the wrong type.
std::string PlainFixtureWithADoubleChunkUnderAnInt64Column();

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_FIXTURES_H_

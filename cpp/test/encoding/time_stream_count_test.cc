// TimeStreamCount: the number of timestamps a whole time stream holds, from the stream alone.
// Streams come from tsread's writer encoders (byte-identical to Java's on the fixtures).
#include "tsread/encoding/time_stream_count.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tsread/write/byte_appender.h"
#include "tsread/write/gorilla_encoder.h"
#include "tsread/write/ts2diff_encoder.h"

namespace tsread {
namespace {

std::vector<int64_t> Times(size_t n) {
  std::vector<int64_t> times;
  int64_t t = 1700000000000;
  for (size_t i = 0; i < n; ++i) times.push_back(t += 1000 + static_cast<int64_t>(i % 7) * 13);
  return times;
}

constexpr uint64_t kMax = uint64_t{1} << 25;

TEST(TimeStreamCountTest, CountsEveryEncodingThatSays) {
  for (size_t n : {1u, 2u, 7u, 64u, 65u, 129u, 1000u, 4097u}) {
    const std::vector<int64_t> times = Times(n);
    std::string ts2diff, gorilla, plain;
    EncodeTs2DiffInt64s(times.data(), times.size(), ts2diff);
    EncodeGorillaInt64s(times.data(), times.size(), gorilla);
    for (int64_t t : times) AppendI64(plain, t);
    EXPECT_EQ(TimeStreamCount(Encoding::kTs2Diff, ts2diff, kMax), n);
    EXPECT_EQ(TimeStreamCount(Encoding::kGorilla, gorilla, kMax), n);
    EXPECT_EQ(TimeStreamCount(Encoding::kPlain, plain, kMax), n);
  }
}

TEST(TimeStreamCountTest, RefusesWhatItCannotTell) {
  const std::vector<int64_t> times = Times(100);
  std::string gorilla, plain;
  EncodeGorillaInt64s(times.data(), times.size(), gorilla);
  for (int64_t t : times) AppendI64(plain, t);
  // A GORILLA stream cut before its sentinel.
  EXPECT_EQ(TimeStreamCount(Encoding::kGorilla, gorilla.substr(0, gorilla.size() / 2), kMax), std::nullopt);
  // PLAIN that is not whole values; more values than allowed.
  EXPECT_EQ(TimeStreamCount(Encoding::kPlain, plain.substr(0, plain.size() - 3), kMax), std::nullopt);
  EXPECT_EQ(TimeStreamCount(Encoding::kPlain, plain, 99), std::nullopt);
  EXPECT_EQ(TimeStreamCount(Encoding::kGorilla, gorilla, 99), std::nullopt);
  // Encodings whose stream does not say.
  EXPECT_EQ(TimeStreamCount(Encoding::kZigzag, plain, kMax), std::nullopt);
  EXPECT_EQ(TimeStreamCount(Encoding::kSprintz, plain, kMax), std::nullopt);
}

}  // namespace
}  // namespace tsread

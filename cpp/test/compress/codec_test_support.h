// Helpers shared by the codec tests: deterministic test data, decoding into a guarded buffer,
// the checks every codec must pass (format reference §10.1), and the fixture pages.
#ifndef TSREAD_TEST_COMPRESS_CODEC_TEST_SUPPORT_H_
#define TSREAD_TEST_COMPRESS_CODEC_TEST_SUPPORT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "testing/fixtures.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/compress/decompress.h"

namespace tsread::compress_test {

// A test-side encoder built on the real library: an independent producer of page bodies.
using Encoder = std::function<std::string(std::string_view)>;

// `n` pseudo-random bytes, the same for the same seed.
inline std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xFF);
  return s;
}

// `n` bytes mixing text, runs, counters and noise, so every codec uses literals and matches.
inline std::string VariedData(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  s.reserve(n + 64);
  while (s.size() < n) {
    switch (rng() % 4) {
      case 0: s += "timestamp=" + std::to_string(1700000000000ull + rng() % 100000) + ";"; break;
      case 1: s.append(1 + rng() % 40, static_cast<char>('a' + rng() % 26)); break;
      case 2: for (int i = 0; i < 16; ++i) s.push_back(static_cast<char>(i * 3)); break;
      default: s += RandomBytes(1 + rng() % 24, rng()); break;
    }
  }
  s.resize(n);
  return s;
}

// Bytes written past the span handed to the decoder must keep this value.
constexpr char kGuard = '\x5A';
constexpr size_t kGuardSize = 64;

// Decodes `body` with `codec` into a buffer of exactly `size` bytes followed by guard bytes,
// and fails the test if the decoder touched a guard byte.
inline absl::Status DecodeInto(Compression codec, std::string_view body, size_t size,
                               std::string* out = nullptr) {
  std::vector<char> buffer(size + kGuardSize, kGuard);
  const absl::Status status = Decompress(codec, body, std::span<char>(buffer.data(), size));
  EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(size), buffer.end(),
                          [](char c) { return c == kGuard; }))
      << CompressionName(codec) << " wrote past the output span of " << size << " bytes";
  if (out != nullptr) out->assign(buffer.data(), size);
  return status;
}

// Asserts `status` is DataLoss, with the context in the failure message.
#define TSREAD_EXPECT_DATA_LOSS(status, context)                                 \
  EXPECT_EQ((status).code(), absl::StatusCode::kDataLoss) << (context) << ": " << (status)

inline void ExpectRoundTrip(Compression codec, const Encoder& encode, const std::string& data) {
  const std::string body = encode(data);
  std::string decoded;
  const absl::Status status = DecodeInto(codec, body, data.size(), &decoded);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(decoded == data) << CompressionName(codec) << " round trip of " << data.size()
                               << " bytes differs";
}

// The library's own encoding of 0 bytes decodes into an empty span.
inline void ExpectEmptyRoundTrip(Compression codec, const Encoder& encode) {
  const std::string body = encode("");
  EXPECT_TRUE(DecodeInto(codec, body, 0).ok());
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, 1), "empty encoding into 1 byte");
}

// A body that decodes to N bytes is refused for N - 1 and N + 1 output bytes.
inline void ExpectSizeMismatchFails(Compression codec, const Encoder& encode,
                                    const std::string& data) {
  const std::string body = encode(data);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, data.size() - 1), "one byte too few");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, data.size() + 1), "one byte too many");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, data.size() / 2), "half the size");
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, data.size() * 2), "twice the size");
}

// 1 MiB of zeros decodes into 1 MiB, and is refused (not inflated) for a 1000-byte page.
inline void ExpectBombRefused(Compression codec, const Encoder& encode) {
  const std::string zeros(1 << 20, '\0');
  const std::string body = encode(zeros);
  ASSERT_LT(body.size(), size_t{70000}) << "encoder did not compress the zeros";
  std::string decoded;
  ASSERT_TRUE(DecodeInto(codec, body, zeros.size(), &decoded).ok());
  EXPECT_TRUE(decoded == zeros);
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, 1000), "1 MiB into 1000 bytes");
}

// Every strict prefix of a valid body is refused without crashing or overrunning.
inline void ExpectTruncationsFail(Compression codec, const Encoder& encode,
                                  const std::string& data) {
  const std::string body = encode(data);
  for (size_t n = 0; n < body.size(); ++n) {
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, std::string_view(body).substr(0, n), data.size()),
                            "prefix of " + std::to_string(n) + " of " +
                                std::to_string(body.size()) + " bytes");
  }
}

// Random bytes of assorted lengths are refused.
inline void ExpectGarbageFails(Compression codec) {
  for (uint32_t seed = 1; seed <= 50; ++seed) {
    const std::string garbage = RandomBytes(1 + seed * 37, seed);
    TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, garbage, 1000), "garbage seed " + std::to_string(seed));
  }
}

// A page body taken from a reference fixture; offsets come from its .sketch.txt.
struct FixturePage {
  const char* file;
  size_t offset;
  size_t compressed_size;
  size_t uncompressed_size;
};

// The same two pages in table_comp_UNCOMPRESSED.tsfile: the files hold identical data, and the
// sketches list the same sizes and statistics for these pages under every codec.
constexpr FixturePage kUncompressedStringPage{"table_comp_UNCOMPRESSED.tsfile", 18933, 7173, 7173};
constexpr FixturePage kUncompressedInt64Page{"table_comp_UNCOMPRESSED.tsfile", 2421, 1113, 1113};

// The bytes of `page`, or an empty string (and a test failure) if the fixture is unreadable.
inline std::string ReadFixturePage(const FixturePage& page) {
  const std::string file = tsread::testing::ReadWholeFile(tsread::testing::FixturePath(page.file));
  EXPECT_GE(file.size(), page.offset + page.compressed_size) << "cannot read " << page.file;
  if (file.size() < page.offset + page.compressed_size) return "";
  return file.substr(page.offset, page.compressed_size);
}

// Decompresses a fixture page and compares it with the same page of the UNCOMPRESSED fixture.
inline void ExpectFixturePageMatches(Compression codec, const FixturePage& page,
                                     const FixturePage& uncompressed) {
  ASSERT_EQ(page.uncompressed_size, uncompressed.uncompressed_size);
  const std::string body = ReadFixturePage(page);
  const std::string expected = ReadFixturePage(uncompressed);
  ASSERT_FALSE(body.empty());
  std::string decoded;
  const absl::Status status = DecodeInto(codec, body, page.uncompressed_size, &decoded);
  ASSERT_TRUE(status.ok()) << page.file << " @" << page.offset << ": " << status;
  EXPECT_TRUE(decoded == expected) << page.file << " @" << page.offset
                                   << " differs from the UNCOMPRESSED fixture";
  TSREAD_EXPECT_DATA_LOSS(DecodeInto(codec, body, page.uncompressed_size - 1), page.file);
}

}  // namespace tsread::compress_test

#endif  // TSREAD_TEST_COMPRESS_CODEC_TEST_SUPPORT_H_

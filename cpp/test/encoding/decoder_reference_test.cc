// The fast GORILLA (§9.6) and TS_2DIFF (§9.4) decoders against the straightforward reference
// decoders of testing/reference_decoders.h: on streams from the project's encoders
// (cpp/src/tsread/write) and hand-built ones, and on adversarial input — truncation at every
// byte, random bytes, bit flips, extreme bit widths, NaN/-0.0/denormals, long runs of one value.
// Each case compares the whole result: the status (message included), the bytes consumed and
// every value bit for bit. Streams are exact-size heap copies so that ASan sees any overread.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
#include "testing/reference_decoders.h"
#include "tsread/encoding/gorilla.h"
#include "tsread/encoding/rle.h"
#include "tsread/encoding/ts2diff.h"
#include "tsread/write/gorilla_encoder.h"
#include "tsread/write/ts2diff_encoder.h"

namespace tsread {
namespace {

using testing::BitWriter;
using testing::ExactBytes;
using testing::PutBigEndian;
using testing::ReferenceGorilla;
using testing::ReferenceTs2Diff;

absl::StatusOr<size_t> FastGorilla(std::string_view s, size_t n, int32_t* out) { return DecodeGorillaInt32s(s, n, out); }
absl::StatusOr<size_t> FastGorilla(std::string_view s, size_t n, int64_t* out) { return DecodeGorillaInt64s(s, n, out); }
absl::StatusOr<size_t> FastGorilla(std::string_view s, size_t n, float* out) { return DecodeGorillaFloats(s, n, out); }
absl::StatusOr<size_t> FastGorilla(std::string_view s, size_t n, double* out) { return DecodeGorillaDoubles(s, n, out); }
absl::StatusOr<size_t> FastTs2Diff(std::string_view s, size_t n, int32_t* out) { return DecodeTs2DiffInt32s(s, n, out); }
absl::StatusOr<size_t> FastTs2Diff(std::string_view s, size_t n, int64_t* out) { return DecodeTs2DiffInt64s(s, n, out); }

void Encode(const std::vector<int32_t>& v, std::string& out) { EncodeGorillaInt32s(v.data(), v.size(), out); }
void Encode(const std::vector<int64_t>& v, std::string& out) { EncodeGorillaInt64s(v.data(), v.size(), out); }
void Encode(const std::vector<float>& v, std::string& out) { EncodeGorillaFloats(v.data(), v.size(), out); }
void Encode(const std::vector<double>& v, std::string& out) { EncodeGorillaDoubles(v.data(), v.size(), out); }

// Decodes `count` values of `stream` with both decoders and expects the same whole result. The
// output buffers start with different fill so that a value one decoder leaves unwritten shows.
template <typename T, bool kTs2Diff>
void ExpectSameAsReference(std::string_view stream, size_t count, const std::string& label) {
  const ExactBytes exact(stream);
  std::vector<T> fast(count + 1, static_cast<T>(1));
  std::vector<T> reference(count + 1, static_cast<T>(2));
  absl::StatusOr<size_t> got;
  absl::StatusOr<size_t> want;
  if constexpr (kTs2Diff) {
    got = FastTs2Diff(exact.view(), count, fast.data());
    want = ReferenceTs2Diff<T>(exact.view(), count, reference.data());
  } else {
    got = FastGorilla(exact.view(), count, fast.data());
    want = ReferenceGorilla<T>(exact.view(), count, reference.data());
  }
  ASSERT_EQ(got.status(), want.status()) << label;
  if (!want.ok()) return;
  ASSERT_EQ(*got, *want) << label << ": bytes consumed";
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(testing::BitsOf(fast[i]), testing::BitsOf(reference[i])) << label << ": value " << i;
  }
  ASSERT_EQ(testing::BitsOf(fast[count]), testing::BitsOf(static_cast<T>(1))) << label << ": wrote past count";
}

template <typename T>
void ExpectGorillaSame(std::string_view stream, size_t count, const std::string& label) {
  ExpectSameAsReference<T, false>(stream, count, label);
}
template <typename T>
void ExpectTs2DiffSame(std::string_view stream, size_t count, const std::string& label) {
  ExpectSameAsReference<T, true>(stream, count, label);
}

// Every prefix of `stream` with the full count (all but the whole stream fail somewhere), and
// the whole stream with every count up to the encoded one.
template <typename T, bool kTs2Diff>
void ExpectSameOnPrefixes(const std::string& stream, size_t count, const std::string& label) {
  for (size_t cut = 0; cut <= stream.size(); ++cut) {
    ExpectSameAsReference<T, kTs2Diff>(std::string_view(stream).substr(0, cut), count,
                                       label + " cut at " + std::to_string(cut));
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (size_t n = 0; n <= count; n += 1 + n / 16) {
    ExpectSameAsReference<T, kTs2Diff>(stream, n, label + " count " + std::to_string(n));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Values with the shapes real pages and hostile writers produce, chosen by `shape`.
template <typename T>
std::vector<T> Values(int shape, size_t n, std::mt19937_64& rng) {
  using Word = testing::BitsWord<T>;
  std::vector<T> v;
  T last{};
  for (size_t i = 0; i < n; ++i) {
    T x;
    switch (shape) {
      case 0: x = std::bit_cast<T>(static_cast<Word>(rng())); break;  // random patterns
      case 1: x = i % 64 < 48 && i > 0 ? last : std::bit_cast<T>(static_cast<Word>(rng())); break;  // runs
      case 2: {  // specials: NaN payloads, -0.0, denormals, infinities, extremes
        const Word specials[] = {0, Word{1}, static_cast<Word>(~Word{0}), static_cast<Word>(Word{1} << (8 * sizeof(T) - 1)),
                                 static_cast<Word>(rng() & 0xFF), static_cast<Word>(~Word{0} >> 1),
                                 static_cast<Word>(static_cast<Word>(rng()) | (Word{1} << (8 * sizeof(T) - 1)))};
        x = std::bit_cast<T>(specials[rng() % 7]);
        if constexpr (std::is_floating_point_v<T>) {
          if (rng() % 3 == 0) x = std::numeric_limits<T>::quiet_NaN();
          if (rng() % 5 == 0) x = -std::numeric_limits<T>::denorm_min();
          if (rng() % 7 == 0) x = -std::numeric_limits<T>::infinity();
          if (rng() % 4 == 0) x = static_cast<T>(-0.0);
        }
        break;
      }
      default: {  // a sensor-like walk: few XOR bits, '0' and '10' mixed at random
        if constexpr (std::is_floating_point_v<T>) {
          x = i == 0 || rng() % 3 == 0 ? static_cast<T>(static_cast<double>(rng() % 40000) / 100.0 - 100)
                                       : last;
          if (rng() % 2) x = static_cast<T>(std::round((static_cast<double>(x) + 0.01) * 100) / 100);
        } else {
          x = static_cast<T>(static_cast<Word>(last) + (rng() % 4 == 0 ? rng() % 1000 : 0));
        }
      }
    }
    v.push_back(x);
    last = x;
  }
  return v;
}

template <typename T>
void GorillaRandomStreams(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 60; ++round) {
    const int shape = round % 4;
    const size_t n = 1 + rng() % (round < 40 ? 3000 : 40);
    const std::vector<T> values = Values<T>(shape, n, rng);
    std::string stream;
    Encode(values, stream);
    const std::string label = "shape " + std::to_string(shape) + " n " + std::to_string(n);
    ExpectGorillaSame<T>(stream, n, label);
    if (::testing::Test::HasFatalFailure()) return;
    // The stream ends where the counted values end: nothing after them to read into.
    absl::StatusOr<size_t> used = ReferenceGorilla<T>(stream, n, std::vector<T>(n).data());
    ASSERT_TRUE(used.ok()) << label;
    ExpectGorillaSame<T>(std::string_view(stream).substr(0, *used), n, label + " (values only)");
    if (round % 10 == 0) ExpectSameOnPrefixes<T, false>(stream, n, label);
  }
}

TEST(DecoderReferenceTest, GorillaRandomStreamsInt32) { GorillaRandomStreams<int32_t>(1); }
TEST(DecoderReferenceTest, GorillaRandomStreamsInt64) { GorillaRandomStreams<int64_t>(2); }
TEST(DecoderReferenceTest, GorillaRandomStreamsFloat) { GorillaRandomStreams<float>(3); }
TEST(DecoderReferenceTest, GorillaRandomStreamsDouble) { GorillaRandomStreams<double>(4); }

// One long run of a value, then changes: the '0' path for thousands of values in a row.
TEST(DecoderReferenceTest, GorillaLongRunsOfOneValue) {
  std::vector<double> doubles(20000, -0.0);
  std::vector<float> floats(20000, std::numeric_limits<float>::denorm_min());
  doubles.push_back(1.5);
  floats.push_back(std::nanf("7"));
  std::string d, f;
  Encode(doubles, d);
  Encode(floats, f);
  ExpectGorillaSame<double>(d, doubles.size(), "doubles");
  ExpectGorillaSame<float>(f, floats.size(), "floats");
  ExpectGorillaSame<int64_t>(d, doubles.size(), "doubles as INT64");
  ExpectGorillaSame<int32_t>(f, floats.size(), "floats as INT32");
}

// Hand-built streams at the edges of the length fields: S = W (L = 0, T = 0), S = 1, the widest
// L, and long '10' runs with each S, so that every S meets the block reads and the windows.
template <typename T>
void GorillaLengthEdges() {
  constexpr int kWidth = 8 * sizeof(T);
  constexpr int kLengthBits = kWidth == 32 ? 5 : 6;
  std::mt19937_64 rng(kWidth);
  for (int sig = 1; sig <= kWidth; ++sig) {
    for (int leading : {0, kWidth - sig}) {
      BitWriter w;
      w.Write(rng(), kWidth);
      w.WriteString("11");
      w.Write(static_cast<uint64_t>(leading), kLengthBits);
      w.Write(static_cast<uint64_t>(sig - 1), kLengthBits);
      w.Write(rng() | 1, sig);
      const size_t n = 2 + rng() % 200;
      for (size_t i = 2; i < n; ++i) {
        if (rng() % 16 == 0) {
          w.PutBit(false);  // '0'
        } else {
          w.WriteString("10");
          w.Write(rng(), sig);
        }
      }
      const std::string label = "S " + std::to_string(sig) + " L " + std::to_string(leading);
      ExpectGorillaSame<T>(w.bytes(), n, label);
      if (::testing::Test::HasFatalFailure()) return;
      if (sig % 9 == 0) ExpectSameOnPrefixes<T, false>(w.bytes(), n, label);
    }
  }
}

TEST(DecoderReferenceTest, GorillaLengthEdgesInt32) { GorillaLengthEdges<int32_t>(); }
TEST(DecoderReferenceTest, GorillaLengthEdgesDouble) { GorillaLengthEdges<double>(); }
TEST(DecoderReferenceTest, GorillaLengthEdgesFloat) { GorillaLengthEdges<float>(); }
TEST(DecoderReferenceTest, GorillaLengthEdgesInt64) { GorillaLengthEdges<int64_t>(); }

// Changes ('10') separated by short runs of repeats ('0'), as rounded sensor floats are: every
// gap from 0 to 12 repeats (the two-change step of the W = 32 loop takes gaps up to 8 and 56 bits
// in all) with every S, an occasional new '11' in the middle, and stream lengths that end the
// fast loop at every offset.
template <typename T>
void GorillaRepeatGaps() {
  constexpr int kWidth = 8 * sizeof(T);
  constexpr int kLengthBits = kWidth == 32 ? 5 : 6;
  std::mt19937_64 rng(kWidth + 100);
  for (int sig = 1; sig <= kWidth; ++sig) {
    for (int round = 0; round < 3; ++round) {
      BitWriter w;
      w.Write(rng(), kWidth);
      size_t n = 1;
      const auto new_lengths = [&](int s) {
        w.WriteString("11");
        w.Write(static_cast<uint64_t>(rng() % (kWidth - s + 1)), kLengthBits);
        w.Write(static_cast<uint64_t>(s - 1), kLengthBits);
        w.Write(rng() | 1, s);
        ++n;
      };
      new_lengths(sig);
      const size_t changes = 20 + rng() % 300;
      for (size_t c = 0; c < changes; ++c) {
        for (uint64_t gap = rng() % 13; gap > 0; --gap, ++n) w.PutBit(false);
        if (rng() % 64 == 0) {
          new_lengths(sig);
        } else {
          w.WriteString("10");
          w.Write(rng(), sig);
          ++n;
        }
      }
      const std::string label = "S " + std::to_string(sig) + " round " + std::to_string(round);
      ExpectGorillaSame<T>(w.bytes(), n, label);
      if (::testing::Test::HasFatalFailure()) return;
      if (round == 0) ExpectSameOnPrefixes<T, false>(w.bytes(), n, label);
    }
  }
}

TEST(DecoderReferenceTest, GorillaRepeatGapsFloat) { GorillaRepeatGaps<float>(); }
TEST(DecoderReferenceTest, GorillaRepeatGapsInt32) { GorillaRepeatGaps<int32_t>(); }
TEST(DecoderReferenceTest, GorillaRepeatGapsDouble) { GorillaRepeatGaps<double>(); }

// Random bytes and bit flips of valid streams: errors (kind, value, offset) must agree too.
template <typename T>
void GorillaGarbage(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes;
    if (round % 2 == 0) {
      bytes.resize(rng() % 300);
      for (char& c : bytes) c = static_cast<char>(rng());
    } else {
      Encode(Values<T>(static_cast<int>(rng() % 4), 1 + rng() % 500, rng), bytes);
      for (int flips = 0; flips < 3; ++flips) bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
    }
    ExpectGorillaSame<T>(bytes, rng() % 600, "round " + std::to_string(round));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DecoderReferenceTest, GorillaGarbageInt32) { GorillaGarbage<int32_t>(11); }
TEST(DecoderReferenceTest, GorillaGarbageInt64) { GorillaGarbage<int64_t>(12); }
TEST(DecoderReferenceTest, GorillaGarbageFloat) { GorillaGarbage<float>(13); }
TEST(DecoderReferenceTest, GorillaGarbageDouble) { GorillaGarbage<double>(14); }

// --- TS_2DIFF ------------------------------------------------------------------------------------

// A block with `n` deltas of width `w`, packed MSB-first, minDelta and first as given.
template <typename T>
std::string Ts2DiffBlock(int32_t n, int32_t w, T min_delta, T first, std::mt19937_64& rng) {
  std::string out;
  PutBigEndian(&out, static_cast<uint32_t>(n), 4);
  PutBigEndian(&out, static_cast<uint32_t>(w), 4);
  PutBigEndian(&out, static_cast<uint64_t>(min_delta), sizeof(T));
  PutBigEndian(&out, static_cast<uint64_t>(first), sizeof(T));
  BitWriter bits;
  for (int32_t i = 0; i < n; ++i) bits.Write(w == 0 ? 0 : rng() >> (64 - w), w);
  if (rng() % 2 && n * w % 8 != 0) bits.Write(rng(), 8 - static_cast<int>(n * w % 8));  // stale padding bits
  return out + bits.bytes();
}

template <typename T>
void Ts2DiffAllWidths(uint64_t seed) {
  constexpr int kMaxWidth = 8 * sizeof(T);
  std::mt19937_64 rng(seed);
  for (int w = 0; w <= kMaxWidth; ++w) {
    std::string stream;
    size_t count = 0;
    for (int block = 0; block < 3; ++block) {
      const auto n = static_cast<int32_t>(block == 0 ? 128 : rng() % 140);
      const T min_delta = block == 1 ? std::numeric_limits<T>::min() : static_cast<T>(rng());
      stream += Ts2DiffBlock<T>(n, w, min_delta, static_cast<T>(rng()), rng);
      count += 1 + static_cast<size_t>(n);
    }
    const std::string label = "w " + std::to_string(w);
    ExpectTs2DiffSame<T>(stream, count, label);
    if (::testing::Test::HasFatalFailure()) return;
    if (w % 7 == 0 || w >= kMaxWidth - 1) ExpectSameOnPrefixes<T, true>(stream, count, label);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DecoderReferenceTest, Ts2DiffAllWidthsInt32) { Ts2DiffAllWidths<int32_t>(21); }
TEST(DecoderReferenceTest, Ts2DiffAllWidthsInt64) { Ts2DiffAllWidths<int64_t>(22); }

template <typename T>
void Ts2DiffEncodedStreams(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 40; ++round) {
    const size_t n = 1 + rng() % 2000;
    std::vector<T> values(n);
    T v = static_cast<T>(rng());
    const uint64_t spread = uint64_t{1} << (rng() % 63);
    for (T& x : values) {
      v = static_cast<T>(static_cast<uint64_t>(v) + (round % 3 == 0 ? 1000 : rng() % spread));
      x = v;
    }
    std::string stream;
    if constexpr (sizeof(T) == 4) {
      EncodeTs2DiffInt32s(values.data(), n, stream);
    } else {
      EncodeTs2DiffInt64s(values.data(), n, stream);
    }
    const std::string label = "round " + std::to_string(round);
    ExpectTs2DiffSame<T>(stream, n, label);
    if (::testing::Test::HasFatalFailure()) return;
    if (round % 8 == 0) ExpectSameOnPrefixes<T, true>(stream, n, label);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DecoderReferenceTest, Ts2DiffEncodedStreamsInt32) { Ts2DiffEncodedStreams<int32_t>(31); }
TEST(DecoderReferenceTest, Ts2DiffEncodedStreamsInt64) { Ts2DiffEncodedStreams<int64_t>(32); }

template <typename T>
void Ts2DiffGarbage(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 3000; ++round) {
    std::string bytes;
    if (round % 2 == 0) {
      bytes.resize(rng() % 200);
      for (char& c : bytes) c = static_cast<char>(rng());
      // Plausible headers now and then, so that the packed part is reached.
      if (bytes.size() >= 8 && rng() % 2) {
        bytes[0] = bytes[1] = bytes[2] = 0;
        bytes[4] = bytes[5] = bytes[6] = 0;
        bytes[7] = static_cast<char>(rng() % (8 * sizeof(T) + 2));
      }
    } else {
      const int w = static_cast<int>(rng() % (8 * sizeof(T) + 1));
      bytes = Ts2DiffBlock<T>(static_cast<int32_t>(rng() % 130), w, static_cast<T>(rng()), static_cast<T>(rng()), rng);
      bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
    }
    ExpectTs2DiffSame<T>(bytes, rng() % 300, "round " + std::to_string(round));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DecoderReferenceTest, Ts2DiffGarbageInt32) { Ts2DiffGarbage<int32_t>(41); }
TEST(DecoderReferenceTest, Ts2DiffGarbageInt64) { Ts2DiffGarbage<int64_t>(42); }

// --- RLE booleans at bit width 1 (§9.3) ----------------------------------------------------------

// One package of width-1 bit-packed groups holding `groups` (every byte value first, then random
// ones), decoded against the bits read one at a time, MSB first; counts that end inside a group.
TEST(DecoderReferenceTest, RleBooleansWidthOneEveryByte) {
  std::mt19937_64 rng(51);
  std::string groups;
  for (int b = 0; b < 256; ++b) groups.push_back(static_cast<char>(b));
  for (int b = 0; b < 300; ++b) groups.push_back(static_cast<char>(rng()));
  std::string payload(1, '\x01');  // bit width 1
  testing::PutUVar(&payload, (groups.size() << 1) | 1);
  payload.push_back(8);  // lastCount: the last group is full
  payload += groups;
  std::string stream;
  testing::PutUVar(&stream, payload.size());
  stream += payload;
  for (size_t count : {groups.size() * 8, size_t{1}, size_t{7}, size_t{9}, size_t{2047}, groups.size() * 8 - 3}) {
    std::vector<uint8_t> out(count, 2);
    const ExactBytes exact(stream);
    absl::StatusOr<size_t> used = DecodeRleBooleans(exact.view(), count, out.data());
    ASSERT_TRUE(used.ok()) << used.status();
    EXPECT_EQ(*used, stream.size());
    for (size_t i = 0; i < count; ++i) {
      const int bit = (static_cast<uint8_t>(groups[i / 8]) >> (7 - i % 8)) & 1;
      ASSERT_EQ(out[i], bit) << "count " << count << " value " << i;
    }
  }
}

}  // namespace
}  // namespace tsread

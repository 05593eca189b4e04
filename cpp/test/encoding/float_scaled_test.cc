// FloatDecoder wrapper (§9.5) tests. The inner streams come from the small test-only writers
// below: a TS_2DIFF writer that stores every delta at full width and an RLE writer that stores all
// values in one bit-packed run of full width; both are valid streams that Java's decoders accept.
#include "tsread/encoding/float_scaled.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

// A heap copy of exactly the bytes of `s` (no terminator, no spare capacity), so that ASan
// reports any read past the end of the stream.
class ExactBytes {
 public:
  explicit ExactBytes(std::string_view s) : bytes_(s.begin(), s.end()) {}
  std::string_view view() const { return {bytes_.data(), bytes_.size()}; }

 private:
  std::vector<char> bytes_;
};

void PutUVar(std::string* out, uint32_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>(v >> (8 * i)));
}

// One TS_2DIFF block of all values, minDelta 0, deltas at full width (§9.4).
template <typename T>
std::string Ts2DiffBlock(const std::vector<T>& values) {
  constexpr int kBytes = sizeof(T);
  std::string out;
  PutBigEndian(&out, values.size() - 1, 4);
  PutBigEndian(&out, 8 * kBytes, 4);
  PutBigEndian(&out, 0, kBytes);
  PutBigEndian(&out, static_cast<uint64_t>(values[0]), kBytes);
  for (size_t i = 1; i < values.size(); ++i) {
    PutBigEndian(&out, static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(values[i - 1]), kBytes);
  }
  return out;
}

// One RLE package holding all values in one bit-packed run of full width (§9.3).
template <typename T>
std::string RlePackage(const std::vector<T>& values) {
  constexpr int kBytes = sizeof(T);
  const size_t groups = (values.size() + 7) / 8;
  std::string payload;
  payload.push_back(static_cast<char>(8 * kBytes));
  PutUVar(&payload, static_cast<uint32_t>(groups << 1 | 1));
  payload.push_back(static_cast<char>(values.size() - (groups - 1) * 8));
  for (size_t i = 0; i < groups * 8; ++i) {
    PutBigEndian(&payload, i < values.size() ? static_cast<uint64_t>(values[i]) : 0, kBytes);
  }
  std::string out;
  PutUVar(&out, static_cast<uint32_t>(payload.size()));
  return out + payload;
}

std::string Header(uint32_t m) {
  std::string out;
  PutUVar(&out, m);
  return out;
}

void ExpectDataLoss(const absl::StatusOr<size_t>& result) {
  EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << result.status();
}

const std::vector<int32_t> kInts = {
    12345, -1, 0, 100, 7, -98765, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
    1};
const std::vector<int64_t> kLongs = {12345,
                                     -1,
                                     0,
                                     100,
                                     7,
                                     -98765,
                                     std::numeric_limits<int64_t>::max(),
                                     std::numeric_limits<int64_t>::min(),
                                     1,
                                     9007199254740993};

TEST(FloatScaledTest, FloatTs2DiffPrecisionTwo) {
  const std::string stream = Header(2) + Ts2DiffBlock(kInts) + "trailing";
  std::vector<float> out(kInts.size());
  auto consumed = DecodeScaledFloats(Encoding::kTs2Diff, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 8);
  EXPECT_EQ(out[0], 123.45f);
  // Java: (float) (value / 100.0), the quotient in double.
  for (size_t i = 0; i < kInts.size(); ++i) {
    EXPECT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(static_cast<float>(kInts[i] / 100.0)))
        << i;
  }
}

TEST(FloatScaledTest, DoubleQuotientRoundsOnceMoreToFloat) {
  // 16777217 / 10 = 1677721.7 in double, then rounded to float: not the same as dividing in float.
  const std::vector<int32_t> ints = {16777217, 1};
  std::vector<float> out(2);
  ASSERT_TRUE(DecodeScaledFloats(Encoding::kTs2Diff, Header(1) + Ts2DiffBlock(ints), 2, out.data()).ok());
  EXPECT_EQ(out[0], static_cast<float>(16777217 / 10.0));
  EXPECT_EQ(out[1], static_cast<float>(0.1));
}

TEST(FloatScaledTest, FloatRle) {
  const std::string stream = Header(3) + RlePackage(kInts);
  std::vector<float> out(kInts.size());
  auto consumed = DecodeScaledFloats(Encoding::kRle, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  for (size_t i = 0; i < kInts.size(); ++i) EXPECT_EQ(out[i], static_cast<float>(kInts[i] / 1000.0)) << i;
}

TEST(FloatScaledTest, DoubleRleAndTs2DiffPrecisionTwo) {
  for (Encoding inner : {Encoding::kRle, Encoding::kTs2Diff}) {
    const std::string stream =
        Header(2) + (inner == Encoding::kRle ? RlePackage(kLongs) : Ts2DiffBlock(kLongs));
    std::vector<double> out(kLongs.size());
    auto consumed = DecodeScaledDoubles(inner, stream, out.size(), out.data());
    ASSERT_TRUE(consumed.ok()) << consumed.status();
    EXPECT_EQ(*consumed, stream.size());
    EXPECT_EQ(out[0], 123.45);
    for (size_t i = 0; i < kLongs.size(); ++i) {
      EXPECT_EQ(std::bit_cast<uint64_t>(out[i]),
                std::bit_cast<uint64_t>(static_cast<double>(kLongs[i]) / 100.0))
          << i;
    }
  }
}

TEST(FloatScaledTest, PrecisionZeroOrNegativeDividesByOne) {
  // m = 0, and m = 0x80000000 (negative as a Java int; a 5-byte uvar).
  for (uint32_t m : {0u, 0x80000000u}) {
    const std::string stream = Header(m) + Ts2DiffBlock(std::vector<int64_t>{5, -7});
    std::vector<double> out(2);
    ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, stream, 2, out.data()).ok());
    EXPECT_EQ(out[0], 5.0);
    EXPECT_EQ(out[1], -7.0);
  }
}

TEST(FloatScaledTest, LargePrecision) {
  std::vector<double> out(1);
  ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, Header(22) + Ts2DiffBlock(std::vector<int64_t>{3}), 1,
                                  out.data())
                  .ok());
  EXPECT_EQ(out[0], 3 / 1e22);
  ASSERT_TRUE(DecodeScaledDoubles(Encoding::kTs2Diff, Header(400) + Ts2DiffBlock(std::vector<int64_t>{3}), 1,
                                  out.data())
                  .ok());
  EXPECT_EQ(out[0], 0.0);  // 3 / Infinity
}

TEST(FloatScaledTest, ScaledBitmap) {
  // Values 0..9; bitmap marks values 0, 2 and 9 as scaled (bits 0, 2 of byte 0, bit 1 of byte 1).
  std::vector<int32_t> ints = {150, 123456789, 250, 4, 5, 6, 7, 8, 9, 1050};
  std::string stream = Header(0x7FFFFFFF);
  PutUVar(&stream, 10);
  stream += std::string({static_cast<char>(0x05), static_cast<char>(0x02)});  // 10/8 + 1 = 2 bytes
  stream += Header(2) + Ts2DiffBlock(ints);
  std::vector<float> out(ints.size());
  auto consumed = DecodeScaledFloats(Encoding::kTs2Diff, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out[0], 1.5f);
  EXPECT_EQ(out[1], 123456789.0f);  // unscaled: the integer itself
  EXPECT_EQ(out[2], 2.5f);
  EXPECT_EQ(out[3], 4.0f);
  EXPECT_EQ(out[9], 10.5f);
}

TEST(FloatScaledTest, RawBitsBitmap) {
  // Value 0 scaled, value 1 unscaled, values 2 and 3 raw IEEE bits (NaN payload, 1e30).
  const int64_t nan_bits = 0x7FF0000000000123;
  const int64_t big_bits = std::bit_cast<int64_t>(1e30);
  std::vector<int64_t> longs = {314, 271828182845904, nan_bits, big_bits};
  std::string stream = Header(0x7FFFFFFE);
  PutUVar(&stream, 4);
  stream.push_back(static_cast<char>(0x01));  // scaled: bit 0
  stream.push_back(static_cast<char>(0x0C));  // raw bits: bits 2 and 3
  stream += Header(2) + RlePackage(longs);
  std::vector<double> out(longs.size());
  auto consumed = DecodeScaledDoubles(Encoding::kRle, stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size());
  EXPECT_EQ(out[0], 3.14);
  EXPECT_EQ(out[1], 271828182845904.0);
  EXPECT_EQ(std::bit_cast<int64_t>(out[2]), nan_bits);
  EXPECT_EQ(out[3], 1e30);
}

TEST(FloatScaledTest, BitmapThatDoesNotCoverCountIsCorrupt) {
  std::string stream = Header(0x7FFFFFFF);
  PutUVar(&stream, 3);  // 1 bitmap byte: covers 8 values
  stream.push_back(static_cast<char>(0xFF));
  stream += Header(2) + Ts2DiffBlock(std::vector<int32_t>(9, 1));
  std::vector<float> out(9);
  ExpectDataLoss(DecodeScaledFloats(Encoding::kTs2Diff, stream, 9, out.data()));
  EXPECT_TRUE(DecodeScaledFloats(Encoding::kTs2Diff, stream, 8, out.data()).ok());
}

TEST(FloatScaledTest, EveryTruncatedPrefixIsDataLoss) {
  std::string stream = Header(0x7FFFFFFE);
  PutUVar(&stream, 300);
  stream += std::string(2 * (300 / 8 + 1), '\x01');
  stream += Header(2) + RlePackage(std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  std::vector<float> out(9);
  ASSERT_TRUE(DecodeScaledFloats(Encoding::kRle, stream, 9, out.data()).ok());
  for (size_t len = 0; len < stream.size(); ++len) {
    ExpectDataLoss(
        DecodeScaledFloats(Encoding::kRle, ExactBytes(stream.substr(0, len)).view(), 9, out.data()));
  }
}

TEST(FloatScaledTest, InnerErrorsReportOffsetsInTheWholeStream) {
  // Header is 1 byte; the TS_2DIFF block header is cut short.
  std::vector<double> out(1);
  auto result = DecodeScaledDoubles(Encoding::kTs2Diff, Header(2) + std::string(5, '\0'), 1, out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("TS_2DIFF INT64 block header at stream offset 1"));
}

TEST(FloatScaledTest, MoreValuesThanTheStreamHolds) {
  std::vector<float> out(10);
  ExpectDataLoss(DecodeScaledFloats(Encoding::kTs2Diff, Header(2) + Ts2DiffBlock(kInts), 10, out.data()));
}

TEST(FloatScaledTest, OtherInnerEncodingsAreRejected) {
  float out;
  EXPECT_EQ(DecodeScaledFloats(Encoding::kGorilla, Header(2), 1, &out).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FloatScaledTest, ZeroCountReadsNothing) {
  auto consumed = DecodeScaledDoubles(Encoding::kRle, "", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

}  // namespace
}  // namespace tsread

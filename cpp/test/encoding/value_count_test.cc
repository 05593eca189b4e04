// Over 450 lines on purpose: tests as data — one table of hand-decoded cases per encoding x type.
// MaxDecodableValues tests. Expected bounds come from hand-decoded header bytes (reasoning in the
// comments) or from the page statistics the Java writer stored in the fixtures, never from the
// walk under test. The property tests check the contract against the decoders themselves:
// decoding `bound + 1` values always fails and, where the walk is exact, decoding `bound` succeeds.
#include "tsread/encoding/value_count.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"
#include "testing/fixtures.h"
#include "tsread/common/tsfile_enums.h"
#include "tsread/encoding/value_decoder.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

using testing::Bytes;
using testing::ExactBytes;
using testing::FromHex;
using testing::PutBigEndian;
using testing::PutSVar;
using testing::PutUVar;

// Values whose buffer the tests are willing to allocate to probe `bound + 1`.
constexpr uint64_t kMaxProbe = uint64_t{1} << 20;

// Decodes `count` values of `type` (by its physical type) from an exact-size copy of `stream`
// with the dispatching decoders of value_decoder.h.
absl::Status Decode(Encoding encoding, DataType type, std::string_view stream, uint64_t count) {
  const ExactBytes bytes(stream);
  const auto n = static_cast<size_t>(count);
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBoolean: {
      std::vector<uint8_t> out(n);
      return DecodeBooleans(encoding, bytes.view(), n, out.data());
    }
    case PhysicalType::kInt32: {
      std::vector<int32_t> out(n);
      return DecodeInt32s(encoding, bytes.view(), n, out.data());
    }
    case PhysicalType::kInt64: {
      std::vector<int64_t> out(n);
      return DecodeInt64s(encoding, bytes.view(), n, out.data());
    }
    case PhysicalType::kFloat: {
      std::vector<float> out(n);
      return DecodeFloats(encoding, bytes.view(), n, out.data());
    }
    case PhysicalType::kDouble: {
      std::vector<double> out(n);
      return DecodeDoubles(encoding, bytes.view(), n, out.data());
    }
    case PhysicalType::kBinary: {
      std::vector<std::string_view> out(n);
      return DecodeBinaries(encoding, bytes.view(), n, out.data());
    }
  }
  return absl::InternalError("unreachable");
}

// Where the walk is exact (value_count.h): decoding `bound` values must succeed.
bool WalkIsExact(Encoding encoding, DataType type) {
  const PhysicalType p = PhysicalTypeOf(type);
  switch (encoding) {
    case Encoding::kRle: return p != PhysicalType::kBinary;
    case Encoding::kTs2Diff: return p != PhysicalType::kBinary && p != PhysicalType::kBoolean;
    case Encoding::kRegular: return p == PhysicalType::kInt32 || p == PhysicalType::kInt64;
    default: return false;
  }
}

// The contract around the bound: `bound + 1` values never decode; `bound` values do when the walk
// is exact. `expected_bound` is checked first.
void ExpectBound(Encoding encoding, DataType type, std::string_view stream, uint64_t expected_bound) {
  const uint64_t bound = MaxDecodableValues(encoding, type, ExactBytes(stream).view());
  EXPECT_EQ(bound, expected_bound) << EncodingName(encoding) << " " << DataTypeName(type);
  if (bound >= kMaxProbe) return;
  const absl::Status beyond = Decode(encoding, type, stream, bound + 1);
  EXPECT_FALSE(beyond.ok()) << EncodingName(encoding) << " " << DataTypeName(type) << ": decoded " << bound + 1;
  if (WalkIsExact(encoding, type)) {
    const absl::Status at = Decode(encoding, type, stream, bound);
    EXPECT_TRUE(at.ok()) << EncodingName(encoding) << " " << DataTypeName(type) << ": " << at;
  }
}

// The RLE types (§9.3) that decode with 32-bit and with 64-bit words.
constexpr DataType kRle32Types[] = {DataType::kBoolean, DataType::kInt32, DataType::kDate};
constexpr DataType kRle64Types[] = {DataType::kInt64, DataType::kTimestamp, DataType::kVector};

void ExpectRleBound(std::string_view stream, uint64_t bound32, uint64_t bound64) {
  for (DataType t : kRle32Types) ExpectBound(Encoding::kRle, t, stream, bound32);
  for (DataType t : kRle64Types) ExpectBound(Encoding::kRle, t, stream, bound64);
}

// ============================================================================================
// RLE (§9.3): package := uvar L ; u8 bitWidth ; runs. Run header h: even = RLE run of h>>1 values
// (value in ceil(bitWidth/8) bytes), odd = h>>1 bit-packed groups, lastCount, groups*bitWidth bytes.

// L=8, width 3; 0x14 = 20: RLE run of 10 (value 0x05); 0x03: 1 group, lastCount 8, 3 bytes -> 18.
const std::string kRunThenPacked = Bytes({0x08, 0x03, 0x14, 0x05, 0x03, 0x08, 0x05, 0x39, 0x77});
// L=4, width 1; 0x03: 1 group, lastCount 3, 1 byte -> 3.
const std::string kThreePacked = Bytes({0x04, 0x01, 0x03, 0x03, 0xA0});

TEST(ValueCountTest, RleRunThenBitPackedGroup) { ExpectRleBound(kRunThenPacked, 18, 18); }

TEST(ValueCountTest, RleLastCountBelowEight) { ExpectRleBound(kThreePacked, 3, 3); }

TEST(ValueCountTest, RleLastCountZeroAfterAFullGroup) {
  // 0x05: 2 groups, lastCount 0 -> (2-1)*8 + 0 = 8 values, in 2 bytes. The decoder accepts it.
  ExpectRleBound(Bytes({0x05, 0x01, 0x05, 0x00, 0xFF, 0xFF}), 8, 8);
}

TEST(ValueCountTest, RleSeveralPackages) {
  // 18 + 3; then "xy": 'x' = 120 as a package length exceeds the 1 byte left, so the walk stops.
  ExpectRleBound(kRunThenPacked + kThreePacked + "xy", 21, 21);
  // An empty package (bit width only) holds no values but does not end the stream: 0 + 1.
  // Second package: L=3, width 5, 0x02: RLE run of 1, value 0x01.
  ExpectRleBound(Bytes({0x01, 0x05, 0x03, 0x05, 0x02, 0x01}), 1, 1);
}

TEST(ValueCountTest, RleBitWidthZero) {
  // Java's reader accepts width 0: values take no bytes. L=5, width 0;
  // 0xD0 0x0F = 0x50 + (0x0F << 7) = 2000: RLE run of 1000 (no value bytes);
  // 0x0B = 11: 5 groups of 0 bytes, lastCount 3 -> 4*8 + 3 = 35.
  ExpectRleBound(Bytes({0x05, 0x00, 0xD0, 0x0F, 0x0B, 0x03}), 1035, 1035);
}

TEST(ValueCountTest, RleLargestRunsFromAFewBytes) {
  // Width 0. FE FF FF FF 07 = 0x7FFFFFFE: RLE run of 0x3FFFFFFF = 1073741823 values (7 bytes).
  const std::string run = Bytes({0x06, 0x00, 0xFE, 0xFF, 0xFF, 0xFF, 0x07});
  // FF FF FF FF 07 = 0x7FFFFFFF: 1073741823 groups, lastCount 8 -> 1073741822*8 + 8 = 8589934584 (8 bytes).
  const std::string packed = Bytes({0x07, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x08});
  EXPECT_EQ(MaxDecodableValues(Encoding::kRle, DataType::kInt32, run), 1073741823u);
  EXPECT_EQ(MaxDecodableValues(Encoding::kRle, DataType::kInt64, packed), 8589934584u);
  EXPECT_EQ(MaxDecodableValues(Encoding::kRle, DataType::kBoolean, run + packed), 9663676407u);
  // Far more than 16384 per byte, and the decoder takes a prefix of them.
  EXPECT_TRUE(Decode(Encoding::kRle, DataType::kInt32, run + packed, 300000).ok());
}

TEST(ValueCountTest, RleMalformedRunEndsTheCount) {
  // L=5, width 1; 0x10 = 16: RLE run of 8 (value 0x01); 0x00: a run of zero values. The next
  // package (1 value) is never reached: 8.
  ExpectRleBound(Bytes({0x05, 0x01, 0x10, 0x01, 0x00, 0x01, 0x03, 0x01, 0x02, 0x01}), 8, 8);
}

TEST(ValueCountTest, RleMalformedHeadersCountNothing) {
  const std::string malformed[] = {
      Bytes({0x00}),                                            // L=0: no room for the bit width
      Bytes({0x05, 0x01, 0x02}),                                // L=5 with 2 bytes left
      Bytes({0x80}),                                            // truncated package length
      Bytes({0x03, 0x01, 0x00, 0x01}),                          // RLE run of 0
      Bytes({0x03, 0x01, 0x01, 0x08}),                          // 0 groups
      Bytes({0x04, 0x01, 0x03, 0x09, 0xFF}),                    // lastCount 9
      Bytes({0x04, 0x01, 0x03, 0x00, 0xFF}),                    // 1 group, lastCount 0: no values
      Bytes({0x04, 0x01, 0x05, 0x08, 0xFF}),                    // 2 groups of 1 byte, 1 byte left
      Bytes({0x02, 0x01, 0x03}),                                // no lastCount byte
      Bytes({0x02, 0x08, 0x02}),                                // width 8: no room for the value
      Bytes({0x07, 0x01, 0x80, 0x80, 0x80, 0x80, 0x08, 0x01}),  // header 2^31: negative in Java
      Bytes({0x07, 0x01, 0x82, 0x80, 0x80, 0x80, 0x80, 0x00}),  // header varint past 32 bits
      Bytes({0x03, 0x41, 0x02, 0x00}),                          // width 65
      Bytes({0x02, 0x01, 0x80}),                                // run header cut by the package end
  };
  for (const std::string& stream : malformed) ExpectRleBound(stream, 0, 0);
  ExpectRleBound("", 0, 0);
}

TEST(ValueCountTest, RleBitWidthIsCheckedPerType) {
  // Width 33 (0x21), RLE run of 1 in 5 value bytes: INT64 only.
  ExpectRleBound(Bytes({0x07, 0x21, 0x02, 1, 2, 3, 4, 5}), 0, 1);
  // Width 64 (0x40), RLE run of 1 in 8 value bytes: INT64 only.
  ExpectRleBound(Bytes({0x0A, 0x40, 0x02, 0, 0, 0, 0, 0, 0, 0, 7}), 0, 1);
  // Width 32: both.
  ExpectRleBound(Bytes({0x06, 0x20, 0x02, 1, 2, 3, 4}), 1, 1);
}

TEST(ValueCountTest, RleTruncatedStreamsCountWholePackagesOnly) {
  // kRunThenPacked is 9 bytes (18 values), kThreePacked 5 (3 values). A package cut short is
  // rejected whole (its length exceeds what is left), so a prefix counts the packages it holds.
  const std::string stream = kRunThenPacked + kThreePacked;
  for (size_t len = 0; len <= stream.size(); ++len) {
    const uint64_t expected = len < 9 ? 0 : len < 14 ? 18 : 21;
    SCOPED_TRACE(len);
    ExpectRleBound(stream.substr(0, len), expected, expected);
  }
}

TEST(ValueCountTest, RleRealPages) {
  // table_enc_RLE.tsfile, f_boolean, 474 values (Java's page statistics). By hand: L=29, width 1;
  // runs 16 (2 groups), 56, 60, 8, 29, 18, 8, 199 (0x8E 0x03 = 398), 63, 8, 9 = 474.
  ExpectBound(Encoding::kRle, DataType::kBoolean,
              FromHex("1d01050803fc700078010308203a00240103087f8e03017e000308f81200"), 474);
  // table_enc_RLE.tsfile, f_date, 65 values: L=7, width 25; 0x82 0x01 = 130: RLE run of 65, value in
  // 4 bytes (6c da 34 01 = 20241004 little-endian).
  ExpectBound(Encoding::kRle, DataType::kDate, FromHex("071982016cda3401"), 65);
}

TEST(ValueCountTest, RleWalkIsLinearInTheRuns) {
  // 200000 width-0 runs of 1073741823 values each, 5 header bytes apiece, in one package.
  std::string payload(1, '\0');
  for (int i = 0; i < 200000; ++i) payload += Bytes({0xFE, 0xFF, 0xFF, 0xFF, 0x07});
  std::string stream;
  PutUVar(&stream, payload.size());
  stream += payload;
  EXPECT_EQ(MaxDecodableValues(Encoding::kRle, DataType::kInt32, stream), uint64_t{200000} * 1073741823u);
}

// ============================================================================================
// TS_2DIFF (§9.4): i32 n ; i32 w ; T minDelta ; T first ; ceil(n*w/8) bytes -> n + 1 values.

std::string Ts2DiffBlock(int32_t n, int32_t w, size_t word_bytes) {
  std::string out;
  PutBigEndian(&out, static_cast<uint32_t>(n), 4);
  PutBigEndian(&out, static_cast<uint32_t>(w), 4);
  PutBigEndian(&out, 1, static_cast<int>(word_bytes));  // minDelta
  PutBigEndian(&out, 7, static_cast<int>(word_bytes));  // first
  const uint64_t packed = n < 0 ? 0 : (static_cast<uint64_t>(n) * static_cast<uint64_t>(w) + 7) / 8;
  out.append(packed, '\x5A');
  return out;
}

TEST(ValueCountTest, Ts2DiffBlocks) {
  // (3+1) + (0+1) + (8+1) = 14; (3+1) + (0+1) + (2+1) = 8. The INT32 header is 16 bytes, INT64 24.
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32,
              Ts2DiffBlock(3, 0, 4) + Ts2DiffBlock(0, 0, 4) + Ts2DiffBlock(8, 4, 4), 14);
  ExpectBound(Encoding::kTs2Diff, DataType::kTimestamp,
              Ts2DiffBlock(3, 0, 8) + Ts2DiffBlock(0, 0, 8) + Ts2DiffBlock(2, 64, 8), 8);
  // Trailing bytes shorter than a header end the stream.
  ExpectBound(Encoding::kTs2Diff, DataType::kDate, Ts2DiffBlock(5, 3, 4) + "abc", 6);
}

TEST(ValueCountTest, Ts2DiffMalformedBlocksEndTheCount) {
  const std::string ok = Ts2DiffBlock(2, 1, 4);  // 3 values
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32, ok + Ts2DiffBlock(-1, 0, 4), 3);  // n < 0
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32, ok + Ts2DiffBlock(1, 33, 4), 3);  // w > 32
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32, ok + Ts2DiffBlock(1, -1, 4), 3);  // w < 0
  // w = 33 is fine for INT64: n = 1 needs 5 packed bytes -> 2 values.
  ExpectBound(Encoding::kTs2Diff, DataType::kInt64, Ts2DiffBlock(1, 33, 8), 2);
  ExpectBound(Encoding::kTs2Diff, DataType::kInt64, Ts2DiffBlock(1, 65, 8), 0);
  // A packed byte missing: n = 8, w = 4 needs 4 bytes.
  const std::string cut = Ts2DiffBlock(8, 4, 4);
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32, ok + cut.substr(0, cut.size() - 1), 3);
  for (size_t len = 0; len < 16; ++len) ExpectBound(Encoding::kTs2Diff, DataType::kInt32, ok.substr(0, len), 0);
}

// The FloatDecoder header m = 2 (one byte, no bitmaps) before `inner`.
std::string Precision2(std::string_view inner) {
  std::string out(1, '\x02');
  out += inner;
  return out;
}

TEST(ValueCountTest, Ts2DiffWidthZeroBlocksExceedEightValuesPerByte) {
  // A constant INT32 column (or constant step) gives w = 0: 129 values per 16-byte block, 8.06 per
  // byte. 300 such blocks: 38700 values in 4800 bytes, above the generic 4800*8 + 256 = 38656.
  std::string stream;
  for (int i = 0; i < 300; ++i) stream += Ts2DiffBlock(128, 0, 4);
  ASSERT_EQ(stream.size(), 4800u);
  EXPECT_EQ(MaxValuesAtOneBitEach(stream.size()), 38656u);
  ExpectBound(Encoding::kTs2Diff, DataType::kInt32, stream, 38700);
  // The scaled FLOAT form has the same INT32 blocks after its 1-byte header (m = 2).
  ExpectBound(Encoding::kTs2Diff, DataType::kFloat, Precision2(stream), 38700);
  // One block can announce 2^31 - 1 deltas: 2^31 values from 16 bytes.
  const std::string huge = Ts2DiffBlock(0x7FFFFFFF, 0, 4);
  EXPECT_EQ(MaxDecodableValues(Encoding::kTs2Diff, DataType::kInt32, huge), uint64_t{1} << 31);
  EXPECT_TRUE(Decode(Encoding::kTs2Diff, DataType::kInt32, huge, 1000).ok());
}

// ============================================================================================
// The FloatDecoder wrapper (§9.5): uvar m [bitmaps ; uvar m] then RLE / TS_2DIFF of INT32 / INT64.

// Width 0, one RLE run of 1000 (see RleBitWidthZero).
const std::string kThousandZeros = Bytes({0x03, 0x00, 0xD0, 0x0F});

TEST(ValueCountTest, ScaledWithoutBitmaps) {
  ExpectBound(Encoding::kRle, DataType::kFloat, Precision2(kThousandZeros), 1000);
  ExpectBound(Encoding::kRle, DataType::kDouble, Precision2(kThousandZeros), 1000);
  ExpectBound(Encoding::kTs2Diff, DataType::kFloat, Precision2(Ts2DiffBlock(3, 0, 4)), 4);
  ExpectBound(Encoding::kTs2Diff, DataType::kDouble, Precision2(Ts2DiffBlock(3, 0, 8)), 4);
  // The inner stream is INT32 for FLOAT: width 33 is out of range there, not for DOUBLE.
  ExpectBound(Encoding::kRle, DataType::kFloat, Precision2(Bytes({0x07, 0x21, 0x02, 1, 2, 3, 4, 5})), 0);
  ExpectBound(Encoding::kRle, DataType::kDouble, Precision2(Bytes({0x07, 0x21, 0x02, 1, 2, 3, 4, 5})), 1);
}

TEST(ValueCountTest, ScaledBitmapsCapTheCount) {
  // m = 0x7FFFFFFF (FF FF FF FF 07), cnt 5 -> 5/8 + 1 = 1 bitmap byte, m = 2: covers 8 values.
  const std::string one_bitmap = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x05, 0x1F, 0x02});
  ExpectBound(Encoding::kRle, DataType::kFloat, one_bitmap + kThousandZeros, 8);
  ExpectBound(Encoding::kRle, DataType::kDouble, one_bitmap + kThousandZeros, 8);
  // m = 0x7FFFFFFE (FE FF FF FF 07), cnt 9 -> 2 bytes per bitmap, two bitmaps: covers 16.
  const std::string two_bitmaps = Bytes({0xFE, 0xFF, 0xFF, 0xFF, 0x07, 0x09, 0xFF, 0x01, 0x00, 0x00, 0x02});
  ExpectBound(Encoding::kRle, DataType::kDouble, two_bitmaps + kThousandZeros, 16);
  // The cap applies to the smaller of the two: 4 inner values under an 8-value bitmap.
  ExpectBound(Encoding::kTs2Diff, DataType::kFloat, one_bitmap + Ts2DiffBlock(3, 0, 4), 4);
}

TEST(ValueCountTest, ScaledMalformedHeaderCountsNothing) {
  // Headers that end too early.
  const std::string cut[] = {
      "",
      Bytes({0x80}),                                      // truncated m
      Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07}),              // m = 0x7FFFFFFF, no cnt
      Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x05, 0x1F}),  // cnt 5, 1 bitmap byte, no second m
  };
  for (const std::string& header : cut) ExpectBound(Encoding::kRle, DataType::kFloat, header, 0);
  // Headers that are malformed whatever follows them.
  const std::string bad[] = {
      Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x7F}),                                // m past 32 bits
      Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x64, 0x00}),                    // cnt 100: 13 bitmap bytes
      Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x80, 0x80, 0x80, 0x80, 0x08}),  // cnt 2^31: negative
  };
  for (const std::string& header : bad) {
    ExpectBound(Encoding::kRle, DataType::kFloat, header + kThousandZeros, 0);
    ExpectBound(Encoding::kTs2Diff, DataType::kDouble, header + Ts2DiffBlock(3, 0, 8), 0);
  }
}

// ============================================================================================
// DICTIONARY (§9.7): svar entryCount ; entries { svar len ; bytes } ; RLE INT32 indices.

// L=7, width 2; 0x06: RLE run of 3 x index 1; 0x03: 1 group, lastCount 4, 2 bytes holding indices
// 0, 2, 1, 0 (00 10 01 00). 7 values.
const std::string kIndices = Bytes({0x07, 0x02, 0x06, 0x01, 0x03, 0x04, 0x24, 0x00});

void ExpectDictionaryBound(std::string_view stream, uint64_t expected) {
  for (DataType t : {DataType::kText, DataType::kString, DataType::kBlob}) {
    ExpectBound(Encoding::kDictionary, t, stream, expected);
  }
}

TEST(ValueCountTest, DictionaryCountsIndexRuns) {
  ExpectDictionaryBound(testing::DictionaryEntries({"red", "", "blue"}) + kIndices, 7);
  ExpectDictionaryBound(testing::DictionaryEntries({"red", "", "blue"}) + kIndices + "junk", 7);
  ExpectDictionaryBound(testing::DictionaryEntries({"red", "", "blue"}) + kIndices + kIndices, 14);
}

TEST(ValueCountTest, DictionaryRleRunIndexOutsideTheDictionaryEndsTheCount) {
  // The first run's index 1 is outside a one-entry dictionary: no value decodes.
  ExpectDictionaryBound(testing::DictionaryEntries({"a"}) + kIndices, 0);
  // Width 32, RLE run of one index 0xFFFFFFFF (-1, little-endian).
  ExpectDictionaryBound(testing::DictionaryEntries({"a"}) + Bytes({0x06, 0x20, 0x02, 0xFF, 0xFF, 0xFF, 0xFF}), 0);
  // An empty dictionary can back no index.
  ExpectDictionaryBound(testing::DictionaryEntries({}) + kIndices, 0);
}

TEST(ValueCountTest, DictionaryBitPackedIndicesAreNotInspected) {
  // With two entries the packed index 2 (the 5th value) is out of range: the decoder manages 4
  // values, the bound says 7 (an upper bound, not exact, for DICTIONARY).
  const std::string stream = testing::DictionaryEntries({"a", "b"}) + kIndices;
  ExpectDictionaryBound(stream, 7);
  EXPECT_TRUE(Decode(Encoding::kDictionary, DataType::kText, stream, 4).ok());
  EXPECT_FALSE(Decode(Encoding::kDictionary, DataType::kText, stream, 5).ok());
}

TEST(ValueCountTest, DictionaryMalformedCountsNothing) {
  std::string huge;
  PutSVar(&huge, 0x3FFFFFFF);
  const std::string malformed[] = {
      "",
      Bytes({0x01}) + kIndices,        // entry count -1
      huge + "xy" + kIndices,          // more entries than bytes
      Bytes({0x02, 0x03, 'a'}),        // entry length -2
      Bytes({0x02, 0x08, 'a'}),        // entry of 4 bytes, 1 left
      Bytes({0x02, 0x80}),             // truncated entry length
      testing::DictionaryEntries({"a", "b"}),          // no index stream
  };
  for (const std::string& stream : malformed) ExpectDictionaryBound(stream, 0);
}

TEST(ValueCountTest, DictionaryRealPage) {
  // table_enc_DICTIONARY.tsfile, f_text: its smallest page, 122 values (Java's page statistics).
  ExpectDictionaryBound(
      FromHex("12085741524e166d61696e74656e616e6365044f4b2ae6b8a9e5baa6e4bca0e6849fe599a8e6ada3e5b8b81ec3bc6ec3"
              "af63c3b664c3a920e29c930869646c650e72756e6e696e67107361792022686922002704030801111111280114020308"
              "3000044414041802070855555544666666744444488812082a00"),
      122);
}

TEST(ValueCountTest, DictionaryOnlyAppliesToBinaryTypes) {
  // DecodeInt32s has no DICTIONARY: the generic bound, so the decoder reports Unimplemented itself.
  const std::string stream = testing::DictionaryEntries({"a"}) + kIndices;
  EXPECT_EQ(MaxDecodableValues(Encoding::kDictionary, DataType::kInt32, stream), stream.size() * 8 + 256);
}

// ============================================================================================
// REGULAR (§9.9): u8 hasMissing ; [i32 L ; bitmap] ; i32 n ; T minDelta ; T first.

// Blocks of step 10 from 100; only their counts matter here.
template <typename T>
std::string RegularBlock(int32_t n, const std::string& bitmap = "") {
  return testing::RegularBlock<T>(n, 10, 100, bitmap);
}

TEST(ValueCountTest, RegularWithoutMissingPoints) {
  ExpectBound(Encoding::kRegular, DataType::kInt32,
              RegularBlock<int32_t>(4) + RegularBlock<int32_t>(1) + RegularBlock<int32_t>(3), 8);
  ExpectBound(Encoding::kRegular, DataType::kTimestamp, RegularBlock<int64_t>(4) + RegularBlock<int64_t>(3), 7);
  // hasMissing other than 1 means false (ReadWriteIOUtils.readBool).
  std::string two = RegularBlock<int32_t>(5);
  two[0] = 2;
  ExpectBound(Encoding::kRegular, DataType::kDate, two, 5);
}

TEST(ValueCountTest, RegularWithMissingPoints) {
  // n = 12; bitmap 0x13 0x09: bits 0, 1, 4 and 8, 11. Point 0 always, then 1, 4, 8, 11: 5.
  ExpectBound(Encoding::kRegular, DataType::kInt64, RegularBlock<int64_t>(12, Bytes({0x13, 0x09})), 5);
  // Bit 0 clear: point 0 is returned anyway. n = 2, bitmap 0x02: 0 and 1.
  ExpectBound(Encoding::kRegular, DataType::kInt32, RegularBlock<int32_t>(2, Bytes({0x02})), 2);
  // Bits past n-1 do not count. n = 3, bitmap 0xFF: 0, 1, 2.
  ExpectBound(Encoding::kRegular, DataType::kInt32, RegularBlock<int32_t>(3, Bytes({0xFF})), 3);
  // A longer bitmap than n needs: n = 9, bitmap 0x01 0x01 0xFF 0xFF: 0 and 8.
  ExpectBound(Encoding::kRegular, DataType::kInt32, RegularBlock<int32_t>(9, Bytes({0x01, 0x01, 0xFF, 0xFF})), 2);
}

TEST(ValueCountTest, RegularMalformedBlocksEndTheCount) {
  const std::string ok = RegularBlock<int32_t>(4);  // 4 values, 13 bytes
  // Point n-1 = 2 not marked (bitmap 0x03).
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + RegularBlock<int32_t>(3, Bytes({0x03})), 4);
  // Bitmap too short to hold bit n-1 = 8.
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + RegularBlock<int32_t>(9, Bytes({0xFF})), 4);
  // n < 2 with missing points, n < 1 without.
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + RegularBlock<int32_t>(1, Bytes({0x01})), 4);
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + RegularBlock<int32_t>(0), 4);
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + RegularBlock<int32_t>(-3), 4);
  // Negative bitmap length; bitmap longer than the stream.
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + Bytes({0x01, 0xFF, 0xFF, 0xFF, 0xFF}), 4);
  ExpectBound(Encoding::kRegular, DataType::kInt32, ok + Bytes({0x01, 0x00, 0x00, 0x00, 0x09, 0x01}), 4);
  // Every truncation of the second block leaves the first.
  const std::string second = RegularBlock<int32_t>(3);
  for (size_t len = 0; len < second.size(); ++len) {
    ExpectBound(Encoding::kRegular, DataType::kInt32, ok + second.substr(0, len), 4);
  }
}

TEST(ValueCountTest, RegularHugeGrid) {
  // One 13-byte block can announce 2^31 - 1 grid points (far beyond 65536 per byte).
  const std::string stream = RegularBlock<int32_t>(0x7FFFFFFF);
  EXPECT_EQ(MaxDecodableValues(Encoding::kRegular, DataType::kInt32, stream), 2147483647u);
  EXPECT_TRUE(Decode(Encoding::kRegular, DataType::kInt32, stream, 1000000).ok());
}

// ============================================================================================
// Everything else: MaxValuesAtOneBitEach.

TEST(ValueCountTest, OtherEncodingsGetTheGenericBound) {
  const std::string ten(10, '\x55');
  for (Encoding e : {Encoding::kPlain, Encoding::kGorilla, Encoding::kGorillaV1, Encoding::kZigzag,
                     Encoding::kChimp, Encoding::kSprintz, Encoding::kRlbe, Encoding::kDiff, Encoding::kBitmap,
                     Encoding::kFreq}) {
    for (DataType t : {DataType::kInt32, DataType::kDouble, DataType::kText}) {
      EXPECT_EQ(MaxDecodableValues(e, t, ten), 336u) << EncodingName(e);
    }
  }
  EXPECT_EQ(MaxDecodableValues(Encoding::kPlain, DataType::kBoolean, ""), 256u);
  // Encodings that do not apply to the type: left to the decoder's Unimplemented.
  EXPECT_EQ(MaxDecodableValues(Encoding::kRle, DataType::kText, ten), 336u);
  EXPECT_EQ(MaxDecodableValues(Encoding::kTs2Diff, DataType::kBoolean, ten), 336u);
  EXPECT_EQ(MaxDecodableValues(Encoding::kRegular, DataType::kFloat, ten), 336u);
}

// ============================================================================================
// Property tests on the Java-written fixtures: every page of every UNCOMPRESSED multi-page aligned
// chunk. The .sketch.txt (the Java sketch tool's byte map) gives where the chunk headers are; the
// chunk and page headers are then read from the .tsfile itself (§3.1, §3.2, §4), because the
// sketch's page offsets are off by the uvar sizes it assumes for some page headers.

struct FixturePage {
  std::string where;
  Encoding encoding;
  DataType type;
  std::string stream;
  uint64_t count;  // values in the stream: the page statistics' count Java wrote
};

bool ParseInt(std::string_view text, int64_t* v) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *v);
  return error == std::errc() && end == text.data() + text.size();
}

// The lines of `text`.
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    lines.push_back(text.substr(0, eol));
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return lines;
}

// "ENCODING TYPE", for traces.
std::string Describe(Encoding encoding, DataType type) {
  return std::string(EncodingName(encoding)) + " " + std::string(DataTypeName(type));
}

// Skips the type-specific part of a page's statistics (§4).
absl::Status SkipTypedStatistics(DataType type, ByteStream& in) {
  auto skip_binaries = [&in](int n) -> absl::Status {
    for (int i = 0; i < n; ++i) {
      TSREAD_ASSIGN_OR_RETURN(const int32_t length, in.ReadI32("statistics binary length"));
      TSREAD_RETURN_IF_ERROR(in.ReadBytes(static_cast<size_t>(length), "statistics binary").status());
    }
    return absl::OkStatus();
  };
  switch (type) {
    case DataType::kBoolean: return in.ReadBytes(10, "statistics").status();
    case DataType::kInt32:
    case DataType::kDate:
    case DataType::kFloat: return in.ReadBytes(24, "statistics").status();
    case DataType::kInt64:
    case DataType::kTimestamp:
    case DataType::kDouble: return in.ReadBytes(40, "statistics").status();
    case DataType::kText: return skip_binaries(2);
    case DataType::kString: return skip_binaries(4);
    default: return absl::OkStatus();  // BLOB, VECTOR
  }
}

// Appends the pages of the chunk whose header is at `offset` in `file`, if it is an UNCOMPRESSED
// multi-page aligned chunk (time 0x81 or value 0x41): a time page's body is the time stream; a
// value page's body is i32 rowCount, a ceil(rowCount/8)-byte bitmap, then the stream (§8.2, §8.3).
absl::Status AppendChunkPages(const std::string& stem, std::string_view file, size_t offset,
                              std::vector<FixturePage>* pages) {
  ByteStream in(file.substr(offset), offset);
  TSREAD_ASSIGN_OR_RETURN(const uint8_t marker, in.ReadU8("chunk marker"));
  TSREAD_ASSIGN_OR_RETURN(const int32_t id_length, in.ReadSVarInt("measurement id length"));
  TSREAD_RETURN_IF_ERROR(in.ReadBytes(static_cast<size_t>(std::max(id_length, 0)), "measurement id").status());
  TSREAD_ASSIGN_OR_RETURN(const uint32_t data_size, in.ReadUVarInt("chunk data size"));
  TSREAD_ASSIGN_OR_RETURN(const uint8_t type_byte, in.ReadU8("data type"));
  TSREAD_ASSIGN_OR_RETURN(const uint8_t compression, in.ReadU8("compression"));
  TSREAD_ASSIGN_OR_RETURN(const uint8_t encoding_byte, in.ReadU8("encoding"));
  const bool time_chunk = marker == 0x81;
  if ((marker != 0x81 && marker != 0x41) || compression != 0) return absl::OkStatus();
  const std::optional<DataType> type = DataTypeFromByte(type_byte);
  const std::optional<Encoding> encoding = EncodingFromByte(encoding_byte);
  if (!type || !encoding) return absl::DataLossError("unknown data type or encoding");
  TSREAD_ASSIGN_OR_RETURN(const std::string_view data, in.ReadBytes(data_size, "chunk data"));
  ByteStream pages_in(data, offset + in.position() - data.size());
  while (pages_in.remaining() > 0) {
    const size_t page_offset = offset + in.position() - data.size() + pages_in.position();
    TSREAD_ASSIGN_OR_RETURN(const uint32_t uncompressed, pages_in.ReadUVarInt("uncompressed size"));
    if (uncompressed == 0) continue;  // an empty value page: all rows null
    TSREAD_ASSIGN_OR_RETURN(const uint32_t compressed, pages_in.ReadUVarInt("compressed size"));
    TSREAD_ASSIGN_OR_RETURN(const uint32_t count, pages_in.ReadUVarInt("statistics count"));
    TSREAD_RETURN_IF_ERROR(pages_in.ReadBytes(16, "statistics times").status());
    TSREAD_RETURN_IF_ERROR(SkipTypedStatistics(*type, pages_in));
    TSREAD_ASSIGN_OR_RETURN(std::string_view body, pages_in.ReadBytes(compressed, "page body"));
    if (!time_chunk) {
      ByteStream value_page(body, 0);
      TSREAD_ASSIGN_OR_RETURN(const int32_t rows, value_page.ReadI32("row count"));
      TSREAD_ASSIGN_OR_RETURN(const std::string_view bitmap,
                              value_page.ReadBytes((static_cast<size_t>(rows) + 7) / 8, "bitmap"));
      uint32_t non_null = 0;
      for (char c : bitmap) non_null += static_cast<uint32_t>(std::popcount(static_cast<unsigned char>(c)));
      if (non_null != count) {
        return absl::DataLossError(absl::StrCat("page at ", page_offset, ": bitmap has ", non_null,
                                                " values, statistics ", count));
      }
      body = value_page.rest();
    }
    pages->push_back({absl::StrCat(stem, " page at ", page_offset), *encoding, *type, std::string(body), count});
  }
  return absl::OkStatus();
}

std::vector<FixturePage> UncompressedFixturePages() {
  std::vector<FixturePage> pages;
  for (const std::string& stem : testing::FixtureStems()) {
    const std::string sketch = testing::ReadWholeFile(testing::FixturePath(stem + ".sketch.txt"));
    if (sketch.empty() || sketch.find("compressionType=UNCOMPRESSED") == std::string::npos) continue;
    const std::string file = testing::ReadWholeFile(testing::FixturePath(stem + ".tsfile"));
    for (std::string_view line : Lines(sketch)) {
      if (line.find("[Chunk Header]") == std::string_view::npos) continue;
      int64_t offset = -1;
      EXPECT_TRUE(ParseInt(line.substr(0, line.find('|')), &offset)) << stem << ": " << line;
      if (offset < 0 || static_cast<size_t>(offset) >= file.size()) continue;
      const absl::Status status = AppendChunkPages(stem, file, static_cast<size_t>(offset), &pages);
      EXPECT_TRUE(status.ok()) << stem << " chunk at " << offset << ": " << status;
    }
  }
  return pages;
}

// Parsed once: the fixtures do not change while the tests run.
const std::vector<FixturePage>& FixturePages() {
  static const auto* pages = new std::vector<FixturePage>(UncompressedFixturePages());
  return *pages;
}

TEST(ValueCountTest, FixturePagesCoverEveryEncodingJavaWrites) {
  const std::vector<FixturePage>& pages = FixturePages();
  ASSERT_GE(pages.size(), 1000u) << "fixtures in " << testing::FixturesDir();
  for (Encoding e : {Encoding::kPlain, Encoding::kDictionary, Encoding::kRle, Encoding::kTs2Diff,
                     Encoding::kGorillaV1, Encoding::kGorilla, Encoding::kZigzag, Encoding::kChimp,
                     Encoding::kSprintz, Encoding::kRlbe}) {
    EXPECT_TRUE(std::any_of(pages.begin(), pages.end(), [e](const FixturePage& p) { return p.encoding == e; }))
        << EncodingName(e);
  }
}

// Every real page: its statistics' count decodes and is within the bound; `bound + 1` values never
// decode. Where the walk counts runs or blocks the bound is the page's count exactly: Java writes
// no padding values and DICTIONARY indices are all in range.
TEST(ValueCountTest, FixturePagesBoundTheirCount) {
  for (const FixturePage& page : FixturePages()) {
    SCOPED_TRACE(page.where + " " + Describe(page.encoding, page.type));
    const uint64_t bound = MaxDecodableValues(page.encoding, page.type, page.stream);
    EXPECT_GE(bound, page.count);
    const absl::Status at_count = Decode(page.encoding, page.type, page.stream, page.count);
    EXPECT_TRUE(at_count.ok()) << at_count;
    if (WalkIsExact(page.encoding, page.type) || page.encoding == Encoding::kDictionary) {
      EXPECT_EQ(bound, page.count);
    }
    ASSERT_LT(bound, kMaxProbe);
    EXPECT_FALSE(Decode(page.encoding, page.type, page.stream, bound + 1).ok()) << "bound " << bound;
  }
}

// Corrupted copies (bytes flipped, then maybe cut) of the real pages and of hand-built REGULAR
// streams: the bound still holds for whatever the decoders make of them, and exact walks stay exact.
TEST(ValueCountTest, MutatedStreamsStayWithinTheBound) {
  std::vector<FixturePage> seeds = FixturePages();
  for (DataType t : {DataType::kInt32, DataType::kInt64}) {
    const bool wide = t == DataType::kInt64;
    const std::string regular = wide ? RegularBlock<int64_t>(12, Bytes({0x13, 0x09})) + RegularBlock<int64_t>(5)
                                     : RegularBlock<int32_t>(12, Bytes({0x13, 0x09})) + RegularBlock<int32_t>(5);
    seeds.push_back({"hand-built REGULAR", Encoding::kRegular, t, regular, 10});
  }
  std::mt19937_64 rng(2024);
  int probed = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    const FixturePage& seed = seeds[iter < 20 ? seeds.size() - 1 - iter % 2 : rng() % seeds.size()];
    std::string bytes = seed.stream;
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0 && !bytes.empty(); --flips) {
      bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    if (rng() % 2 == 0) bytes.resize(rng() % (bytes.size() + 1));
    const uint64_t bound = MaxDecodableValues(seed.encoding, seed.type, ExactBytes(bytes).view());
    if (bound >= kMaxProbe) continue;  // a flipped header announcing millions of values
    ++probed;
    SCOPED_TRACE(absl::StrCat(seed.where, " ", Describe(seed.encoding, seed.type), " iteration ", iter, " bound ",
                              bound));
    const absl::Status beyond = Decode(seed.encoding, seed.type, bytes, bound + 1);
    ASSERT_EQ(beyond.code(), absl::StatusCode::kDataLoss) << beyond;
    if (WalkIsExact(seed.encoding, seed.type)) {
      const absl::Status at = Decode(seed.encoding, seed.type, bytes, bound);
      ASSERT_TRUE(at.ok()) << at;
    }
  }
  EXPECT_GT(probed, 5000);
}

// Random bytes under every encoding and type: `bound + 1` values never decode (DataLoss, or
// Unimplemented where the encoding does not apply), and exact walks stay exact.
TEST(ValueCountTest, RandomStreamsEveryEncodingAndType) {
  std::mt19937_64 rng(7);
  for (int e = 0; e <= 13; ++e) {
    const Encoding encoding = *EncodingFromByte(static_cast<uint8_t>(e));
    for (DataType type : {DataType::kBoolean, DataType::kInt32, DataType::kInt64, DataType::kFloat,
                          DataType::kDouble, DataType::kText, DataType::kVector, DataType::kTimestamp,
                          DataType::kDate, DataType::kBlob, DataType::kString}) {
      for (int iter = 0; iter < 300; ++iter) {
        std::string bytes(rng() % 48, '\0');
        for (char& c : bytes) {
          // Small bytes half of the time, so that lengths and counts often fit.
          c = static_cast<char>(rng() % 2 == 0 ? rng() % 16 : rng());
        }
        const uint64_t bound = MaxDecodableValues(encoding, type, ExactBytes(bytes).view());
        if (bound >= kMaxProbe) continue;
        SCOPED_TRACE(absl::StrCat(Describe(encoding, type), " iteration ", iter));
        ASSERT_FALSE(Decode(encoding, type, bytes, bound + 1).ok()) << "bound " << bound;
        if (WalkIsExact(encoding, type)) {
          const absl::Status at = Decode(encoding, type, bytes, bound);
          ASSERT_TRUE(at.ok()) << "bound " << bound << ": " << at;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tsread

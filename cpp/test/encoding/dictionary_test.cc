// DICTIONARY (§9.7) decoder tests on hand-built streams.
#include "tsread/encoding/dictionary.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/encoding_test_support.h"

namespace tsread {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Bytes;
using testing::PutSVar;
using testing::ExpectDataLoss;
using testing::ExpectEveryProperPrefixIsDataLoss;
using testing::ExpectRealPage;

// RLE indices (§9.3, bit width 2): a run of 3 x index 1, then one bit-packed group (2 bytes)
// holding 0, 2, 1, 0: 00 10 01 00 + padding.
const std::string kIndices = Bytes({0x07, 0x02, 0x06, 0x01, 0x03, 0x04, 0x24, 0x00});

TEST(DictionaryTest, DecodesViewsIntoTheStream) {
  const std::string stream = testing::DictionaryEntries({"red", "", "blue"}) + kIndices + "junk";
  std::vector<std::string_view> out(7);
  auto consumed = DecodeDictionaryBinaries(stream, out.size(), out.data());
  ASSERT_TRUE(consumed.ok()) << consumed.status();
  EXPECT_EQ(*consumed, stream.size() - 4);
  EXPECT_THAT(out, ElementsAre("", "", "", "red", "blue", "", "red"));
  EXPECT_EQ(out[3].data(), stream.data() + 2);  // a view of the dictionary entry
}

TEST(DictionaryTest, IndexOutsideTheDictionary) {
  const std::string stream = testing::DictionaryEntries({"a", "b"}) + kIndices;
  std::vector<std::string_view> out(7);
  auto result = DecodeDictionaryBinaries(stream, out.size(), out.data());
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("index 2 of value 4"));
  // With only 3 values the bad index is never reached.
  EXPECT_TRUE(DecodeDictionaryBinaries(stream, 3, out.data()).ok());
}

TEST(DictionaryTest, NegativeIndexIsOutOfRange) {
  // bit width 32, RLE run of one value 0xFFFFFFFF (-1), little-endian.
  const std::string stream = testing::DictionaryEntries({"a"}) + Bytes({0x06, 0x20, 0x02, 0xFF, 0xFF, 0xFF, 0xFF});
  std::string_view out;
  ExpectDataLoss(DecodeDictionaryBinaries(stream, 1, &out));
}

TEST(DictionaryTest, MalformedDictionary) {
  std::string_view out[2];
  // Negative entry count (svar -1).
  ExpectDataLoss(DecodeDictionaryBinaries(Bytes({0x01}) + kIndices, 1, out));
  // Entry count beyond what the bytes could hold: rejected before reserving anything.
  std::string huge;
  PutSVar(&huge, 0x3FFFFFFF);
  auto result = DecodeDictionaryBinaries(huge + "xy", 1, out);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("entry count"));
  // Negative entry length; entry longer than the stream.
  ExpectDataLoss(DecodeDictionaryBinaries(Bytes({0x02, 0x03, 'a'}), 1, out));
  ExpectDataLoss(DecodeDictionaryBinaries(Bytes({0x02, 0x08, 'a'}), 1, out));
}

TEST(DictionaryTest, EveryTruncatedPrefixIsDataLoss) {
  const std::string stream = testing::DictionaryEntries({"red", "", "blue"}) + kIndices;
  std::vector<std::string_view> out(7);
  ExpectEveryProperPrefixIsDataLoss(
      stream, [&](std::string_view prefix) { return DecodeDictionaryBinaries(prefix, out.size(), out.data()); });
}

TEST(DictionaryTest, IndexErrorsReportOffsetsInTheWholeStream) {
  // The index stream starts at offset 5 and its bit width (40) is too large.
  const std::string stream = testing::DictionaryEntries({"abc"}) + Bytes({0x03, 0x28, 0x02, 0x00});
  std::string_view out;
  auto result = DecodeDictionaryBinaries(stream, 1, &out);
  ExpectDataLoss(result);
  EXPECT_THAT(result.status().message(), HasSubstr("bit width at stream offset 6"));
}

TEST(DictionaryTest, ZeroCountReadsNothing) {
  auto consumed = DecodeDictionaryBinaries("", 0, nullptr);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, 0u);
}

// --- Real pages ----------------------------------------------------------------------------------
// Value streams cut from the Java-written fixtures (../shared/fixtures) with the Python reference
// reader (tools/pyref). Expected: the page statistics Java wrote (first, last, min, max; the number
// of trues for BOOLEAN) and an FNV-1a hash of the values pyref decodes from the same bytes.

// table_enc_DICTIONARY.tsfile, column f_text (TEXT, DICTIONARY): its smallest page, 122 values in 122 bytes.
TEST(DictionaryTest, RealPageText) {
  ExpectRealPage<std::string_view>(
      DecodeDictionaryBinaries,
      {.hex = "12085741524e166d61696e74656e616e6365044f4b2ae6b8a9e5baa6e4bca0e6849fe599a8e6ada3e5b8b81ec3bc6ec3"
              "af63c3b664c3a920e29c930869646c650e72756e6e696e67107361792022686922002704030801111111280114020308"
              "3000044414041802070855555544666666744444488812082a00",
       .count = 122,
       .first = "WARN",
       .last = "WARN",
       .fnv1a = 0xf2fe3f87a34299adu});
}

// table_enc_DICTIONARY.tsfile, column f_string (STRING, DICTIONARY): its smallest page, 483 values in 112
// bytes.
TEST(DictionaryTest, RealPageString) {
  ExpectRealPage<std::string_view>(
      DecodeDictionaryBinaries,
      {.hex = "1412e6a8a1e5bc8f2dc39f0c6d6f64655f340c6d6f64655f370c6d6f64655f360c6d6f64655f330e6d6f64655f31300c"
              "6d6f64655f300c6d6f64655f350c6d6f64655f380c6d6f64655f3124047000520158027a031004220514019601030308"
              "66666667180740082402220972023605",
       .count = 483,
       .first = "\xe6\xa8\xa1\xe5\xbc\x8f-\xc3\x9f",
       .last = "mode_10",
       .fnv1a = 0x1df0ea3955923438u});
}

}  // namespace
}  // namespace tsread

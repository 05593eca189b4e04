#include "tsread/io/byte_stream.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsread {
namespace {

using ::testing::HasSubstr;

std::string Bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

TEST(ByteStreamTest, ReadsBigEndianFixedWidthNumbers) {
  const std::string data = Bytes({0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,
                                  0x3F, 0x80, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  ByteStream in(data, 100);
  EXPECT_EQ(*in.ReadI32("a"), -2);
  EXPECT_EQ(*in.ReadI64("b"), 0x0000000100000002LL);
  EXPECT_EQ(*in.ReadF32("c"), 1.0f);
  EXPECT_EQ(*in.ReadF64("d"), 2.0);
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(in.offset(), 124u);
}

TEST(ByteStreamTest, ReadsU8AndJavaBooleans) {
  const std::string data = Bytes({0x01, 0x00, 0x02, 0xAB});
  ByteStream in(data, 0);
  EXPECT_TRUE(*in.ReadBool("a"));
  EXPECT_FALSE(*in.ReadBool("b"));
  EXPECT_FALSE(*in.ReadBool("c"));  // Java readBool: only 1 is true
  EXPECT_EQ(*in.ReadU8("d"), 0xAB);
}

TEST(ByteStreamTest, ReadsUnsignedVarInts) {
  const std::string data = Bytes({0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F});
  ByteStream in(data, 0);
  EXPECT_EQ(*in.ReadUVarInt("a"), 0u);
  EXPECT_EQ(*in.ReadUVarInt("b"), 127u);
  EXPECT_EQ(*in.ReadUVarInt("c"), 128u);
  EXPECT_EQ(*in.ReadUVarInt("d"), 300u);
  EXPECT_EQ(*in.ReadUVarInt("e"), 0xFFFFFFFFu);
  EXPECT_TRUE(in.empty());
}

TEST(ByteStreamTest, RejectsVarIntsLongerThanFiveBytes) {
  const std::string data = Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  ByteStream in(data, 40);
  absl::StatusOr<uint32_t> v = in.ReadUVarInt("count");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(v.status().message(), HasSubstr("offset 40"));
}

TEST(ByteStreamTest, RejectsVarIntsOverflowingThirtyTwoBits) {
  const std::string data = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x1F});
  ByteStream in(data, 0);
  EXPECT_EQ(in.ReadUVarInt("x").status().code(), absl::StatusCode::kDataLoss);
}

TEST(ByteStreamTest, TruncatedVarIntIsDataLossAtItsOffset) {
  const std::string data = Bytes({0x05, 0x80, 0x80});
  ByteStream in(data, 1000);
  ASSERT_TRUE(in.ReadU8("skip").ok());
  absl::StatusOr<uint32_t> v = in.ReadUVarInt("segment count");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(v.status().message(), HasSubstr("segment count"));
  EXPECT_THAT(v.status().message(), HasSubstr("offset 1001"));
}

TEST(ByteStreamTest, UVarSizeRejectsNegativeJavaInts) {
  const std::string data = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x0F});
  ByteStream in(data, 0);
  EXPECT_EQ(in.ReadUVarSize("size").status().code(), absl::StatusCode::kDataLoss);
}

TEST(ByteStreamTest, ReadsZigZagVarInts) {
  // 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, INT_MIN -> 0xFFFFFFFF, INT_MAX -> 0xFFFFFFFE
  const std::string data =
      Bytes({0x00, 0x01, 0x02, 0x03, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F});
  ByteStream in(data, 0);
  EXPECT_EQ(*in.ReadSVarInt("a"), 0);
  EXPECT_EQ(*in.ReadSVarInt("b"), -1);
  EXPECT_EQ(*in.ReadSVarInt("c"), 1);
  EXPECT_EQ(*in.ReadSVarInt("d"), -2);
  EXPECT_EQ(*in.ReadSVarInt("e"), INT32_MIN);
  EXPECT_EQ(*in.ReadSVarInt("f"), INT32_MAX);
}

TEST(ByteStreamTest, TruncatedFixedWidthReadsFailWithoutConsuming) {
  for (size_t len = 0; len < 8; ++len) {
    const std::string data(len, '\x01');
    ByteStream in(data, 7);
    EXPECT_EQ(in.ReadI64("i64").status().code(), absl::StatusCode::kDataLoss) << len;
    EXPECT_EQ(in.remaining(), len);
    if (len < 4) {
      EXPECT_EQ(in.ReadI32("i32").status().code(), absl::StatusCode::kDataLoss) << len;
      EXPECT_EQ(in.ReadF32("f32").status().code(), absl::StatusCode::kDataLoss) << len;
    }
    EXPECT_EQ(in.ReadF64("f64").status().code(), absl::StatusCode::kDataLoss) << len;
  }
  ByteStream empty(std::string_view(), 3);
  EXPECT_EQ(empty.ReadU8("u8").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(empty.ReadBool("bool").status().code(), absl::StatusCode::kDataLoss);
}

TEST(ByteStreamTest, NullableVarStringDistinguishesNullEmptyAndValue) {
  const std::string data = Bytes({0x01, 0x00, 0x06, 'a', 'b', 'c'});
  ByteStream in(data, 0);
  NullableView null_value = *in.ReadNullableVarString("s");
  EXPECT_FALSE(null_value.has_value());
  NullableView empty = *in.ReadNullableVarString("s");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(*empty, "");
  NullableView abc = *in.ReadNullableVarString("s");
  ASSERT_TRUE(abc.has_value());
  EXPECT_EQ(*abc, "abc");
  // A view, not a copy.
  EXPECT_EQ(abc->data(), data.data() + 3);
}

TEST(ByteStreamTest, NullableVarStringRejectsOtherNegativeLengths) {
  const std::string data = Bytes({0x03, 'x'});  // zig-zag 3 = -2
  ByteStream in(data, 50);
  absl::StatusOr<NullableView> s = in.ReadNullableVarString("name");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(s.status().message(), HasSubstr("negative"));
  EXPECT_THAT(s.status().message(), HasSubstr("offset 50"));
}

TEST(ByteStreamTest, StringLongerThanRemainingBytesIsRejectedBeforeUse) {
  // Length 2^30 (zig-zag 0x80000000 as a varint) with 2 bytes behind it.
  const std::string data = Bytes({0x80, 0x80, 0x80, 0x80, 0x08, 'a', 'b'});
  ByteStream in(data, 0);
  absl::StatusOr<NullableView> s = in.ReadNullableVarString("segment");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(s.status().message(), HasSubstr("exceeds"));
}

TEST(ByteStreamTest, VarStringRejectsNull) {
  const std::string data = Bytes({0x01});
  ByteStream in(data, 0);
  EXPECT_EQ(in.ReadVarString("name").status().code(), absl::StatusCode::kDataLoss);
}

TEST(ByteStreamTest, I32StringsNullEmptyValueAndTooLong) {
  const std::string data = Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 2, 'h', 'i', 0, 0, 0, 9, 'x'});
  ByteStream in(data, 0);
  EXPECT_FALSE(in.ReadNullableI32String("a")->has_value());
  EXPECT_EQ(**in.ReadNullableI32String("b"), "");
  EXPECT_EQ(*in.ReadI32String("c"), "hi");
  EXPECT_EQ(in.ReadI32String("d").status().code(), absl::StatusCode::kDataLoss);
  const std::string negative = Bytes({0xFF, 0xFF, 0xFF, 0xFE});
  ByteStream neg(negative, 0);
  EXPECT_EQ(neg.ReadNullableI32String("e").status().code(), absl::StatusCode::kDataLoss);
  const std::string null_only = Bytes({0xFF, 0xFF, 0xFF, 0xFF});
  ByteStream n(null_only, 0);
  EXPECT_EQ(n.ReadI32String("f").status().code(), absl::StatusCode::kDataLoss);
}

TEST(ByteStreamTest, ReadBytesAndSkipCheckBounds) {
  const std::string data = "abcdef";
  ByteStream in(data, 10);
  EXPECT_EQ(*in.ReadBytes(2, "x"), "ab");
  EXPECT_TRUE(in.Skip(3, "y").ok());
  EXPECT_EQ(in.offset(), 15u);
  EXPECT_EQ(in.ReadBytes(2, "z").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(in.Skip(2, "w").code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(in.rest(), "f");
}

}  // namespace
}  // namespace tsread

namespace tsread {
namespace {

TEST(ByteStreamSkipTest, SkipsNullEmptyShortAndLongStrings) {
  std::string data = Bytes({0x01, 0x00, 0x04, 'a', 'b'});
  // A 100-byte string needs a two-byte varint length (zig-zag 200 = 0xC8 0x01).
  data += Bytes({0xC8, 0x01});
  data += std::string(100, 'x');
  data += "tail";
  ByteStream in(data, 0);
  ASSERT_TRUE(in.SkipNullableVarStrings(4, "s").ok());
  EXPECT_EQ(in.rest(), "tail");
}

TEST(ByteStreamSkipTest, SkipRejectsTruncationAndBadLengths) {
  const std::string truncated = Bytes({0x02, 'a', 0x06, 'b'});
  ByteStream in(truncated, 0);
  EXPECT_EQ(in.SkipNullableVarStrings(2, "s").code(), absl::StatusCode::kDataLoss);
  const std::string negative = Bytes({0x03});
  ByteStream neg(negative, 0);
  EXPECT_EQ(neg.SkipNullableVarStrings(1, "s").code(), absl::StatusCode::kDataLoss);
  const std::string exact = Bytes({0x02, 'a'});
  ByteStream ok(exact, 0);
  EXPECT_TRUE(ok.SkipNullableVarStrings(1, "s").ok());
  EXPECT_TRUE(ok.empty());
}

TEST(ByteStreamTest, WindowWantsTheUnloadedBytesAndCountsThemInMessages) {
  // Two bytes loaded of a span of twelve at offset 100.
  const std::string data = Bytes({0x00, 0x01});
  ByteStream in = ByteStream::Window(data, 100, 10);
  EXPECT_EQ(in.remaining(), 2u);
  EXPECT_EQ(in.remaining_in_span(), 12u);
  absl::StatusOr<int32_t> v = in.ReadI32("count");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "truncated count at offset 100: needs 4 bytes, 12 remain");
  EXPECT_EQ(in.wanted_end(), 104u);  // the span holds them: load more and read again
}

TEST(ByteStreamTest, WindowReadPastTheSpanIsAnErrorWithoutWanting) {
  const std::string data = Bytes({0x00, 0x01});
  ByteStream in = ByteStream::Window(data, 100, 10);
  absl::StatusOr<std::string_view> v = in.ReadBytes(13, "body");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "truncated body at offset 100: needs 13 bytes, 12 remain");
  EXPECT_EQ(in.wanted_end(), 0u);
  // A string longer than the span: the message counts the span, as a stream over all of it would.
  const std::string len = Bytes({0x30});  // svar 24
  ByteStream s = ByteStream::Window(len, 7, 20);
  absl::StatusOr<std::string_view> str = s.ReadVarString("name");
  ASSERT_FALSE(str.ok());
  EXPECT_EQ(str.status().message(), "corrupt name at offset 7: string length 24 exceeds the 20 bytes that remain");
  EXPECT_EQ(s.wanted_end(), 0u);
}

TEST(ByteStreamTest, PlainStreamNeverWants) {
  const std::string data = Bytes({0x00});
  ByteStream in(data, 5);
  EXPECT_FALSE(in.ReadI32("x").ok());
  EXPECT_EQ(in.wanted_end(), 0u);
}

}  // namespace
}  // namespace tsread

#include "tsread/compress/lzo_codec.h"

#include <lzo/lzo1x.h>

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tsread {
namespace {

// An independent encoder: liblzo2's LZO1X-1 compressor (the C++ writer's lzokay emits LZO1X too).
std::string CompressLzo(const std::string& data) {
  EXPECT_EQ(lzo_init(), LZO_E_OK);
  std::vector<unsigned char> work(LZO1X_1_MEM_COMPRESS);
  std::string out(data.size() + data.size() / 16 + 64 + 3, '\0');
  lzo_uint out_len = out.size();
  EXPECT_EQ(lzo1x_1_compress(reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                             reinterpret_cast<unsigned char*>(out.data()), &out_len, work.data()),
            LZO_E_OK);
  out.resize(out_len);
  return out;
}

std::string VariedData(size_t n) {
  std::mt19937 rng(7);
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(i % 97 < 50 ? 'a' + i % 7 : rng() % 256));
  return s;
}

TEST(LzoCodecTest, RoundTripsExactly) {
  for (size_t n : {size_t{1}, size_t{100}, size_t{5000}, size_t{70000}}) {
    const std::string data = VariedData(n);
    const std::string body = CompressLzo(data);
    std::vector<char> out(n);
    ASSERT_TRUE(DecompressLzo(body, out).ok()) << n;
    EXPECT_EQ(std::string(out.begin(), out.end()), data);
  }
}

TEST(LzoCodecTest, WrongSizesAndBombsAreDataLoss) {
  const std::string zeros(1 << 20, '\0');
  const std::string body = CompressLzo(zeros);
  std::vector<char> small(1000);
  EXPECT_EQ(DecompressLzo(body, small).code(), absl::StatusCode::kDataLoss);
  std::vector<char> big(zeros.size() + 1);
  EXPECT_EQ(DecompressLzo(body, big).code(), absl::StatusCode::kDataLoss);
  std::vector<char> exact(zeros.size());
  EXPECT_TRUE(DecompressLzo(body, exact).ok());
}

TEST(LzoCodecTest, TruncationAndGarbageAreDataLoss) {
  const std::string data = VariedData(5000);
  const std::string body = CompressLzo(data);
  std::vector<char> out(data.size());
  for (size_t n = 0; n < body.size(); n += 7) {
    const std::vector<char> prefix(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_EQ(DecompressLzo(std::string_view(prefix.data(), prefix.size()), out).code(), absl::StatusCode::kDataLoss)
        << n;
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    std::string garbage(1 + rng() % 300, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    absl::Status s = DecompressLzo(garbage, out);
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  }
}

}  // namespace
}  // namespace tsread

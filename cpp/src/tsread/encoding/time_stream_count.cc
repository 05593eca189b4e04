#include "tsread/encoding/time_stream_count.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "tsread/encoding/value_count.h"
#include "tsread/encoding/value_decoder.h"

namespace tsread {
namespace {

// The index of the first sentinel among the first `count` decoded values; nullopt when they do
// not decode or hold no sentinel (*decoded tells which).
std::optional<uint64_t> SentinelIn(Encoding encoding, std::string_view stream, uint64_t count,
                                   std::vector<int64_t>& values, bool* decoded) {
  constexpr int64_t kSentinel = std::numeric_limits<int64_t>::min();
  values.resize(count);
  *decoded = DecodeInt64s(encoding, stream, count, values.data()).ok();
  if (!*decoded) return std::nullopt;
  const auto sentinel = std::find(values.begin(), values.end(), kSentinel);
  if (sentinel == values.end()) return std::nullopt;
  return static_cast<uint64_t>(sentinel - values.begin());
}

// Decoding is sequential, so whether `n` values decode is monotone in n: doubling finds a prefix
// that holds the sentinel, or brackets the longest decodable prefix, which a binary search then
// finds (the sentinel may be followed by padding that does not decode as a whole value).
std::optional<uint64_t> CountBeforeSentinel(Encoding encoding, std::string_view stream, uint64_t max_values) {
  // Every value after the first costs at least one bit; the sentinel is one more value.
  const uint64_t bound = std::min(MaxValuesAtOneBitEach(stream.size()), max_values + 1);
  std::vector<int64_t> values;
  bool decoded = false;
  uint64_t good = 0;  // decodes, no sentinel
  uint64_t count = std::min<uint64_t>(64, bound);
  while (true) {
    if (std::optional<uint64_t> at = SentinelIn(encoding, stream, count, values, &decoded)) return at;
    if (!decoded) break;
    good = count;
    if (count == bound) return std::nullopt;
    count = std::min(count * 2, bound);
  }
  uint64_t bad = count;  // does not decode
  while (bad - good > 1) {
    const uint64_t mid = good + (bad - good) / 2;
    if (std::optional<uint64_t> at = SentinelIn(encoding, stream, mid, values, &decoded)) return at;
    (decoded ? good : bad) = mid;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> TimeStreamCount(Encoding encoding, std::string_view stream, uint64_t max_values) {
  std::optional<uint64_t> count;
  switch (encoding) {
    case Encoding::kTs2Diff:
    case Encoding::kRle:
    case Encoding::kRegular: count = MaxDecodableValues(encoding, DataType::kInt64, stream); break;
    case Encoding::kPlain:
      if (stream.size() % 8 != 0) return std::nullopt;
      count = stream.size() / 8;
      break;
    case Encoding::kGorilla:
    case Encoding::kChimp: return CountBeforeSentinel(encoding, stream, max_values);
    default: return std::nullopt;
  }
  if (*count > max_values) return std::nullopt;
  return count;
}

}  // namespace tsread

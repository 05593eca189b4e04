#include "tsread/write/rle_encoder.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "tsread/write/bit_appender.h"
#include "tsread/write/byte_appender.h"

namespace tsread {
namespace {

// TSFileConfig: RLE_MIN_REPEATED_NUM, RLE_MAX_REPEATED_NUM, RLE_MAX_BIT_PACKED_NUM, and the
// bit-packing group size.
constexpr int kMinRepeated = 8;
constexpr int kMaxRepeated = 0x7FFF;
constexpr int kMaxBitPackedGroups = 63;
constexpr int kGroupSize = 8;

// Java's RleEncoder<Integer> fields and methods, one to one.
class IntRleState {
 public:
  explicit IntRleState(int bit_width) : bit_width_(bit_width) { cache_.push_back(static_cast<char>(bit_width)); }

  void EncodeValue(int32_t value) {
    if (has_previous_ && value == previous_) {
      ++repeat_count_;
      if (repeat_count_ >= kMinRepeated && repeat_count_ <= kMaxRepeated) return;  // keep counting
      if (repeat_count_ == kMaxRepeated + 1) {
        repeat_count_ = kMaxRepeated;
        WriteRleRun();
        repeat_count_ = 1;
        previous_ = value;
      }
    } else {
      if (repeat_count_ >= kMinRepeated) WriteRleRun();
      repeat_count_ = 1;
      previous_ = value;
      has_previous_ = true;
    }
    buffered_[buffered_count_++] = value;
    if (buffered_count_ == kGroupSize) WriteOrAppendBitPackedRun();
  }

  // RleEncoder.flush: the pending run, then `uvar L` + the cached payload.
  void Flush(std::string& out) {
    const int last_bit_packed = buffered_count_;
    if (repeat_count_ >= kMinRepeated) {
      WriteRleRun();
    } else if (buffered_count_ > 0) {
      std::fill(buffered_ + buffered_count_, buffered_ + kGroupSize, 0);
      WriteOrAppendBitPackedRun();
      EndBitPackedRun(last_bit_packed);
    } else {
      EndBitPackedRun(kGroupSize);
    }
    AppendUVarInt(out, static_cast<uint32_t>(cache_.size()));
    out.append(cache_);
  }

 private:
  void WriteRleRun() {
    EndBitPackedRun(kGroupSize);
    AppendUVarInt(cache_, static_cast<uint32_t>(repeat_count_) << 1);
    // IntRleEncoder: the value little-endian in ceil(bitWidth / 8) bytes.
    const uint32_t u = static_cast<uint32_t>(previous_);
    for (int i = 0; i < (bit_width_ + 7) / 8; ++i) cache_.push_back(static_cast<char>(u >> (8 * i)));
    repeat_count_ = 0;
    buffered_count_ = 0;
  }

  void WriteOrAppendBitPackedRun() {
    if (groups_ >= kMaxBitPackedGroups) EndBitPackedRun(kGroupSize);
    in_bit_packed_run_ = true;
    // IntPacker.pack8Values: 8 values x bitWidth bits, MSB-first.
    BitAppender bits(packed_);
    for (int i = 0; i < kGroupSize; ++i) bits.Write(static_cast<uint32_t>(buffered_[i]), bit_width_);
    buffered_count_ = 0;
    repeat_count_ = 0;
    ++groups_;
  }

  void EndBitPackedRun(int last_count) {
    if (!in_bit_packed_run_) return;
    cache_.push_back(static_cast<char>((groups_ << 1) | 1));
    cache_.push_back(static_cast<char>(last_count));
    cache_.append(packed_);
    packed_.clear();
    in_bit_packed_run_ = false;
    groups_ = 0;
  }

  const int bit_width_;
  std::string cache_;   // Java byteCache: bit width byte + runs
  std::string packed_;  // Java bytesBuffer: groups of the open bit-packed run
  int32_t buffered_[kGroupSize] = {};
  int buffered_count_ = 0;
  int repeat_count_ = 0;
  int groups_ = 0;
  bool in_bit_packed_run_ = false;
  bool has_previous_ = false;
  int32_t previous_ = 0;
};

template <typename T>
void EncodeAll(const T* values, size_t count, std::string& out) {
  // ReadWriteForEncodingUtils.getIntMaxBitWidth: at least 1.
  int bit_width = 1;
  for (size_t i = 0; i < count; ++i) {
    bit_width = std::max(bit_width, static_cast<int>(std::bit_width(static_cast<uint32_t>(values[i]))));
  }
  IntRleState state(bit_width);
  for (size_t i = 0; i < count; ++i) state.EncodeValue(static_cast<int32_t>(values[i]));
  state.Flush(out);
}

}  // namespace

void EncodeRleBooleans(const uint8_t* values, size_t count, std::string& out) {
  // Java encode(boolean): true -> 1, false -> 0.
  std::vector<uint8_t> bits(values, values + count);
  for (uint8_t& b : bits) b = b != 0;
  EncodeAll(bits.data(), count, out);
}
void EncodeRleInt32s(const int32_t* values, size_t count, std::string& out) { EncodeAll(values, count, out); }

}  // namespace tsread

#include "tsread/write/gorilla_encoder.h"

#include <bit>
#include <limits>

#include "tsread/write/bit_appender.h"

namespace tsread {
namespace {

// Java's encoder state for W-bit words (W = 32 or 64).
template <typename U>
class GorillaState {
 public:
  static constexpr int kWidth = sizeof(U) * 8;
  // Bits for L and for S - 1: 5 for 32-bit words, 6 for 64-bit words.
  static constexpr int kFieldBits = kWidth == 32 ? 5 : 6;

  explicit GorillaState(std::string& out) : bits_(out) {}

  void Encode(U value) {
    if (!started_) {
      started_ = true;
      stored_ = value;
      bits_.Write(value, kWidth);
      return;
    }
    const U x = stored_ ^ value;
    stored_ = value;
    if (x == 0) {
      bits_.Write(0, 1);
      return;
    }
    const int leading = std::countl_zero(x);
    const int trailing = std::countr_zero(x);
    if (leading >= stored_leading_ && trailing >= stored_trailing_) {
      // '10': reuse the stored window.
      bits_.Write(0b10, 2);
      bits_.Write(x >> stored_trailing_, kWidth - stored_leading_ - stored_trailing_);
      return;
    }
    // '11': a new window.
    const int significant = kWidth - leading - trailing;
    bits_.Write(0b11, 2);
    bits_.Write(static_cast<uint64_t>(leading), kFieldBits);
    bits_.Write(static_cast<uint64_t>(significant - 1), kFieldBits);
    bits_.Write(x >> trailing, significant);
    stored_leading_ = leading;
    stored_trailing_ = trailing;
  }

  // Java flush(): the sentinel, then the current byte whether or not any bit of it is used.
  void Finish(U sentinel) {
    Encode(sentinel);
    if (bits_.pending_bits() == 0) {
      bits_.Write(0, 8);
    } else {
      bits_.PadToByte();
    }
  }

 private:
  BitAppender bits_;
  bool started_ = false;
  U stored_ = 0;
  // Java starts with Integer.MAX_VALUE so that the first XOR always opens a window.
  int stored_leading_ = std::numeric_limits<int>::max();
  int stored_trailing_ = 0;
};

template <typename U, typename T>
void EncodeAll(const T* values, size_t count, U sentinel, std::string& out) {
  GorillaState<U> state(out);
  for (size_t i = 0; i < count; ++i) state.Encode(std::bit_cast<U>(values[i]));
  state.Finish(sentinel);
}

}  // namespace

void EncodeGorillaInt32s(const int32_t* values, size_t count, std::string& out) {
  EncodeAll<uint32_t>(values, count, 0x80000000u, out);
}
void EncodeGorillaInt64s(const int64_t* values, size_t count, std::string& out) {
  EncodeAll<uint64_t>(values, count, 0x8000000000000000ull, out);
}
void EncodeGorillaFloats(const float* values, size_t count, std::string& out) {
  EncodeAll<uint32_t>(values, count, 0x7FC00000u, out);
}
void EncodeGorillaDoubles(const double* values, size_t count, std::string& out) {
  EncodeAll<uint64_t>(values, count, 0x7FF8000000000000ull, out);
}

}  // namespace tsread

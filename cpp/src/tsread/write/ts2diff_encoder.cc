#include "tsread/write/ts2diff_encoder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tsread/write/bit_appender.h"
#include "tsread/write/byte_appender.h"

namespace tsread {
namespace {

template <typename T>
void AppendBig(std::string& out, T v) {
  if constexpr (sizeof(T) == 4) {
    AppendI32(out, v);
  } else {
    AppendI64(out, v);
  }
}

// Java's stale padding bits (see Ts2DiffPackBuffer): the packed bytes of this block start at
// `packed_begin` in `out`; merges them with the buffer and updates it.
void ApplyPackBuffer(std::string& out, size_t packed_begin, size_t used_bits, Ts2DiffPackBuffer& buffer) {
  const size_t length = out.size() - packed_begin;
  if (length == 0) return;
  const size_t last = length - 1;
  const int pad = static_cast<int>(length * 8 - used_bits);
  if (pad > 0 && last >= kTs2DiffBlockDeltas) {
    const uint8_t stale = buffer.bytes[last] & static_cast<uint8_t>((1u << pad) - 1);
    out[packed_begin + last] = static_cast<char>(static_cast<uint8_t>(out[packed_begin + last]) | stale);
  }
  std::memcpy(buffer.bytes, out.data() + packed_begin, length);
  // reset(): only the first blockSize bytes.
  std::memset(buffer.bytes, 0, kTs2DiffBlockDeltas);
}

// One block: values[0] is the first value, values[1, 1 + deltas) give the deltas.
template <typename T>
void EncodeBlock(const T* values, size_t deltas, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  using U = std::make_unsigned_t<T>;
  // Deltas wrap around like Java's int/long subtraction.
  U packed[kTs2DiffBlockDeltas];
  T min_delta = std::numeric_limits<T>::max();
  for (size_t k = 0; k < deltas; ++k) {
    const T delta = static_cast<T>(static_cast<U>(values[k + 1]) - static_cast<U>(values[k]));
    packed[k] = static_cast<U>(delta);
    min_delta = std::min(min_delta, delta);
  }
  U all_bits = 0;
  for (size_t k = 0; k < deltas; ++k) {
    packed[k] = static_cast<U>(packed[k] - static_cast<U>(min_delta));
    all_bits |= packed[k];
  }
  // Java: max over (W - numberOfLeadingZeros(v)) = bit width of the OR of all values.
  const int width = static_cast<int>(std::bit_width(all_bits));
  AppendI32(out, static_cast<int32_t>(deltas));
  AppendI32(out, width);
  AppendBig<T>(out, min_delta);
  AppendBig<T>(out, values[0]);
  if (width == 0) return;
  const size_t packed_begin = out.size();
  BitAppender bits(out);
  for (size_t k = 0; k < deltas; ++k) bits.Write(packed[k], width);
  bits.PadToByte();
  if (pack_buffer != nullptr) ApplyPackBuffer(out, packed_begin, deltas * static_cast<size_t>(width), *pack_buffer);
}

template <typename T>
void EncodeAll(const T* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  // A block takes its first value plus up to 128 deltas, i.e. 129 values (§9.4).
  size_t i = 0;
  while (i < count) {
    const size_t deltas = std::min(kTs2DiffBlockDeltas, count - i - 1);
    EncodeBlock(values + i, deltas, out, pack_buffer);
    i += deltas + 1;
  }
}

}  // namespace

void EncodeTs2DiffInt32s(const int32_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  EncodeAll(values, count, out, pack_buffer);
}
void EncodeTs2DiffInt64s(const int64_t* values, size_t count, std::string& out, Ts2DiffPackBuffer* pack_buffer) {
  EncodeAll(values, count, out, pack_buffer);
}

}  // namespace tsread

#include "tsread/encoding/sprintz.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/gorilla.h"
#include "tsread/encoding/rle.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// J: SprintzEncoder.Block_size: a full block is 1 raw value + 8 predicted ones.
constexpr size_t kResiduals = 8;
constexpr size_t kBlockValues = kResiduals + 1;
constexpr uint8_t kTailFlag = 0x80;

// The integer word the predictor runs on, per output type, and the fire constants (§9.12;
// J: IntFire(2) with bitWidth 8 for INT32/FLOAT, LongFire(3) with bitWidth 16 for INT64/DOUBLE).
template <typename T>
struct SprintzWord {
  static constexpr int kWidth = sizeof(T) * 8;
  using Unsigned = std::conditional_t<kWidth == 32, uint32_t, uint64_t>;
  using Signed = std::conditional_t<kWidth == 32, int32_t, int64_t>;
  static constexpr int kLearnShift = kWidth == 32 ? 2 : 3;
  static constexpr int kFireBits = kWidth == 32 ? 8 : 16;
};

template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, float>) return "FLOAT";
  return "DOUBLE";
}

// A block's first value as its raw bits: uvar (a Java int's bit pattern) for INT32, big-endian
// i64 / f32 / f64 otherwise.
template <typename T>
absl::StatusOr<typename SprintzWord<T>::Unsigned> ReadFirstValueBits(ByteStream& in) {
  if constexpr (std::is_same_v<T, int32_t>) {
    return in.ReadUVarInt("SPRINTZ INT32 block first value");
  } else if constexpr (std::is_same_v<T, int64_t>) {
    TSREAD_ASSIGN_OR_RETURN(int64_t v, in.ReadI64("SPRINTZ INT64 block first value"));
    return static_cast<uint64_t>(v);
  } else if constexpr (std::is_same_v<T, float>) {
    TSREAD_ASSIGN_OR_RETURN(float v, in.ReadF32("SPRINTZ FLOAT block first value"));
    return std::bit_cast<uint32_t>(v);
  } else {
    TSREAD_ASSIGN_OR_RETURN(double v, in.ReadF64("SPRINTZ DOUBLE block first value"));
    return std::bit_cast<uint64_t>(v);
  }
}

// Where the predictor starts: the first value's bits, except that Java's FLOAT/DOUBLE decoders
// take them through Float.floatToIntBits / Double.doubleToLongBits, which turn every NaN into the
// canonical one (the value itself is returned as read).
template <typename T>
typename SprintzWord<T>::Unsigned PredictorStart(typename SprintzWord<T>::Unsigned raw) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(std::bit_cast<T>(raw))) {
      return std::bit_cast<typename SprintzWord<T>::Unsigned>(std::numeric_limits<T>::quiet_NaN());
    }
  }
  return raw;
}

// J: *SprintzDecoder.recalculate: even r -> -r/2, odd r -> (r+1)/2, where r is the unpacked
// residual read as a Java int/long. With bitWidth 32/64 a residual whose top bit is set is
// therefore negative, and the map wraps and truncates the Java way: this is not the inverse of the
// encoder's map once |error| reaches 2^30 / 2^62, and Java then reads back a different value
// (§9.12); a reader that must agree with Java reproduces it.
template <typename T>
typename SprintzWord<T>::Signed ResidualFromPacked(typename SprintzWord<T>::Unsigned packed) {
  using Signed = typename SprintzWord<T>::Signed;
  using Unsigned = typename SprintzWord<T>::Unsigned;
  const Unsigned folded = (packed & 1) == 0 ? Unsigned{0} - packed : packed + 1;  // -r or r+1, wrapping
  return static_cast<Signed>(folded) / 2;                                       // truncating division
}

// Rebuilds a full block: words[0] is the first value, words[1..8] come from the fire predictor
// (J: IntFire / LongFire `predict` and `train`; the accumulator is a Java int for both widths).
// All arithmetic wraps like Java's, so it is done on unsigned words.
template <typename T>
void ReconstructBlock(typename SprintzWord<T>::Unsigned first,
                      const std::array<typename SprintzWord<T>::Unsigned, kResiduals>& packed,
                      std::array<typename SprintzWord<T>::Unsigned, kBlockValues>& words) {
  using W = SprintzWord<T>;
  using Unsigned = typename W::Unsigned;
  using Signed = typename W::Signed;
  words[0] = first;
  Unsigned prev = PredictorStart<T>(first);
  int32_t accumulator = 0;
  Unsigned delta = 0;
  for (size_t i = 0; i < kResiduals; ++i) {
    const Signed residual = ResidualFromPacked<T>(packed[i]);
    const Signed alpha = accumulator >> W::kLearnShift;  // int shift, widened for LongFire
    const Signed diff = static_cast<Signed>(static_cast<Unsigned>(alpha) * delta) >> W::kFireBits;
    const Unsigned value = prev + static_cast<Unsigned>(diff) + static_cast<Unsigned>(residual);
    // train: accumulator -= (err > 0 ? -delta : delta), narrowed to int like Java's `-=`.
    const Unsigned gradient = residual > 0 ? Unsigned{0} - delta : delta;
    accumulator = static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<Unsigned>(static_cast<Signed>(accumulator)) - gradient));
    delta = value - prev;
    prev = value;
    words[i + 1] = value;
  }
}

template <typename T>
T FromWord(typename SprintzWord<T>::Unsigned w) {
  return std::bit_cast<T>(w);
}

// Unpacks the 8 residuals of a full block (one §9.3 group of `bit_width` bytes).
template <typename T>
void UnpackResiduals(int bit_width, std::string_view bytes,
                     std::array<typename SprintzWord<T>::Unsigned, kResiduals>& packed) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if constexpr (SprintzWord<T>::kWidth == 32) {
    UnpackBitPackedGroups32(bit_width, data, 1, packed.data());
  } else {
    UnpackBitPackedGroups64(bit_width, data, 1, packed.data());
  }
}

// The tail: `n` values from a fresh RLE (integers) or GORILLA (FLOAT/DOUBLE) stream at `offset`.
template <typename T>
absl::StatusOr<size_t> DecodeTail(std::string_view rest, size_t n, T* out, size_t offset) {
  if constexpr (std::is_same_v<T, int32_t>) {
    return DecodeRleInt32s(rest, n, out, offset);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return DecodeRleInt64s(rest, n, out, offset);
  } else {
    absl::StatusOr<size_t> consumed = [&] {
      if constexpr (std::is_same_v<T, float>) {
        return DecodeGorillaFloats(rest, n, out);
      } else {
        return DecodeGorillaDoubles(rest, n, out);
      }
    }();
    // GORILLA reports offsets within its own stream; say where that stream starts.
    if (!consumed.ok()) {
      return absl::Status(consumed.status().code(),
                          absl::StrCat("SPRINTZ ", TypeName<T>(), " tail at byte offset ", offset, ": ",
                                       consumed.status().message()));
    }
    return consumed;
  }
}

template <typename T>
absl::StatusOr<size_t> DecodeSprintz(std::string_view stream, size_t count, T* out) {
  using Unsigned = typename SprintzWord<T>::Unsigned;
  ByteStream in(stream, /*base_offset=*/0);
  size_t k = 0;
  while (k < count) {
    TSREAD_ASSIGN_OR_RETURN(const uint8_t header, in.ReadU8("SPRINTZ block header"));
    if (header & kTailFlag) {
      const size_t tail_values = header & ~kTailFlag;
      if (tail_values < count - k) {
        return absl::DataLossError(absl::StrCat("SPRINTZ ", TypeName<T>(), " stream at byte offset ",
                                                in.position() - 1, ": tail holds ", tail_values,
                                                " values but ", count - k, " are still needed"));
      }
      const size_t tail_start = in.position();
      TSREAD_ASSIGN_OR_RETURN(const size_t tail_bytes, DecodeTail(in.rest(), count - k, out + k, tail_start));
      return tail_start + tail_bytes;
    }
    const int bit_width = header;
    if (bit_width > SprintzWord<T>::kWidth) {
      return in.Corrupt("SPRINTZ block header",
                        absl::StrCat("bit width ", bit_width, " exceeds ", SprintzWord<T>::kWidth));
    }
    TSREAD_ASSIGN_OR_RETURN(const Unsigned first, ReadFirstValueBits<T>(in));
    TSREAD_ASSIGN_OR_RETURN(const std::string_view residual_bytes,
                            in.ReadBytes(static_cast<size_t>(bit_width), "SPRINTZ block residuals"));
    std::array<Unsigned, kResiduals> packed;
    UnpackResiduals<T>(bit_width, residual_bytes, packed);
    std::array<Unsigned, kBlockValues> words;
    ReconstructBlock<T>(first, packed, words);
    const size_t take = std::min(kBlockValues, count - k);
    for (size_t j = 0; j < take; ++j) out[k + j] = FromWord<T>(words[j]);
    k += take;
  }
  return in.position();
}

}  // namespace

absl::StatusOr<size_t> DecodeSprintzInt32s(std::string_view stream, size_t count, int32_t* out) {
  return DecodeSprintz(stream, count, out);
}
absl::StatusOr<size_t> DecodeSprintzInt64s(std::string_view stream, size_t count, int64_t* out) {
  return DecodeSprintz(stream, count, out);
}
absl::StatusOr<size_t> DecodeSprintzFloats(std::string_view stream, size_t count, float* out) {
  return DecodeSprintz(stream, count, out);
}
absl::StatusOr<size_t> DecodeSprintzDoubles(std::string_view stream, size_t count, double* out) {
  return DecodeSprintz(stream, count, out);
}

}  // namespace tsread

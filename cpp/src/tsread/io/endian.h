// Big-endian loads from raw memory (format reference §0: every fixed-width field is big-endian).
// The caller has checked that sizeof(Word) bytes are readable at `p`.
#ifndef TSREAD_IO_ENDIAN_H_
#define TSREAD_IO_ENDIAN_H_

#include <cstdint>
#include <cstring>

namespace tsread {

template <typename Word>
inline Word LoadBigEndian(const void* p) {
  static_assert(sizeof(Word) == 4 || sizeof(Word) == 8, "32- or 64-bit words");
  Word v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (sizeof(Word) == 4) {
    return static_cast<Word>(__builtin_bswap32(static_cast<uint32_t>(v)));
  } else {
    return static_cast<Word>(__builtin_bswap64(static_cast<uint64_t>(v)));
  }
}

inline uint32_t LoadBigEndian32(const void* p) { return LoadBigEndian<uint32_t>(p); }
inline uint64_t LoadBigEndian64(const void* p) { return LoadBigEndian<uint64_t>(p); }

}  // namespace tsread

#endif  // TSREAD_IO_ENDIAN_H_

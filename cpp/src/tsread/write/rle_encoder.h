// RLE encoding of BOOLEAN and INT32/DATE values (format reference §9.3; J: encoding.encoder
// .RleEncoder, IntRleEncoder, bitpacking.IntPacker): one package per page,
//   uvar L ; u8 bitWidth ; run*
// where bitWidth = max(1, widest value) and runs are bit-packed groups of 8 values (header
// (groups << 1) | 1, lastCount, groups x bitWidth bytes; at most 63 groups per run) or RLE runs
// (header count << 1, the value little-endian in ceil(bitWidth / 8) bytes). The encoder follows
// Java's state machine exactly, so the bytes match: a value repeated 8 or more times from a group
// boundary becomes an RLE run (at most 0x7FFF per run), everything else is bit-packed.
#ifndef TSREAD_WRITE_RLE_ENCODER_H_
#define TSREAD_WRITE_RLE_ENCODER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tsread {

// Appends one RLE package holding values[0, count) (booleans as 0/1) to `out`.
void EncodeRleBooleans(const uint8_t* values, size_t count, std::string& out);
void EncodeRleInt32s(const int32_t* values, size_t count, std::string& out);

}  // namespace tsread

#endif  // TSREAD_WRITE_RLE_ENCODER_H_

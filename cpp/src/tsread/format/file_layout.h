// The fixed frame of a TsFile (format reference §1): head magic + version byte, and the tail
// (TsFileMetadata size + tail magic) that locates the metadata.
#ifndef TSREAD_FORMAT_FILE_LAYOUT_H_
#define TSREAD_FORMAT_FILE_LAYOUT_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "tsread/io/random_access_file.h"

namespace tsread {

inline constexpr std::string_view kMagic = "TsFile";
inline constexpr uint8_t kVersion3 = 3;
inline constexpr uint8_t kVersion4 = 4;
// "TsFile" + version byte.
inline constexpr uint64_t kHeadSize = 7;
// i32 metadata size + "TsFile".
inline constexpr uint64_t kTailSize = 10;

// Where the parts of a complete file are.
struct FileLayout {
  uint8_t version = 0;
  uint64_t file_size = 0;
  // [metadata_offset, metadata_offset + metadata_size) holds TsFileMetadata (§7).
  uint64_t metadata_offset = 0;
  uint64_t metadata_size = 0;
};

// Reads the head and tail of `file` and validates them (§1): both magics, a supported version
// (3 or 4), and a metadata size that fits between the head and the tail.
// DataLoss for a truncated or corrupt frame, Unimplemented for an unsupported version.
absl::StatusOr<FileLayout> ReadFileLayout(const RandomAccessFile& file);

}  // namespace tsread

#endif  // TSREAD_FORMAT_FILE_LAYOUT_H_

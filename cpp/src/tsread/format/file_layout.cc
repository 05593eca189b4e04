#include "tsread/format/file_layout.h"

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<FileLayout> ReadFileLayout(const RandomAccessFile& file) {
  FileLayout layout;
  layout.file_size = file.size();
  if (layout.file_size < kHeadSize + kTailSize) {
    return absl::DataLossError(absl::StrCat(file.name(), " is ", layout.file_size,
                                            " bytes, too short for a TsFile (head and tail need ",
                                            kHeadSize + kTailSize, ")"));
  }
  TSREAD_ASSIGN_OR_RETURN(Buffer head, file.Read(0, kHeadSize));
  if (head.bytes().substr(0, kMagic.size()) != kMagic) {
    return absl::DataLossError("bad head magic at offset 0: expected \"TsFile\"");
  }
  layout.version = static_cast<uint8_t>(head.data()[6]);
  if (layout.version != kVersion3 && layout.version != kVersion4) {
    // Pre-V3 files store an ASCII version ("000002"), so byte 6 is '0' (§1).
    return absl::UnimplementedError(absl::StrCat("unsupported TsFile version byte ", layout.version,
                                                 " at offset 6: tsread reads versions 3 and 4"));
  }
  const uint64_t tail_offset = layout.file_size - kTailSize;
  TSREAD_ASSIGN_OR_RETURN(Buffer tail, file.Read(tail_offset, kTailSize));
  if (tail.bytes().substr(4) != kMagic) {
    return absl::DataLossError(absl::StrCat("no tail magic at offset ", tail_offset + 4,
                                            ": the file is truncated or was not closed by its writer"));
  }
  ByteStream tail_stream(tail.bytes(), tail_offset);
  TSREAD_ASSIGN_OR_RETURN(int32_t size, tail_stream.ReadI32("metadata size"));
  // TsFileMetadata must lie between the head (and the separator byte) and the tail.
  if (size <= 0 || static_cast<uint64_t>(size) > tail_offset - kHeadSize - 1) {
    return absl::DataLossError(absl::StrCat("corrupt metadata size at offset ", tail_offset, ": ", size,
                                            " does not fit in a file of ", layout.file_size, " bytes"));
  }
  layout.metadata_size = static_cast<uint64_t>(size);
  layout.metadata_offset = tail_offset - layout.metadata_size;
  return layout;
}

}  // namespace tsread

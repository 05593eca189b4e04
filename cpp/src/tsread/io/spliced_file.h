// SplicedFile: a file whose bytes are the first `head_length` bytes of another file followed by
// bytes in memory. It lets a reader read a file as if its end were different without copying or
// rewriting it: an unsealed TsFile (a crashed writer) is read in place as its kept data section
// followed by an index built for it (check/sealed_copy.h, iotdb/unsealed_files.h).
#ifndef TSREAD_IO_SPLICED_FILE_H_
#define TSREAD_IO_SPLICED_FILE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tsread/io/random_access_file.h"

namespace tsread {

// The first `head_length` bytes of `head`, then `tail`. Reads inside the head go to `head` (its
// errors, e.g. a file that shrank, pass through); reads inside the tail are views of it; a read
// across the boundary is copied into the Buffer's block. The name is `head`'s. OutOfRange when
// `head` is shorter than `head_length`.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> SpliceFile(std::unique_ptr<RandomAccessFile> head,
                                                             uint64_t head_length,
                                                             std::shared_ptr<const std::string> tail);

}  // namespace tsread

#endif  // TSREAD_IO_SPLICED_FILE_H_

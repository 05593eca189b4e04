// WalkDataSection (data_section_walker.h): the markers of the data section (format reference
// §2.1), chunk group headers (§2.2), chunks (§2.3) and their pages (§3), read through a FileWindow
// one item at a time. Each item is parsed from a ByteStream window onto [offset, range end) (io/
// byte_stream.h), so a parse that runs past the loaded bytes loads more and parses again, and its
// error messages count the bytes left in the range exactly as a stream over the whole range would.
#include "tsread/check/data_section_walker.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/io/byte_stream.h"
#include "tsread/io/file_window.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// What a header parse asks for first: every header of §2 fits in it unless its strings are long
// (a longer one loads what it needs and is parsed again).
constexpr uint64_t kHeaderBytes = 4096;

absl::Status WalkPages(std::string_view pages, uint64_t pages_offset, const ChunkHeader& chunk,
                       DataSectionVisitor& visitor) {
  ByteStream page_stream(pages, pages_offset);
  while (!page_stream.empty()) {
    TSREAD_ASSIGN_OR_RETURN(PageHeader page, ReadPageHeader(page_stream, chunk.data_type, chunk.has_page_statistics()));
    const uint64_t body_offset = page_stream.offset();
    TSREAD_ASSIGN_OR_RETURN(std::string_view body, page_stream.ReadBytes(page.compressed_size, "page body"));
    TSREAD_RETURN_IF_ERROR(visitor.OnPage(chunk, page, body_offset, body));
  }
  return absl::OkStatus();
}

class DataSectionWalk {
 public:
  DataSectionWalk(const RandomAccessFile& file, const DataRange& range, DataSectionVisitor& visitor,
                  const WalkOptions& options)
      : file_(file), range_(range), visitor_(visitor), budget_(options.memory_budget),
        window_(file, kHeadSize, range.end, options.read_ahead_bytes,
                budget_ == nullptr ? 0 : budget_->limit()) {
    memory_.Attach(budget_);
  }

  absl::Status Run() {
    uint64_t at = kHeadSize;
    while (true) {
      uint64_t next = 0;
      TSREAD_ASSIGN_OR_RETURN(uint8_t marker, Parse<uint8_t>(at, next, [](ByteStream& in) {
                                return in.ReadU8("data section marker");
                              }));
      TSREAD_RETURN_IF_ERROR(visitor_.OnMarker(at, marker));
      if (marker == kChunkGroupHeaderMarker) {
        TSREAD_RETURN_IF_ERROR(ChunkGroupHeader(at, next));
      } else if (IsChunkMarker(marker)) {
        TSREAD_RETURN_IF_ERROR(Chunk(at, next));
      } else if (marker == kOperationIndexRangeMarker) {
        TSREAD_RETURN_IF_ERROR(OperationIndexRange(at, next));
      } else if (marker == kSeparatorMarker) {
        if (range_.separator_offset.has_value() && at != *range_.separator_offset) {
          return absl::DataLossError(absl::StrCat("corrupt data section: separator at offset ", at,
                                                  " before the meta offset ", *range_.separator_offset));
        }
        return visitor_.OnSeparator(at);
      } else {
        return absl::DataLossError(absl::StrCat("corrupt data section at offset ", at, ": unknown marker 0x",
                                                absl::Hex(marker)));
      }
      at = next;
    }
  }

 private:
  // The window's bytes from `offset` on, at least `length` of them, with the window accounted in
  // the budget before it is read.
  absl::StatusOr<std::string_view> Load(uint64_t offset, uint64_t length, const char* what) {
    if (!window_.Holds(offset, length) && budget_ != nullptr) {
      if (length > budget_->limit()) {
        return absl::ResourceExhaustedError(absl::StrCat(file_.name(), ": the ", what, " at offset ", offset,
                                                         " needs ", length, " bytes at once, more than the memory "
                                                         "budget of ", budget_->limit(), " bytes"));
      }
      TSREAD_RETURN_IF_ERROR(Account(std::max(window_.held_bytes(), window_.WindowSizeFor(offset, length))));
    }
    return window_.Load(offset, length);
  }

  // Makes the budget hold `bytes` for the window. Another holder of a shared budget may have the
  // rest: then the window is let go of before waiting (memory_budget.h: never wait holding).
  absl::Status Account(uint64_t bytes) {
    if (bytes <= memory_.used()) return absl::OkStatus();
    absl::Status grown = memory_.Grow(bytes - memory_.used());
    if (IsMemoryBusy(grown)) {
      window_.Release();
      memory_.WaitFor(bytes);
      grown = memory_.Grow(bytes);
    }
    return grown;
  }

  // Parses the item at `at` with `parse` from a stream over [at, range end) of which the window
  // holds the first bytes; loads more and parses again while the parse wants bytes the window does
  // not hold. `next` is where the stream stopped.
  template <typename T, typename Fn>
  absl::StatusOr<T> Parse(uint64_t at, uint64_t& next, Fn&& parse, const char* what = "header") {
    // The first ask is a guess: never more than a budget allows (a longer header asks again).
    uint64_t want = std::min(kHeaderBytes, range_.end - at);
    if (budget_ != nullptr) want = std::min(want, budget_->limit());
    while (true) {
      TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, Load(at, want, what));
      ByteStream in = ByteStream::Window(bytes, at, range_.end - at - bytes.size());
      absl::StatusOr<T> result = parse(in);
      if (result.ok() || in.wanted_end() == 0) {
        next = in.offset();
        return result;
      }
      want = in.wanted_end() - at;
    }
  }

  absl::Status ChunkGroupHeader(uint64_t at, uint64_t& next) {
    TSREAD_ASSIGN_OR_RETURN(DeviceIdView device, Parse<DeviceIdView>(at + 1, next, [this](ByteStream& in) {
                              return ReadDeviceIdView(in, range_.version);
                            }));
    return visitor_.OnChunkGroup(at, device);
  }

  absl::Status OperationIndexRange(uint64_t at, uint64_t& next) {
    using Range = std::pair<int64_t, int64_t>;
    TSREAD_ASSIGN_OR_RETURN(Range r, Parse<Range>(at + 1, next, [](ByteStream& in) -> absl::StatusOr<Range> {
                              TSREAD_ASSIGN_OR_RETURN(int64_t min_index, in.ReadI64("operation index range"));
                              TSREAD_ASSIGN_OR_RETURN(int64_t max_index, in.ReadI64("operation index range"));
                              return Range(min_index, max_index);
                            }));
    return visitor_.OnOperationIndexRange(at, r.first, r.second);
  }

  absl::StatusOr<ChunkHeader> ParseChunkHeader(uint64_t at) {
    uint64_t header_end = 0;
    return Parse<ChunkHeader>(at, header_end, [](ByteStream& in) { return ReadChunkHeader(in); });
  }

  // A chunk: its header, then the whole chunk (header and pages) in the window for its pages.
  absl::Status Chunk(uint64_t at, uint64_t& next) {
    TSREAD_ASSIGN_OR_RETURN(ChunkHeader chunk, ParseChunkHeader(at));
    const uint64_t pages_offset = at + chunk.header_size;
    if (chunk.data_size > range_.end - pages_offset) {
      // The visitor hears of the chunk before its pages fail to fit (salvage records how far the
      // chunk claims to reach); the error is the one a stream over the rest of the range gives.
      TSREAD_RETURN_IF_ERROR(visitor_.OnChunk(chunk));
      return ByteStream::Window({}, pages_offset, range_.end - pages_offset)
          .ReadBytes(chunk.data_size, "chunk pages")
          .status();
    }
    const uint64_t chunk_size = uint64_t{chunk.header_size} + chunk.data_size;
    if (!window_.Holds(at, chunk_size)) {
      TSREAD_RETURN_IF_ERROR(Load(at, chunk_size, "chunk").status());
      // The header's strings were views into the window just replaced.
      TSREAD_ASSIGN_OR_RETURN(chunk, ParseChunkHeader(at));
    }
    TSREAD_ASSIGN_OR_RETURN(std::string_view bytes, window_.Load(at, chunk_size));
    TSREAD_RETURN_IF_ERROR(visitor_.OnChunk(chunk));
    next = pages_offset + chunk.data_size;
    return WalkPages(bytes.substr(chunk.header_size, chunk.data_size), pages_offset, chunk, visitor_);
  }

  const RandomAccessFile& file_;
  const DataRange& range_;
  DataSectionVisitor& visitor_;
  MemoryBudget* const budget_;
  MemoryHold memory_;
  FileWindow window_;
};

}  // namespace

absl::Status WalkDataSection(const RandomAccessFile& file, const DataRange& range, DataSectionVisitor& visitor,
                             const WalkOptions& options) {
  const uint64_t begin = kHeadSize;
  if (range.end < begin || range.end > file.size()) {
    return absl::InvalidArgumentError(absl::StrCat("data range [", begin, ", ", range.end, ") is not inside ",
                                                   file.name(), " (", file.size(), " bytes)"));
  }
  DataSectionWalk walk(file, range, visitor, options);
  return walk.Run();
}

absl::Status WalkDataSection(const TsFileReader& reader, DataSectionVisitor& visitor, const WalkOptions& options) {
  const uint64_t meta_offset = reader.metadata().meta_offset;
  DataRange range;
  range.version = reader.version();
  range.end = meta_offset + 1;  // include the separator
  range.separator_offset = meta_offset;
  return WalkDataSection(reader.file(), range, visitor, options);
}

}  // namespace tsread

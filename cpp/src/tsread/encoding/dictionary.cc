#include "tsread/encoding/dictionary.h"

#include "tsread/encoding/stream_error.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tsread/encoding/plain.h"
#include "tsread/encoding/rle.h"
#include "tsread/io/status_macros.h"

namespace tsread {
namespace {

// Reads the dictionary at the start of `stream` into `entries`; returns its size in bytes.
absl::StatusOr<size_t> ReadDictionary(std::string_view stream, std::vector<std::string_view>* entries) {
  const uint8_t* const begin = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* const end = begin + stream.size();
  auto offset = [begin](const uint8_t* at) { return static_cast<size_t>(at - begin); };
  const uint8_t* p = begin;
  // Java reads both the entry count and the lengths with readVarInt: zig-zag (§0 svar).
  auto read_svar = [&](const char* what, int32_t* v) -> absl::Status {
    uint32_t u;
    const uint8_t* next = ParseUVarInt32(p, end, &u);
    if (next == nullptr) return StreamCorrupt("DICTIONARY", what, offset(p), "truncated varint or longer than 32 bits");
    *v = ZigZagDecode32(u);
    if (*v < 0) return StreamCorrupt("DICTIONARY", what, offset(p), absl::StrCat("negative value ", *v));
    p = next;
    return absl::OkStatus();
  };

  int32_t entry_count = 0;
  TSREAD_RETURN_IF_ERROR(read_svar("entry count", &entry_count));
  // Each entry takes at least its one-byte length: bound the count before reserving anything.
  if (static_cast<size_t>(entry_count) > static_cast<size_t>(end - p)) {
    return StreamCorrupt("DICTIONARY", "entry count", 0,
                   absl::StrCat(entry_count, " entries cannot fit in the ", end - p, " bytes that remain"));
  }
  entries->reserve(static_cast<size_t>(entry_count));
  for (int32_t i = 0; i < entry_count; ++i) {
    int32_t length = 0;
    TSREAD_RETURN_IF_ERROR(read_svar("entry length", &length));
    if (static_cast<size_t>(length) > static_cast<size_t>(end - p)) {
      return StreamCorrupt("DICTIONARY", 
          "entry", offset(p),
          absl::StrCat("entry ", i, " of ", length, " bytes exceeds the ", end - p, " bytes that remain"));
    }
    entries->emplace_back(reinterpret_cast<const char*>(p), static_cast<size_t>(length));
    p += length;
  }
  return offset(p);
}

}  // namespace

absl::StatusOr<size_t> DecodeDictionaryBinaries(std::string_view stream, size_t count,
                                                std::string_view* out) {
  if (count == 0) return 0;
  std::vector<std::string_view> entries;
  TSREAD_ASSIGN_OR_RETURN(const size_t dictionary_bytes, ReadDictionary(stream, &entries));
  // One index buffer per page (count is the caller's, already backed by `out`).
  const auto indices = std::make_unique_for_overwrite<int32_t[]>(count);
  TSREAD_ASSIGN_OR_RETURN(const size_t index_bytes, DecodeRleInt32s(stream.substr(dictionary_bytes), count,
                                                                    indices.get(), dictionary_bytes));
  const size_t entry_count = entries.size();
  for (size_t i = 0; i < count; ++i) {
    // An unsigned compare also rejects negative indices.
    const auto index = static_cast<uint32_t>(indices[i]);
    if (index >= entry_count) {
      return StreamCorrupt("DICTIONARY", "index", dictionary_bytes,
                     absl::StrCat("index ", indices[i], " of value ", i, " is outside the ", entry_count,
                                  "-entry dictionary"));
    }
    out[i] = entries[index];
  }
  return dictionary_bytes + index_bytes;
}

}  // namespace tsread

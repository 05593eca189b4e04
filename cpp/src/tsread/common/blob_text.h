// BLOB values as text: "0x" and two lowercase hex digits per byte, the form every front end
// prints them in (cli-contract.md; the fixtures' CSVs write them so).
#ifndef TSREAD_COMMON_BLOB_TEXT_H_
#define TSREAD_COMMON_BLOB_TEXT_H_

#include <string>
#include <string_view>

namespace tsread {

// Appends `bytes` to `out` as 0x and lowercase hex.
void AppendBlobHex(std::string& out, std::string_view bytes);

}  // namespace tsread

#endif  // TSREAD_COMMON_BLOB_TEXT_H_

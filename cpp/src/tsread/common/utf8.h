// UTF-8 validity of TEXT/STRING bytes. TsFile stores them unchecked (format reference §5: a length
// and bytes); front ends whose string types require UTF-8 (DuckDB VARCHAR, Arrow utf8, Python str)
// check every value, and `tsread verify` notices values that are not.
#ifndef TSREAD_COMMON_UTF8_H_
#define TSREAD_COMMON_UTF8_H_

#include <string_view>

namespace tsread {

// Whether `s` is well-formed UTF-8: no overlong forms, surrogates, truncated sequences or code
// points past U+10FFFF. ASCII runs are checked eight bytes at a time.
bool IsValidUtf8(std::string_view s);

}  // namespace tsread

#endif  // TSREAD_COMMON_UTF8_H_

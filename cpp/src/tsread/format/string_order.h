// Java String order for UTF-8 bytes (format reference §6.4): the Java writer sorts device ids and
// measurement names with String.compareTo, i.e. by UTF-16 code units. Byte order of UTF-8 equals
// code-point order, which differs from UTF-16 order only when a supplementary character (stored
// as surrogates D800-DFFF in UTF-16) meets a character in U+E000..U+FFFF.
#ifndef TSREAD_FORMAT_STRING_ORDER_H_
#define TSREAD_FORMAT_STRING_ORDER_H_

#include <string_view>

namespace tsread {

// <0, 0, >0 as Java's a.compareTo(b) for the strings whose UTF-8 bytes are `a` and `b`.
int CompareJavaStrings(std::string_view a, std::string_view b);

}  // namespace tsread

#endif  // TSREAD_FORMAT_STRING_ORDER_H_

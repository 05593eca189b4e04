// A small RFC 4180 reader for the fixtures' expected CSVs. Each field keeps whether it was
// quoted, because the fixtures write null as an empty unquoted field and "" as the empty string.
#ifndef TSREAD_TESTING_CSV_H_
#define TSREAD_TESTING_CSV_H_

#include <string>
#include <vector>

namespace tsread::testing {

struct CsvField {
  std::string text;
  bool quoted = false;
  bool is_null() const { return !quoted && text.empty(); }
};

using CsvRow = std::vector<CsvField>;

// Parses a whole CSV document (LF or CRLF line ends; quoted fields may span lines).
std::vector<CsvRow> ParseCsv(const std::string& text);

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_CSV_H_

#include "testing/csv.h"

namespace tsread::testing {

std::vector<CsvRow> ParseCsv(const std::string& text) {
  std::vector<CsvRow> rows;
  CsvRow row;
  CsvField field;
  size_t i = 0;
  bool at_field_start = true;
  auto end_field = [&] {
    row.push_back(std::move(field));
    field = CsvField();
    at_field_start = true;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (at_field_start && c == '"') {
      field.quoted = true;
      at_field_start = false;
      ++i;
      while (i < text.size()) {
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field.text.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.text.push_back(text[i++]);
      }
      continue;
    }
    at_field_start = false;
    if (c == ',') {
      end_field();
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      end_field();
      rows.push_back(std::move(row));
      row.clear();
      if (c == '\r') ++i;
    } else {
      field.text.push_back(c);
    }
    ++i;
  }
  if (!at_field_start || !row.empty()) {
    end_field();
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tsread::testing

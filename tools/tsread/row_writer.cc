#include "row_writer.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "time_parse.h"
#include "value_format.h"

namespace tsread::cli {

RowWriter::RowWriter(RowFormat format, TimeFormat time_format, std::vector<std::string> columns, BlockOutput& out)
    : format_(format), time_format_(time_format), columns_(std::move(columns)), out_(out) {
  for (const std::string& c : columns_) keys_.push_back(JsonString(c) + ":");
}

void RowWriter::Header() {
  if (format_ != RowFormat::kCsv) return;
  std::string& line = out_.line();
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (c) line += ',';
    AppendCsvField(line, columns_[c]);
  }
  line += '\n';
}

std::string& RowWriter::Cell() {
  std::string& line = out_.line();
  if (format_ == RowFormat::kCsv) {
    if (cell_ > 0) line += ',';
  } else {
    line += cell_ == 0 ? "{" : ",";
    line += keys_[cell_];
  }
  ++cell_;
  return line;
}

void RowWriter::Time(int64_t t) {
  std::string& line = Cell();
  if (time_format_ == TimeFormat::kIso) {
    const std::string iso = FormatIsoMillis(t);
    if (format_ == RowFormat::kCsv) {
      line += iso;
    } else {
      absl::StrAppend(&line, "\"", iso, "\"");
    }
  } else {
    absl::StrAppend(&line, t);
  }
}

void RowWriter::Quoted(std::string_view s) {
  std::string& line = Cell();
  if (format_ == RowFormat::kCsv) {
    AppendQuoted(line, s);
  } else {
    line += JsonString(s);
  }
}

void RowWriter::Name(std::string_view s) {
  std::string& line = Cell();
  if (format_ == RowFormat::kCsv) {
    AppendCsvField(line, s);
  } else {
    line += JsonString(s);
  }
}

void RowWriter::Null() {
  std::string& line = Cell();
  if (format_ == RowFormat::kNdjson) line += "null";
}

void RowWriter::Value(const ColumnVector& column, size_t row) {
  if (format_ == RowFormat::kCsv) {
    AppendValue(Cell(), column, row);
    return;
  }
  std::string& line = Cell();
  switch (column.type) {
    case DataType::kFloat:
      if (!std::isfinite(column.floats[row])) {
        line += "null";
        return;
      }
      break;
    case DataType::kDouble:
      if (!std::isfinite(column.doubles[row])) {
        line += "null";
        return;
      }
      break;
    case DataType::kText:
    case DataType::kString: line += JsonString(column.binary(row)); return;
    case DataType::kBlob:
      line += '"';
      AppendBlobHex(line, column.binary(row));
      line += '"';
      return;
    default: break;
  }
  // The CSV form of the other types is valid JSON: true/false, decimal integers, Java-style
  // floats ("1.0E10", "-0.0").
  AppendValue(line, column, row);
}

bool RowWriter::EndRow() {
  std::string& line = out_.line();
  if (format_ == RowFormat::kNdjson) line += cell_ == 0 ? "{}" : "}";
  line += '\n';
  cell_ = 0;
  return out_.MaybeFlush();
}

}  // namespace tsread::cli

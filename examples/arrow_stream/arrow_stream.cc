// arrow_stream FILE TABLE: exports a scan of one table as an Arrow C stream and reads it back as
// an Arrow consumer would: the schema (column names and Arrow format strings), then every batch,
// counting rows and nulls per column. The lines between the snippet markers are the README's
// "Arrow" example (tools/check_snippets.sh keeps them equal).
//
//   $ arrow_stream table_multi.tsfile tbl_a
//   tbl_a: 3822 rows
//   time tsm:: 0 nulls
//   site u: 1011 nulls
//   ...
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "tsread/arrow/arrow_stream.h"

int Fail(const absl::Status& status) {
  std::cerr << status << "\n";
  return 2;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: arrow_stream FILE TABLE\n";
    return 1;
  }
  // snippet: README.md
  absl::StatusOr<std::unique_ptr<tsread::TsFileReader>> opened = tsread::TsFileReader::Open(argv[1]);
  if (!opened.ok()) return Fail(opened.status());
  std::shared_ptr<const tsread::TsFileReader> reader = *std::move(opened);  // the stream shares ownership
  tsread::ScanOptions options;
  options.table = argv[2];
  absl::StatusOr<std::unique_ptr<tsread::TableScanner>> scanner = tsread::TableScanner::Create(*reader, options);
  if (!scanner.ok()) return Fail(scanner.status());
  ArrowArrayStream stream;
  absl::Status status = tsread::ExportArrowStream(reader, *std::move(scanner), tsread::ArrowExportOptions{}, &stream);
  if (!status.ok()) return Fail(status);
  // Hand &stream to any Arrow C stream consumer (DuckDB, pyarrow, Polars...), which releases it.
  // end snippet

  // What such a consumer does: the schema first (a struct with a child per column) ...
  ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) != 0) {
    std::cerr << "get_schema: " << stream.get_last_error(&stream) << "\n";
    stream.release(&stream);
    return 2;
  }
  std::vector<std::string> names, formats;
  for (int64_t c = 0; c < schema.n_children; ++c) {
    names.emplace_back(schema.children[c]->name);
    formats.emplace_back(schema.children[c]->format);
  }
  schema.release(&schema);
  // ... then struct arrays until one with release == nullptr (the end of the stream).
  int64_t rows = 0;
  std::vector<int64_t> nulls(names.size());
  while (true) {
    ArrowArray batch;
    if (stream.get_next(&stream, &batch) != 0) {
      std::cerr << "get_next: " << stream.get_last_error(&stream) << "\n";
      stream.release(&stream);
      return 2;
    }
    if (batch.release == nullptr) break;
    rows += batch.length;
    for (int64_t c = 0; c < batch.n_children; ++c) nulls[c] += batch.children[c]->null_count;
    batch.release(&batch);
  }
  stream.release(&stream);

  std::cout << options.table << ": " << rows << " rows\n";
  for (size_t c = 0; c < names.size(); ++c) {
    std::cout << names[c] << " " << formats[c] << ": " << nulls[c] << " nulls\n";
  }
  return 0;
}

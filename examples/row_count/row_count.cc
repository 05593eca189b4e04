// row_count FILE: the rows of every table of a TsFile, counted by a full scan (and, to compare,
// from metadata alone) — a minimal program against the installed tsread package.
#include <iostream>

#include "tsread/aggregate/file_summary.h"
#include "tsread/read/table_scanner.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: row_count FILE\n";
    return 1;
  }
  absl::StatusOr<std::unique_ptr<tsread::TsFileReader>> reader = tsread::TsFileReader::Open(argv[1]);
  if (!reader.ok()) {
    std::cerr << reader.status() << "\n";
    return 2;
  }
  for (const tsread::TableSchema* table : (*reader)->Tables()) {
    tsread::ScanOptions options;
    options.table = table->name;
    absl::StatusOr<std::unique_ptr<tsread::TableScanner>> scanner = tsread::TableScanner::Create(**reader, options);
    if (!scanner.ok()) {
      std::cerr << scanner.status() << "\n";
      return 2;
    }
    uint64_t rows = 0;
    absl::Status status = (*scanner)->Scan([&](int, const tsread::TableBatch& batch) {
      rows += batch.num_rows();
      return absl::OkStatus();
    });
    if (!status.ok()) {
      std::cerr << status << "\n";
      return 2;
    }
    absl::StatusOr<uint64_t> planned = (*scanner)->planned_rows();
    if (!planned.ok()) {
      std::cerr << planned.status() << "\n";
      return 2;
    }
    std::cout << table->name << ": " << rows << " rows scanned, " << *planned << " in the metadata\n";
  }
  return 0;
}

// scan_table FILE TABLE [COLUMN...]: scans one table (the columns named, or all of them) on two
// threads and prints the rows and, per column, how many rows have a value. The lines between the
// snippet markers are the README's "Library" example (tools/check_snippets.sh keeps them equal).
//
//   $ scan_table table_multi.tsfile tbl_b region voltage
//   tbl_b: 5610 rows
//   region TAG STRING: 4451 non-null
//   voltage FIELD DOUBLE: 5153 non-null
#include <cstdint>
#include <iostream>
#include <vector>

#include "tsread/read/table_scanner.h"

// Every fallible tsread call returns absl::Status or absl::StatusOr<T>.
int Fail(const absl::Status& status) {
  std::cerr << status << "\n";
  return 2;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: scan_table FILE TABLE [COLUMN...]\n";
    return 1;
  }
  // snippet: README.md
  absl::StatusOr<std::unique_ptr<tsread::TsFileReader>> reader = tsread::TsFileReader::Open(argv[1]);
  if (!reader.ok()) return Fail(reader.status());
  tsread::ScanOptions options;
  options.table = argv[2];                               // e.g. "tbl_b"
  options.columns.assign(argv + 3, argv + argc);         // e.g. {"region", "voltage"}; empty = all
  options.num_threads = 2;                               // ordered by default: device-index order
  absl::StatusOr<std::unique_ptr<tsread::TableScanner>> scanner = tsread::TableScanner::Create(**reader, options);
  if (!scanner.ok()) return Fail(scanner.status());
  const std::vector<tsread::ProjectedColumn>& projection = (*scanner)->projection();
  uint64_t rows = 0;
  std::vector<uint64_t> non_null(projection.size());
  absl::Status status = (*scanner)->Scan([&](int /*worker*/, const tsread::TableBatch& batch) {
    rows += batch.num_rows();                            // batch.times[r]: row r's timestamp
    for (size_t j = 0; j < projection.size(); ++j) {
      if (projection[j].category == tsread::ColumnCategory::kTag) {
        if (batch.tag(projection[j]).has_value()) non_null[j] += batch.num_rows();  // one device per batch
      } else {                                           // FIELD: batch.columns[j].doubles[r], .binary(r)...
        non_null[j] += batch.columns[j].size() - batch.columns[j].null_count;       // or IsValid(r) per row
      }
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return Fail(status);
  // end snippet
  std::cout << options.table << ": " << rows << " rows\n";
  for (size_t j = 0; j < projection.size(); ++j) {
    std::cout << projection[j].name << " " << tsread::ColumnCategoryName(projection[j].category) << " "
              << tsread::DataTypeName(projection[j].data_type) << ": " << non_null[j] << " non-null\n";
  }
  return 0;
}

// Reads every value of an in-memory TsFile through the public read API — open, summary, every
// table scanned with every column, every tree-model series — and returns the first error. Used
// by the truncation/corruption sweeps and the fuzzers: whatever the bytes, this must return (an
// error or OK), never crash, hang or allocate without bound.
#ifndef TSREAD_TESTING_READ_EVERYTHING_H_
#define TSREAD_TESTING_READ_EVERYTHING_H_

#include <string_view>

#include "absl/status/status.h"
#include "tsread/aggregate/file_summary.h"
#include "tsread/read/series_reader.h"
#include "tsread/read/table_scanner.h"

namespace tsread::testing {

inline absl::Status ReadEverything(std::string_view bytes, uint64_t* rows_read = nullptr) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(MemoryFileView(bytes));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<FileSummary> summary = SummarizeFile(**reader);
  if (!summary.ok()) return summary.status();
  uint64_t rows = 0;
  for (const TableSchema* table : (*reader)->Tables()) {
    ScanOptions options;
    options.table = table->name;
    absl::StatusOr<std::unique_ptr<TableScanner>> scanner = TableScanner::Create(**reader, options);
    if (!scanner.ok()) return scanner.status();
    absl::Status s = (*scanner)->Scan([&](int, const TableBatch& batch) {
      rows += batch.num_rows();
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
  }
  for (const std::string& index : (*reader)->TreeIndexNames()) {
    absl::StatusOr<DeviceIterator> devices = (*reader)->Devices(index);
    if (!devices.ok()) return devices.status();
    while (true) {
      absl::StatusOr<const DeviceEntry*> device = devices->Next();
      if (!device.ok()) return device.status();
      if (*device == nullptr) break;
      absl::StatusOr<std::vector<TimeseriesMetadata>> series = (*reader)->ReadTimeseries((*device)->location);
      if (!series.ok()) return series.status();
      const std::string name = (*device)->id.ToString();
      for (const TimeseriesMetadata& tsm : *series) {
        if (tsm.is_time_column()) continue;
        absl::StatusOr<std::unique_ptr<SeriesReader>> points = SeriesReader::Create(**reader, name, *series, tsm.measurement);
        if (!points.ok()) return points.status();
        while (true) {
          absl::StatusOr<const SeriesBatch*> batch = (*points)->Next();
          if (!batch.ok()) return batch.status();
          if (*batch == nullptr) break;
          rows += (*batch)->times.size();
        }
      }
    }
  }
  if (rows_read != nullptr) *rows_read = rows;
  return absl::OkStatus();
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_READ_EVERYTHING_H_

// The C ABI's source (tsread.h, "Opening input"): what tsread_open and tsread_open_memory open,
// shared with the scans it starts (a stream keeps the source's parts alive, not the handle).
#ifndef TSREAD_C_SOURCE_H_
#define TSREAD_C_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "tsread/dataset/dataset.h"
#include "tsread/iotdb/iotdb_dataset.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/tsread.h"

// Exactly one of the three is set: files as written (a dataset), IoTDB data read as IoTDB answers,
// or one file in memory.
struct tsread_source {
  std::shared_ptr<const tsread::Dataset> dataset;
  std::shared_ptr<const tsread::iotdb::IotdbDataset> iotdb;
  std::shared_ptr<const tsread::TsFileReader> memory;
  std::vector<std::string> files;   // tsread_file_path
  std::vector<std::string> tables;  // tsread_table_name, sorted
  std::vector<std::string> warnings;  // tsread_warning
};

struct tsread_columns {
  std::vector<tsread::ColumnSchema> columns;
};

#endif  // TSREAD_C_SOURCE_H_

// Test helper (header-only): a table's rows per device, owned, in the shape the writer takes —
// for writer round trips (write, read back, compare) and for re-writing reader fixtures.
#ifndef TSREAD_TESTING_TABLE_ROWS_H_
#define TSREAD_TESTING_TABLE_ROWS_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "tsread/format/device_id.h"
#include "tsread/io/status_macros.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/tsfile_reader.h"
#include "tsread/write/column_values.h"

namespace tsread::testing {

// One FIELD column's rows with owned binaries. `values()` views them as ColumnValues.
struct OwnedColumn {
  DataType type = DataType::kInt64;
  std::vector<uint8_t> valid;  // one byte per row
  std::vector<uint8_t> bools;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<std::string> binaries;

  // Rows [begin, end) as ColumnValues (binaries view this column).
  ColumnValues Slice(size_t begin, size_t end) const {
    ColumnValues v;
    v.type = type;
    v.valid.assign(valid.begin() + begin, valid.begin() + end);
    switch (PhysicalTypeOf(type)) {
      case PhysicalType::kBoolean:
        v.bools.assign(bools.begin() + begin, bools.begin() + end);
        break;
      case PhysicalType::kInt32:
        v.int32s.assign(int32s.begin() + begin, int32s.begin() + end);
        break;
      case PhysicalType::kInt64:
        v.int64s.assign(int64s.begin() + begin, int64s.begin() + end);
        break;
      case PhysicalType::kFloat:
        v.floats.assign(floats.begin() + begin, floats.begin() + end);
        break;
      case PhysicalType::kDouble:
        v.doubles.assign(doubles.begin() + begin, doubles.begin() + end);
        break;
      case PhysicalType::kBinary:
        for (size_t r = begin; r < end; ++r) v.binaries.emplace_back(binaries[r]);
        break;
    }
    return v;
  }

  // Appends rows of a reader ColumnVector.
  void Append(const ColumnVector& c) {
    for (size_t r = 0; r < c.size(); ++r) valid.push_back(c.IsValid(r) ? 1 : 0);
    switch (PhysicalTypeOf(type)) {
      case PhysicalType::kBoolean:
        bools.insert(bools.end(), c.bools.begin(), c.bools.end());
        break;
      case PhysicalType::kInt32:
        int32s.insert(int32s.end(), c.int32s.begin(), c.int32s.end());
        break;
      case PhysicalType::kInt64:
        int64s.insert(int64s.end(), c.int64s.begin(), c.int64s.end());
        break;
      case PhysicalType::kFloat:
        floats.insert(floats.end(), c.floats.begin(), c.floats.end());
        break;
      case PhysicalType::kDouble:
        doubles.insert(doubles.end(), c.doubles.begin(), c.doubles.end());
        break;
      case PhysicalType::kBinary:
        for (size_t r = 0; r < c.size(); ++r) binaries.emplace_back(c.binary(r));
        break;
    }
  }
};

struct DeviceRows {
  DeviceId id;
  std::vector<int64_t> times;
  std::vector<OwnedColumn> fields;  // FIELD columns in schema order
};

// Every device of `table` (index order) with all its rows, FIELD columns in schema order.
inline absl::StatusOr<std::vector<DeviceRows>> ReadTableRows(const TsFileReader& reader, const std::string& table) {
  const TableSchema* schema = reader.FindTable(table);
  if (schema == nullptr) return absl::NotFoundError("no table " + table);
  ScanOptions options;
  options.table = table;
  std::vector<DataType> types;
  for (const ColumnSchema& column : schema->columns) {
    if (column.category != ColumnCategory::kField) continue;
    options.columns.push_back(column.name);
    types.push_back(column.data_type);
  }
  if (options.columns.empty()) {
    // A table without FIELD columns: project a tag to still get the rows.
    for (const ColumnSchema& column : schema->columns) options.columns.push_back(column.name);
  }
  TSREAD_ASSIGN_OR_RETURN(std::unique_ptr<TableScanner> scanner, TableScanner::Create(reader, options));
  std::vector<DeviceRows> devices;
  TSREAD_RETURN_IF_ERROR(scanner->Scan([&](int, const TableBatch& batch) -> absl::Status {
    if (devices.empty() || !(devices.back().id == *batch.device)) {
      DeviceRows rows;
      rows.id = *batch.device;
      rows.fields.resize(types.size());
      for (size_t c = 0; c < types.size(); ++c) rows.fields[c].type = types[c];
      devices.push_back(std::move(rows));
    }
    DeviceRows& rows = devices.back();
    rows.times.insert(rows.times.end(), batch.times.begin(), batch.times.end());
    for (size_t c = 0; c < types.size(); ++c) rows.fields[c].Append(batch.columns[c]);
    return absl::OkStatus();
  }));
  return devices;
}

}  // namespace tsread::testing

#endif  // TSREAD_TESTING_TABLE_ROWS_H_

#include "tsread/read/table_reader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tsread/io/status_macros.h"

namespace tsread {

absl::StatusOr<std::unique_ptr<TableReader>> TableReader::Create(const TsFileReader& reader, const std::string& table,
                                                                 TableReadOptions options) {
  const TableSchema* schema = reader.FindTable(table);
  if (schema == nullptr) return absl::InvalidArgumentError(absl::StrCat("no table named \"", table, "\""));
  TSREAD_ASSIGN_OR_RETURN(std::vector<ProjectedColumn> projection, ResolveProjection(*schema, options.columns));
  std::optional<DeviceIterator> devices;
  if (reader.metadata().FindIndex(table) != nullptr) {
    TSREAD_ASSIGN_OR_RETURN(DeviceIterator it, reader.Devices(table));
    devices.emplace(std::move(it));
  }
  return std::unique_ptr<TableReader>(
      new TableReader(reader, std::move(options), std::move(projection), std::move(devices)));
}

TableReader::TableReader(const TsFileReader& reader, TableReadOptions options, std::vector<ProjectedColumn> projection,
                         std::optional<DeviceIterator> devices)
    : reader_(&reader), options_(std::move(options)), projection_(std::move(projection)), devices_(std::move(devices)) {
  columns_ = AlignedColumnsOf(projection_);
  batch_.device = &device_;
  batch_.projection = &projection_;
  batch_.file = &reader_->file().name();
}

absl::StatusOr<bool> TableReader::StartNextDevice() {
  if (!devices_.has_value()) return false;
  TSREAD_ASSIGN_OR_RETURN(const DeviceEntry* entry, devices_->Next());
  if (entry == nullptr) return false;
  device_ = entry->id.ToOwned();
  TSREAD_ASSIGN_OR_RETURN(series_, reader_->ReadTimeseries(entry->location, &index_reads_));
  TSREAD_RETURN_IF_ERROR(
      device_reader_.Reset(*reader_, device_, series_, columns_, options_.time_range, options_.limits));
  return true;
}

absl::StatusOr<const TableBatch*> TableReader::Next() {
  while (true) {
    if (!in_device_) {
      TSREAD_ASSIGN_OR_RETURN(in_device_, StartNextDevice());
      if (!in_device_) return static_cast<const TableBatch*>(nullptr);
    }
    TSREAD_ASSIGN_OR_RETURN(bool has_page, device_reader_.NextPage(batch_.times, batch_.columns));
    if (!has_page) {
      in_device_ = false;
      continue;
    }
    if (batch_.num_rows() > 0) return &batch_;
  }
}

}  // namespace tsread

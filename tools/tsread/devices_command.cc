// `tsread devices FILE [--table T]`: one device id per line (segments joined by '.', a null
// segment as "null"), in index order; without --table every table's devices, then tree devices.
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

absl::Status PrintDevices(const TsFileReader& reader, const std::string& index_name) {
  absl::StatusOr<DeviceIterator> devices = reader.Devices(index_name);
  if (!devices.ok()) return devices.status();
  while (true) {
    absl::StatusOr<const DeviceEntry*> device = devices->Next();
    if (!device.ok()) return device.status();
    if (*device == nullptr) return absl::OkStatus();
    std::cout << (*device)->id.ToString() << "\n";
  }
}

}  // namespace

int RunDevices(const Args& args) {
  absl::StatusOr<std::unique_ptr<TsFileReader>> reader = TsFileReader::Open(args.positional[0]);
  if (!reader.ok()) return Fail(reader.status());
  std::vector<std::string> indexes;
  if (std::optional<std::string> table = args.Get("table")) {
    if ((*reader)->FindTable(*table) == nullptr && (*reader)->metadata().FindIndex(*table) == nullptr) {
      return UsageError(absl::StrCat("unknown table \"", *table, "\""));
    }
    if ((*reader)->metadata().FindIndex(*table) != nullptr) indexes.push_back(*table);
  } else {
    for (const TableSchema* schema : (*reader)->Tables()) {
      if ((*reader)->metadata().FindIndex(schema->name) != nullptr) indexes.push_back(schema->name);
    }
    for (const std::string& name : (*reader)->TreeIndexNames()) indexes.push_back(name);
  }
  for (const std::string& index : indexes) {
    if (absl::Status s = PrintDevices(**reader, index); !s.ok()) return Fail(s);
  }
  return kOk;
}

}  // namespace tsread::cli

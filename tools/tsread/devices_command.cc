// `tsread devices FILE [--table T]`: one device id per line (segments joined by '.', a null
// segment as "null"), in index order; without --table every table's devices, then tree devices.
#include <iostream>
#include <memory>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "cli.h"
#include "tsread/read/tsfile_reader.h"

namespace tsread::cli {
namespace {

// Prints the devices under `index_name` not printed before (`seen`: a dataset's files share
// devices; each is printed once, where it first appears).
absl::Status PrintDevices(const TsFileReader& reader, const std::string& index_name,
                          std::unordered_set<std::string>& seen) {
  absl::StatusOr<DeviceIterator> devices = reader.Devices(index_name);
  if (!devices.ok()) return devices.status();
  while (true) {
    absl::StatusOr<const DeviceEntry*> device = devices->Next();
    if (!device.ok()) return device.status();
    if (*device == nullptr) return absl::OkStatus();
    std::string id = (*device)->id.ToString();
    if (seen.insert(id).second) std::cout << id << "\n";
  }
}

absl::Status PrintFileDevices(const TsFileReader& reader, const std::optional<std::string>& table,
                              std::unordered_set<std::string>& seen) {
  std::vector<std::string> indexes;
  if (table.has_value()) {
    if (reader.metadata().FindIndex(*table) != nullptr) indexes.push_back(*table);
  } else {
    for (const TableSchema* schema : reader.Tables()) {
      if (reader.metadata().FindIndex(schema->name) != nullptr) indexes.push_back(schema->name);
    }
    for (const std::string& name : reader.TreeIndexNames()) indexes.push_back(name);
  }
  for (const std::string& index : indexes) {
    if (absl::Status s = PrintDevices(reader, index, seen); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

int RunDevices(const Args& args) {
  absl::StatusOr<std::unique_ptr<Dataset>> dataset = OpenInputs(args);
  if (!dataset.ok()) return Fail(dataset.status());
  const std::optional<std::string> table = args.Get("table");
  std::unordered_set<std::string> seen;
  bool known = !table.has_value();
  for (size_t f = 0; f < (*dataset)->files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = (*dataset)->OpenFile(f);
    if (!reader.ok()) return Fail(WithFileName(reader.status(), (*dataset)->files()[f].path));
    known |= table.has_value() && ((*reader)->FindTable(*table) != nullptr || (*reader)->metadata().FindIndex(*table) != nullptr);
  }
  if (!known) return UsageError(absl::StrCat("unknown table \"", *table, "\""));
  for (size_t f = 0; f < (*dataset)->files().size(); ++f) {
    absl::StatusOr<std::shared_ptr<const TsFileReader>> reader = (*dataset)->OpenFile(f);
    if (!reader.ok()) return Fail(WithFileName(reader.status(), (*dataset)->files()[f].path));
    if (absl::Status s = PrintFileDevices(**reader, table, seen); !s.ok()) {
      return Fail(WithFileName(s, (*dataset)->files()[f].path));
    }
  }
  return kOk;
}

}  // namespace tsread::cli

// IoTDB inputs of the CLI (iotdb_inputs.h).
#include "iotdb_inputs.h"

#include <algorithm>
#include <cstdio>

namespace tsread::cli {

absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> OpenIotdbInputs(const Args& args) {
  if (args.Has("raw")) return std::unique_ptr<iotdb::IotdbDataset>();
  iotdb::IotdbOptions options;
  options.database = args.Get("database").value_or("");
  options.ignore_errors = args.Has("ignore-errors");
  // The layout first (a listing and a stat per file): plain inputs are then opened once, plainly.
  absl::StatusOr<iotdb::IotdbLayout> layout = iotdb::FindLayout(args.positional);
  if (!layout.ok() || !iotdb::AppliesRules(*layout)) return std::unique_ptr<iotdb::IotdbDataset>();
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> dataset = iotdb::IotdbDataset::OpenLayout(std::move(*layout), options);
  if (!dataset.ok()) return dataset.status();
  for (const std::string& warning : (*dataset)->Warnings()) std::fprintf(stderr, "tsread: warning: %s\n", warning.c_str());
  if (!options.database.empty()) {
    const std::vector<std::string> databases = (*dataset)->layout().databases();
    if (std::find(databases.begin(), databases.end(), options.database) == databases.end()) {
      return absl::InvalidArgumentError("--database " + options.database + ": no such database in the input");
    }
  }
  return dataset;
}

absl::Status CheckIotdbFlagsUnused(const Args& args) {
  for (const char* flag : {"database", "ignore-errors"}) {
    if (args.Has(flag)) {
      return absl::InvalidArgumentError(std::string("--") + flag +
                                        (args.Has("raw") ? " does not go with --raw" : " applies to IoTDB data only, and the input holds none"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tsread::cli

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
  absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> dataset =
      iotdb::IotdbDataset::OpenIfIotdbData(args.positional, false, options);
  if (!dataset.ok() || *dataset == nullptr) return dataset;
  for (const std::string& warning : (*dataset)->Warnings()) std::fprintf(stderr, "tsread: warning: %s\n", warning.c_str());
  if (!options.database.empty() && !(*dataset)->HoldsDatabase(options.database)) {
    return absl::InvalidArgumentError("--database " + options.database + ": no such database in the input");
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

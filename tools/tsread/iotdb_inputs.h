// The CLI's IoTDB reading: inputs that are (or are below) an IoTDB data directory, or files with
// IoTDB deletion files beside them, are read as IoTDB answers (tsread/iotdb/iotdb_dataset.h) unless
// --raw asks for the files as written. --database names the database of a table or of tree devices;
// --ignore-errors applies a deletion file's entries before one of an unknown kind.
#ifndef TSREAD_TOOLS_IOTDB_INPUTS_H_
#define TSREAD_TOOLS_IOTDB_INPUTS_H_

#include <memory>

#include "absl/status/statusor.h"
#include "cli.h"
#include "tsread/iotdb/iotdb_dataset.h"

namespace tsread::cli {

// The inputs as an IotdbDataset, or nullptr when --raw is given or IoTDB's rules change nothing
// (plain files without deletion files): the caller then reads them plainly (OpenInputs). Prints
// the dataset's warnings (leftovers resolved, damaged deletion files) on stderr.
absl::StatusOr<std::unique_ptr<iotdb::IotdbDataset>> OpenIotdbInputs(const Args& args);

// InvalidArgument when --database or --ignore-errors is given with --raw or to inputs that hold
// no IoTDB data (the flag would change nothing, silently).
absl::Status CheckIotdbFlagsUnused(const Args& args);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_IOTDB_INPUTS_H_

// Shared pieces of the tsread CLI: parsed arguments, exit codes (cli-contract.md), JSON output.
#ifndef TSREAD_TOOLS_CLI_H_
#define TSREAD_TOOLS_CLI_H_

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "row_writer.h"
#include "tsread/read/aligned_device_reader.h"
#include "tsread/dataset/dataset.h"
#include "tsread/read/memory_budget.h"
#include "tsread/read/table_scanner.h"
#include "tsread/read/value_predicate.h"

namespace tsread::cli {

// Exit codes of the contract.
enum ExitCode : int { kOk = 0, kUsage = 1, kCorrupt = 2, kIoError = 3 };

// argv after the subcommand: positional arguments and --flag[=value] / --flag value options.
struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> flags;  // every value given; boolean flags get ""

  bool Has(const std::string& flag) const { return flags.count(flag) > 0; }
  // The last value given for `flag`.
  std::optional<std::string> Get(const std::string& flag) const;
  // Every value given for a repeatable flag, in order.
  std::vector<std::string> GetAll(const std::string& flag) const;
};

// Parses `argv` given the flags that take a value and the boolean ones. Unknown flags are an
// error (returns nullopt and prints to stderr).
std::optional<Args> ParseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& value_flags,
                              const std::vector<std::string>& bool_flags);

// Prints "tsread: <message>" to stderr and returns the exit code for the status.
int Fail(const absl::Status& status);
// Prints a usage error and returns kUsage.
int UsageError(std::string_view message);

// --time-format epoch|iso (epoch when absent); InvalidArgument naming the flag otherwise.
absl::StatusOr<TimeFormat> TimeFormatFromArgs(const Args& args);
// A time (ms) as the format says: its digits, or ISO-8601 UTC; `json` quotes the ISO form.
std::string TimeText(int64_t ms, TimeFormat format, bool json = false);

// --start/--end as an inclusive range: integers or ISO-8601 (time_parse.h); InvalidArgument for
// anything else or a start after the end.
absl::StatusOr<TimeRange> TimeRangeFromArgs(const Args& args);
// --threads N: 1 to 256, 1 when absent. InvalidArgument for anything else.
absl::StatusOr<int> ThreadsFromArgs(const Args& args);
// --memory-budget SIZE: bytes, or with a K, M or G suffix (powers of 1024); 0 when absent (no
// budget). InvalidArgument for anything else.
absl::StatusOr<uint64_t> MemoryBudgetFromArgs(const Args& args);
// --memory-budget for the whole-file walks (verify, sketch, salvage): the budget, or null when the
// flag is absent. InvalidArgument as MemoryBudgetFromArgs.
absl::StatusOr<std::unique_ptr<MemoryBudget>> WalkBudgetFromArgs(const Args& args);
// --columns a,b,c (empty when absent); spaces around names are dropped, `time` is left out.
absl::StatusOr<std::vector<std::string>> ColumnsFromArgs(const Args& args);
// A comma-list flag (repeatable) as its non-empty items, spaces trimmed.
std::vector<std::string> ListFromFlag(const Args& args, const std::string& flag);

// --where in the predicate grammar (read/predicate_text.h; repeatable, ANDed): `s_double>380`,
// `region=east,west`, `tag=` (a null tag), `a < 5 AND b IS NOT NULL`.
absl::StatusOr<std::vector<PredicateExpr>> PredicatesFromArgs(const Args& args);

// The positional inputs (files, globs, directories) as a dataset; warns on stderr of each
// file's IoTDB deletion file, which is not applied (WarnOfDeletions).
absl::StatusOr<std::unique_ptr<Dataset>> OpenInputs(const Args& args);
// "tsread: warning: ..." on stderr when `deletions` is set (deletion_files.h).
void WarnOfDeletions(std::string_view tsfile_path, const std::optional<DeletionFile>& deletions);
// Whether the inputs are one plain file path (no glob, not a directory): the single-file output.
bool IsSingleFile(const Args& args);

// `s` as a JSON string literal (quotes included). Bytes >= 0x80 are passed through; control
// characters are escaped.
std::string JsonString(std::string_view s);

int RunInfo(const Args& args);
int RunDevices(const Args& args);
int RunSketch(const Args& args);
int RunCat(const Args& args);
int RunScan(const Args& args);
int RunAgg(const Args& args);
int RunLast(const Args& args);
// agg --tree and last --tree (agg_tree_command.cc).
int RunAggTree(const Args& args);
int RunLastTree(const Args& args);
int RunVerify(const Args& args);
int RunSalvage(const Args& args);
int RunGen(const Args& args);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_CLI_H_

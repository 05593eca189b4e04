// tsread: inspect, dump and benchmark TsFiles. Output formats and exit codes follow the CLI
// contract (docs/cli.md).
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "help.h"
#include "output.h"

#ifndef TSREAD_VERSION
#define TSREAD_VERSION "unknown"
#endif

namespace {

struct Command {
  const char* name;
  std::vector<std::string> value_flags;
  std::vector<std::string> bool_flags;
  bool takes_many;  // several inputs (a dataset) or exactly one file
  int (*run)(const tsread::cli::Args&);
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"info", {"database"}, {"json", "columns", "raw", "ignore-errors"}, true, tsread::cli::RunInfo},
      {"devices", {"table", "database"}, {"json", "raw", "ignore-errors"}, true, tsread::cli::RunDevices},
      {"sketch", {"memory-budget"}, {}, false, tsread::cli::RunSketch},
      {"cat",
       {"table", "columns", "start", "end", "where", "devices", "measurements", "limit", "format", "time-format",
        "memory-budget", "database"},
       {"tree", "raw", "ignore-errors"},
       true,
       tsread::cli::RunCat},
      {"scan", {"table", "columns", "start", "end", "where", "threads", "memory-budget", "database"},
       {"json", "raw", "ignore-errors"}, true, tsread::cli::RunScan},
      {"agg",
       {"table", "columns", "by", "bucket", "bucket-origin", "start", "end", "where", "devices", "measurements",
        "time-format", "threads", "time-zone", "database"},
       {"json", "tree", "fill-empty", "raw", "ignore-errors"},
       true, tsread::cli::RunAgg},
      {"last", {"table", "columns", "start", "end", "where", "devices", "measurements", "time-format", "database"},
       {"json", "tree", "raw", "ignore-errors"},
       true,
       tsread::cli::RunLast},
      {"verify", {"memory-budget"}, {}, false, tsread::cli::RunVerify},
      // IN [OUT]: one or two positionals, checked by RunSalvage.
      {"salvage", {"schema-from", "memory-budget"}, {"json", "force"}, true, tsread::cli::RunSalvage},
      {"gen",
       {"devices", "rows", "seed", "compression", "page-points", "fields", "null-ratio", "files", "unsequence", "deleted"},
       {"force", "iotdb"},
       false,
       tsread::cli::RunGen},
  };
  return commands;
}

const Command* FindCommand(const std::string& name) {
  for (const Command& command : Commands()) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

bool IsHelpFlag(const std::string& arg) { return arg == "--help" || arg == "-h"; }

// `tsread help [CMD]`: the overview or one command's help on stdout.
int RunHelp(const std::vector<std::string>& rest) {
  if (rest.empty()) {
    std::cout << tsread::cli::OverviewHelp();
    return tsread::cli::kOk;
  }
  const std::string help = tsread::cli::CommandHelp(rest[0]);
  if (help.empty()) return tsread::cli::UsageError("help: unknown command " + rest[0]);
  std::cout << help;
  return tsread::cli::kOk;
}

int Run(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << tsread::cli::OverviewHelp();
    return tsread::cli::kUsage;
  }
  const std::string name = argv[1];
  const std::vector<std::string> rest(argv + 2, argv + argc);
  if (IsHelpFlag(name)) return RunHelp({});
  if (name == "help") return RunHelp(rest);
  if (name == "--version") {
    std::cout << "tsread " << TSREAD_VERSION << "\n";
    return tsread::cli::kOk;
  }
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    std::cerr << "tsread: unknown command " << name << "\n" << tsread::cli::OverviewHelp();
    return tsread::cli::kUsage;
  }
  // `tsread CMD ... --help` asks for help wherever the flag is.
  for (const std::string& arg : rest) {
    if (IsHelpFlag(arg)) return RunHelp({name});
  }
  std::optional<tsread::cli::Args> args = tsread::cli::ParseArgs(rest, command->value_flags, command->bool_flags);
  if (!args.has_value()) return tsread::cli::kUsage;
  if (args->positional.empty() || (!command->takes_many && args->positional.size() != 1)) {
    return tsread::cli::UsageError(name + (command->takes_many ? " takes FILE|DIR|GLOB..." : " takes one FILE"));
  }
  return command->run(*args);
}

}  // namespace

int main(int argc, char** argv) {
  tsread::cli::ReserveStdout();
  return tsread::cli::FinishOutput(Run(argc, argv));
}

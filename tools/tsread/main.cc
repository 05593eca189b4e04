// tsread: inspect, dump and benchmark TsFiles. Output formats and exit codes follow the CLI
// contract (docs/cli.md).
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

namespace {

struct Command {
  const char* name;
  std::vector<std::string> value_flags;
  std::vector<std::string> bool_flags;
  int (*run)(const tsread::cli::Args&);
};

constexpr const char* kUsage =
    "usage: tsread <command> INPUT... [options]\n"
    "INPUT: a file, a directory (every *.tsfile below it) or a glob (data/**/*.tsfile); info, devices,\n"
    "cat and scan read several as one dataset. --table may be left out when the input has one table.\n"
    "commands:\n"
    "  info INPUT... [--json]      tables, columns, devices and rows, from metadata only\n"
    "  devices INPUT... [--table T]   one device id per line\n"
    "  sketch FILE                 byte map of the file (chunk groups, chunks, pages, index)\n"
    "  cat INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where tag=v1[,v2]]...\n"
    "                              a table's rows as CSV\n"
    "  cat INPUT... --tree         tree-model points as device,measurement,time,value CSV\n"
    "  scan INPUT... [--table T] [--columns a,b] [--start T0] [--end T1] [--where tag=v1[,v2]]...\n"
    "       [--threads N] [--json]  full scan: rows, seconds, rows/s (and column statistics)\n"
    "  verify FILE                 end-to-end check: offsets, pages, statistics, time order\n"
    "  gen OUT [--devices N] [--rows N] [--seed N] [--compression UNCOMPRESSED|LZ4|ZSTD]\n"
    "       [--page-points N] [--fields N] [--null-ratio X] [--files N]   write a benchmark-shaped table file\n"
    "                              (--files N: N time slices of every device in directory OUT)\n";

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Command> commands = {
      {"info", {}, {"json"}, tsread::cli::RunInfo},
      {"devices", {"table"}, {}, tsread::cli::RunDevices},
      {"sketch", {}, {}, tsread::cli::RunSketch},
      {"cat", {"table", "columns", "start", "end", "where"}, {"tree"}, tsread::cli::RunCat},
      {"scan", {"table", "columns", "start", "end", "where", "threads"}, {"json"}, tsread::cli::RunScan},
      {"verify", {}, {}, tsread::cli::RunVerify},
      {"gen", {"devices", "rows", "seed", "compression", "page-points", "fields", "null-ratio", "files"}, {}, tsread::cli::RunGen},
  };
  if (argc < 2) {
    std::cerr << kUsage;
    return tsread::cli::kUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << kUsage;
    return tsread::cli::kOk;
  }
  for (const Command& command : commands) {
    if (name != command.name) continue;
    std::optional<tsread::cli::Args> args =
        tsread::cli::ParseArgs(std::vector<std::string>(argv + 2, argv + argc), command.value_flags, command.bool_flags);
    if (!args.has_value()) return tsread::cli::kUsage;
    const std::string command_name = command.name;
    const bool takes_many = command_name == "info" || command_name == "devices" || command_name == "cat" ||
                            command_name == "scan";
    if (args->positional.empty() || (!takes_many && args->positional.size() != 1)) {
      return tsread::cli::UsageError(command_name + (takes_many ? " takes FILE|DIR|GLOB..." : " takes one FILE"));
    }
    return command.run(*args);
  }
  std::cerr << "tsread: unknown command " << name << "\n" << kUsage;
  return tsread::cli::kUsage;
}

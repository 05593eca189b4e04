// Usage text: `tsread --help` (the overview) and `tsread help CMD` / `tsread CMD --help` (one
// command: its flags, the units of times, what --where means, the exit codes).
#ifndef TSREAD_TOOLS_HELP_H_
#define TSREAD_TOOLS_HELP_H_

#include <string>
#include <string_view>

namespace tsread::cli {

// The overview: every command in one line or two.
std::string_view OverviewHelp();
// One command's help; empty for an unknown command.
std::string CommandHelp(std::string_view command);

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_HELP_H_

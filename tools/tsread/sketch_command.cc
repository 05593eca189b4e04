#include "cli.h"
namespace tsread::cli {
int RunSketch(const Args&) { return UsageError("sketch: not implemented yet"); }
}  // namespace tsread::cli

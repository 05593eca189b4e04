// Checked output: a write to stdout that fails (a full disk, /dev/full, a closed stdout) is an
// I/O error (exit 3) with a message, never a silent success. SIGPIPE keeps its default action, so
// `tsread cat ... | head` still ends quietly by the signal.
#ifndef TSREAD_TOOLS_OUTPUT_H_
#define TSREAD_TOOLS_OUTPUT_H_

#include <string>

namespace tsread::cli {

// Makes sure descriptor 1 is open (on /dev/null, read-only, when the caller closed it) so that no
// file the command opens takes its place; writes to it then fail and are reported.
void ReserveStdout();

// Flushes std::cout and stdout and checks both for errors. Returns exit code `code` unchanged when
// the output is fine; otherwise prints "tsread: error writing output: ..." and returns kIoError
// (or `code` when the command had failed already).
int FinishOutput(int code);

// Rows written to stdout in large blocks with fwrite; Flush reports a failed write.
class BlockOutput {
 public:
  std::string& line() { return buffer_; }
  // Flushes when the buffer is large; false when writing failed (the command should stop).
  bool MaybeFlush() { return buffer_.size() < (1 << 16) || Flush(); }
  // Writes the buffer out; false when the write failed (the error is left in stdout's state for
  // FinishOutput).
  bool Flush();
  ~BlockOutput() { Flush(); }

 private:
  std::string buffer_;
};

}  // namespace tsread::cli

#endif  // TSREAD_TOOLS_OUTPUT_H_

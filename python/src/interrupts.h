// InterruptCheck: Ctrl-C while a read runs with the GIL released. Python runs its SIGINT handler
// only in the main thread and only with the GIL held, so a read that never takes the GIL back
// cannot be interrupted. The thread that called in therefore looks, at most every 50 ms, taking
// the GIL for an instant (PyErr_CheckSignals). A KeyboardInterrupt (or whatever the handler
// raised) is left pending, and Poll returns Cancelled from then on, on every thread, so the
// read stops; Raise (errors.h) rethrows the pending exception once the GIL is back.
#ifndef TSREAD_PYTHON_INTERRUPTS_H_
#define TSREAD_PYTHON_INTERRUPTS_H_

#include <atomic>
#include <chrono>
#include <thread>

#include "absl/status/status.h"

namespace tsread::python {

class InterruptCheck {
 public:
  // Made (with or without the GIL) by the thread that called in from Python.
  InterruptCheck() : owner_(std::this_thread::get_id()) {}
  InterruptCheck(const InterruptCheck&) = delete;
  InterruptCheck& operator=(const InterruptCheck&) = delete;

  // OK, or Cancelled once a signal handler raised. Call without the GIL, from any thread (only
  // the calling thread looks; the others see what it found).
  absl::Status Poll();

 private:
  const std::thread::id owner_;
  std::chrono::steady_clock::time_point next_look_{};  // touched by the owner only
  std::atomic<bool> interrupted_{false};
};

// The status a Poll returns once interrupted.
absl::Status Interrupted();

}  // namespace tsread::python

#endif  // TSREAD_PYTHON_INTERRUPTS_H_

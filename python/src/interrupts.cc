// InterruptCheck (interrupts.h).
#include "interrupts.h"

#include <pybind11/pybind11.h>

namespace tsread::python {
namespace {

constexpr std::chrono::milliseconds kLookEvery{50};

}  // namespace

absl::Status Interrupted() { return absl::CancelledError("tsread: the read was interrupted"); }

absl::Status InterruptCheck::Poll() {
  if (interrupted_.load(std::memory_order_relaxed)) return Interrupted();
  if (std::this_thread::get_id() != owner_) return absl::OkStatus();
  const auto now = std::chrono::steady_clock::now();
  if (now < next_look_) return absl::OkStatus();
  next_look_ = now + kLookEvery;
  pybind11::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return absl::OkStatus();
  interrupted_.store(true, std::memory_order_relaxed);  // the exception stays pending in this thread
  return Interrupted();
}

}  // namespace tsread::python

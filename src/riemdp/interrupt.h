// Cooperative interruption of long loops (Ctrl-C). The core has no R headers:
// the glue installs a poll function (R's interrupt check) for the duration of
// a call with InterruptScope; long loops call check_interrupt(), which polls
// on the thread that installed it, every `stride` calls, and throws
// riemdp::interrupted once an interrupt is seen. Worker threads only read the
// shared flag that the polling thread sets, so they stop at their next check.
#ifndef RIEMDP_INTERRUPT_H
#define RIEMDP_INTERRUPT_H

#include <atomic>
#include <stdexcept>
#include <thread>

namespace riemdp {

struct interrupted : public std::runtime_error {
  interrupted() : std::runtime_error("interrupted by the user") {}
};

namespace detail {
struct InterruptState {
  bool (*poll)() = nullptr;
  std::thread::id owner;
  std::atomic<bool> flag{false};
};
inline InterruptState& interrupt_state() {
  static InterruptState s;
  return s;
}
}  // namespace detail

// Installs `poll` for the current call (RAII); nested scopes keep the outer one.
class InterruptScope {
 public:
  explicit InterruptScope(bool (*poll)()) {
    auto& s = detail::interrupt_state();
    if (s.poll == nullptr) {
      s.poll = poll;
      s.owner = std::this_thread::get_id();
      s.flag.store(false);
      active_ = true;
    }
  }
  ~InterruptScope() {
    if (active_) {
      auto& s = detail::interrupt_state();
      s.poll = nullptr;
      s.flag.store(false);
    }
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  bool active_ = false;
};

// Call once per iteration of a long loop; `stride` iterations pass between
// two polls of R (choose it so that a poll comes every millisecond or so).
inline void check_interrupt(unsigned stride = 1024) {
  auto& s = detail::interrupt_state();
  if (s.flag.load(std::memory_order_relaxed)) throw interrupted();
  if (s.poll == nullptr || std::this_thread::get_id() != s.owner) return;
  thread_local unsigned count = 0;
  if (++count < stride) return;
  count = 0;
  if (s.poll()) {
    s.flag.store(true);
    throw interrupted();
  }
}

}  // namespace riemdp

#endif

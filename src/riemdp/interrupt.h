// Cooperative interruption of long loops (Ctrl-C). The core has no R headers:
// the glue installs a poll function (R's interrupt check) for the duration of
// a call with InterruptScope; long loops call check_interrupt(), which polls
// on the thread that installed it, every `stride` calls, and throws
// riemdp::interrupted once an interrupt is seen. Worker threads only read the
// shared flag that the polling thread sets, so they stop at their next check.
#ifndef RIEMDP_INTERRUPT_H
#define RIEMDP_INTERRUPT_H

#include <atomic>
#include <chrono>
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

// check_interrupt() for loops whose iterations cost anything from nanoseconds
// to milliseconds (an MH step on the KNG target sums over the data, an exact
// draw on a high-dimensional sphere is O(d)), where no fixed stride gives a
// poll every millisecond: the number of iterations between two looks at the
// clock doubles or halves to keep them 0.25-1 ms apart. One per loop; on a
// worker thread it only reads the shared flag, like check_interrupt().
class InterruptPoller {
 public:
  void operator()() {
    if (++count_ < stride_) {
      if (detail::interrupt_state().flag.load(std::memory_order_relaxed)) throw interrupted();
      return;
    }
    count_ = 0;
    const auto now = std::chrono::steady_clock::now();
    const auto gap = now - last_;
    last_ = now;
    if (gap < std::chrono::microseconds(250)) {
      if (stride_ < (1u << 20)) stride_ *= 2;
    } else if (gap > std::chrono::milliseconds(1) && stride_ > 1) {
      stride_ /= 2;
    }
    check_interrupt(1);
  }

 private:
  unsigned stride_ = 1, count_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace riemdp

#endif

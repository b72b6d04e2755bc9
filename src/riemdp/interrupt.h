// Cooperative interruption of long loops (Ctrl-C). The core has no R headers:
// the glue installs a poll function (R's interrupt check) for the duration of
// a call with InterruptScope; long loops call check_interrupt(), which polls
// on the thread that installed it, every `stride` calls, and throws
// riemdp::interrupted once an interrupt is seen. Worker threads only read the
// shared flag that the polling thread sets, so they stop at their next check.
//
// Progress of the same loops, for a bar drawn by the glue: a ProgressScope
// installed for a call holds a cheap "is a redraw due?" test (cli's timer
// flag) and a redraw callback. Loops count their iterations through an
// InterruptPoller built with count_progress: the counts reach a shared
// atomic at the poller's looks at the clock (every 0.25-1 ms, any thread),
// and only the installing thread ever calls the callback, only when a redraw
// is due. Without a scope the cost is one relaxed load per look at the clock.
// The counts are iterations of loops whose length is public (chain length,
// number of draws), never anything computed from data.
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

namespace detail {
struct ProgressState {
  bool (*due)() = nullptr;                 // is a redraw due? (cheap)
  void (*show)(void*, double) = nullptr;   // redraw with the units done; may throw
  void* ctx = nullptr;
  std::thread::id owner;
  std::atomic<bool> active{false};
  std::atomic<long long> done{0};
};
inline ProgressState& progress_state() {
  static ProgressState s;
  return s;
}
// Redraws if due, on the installing thread only. A callback that throws (R
// was interrupted while drawing) raises the interrupt flag first, so that
// worker threads stop at their next check.
inline void progress_show_if_due(ProgressState& s) {
  if (std::this_thread::get_id() != s.owner || interrupt_state().flag.load(std::memory_order_relaxed) || !s.due())
    return;
  try {
    s.show(s.ctx, static_cast<double>(s.done.load(std::memory_order_relaxed)));
  } catch (...) {
    interrupt_state().flag.store(true);
    throw;
  }
}
}  // namespace detail

// Installs a progress callback for the current call (RAII); nested scopes
// keep the outer one. Construct on the thread that may call R.
class ProgressScope {
 public:
  ProgressScope(bool (*due)(), void (*show)(void*, double), void* ctx) {
    auto& s = detail::progress_state();
    if (!s.active.load()) {
      s.due = due;
      s.show = show;
      s.ctx = ctx;
      s.owner = std::this_thread::get_id();
      s.done.store(0);
      s.active.store(true);
      active_ = true;
    }
  }
  ~ProgressScope() {
    if (active_) detail::progress_state().active.store(false);
  }
  // Is this the installed scope (not nested in another)?
  bool installed() const { return active_; }
  // Units counted so far.
  static double done() { return static_cast<double>(detail::progress_state().done.load()); }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

 private:
  bool active_ = false;
};

// Adds `units` finished iterations (any thread), without redrawing.
inline void progress_count(long long units) {
  auto& s = detail::progress_state();
  if (s.active.load(std::memory_order_relaxed)) s.done.fetch_add(units, std::memory_order_relaxed);
}

// Adds `units` finished iterations (any thread) and redraws when due.
inline void progress_add(long long units) {
  auto& s = detail::progress_state();
  if (!s.active.load(std::memory_order_relaxed)) return;
  s.done.fetch_add(units, std::memory_order_relaxed);
  detail::progress_show_if_due(s);
}

// Redraws when due, counting nothing (threads waiting for workers).
inline void progress_tick() {
  auto& s = detail::progress_state();
  if (s.active.load(std::memory_order_relaxed)) detail::progress_show_if_due(s);
}

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

struct count_progress_t {};
// Tag for an InterruptPoller whose iterations are the units of the progress bar.
inline constexpr count_progress_t count_progress{};

// check_interrupt() for loops whose iterations cost anything from nanoseconds
// to milliseconds (an MH step on the KNG target sums over the data, an exact
// draw on a high-dimensional sphere is O(d)), where no fixed stride gives a
// poll every millisecond: the number of iterations between two looks at the
// clock doubles or halves to keep them 0.25-1 ms apart. One per loop; on a
// worker thread it only reads the shared flag, like check_interrupt(). Built
// with count_progress, it also counts its calls as units of the progress bar.
class InterruptPoller {
 public:
  InterruptPoller() = default;
  explicit InterruptPoller(count_progress_t) : counts_(true) {}
  ~InterruptPoller() {
    // Counts the last iterations without redrawing (a destructor must not throw).
    if (counts_ && count_ > 0) progress_count(count_);
  }
  InterruptPoller(const InterruptPoller&) = delete;
  InterruptPoller& operator=(const InterruptPoller&) = delete;

  void operator()() {
    if (++count_ < stride_) {
      if (detail::interrupt_state().flag.load(std::memory_order_relaxed)) throw interrupted();
      return;
    }
    if (counts_) progress_add(count_);
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
  bool counts_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace riemdp

#endif

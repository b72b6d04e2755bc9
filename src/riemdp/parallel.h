// Blocks of independent work on threads, interruptible and leak-free. Each
// block's result depends only on its index, never on which thread ran it, so
// results do not depend on the number of threads. No R API may be used inside
// the blocks (they run off R's thread).
#ifndef RIEMDP_PARALLEL_H
#define RIEMDP_PARALLEL_H

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "interrupt.h"

namespace riemdp {

// The number of threads a parallel pass may use: set by the glue from R's
// option riemdp.threads for each call (set_thread_limit), 2 until then.
inline std::atomic<int>& thread_limit_state() {
  static std::atomic<int> limit{2};
  return limit;
}
inline int thread_limit() { return thread_limit_state().load(std::memory_order_relaxed); }
inline void set_thread_limit(int threads) { thread_limit_state().store(threads < 1 ? 1 : threads); }

// The number of blocks (threads) of a pass over n points of dimension D: a
// function of the size of the data only (a fixed split, so the result does
// not depend on how many threads actually run).
inline int data_pass_blocks(double n, int D) { return n * D >= 2e4 ? 2 : 1; }

// The number of blocks of a pass over n points of dimension D whose blocks
// are shared out dynamically (parallel_blocks): one below n D = 2e4 (starting
// a thread costs more), else about 2^15 coordinates per block, at most 64. A
// function of the size of the data only, so the result does not depend on
// the number of threads.
inline int data_pass_chunks(double n, int D) {
  const double work = n * D;
  if (work < 2e4) return 1;
  const double blocks = std::ceil(work / 32768.0);
  return blocks < 2.0 ? 2 : blocks > 64.0 ? 64 : static_cast<int>(blocks);
}

// Runs body(t) once for each block t = 0..blocks-1 on at most max_threads
// threads (the caller's and workers; default: thread_limit()). The blocks
// are handed out one at a time from a shared counter, in increasing order
// (dynamic scheduling: a thread slowed by other load takes fewer blocks).
// A worker that cannot be started leaves its blocks to the others. While the
// blocks run, the calling thread polls for interrupts between its blocks,
// and about every millisecond once none is left, so that an interrupt
// reaches the workers' own checks, and keeps the progress bar (if any)
// drawn. After a failure no further block is started; every thread is joined
// before returning or throwing, and the error of the lowest-numbered failing
// block is rethrown (blocks are started in order, so it is the same on any
// number of threads).
template <class Body>
void parallel_blocks(int blocks, Body body, int max_threads = -1) {
  if (blocks <= 0) return;
  int threads = max_threads < 1 ? thread_limit() : max_threads;
  if (threads > blocks) threads = blocks;
  if (threads <= 1) {
    for (int t = 0; t < blocks; ++t) body(t);
    return;
  }
  std::vector<std::exception_ptr> errors(blocks);
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;
  // One block; its error is kept for the caller and stops further blocks.
  auto run_block = [&](int t) {
    try {
      body(t);
    } catch (...) {
      errors[t] = std::current_exception();
      failed.store(true);
    }
  };
  auto run_blocks = [&] {
    for (int t = next++; t < blocks && !failed.load(); t = next++) run_block(t);
  };
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  for (int k = 1; k < threads; ++k) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++running;
    }
    try {
      workers.emplace_back([&] {
        run_blocks();
        std::lock_guard<std::mutex> lock(mutex);
        --running;
        done.notify_one();
      });
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      --running;
    }
  }
  // The calling thread's share, with an interrupt poll between its blocks.
  std::exception_ptr poll_error;
  auto poll = [&] {
    try {
      check_interrupt(1);  // sets the flag that the workers read
      progress_tick();     // the bar moves while the workers finish
    } catch (...) {
      if (!poll_error) poll_error = std::current_exception();
      failed.store(true);
    }
  };
  for (int t = next++; t < blocks && !failed.load(); t = next++) {
    run_block(t);
    poll();
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      done.wait_for(lock, std::chrono::milliseconds(1));
      if (running == 0) break;
      lock.unlock();
      poll();
      lock.lock();
    }
  }
  for (auto& w : workers) w.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (poll_error) std::rethrow_exception(poll_error);
}

}  // namespace riemdp

#endif

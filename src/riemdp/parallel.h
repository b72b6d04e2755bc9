// Blocks of independent work on threads, interruptible and leak-free. Each
// block's result depends only on its index, never on which thread ran it, so
// results do not depend on the number of cores. No R API may be used inside
// the blocks (they run off R's thread).
#ifndef RIEMDP_PARALLEL_H
#define RIEMDP_PARALLEL_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "interrupt.h"

namespace riemdp {

// The number of blocks (threads) of a pass over n points of dimension D: a
// function of the size of the data only (a fixed split, so the result does
// not depend on how many threads actually run).
inline int data_pass_blocks(double n, int D) { return n * D >= 2e4 ? 2 : 1; }

// Runs body(t) for t = 0..blocks-1: block 0 on the calling thread, the others
// on worker threads (inline if a thread cannot be started). While it waits
// for the workers, the calling thread keeps polling for interrupts (about
// every millisecond), so that an interrupt reaches the workers' own checks
// even when block 0 ends first, and keeps the progress bar (if any) drawn. Every thread is joined before returning or
// throwing; the error of the lowest-numbered failing block is rethrown.
template <class Body>
void parallel_blocks(int blocks, Body body) {
  if (blocks <= 1) {
    if (blocks == 1) body(0);
    return;
  }
  std::vector<std::exception_ptr> errors(blocks);
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;
  std::vector<std::thread> threads;
  threads.reserve(blocks - 1);
  auto run = [&](int t) {
    try {
      body(t);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  for (int t = 1; t < blocks; ++t) {
    bool started = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++running;
    }
    try {
      threads.emplace_back([&, t] {
        run(t);
        std::lock_guard<std::mutex> lock(mutex);
        --running;
        done.notify_one();
      });
      started = true;
    } catch (...) {
    }
    if (!started) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        --running;
      }
      run(t);
    }
  }
  run(0);
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      done.wait_for(lock, std::chrono::milliseconds(1));
      if (running == 0) break;
      lock.unlock();
      try {
        check_interrupt(1);  // sets the flag that the workers read
        progress_tick();     // the bar moves while the workers finish
      } catch (...) {
        if (!errors[0]) errors[0] = std::current_exception();
      }
      lock.lock();
    }
  }
  for (auto& th : threads) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace riemdp

#endif

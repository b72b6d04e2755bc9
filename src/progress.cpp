// Progress bars for the core's long loops through cli's C API (the only file
// that includes cli/progress.h: its timer pointer is per translation unit).
// Every call of cli, which evaluates R code, is guarded so that no R longjmp
// crosses C++ frames: redraws through Rcpp::unwindProtect (an interrupt or
// error there unwinds the C++ stack and then continues in R), the final
// cleanup on an error or interrupt path through R_ToplevelExec.
//
// After Ctrl-C the bar must be erased before R starts a new line for the
// interrupt, or the erasure clears that new line and the bar stays above the
// prompt: the core's poll (glue.h, r_interrupt_pending) catches the
// interrupt silently, the C++ stack unwinds (the destructor erases the bar on
// its own line) and Rcpp then reports the interrupt to R. A redraw is not
// guarded that way: cli evaluates the bar's format in its caller's frame,
// which under tryCatch would be tryCatch's own frame, where the exiting
// handler's jump would land inside cli and the interrupt be lost. Instead a
// draw runs with R's interrupts suspended: a Ctrl-C that comes while cli
// draws stays pending until the core's next poll (at most ~10 ms later), which
// catches it silently as above. Without that, R's evaluator took it inside
// cli (onintr: a new line, then the jump), before the bar was erased; under
// CPU load the draws take longer and this happened in ~1 run in 6.
#include "progress.h"

#include <R_ext/GraphicsEngine.h>  // R_interrupts_suspended (BEGIN_SUSPEND_INTERRUPTS)
#include <cli/progress.h>

namespace glue {

namespace {

// cli's timer flag, raised every cli.progress_update_interval (a volatile int).
bool tick_due() { return CLI_SHOULD_TICK; }

struct SetArgs {
  SEXP bar;
  double done;
};

void done_fn(void* bar) { cli_progress_done(static_cast<SEXP>(bar)); }

// Holds R's interrupts for a draw (RAII: restored on every path). Unlike
// END_SUSPEND_INTERRUPTS it does not call onintr() at the end: an interrupt
// that came meanwhile stays pending for the core's silent poll (glue.h).
class InterruptsHeld {
 public:
  InterruptsHeld() : old_(R_interrupts_suspended) { R_interrupts_suspended = TRUE; }
  ~InterruptsHeld() { R_interrupts_suspended = old_; }
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  Rboolean old_;
};

}  // namespace

ProgressBar::ProgressBar(bool verbose, double total, const char* name) {
  if (!verbose) return;
  scope_ = std::make_unique<riemdp::ProgressScope>(&tick_due, &ProgressBar::show, this);
  if (!scope_->installed()) {  // a bar is already up for this call
    scope_.reset();
    return;
  }
  // auto_terminate = FALSE: finish() (or the destructor) ends the bar.
  Rcpp::List config = Rcpp::List::create(Rcpp::Named("name") = name,
                                         Rcpp::Named("auto_terminate") = false);
  struct Args {
    double total;
    SEXP config;
  } a{total, config};
  SEXP bar = Rcpp::unwindProtect(
      [](void* d) -> SEXP {
        const Args* a = static_cast<const Args*>(d);
        return cli_progress_bar(a->total, a->config);
      },
      &a);
  R_PreserveObject(bar);
  bar_ = bar;
}

void ProgressBar::show(void* self, double done) {
  SetArgs a{static_cast<ProgressBar*>(self)->bar_, done};
  if (a.bar == R_NilValue) return;
  InterruptsHeld held;
  Rcpp::unwindProtect(
      [](void* d) -> SEXP {
        const SetArgs* a = static_cast<const SetArgs*>(d);
        cli_progress_set(a->bar, a->done);
        return R_NilValue;
      },
      &a);
}

void ProgressBar::finish() {
  if (bar_ == R_NilValue) return;
  SetArgs a{bar_, riemdp::ProgressScope::done()};  // every unit (the loops' last counts included)
  scope_.reset();
  SEXP bar = bar_;
  bar_ = R_NilValue;
  try {
    Rcpp::unwindProtect(
        [](void* d) -> SEXP {
          const SetArgs* a = static_cast<const SetArgs*>(d);
          cli_progress_update(a->bar, a->done, 0, 0);
          cli_progress_done(a->bar);
          return R_NilValue;
        },
        &a);
  } catch (...) {
    R_ReleaseObject(bar);
    throw;
  }
  R_ReleaseObject(bar);
}

ProgressBar::~ProgressBar() {
  if (bar_ == R_NilValue) return;
  scope_.reset();
  // An error or interrupt is unwinding: end the bar without letting R jump.
  R_ToplevelExec(done_fn, bar_);
  R_ReleaseObject(bar_);
}

}  // namespace glue

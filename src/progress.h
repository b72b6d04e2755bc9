// A cli progress bar for the core's long loops (src/progress.cpp).
#ifndef RIEMDP_PROGRESS_H
#define RIEMDP_PROGRESS_H

#include <Rcpp.h>

#include <memory>

#include "riemdp/interrupt.h"

namespace glue {

// A cli progress bar over the core's counted loops (riemdp::ProgressScope)
// for one call, shown only when `verbose` (and then only after cli's
// cli.progress_show_after, 2 s by default). `total` is the public number of
// units (chain iterations, draws). RAII: the bar is terminated on every path,
// errors and interrupts included. Construct before interruptible(). cli's C
// API is used in src/progress.cpp only.
class ProgressBar {
 public:
  ProgressBar(bool verbose, double total, const char* name);
  ~ProgressBar();
  // Terminates the bar on the normal path (R conditions as usual).
  void finish();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  SEXP bar_ = R_NilValue;
  std::unique_ptr<riemdp::ProgressScope> scope_;
  static void show(void* self, double done);
};

}  // namespace glue

#endif

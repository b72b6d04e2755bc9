// Glue between R and the core: the manifold of an R list, point-set conversion,
// the R RNG adaptor and interrupts. Light on purpose: it includes the manifold
// interface only, so that a glue file compiles what it uses and no more.
// R validates every argument before it reaches here (R/checks.R, R/convert.R).
#ifndef RIEMDP_GLUE_H
#define RIEMDP_GLUE_H

#include <Rcpp.h>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <tuple>

#include "riemdp/geometry/factory.h"
#include "riemdp/geometry/manifold.h"
#include "riemdp/interrupt.h"
#include "riemdp/numerics.h"
#include "riemdp/sampling/rng.h"

namespace glue {

using namespace riemdp;

// The manifold of an R manifold list (riemdp::make_manifold, the factory).
inline std::unique_ptr<Manifold> make_manifold(const Rcpp::List& M) {
  const std::string type = Rcpp::as<std::string>(M["type"]);
  const bool by_k = type == "spd" || type == "kendall";
  return riemdp::make_manifold(type, Rcpp::as<int>(M[by_k ? "k" : "d"]));
}

// A set of n points of length D built by R as list(x, n, by_row): by_row means
// the points are the rows of an n x D matrix, otherwise consecutive columns
// (k x k x n and k x 2 x n arrays). Mapped without a copy.
struct Set {
  Rcpp::NumericVector x;
  int n;
  PointSet points;
  Set(const Rcpp::List& s, int D)
      : x(Rcpp::as<Rcpp::NumericVector>(s["x"])),
        n(Rcpp::as<int>(s["n"])),
        points(x.begin(), D, n,
               Rcpp::as<bool>(s["by_row"]) ? Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(1, n)
                                           : Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(D, 1)) {
    if (x.size() != static_cast<R_xlen_t>(D) * n) throw std::invalid_argument("point set has the wrong length");
  }
  // Point i, recycling a single point.
  void get(int i, Vec& out) const { out = points.col(n == 1 ? 0 : i); }
};

// Output of n points of length D in R's layout. put() only writes through a
// raw pointer, so distinct indices may be written from several threads.
struct Writer {
  Rcpp::NumericVector out;
  double* data;
  int n, D;
  bool by_row;
  Writer(int n_, int D_, bool by_row_) : Writer(n_, D_, by_row_, Rcpp::NumericVector(static_cast<R_xlen_t>(n_) * D_)) {}
  // Without the zero fill, for callers that write every point before
  // returning (the fill of a large output cannot be interrupted).
  static Writer uninitialised(int n_, int D_, bool by_row_) {
    return Writer(n_, D_, by_row_, Rcpp::NumericVector(Rcpp::no_init(static_cast<R_xlen_t>(n_) * D_)));
  }
  void put(int i, const Vec& v) {
    if (by_row)
      for (int j = 0; j < D; ++j) data[i + static_cast<R_xlen_t>(j) * n] = v[j];
    else
      for (int j = 0; j < D; ++j) data[static_cast<R_xlen_t>(i) * D + j] = v[j];
  }

 private:
  Writer(int n_, int D_, bool by_row_, Rcpp::NumericVector v)
      : out(v), data(out.begin()), n(n_), D(D_), by_row(by_row_) {}
};

// Applies f(inputs..., out) to every index of the broadcast point sets and
// writes n points of length D in R's layout.
template <class F, class... Sets>
Rcpp::NumericVector pointwise(int D, bool by_row, F f, const Sets&... sets) {
  const int n = std::max({sets.n...});
  Writer W(n, D, by_row);
  std::array<Vec, sizeof...(Sets)> in;
  for (auto& v : in) v.resize(D);
  Vec o(D);
  for (int i = 0; i < n; ++i) {
    check_interrupt();
    std::size_t j = 0;
    ((sets.get(i, in[j++])), ...);
    std::apply([&](auto&... a) { f(a..., o); }, in);
    // The core marks a result that double precision cannot represent as
    // non-finite (Manifold::exp): an error here, never NaN or Inf for R.
    if (!o.allFinite())
      throw domain_error("the result cannot be represented in double precision (overflow or underflow, or an angle lost to rounding)");
    W.put(i, o);
  }
  return W.out;
}

// The fast generator, seeded from R's RNG at each call (the sampler exports
// keep Rcpp's RNGScope; deterministic ones are rng = false and never touch
// the RNG), so set.seed() reproduces every draw.
inline Xoshiro256pp rng_from_r() {
  std::uint64_t seed[4];
  for (auto& w : seed) {
    const auto hi = static_cast<std::uint64_t>(unif_rand() * 4294967296.0);
    const auto lo = static_cast<std::uint64_t>(unif_rand() * 4294967296.0);
    w = (hi << 32) ^ lo;
  }
  return Xoshiro256pp(seed);
}

namespace r_interrupt {
inline SEXP interrupt_class() {
  static SEXP cls = [] {
    SEXP s = Rf_mkString("interrupt");
    R_PreserveObject(s);
    return s;
  }();
  return cls;
}
inline SEXP note_interrupt(SEXP, void* hit) {
  *static_cast<bool*>(hit) = true;
  return R_NilValue;
}
}  // namespace r_interrupt

// Runs body(data) (C code holding no C++ objects with destructors) inside
// tryCatch(interrupt = ): returns true if R saw an interrupt there, which is
// then consumed without R's own reaction to it (a new line on the console and
// a jump to the top level); the caller unwinds the C++ stack and Rcpp reports
// the interrupt to R afterwards (Rf_onintr: the user's handlers, the new
// line). Errors and other jumps go through. Not for R code that evaluates
// anything in its caller's frame (cli draws a bar that way): that frame would
// be tryCatch's own, where the handler's jump would land, the interrupt lost.
inline bool catching_interrupt(SEXP (*body)(void*), void* data) {
  bool hit = false;
  R_tryCatch(body, data, r_interrupt::interrupt_class(), &r_interrupt::note_interrupt, &hit, nullptr, nullptr);
  return hit;
}

// R's interrupt check without a longjmp. An interrupt is caught silently
// (catching_interrupt), so that a progress bar still on screen is erased on
// its own line before R starts a new one (src/progress.cpp); R_ToplevelExec
// returns FALSE when anything else jumped (an error of a time limit, say),
// which also counts as an interrupt. The core calls it every 0.25-1 ms or
// so; R is asked at most every 10 ms (a tryCatch costs ~15 us), still far
// quicker than a person notices.
inline SEXP check_interrupt_body(void*) {
  R_CheckUserInterrupt();
  return R_NilValue;
}
inline void check_interrupt_fn(void* hit) { *static_cast<bool*>(hit) = catching_interrupt(check_interrupt_body, nullptr); }
inline bool r_interrupt_pending() {
  using clock = std::chrono::steady_clock;
  static clock::time_point next{};  // the main thread's only
  const clock::time_point now = clock::now();
  if (now < next) return false;
  next = now + std::chrono::milliseconds(10);
  bool hit = false;
  return R_ToplevelExec(check_interrupt_fn, &hit) == FALSE || hit;
}

// Runs f() with R's interrupt check installed for the core's long loops; an
// interrupt seen there unwinds the C++ stack (destructors run, threads are
// joined) and reaches R as a user interrupt, not an error.
template <class F>
auto interruptible(F f) -> decltype(f()) {
  riemdp::InterruptScope scope(&r_interrupt_pending);
  try {
    return f();
  } catch (const riemdp::interrupted&) {
    throw Rcpp::internal::InterruptedException();
  }
}

}  // namespace glue

#endif

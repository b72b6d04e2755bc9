// Frechet mean by Riemannian gradient descent (DESIGN §2):
// x <- Exp_x(t * mean_i Log_x(x_i)), t = 1 with Armijo backtracking.
#ifndef RIEMDP_STATISTICS_FRECHET_H
#define RIEMDP_STATISTICS_FRECHET_H

#include "../geometry/manifold.h"

namespace riemdp {

struct FrechetResult {
  Vec mean;
  int iterations = 0;
  double grad_norm = 0.0;
  double cost = 0.0;
  bool converged = false;
};

inline FrechetResult frechet_mean(const Manifold& M, const PointSet& X, CVecRef init, int max_iter, double tol) {
  if (X.cols() < 1) throw domain_error("the Frechet mean needs at least one point");
  const int D = M.ambient();
  FrechetResult r;
  Vec x = init, g(D), xn(D), gn(D), step(D);
  double F = M.mean_log(x, X, g);
  double gnorm = M.norm(x, g);
  int it = 0;
  while (gnorm > tol && it < max_iter) {
    double t = 1.0;
    bool accepted = false;
    for (int bt = 0; bt < 60; ++bt, t *= 0.5) {
      step = t * g;
      M.exp(x, step, xn);
      const double Fn = M.mean_log(xn, X, gn);
      // Near the minimum the predicted decrease falls below the rounding of F
      // and Armijo cannot be checked; the unit step is then the Newton step of
      // the (locally quadratic) Frechet function and is taken as is.
      const bool below_rounding = gnorm * gnorm <= 1e-12 * std::abs(F);
      if (Fn <= F - 1e-4 * t * gnorm * gnorm || (t == 1.0 && below_rounding)) {
        x.swap(xn);
        g.swap(gn);
        F = Fn;
        gnorm = M.norm(x, g);
        accepted = true;
        break;
      }
    }
    if (!accepted) break;  // no further decrease at machine precision
    ++it;
  }
  r.mean = x;
  r.iterations = it;
  r.grad_norm = gnorm;
  r.cost = F;
  r.converged = gnorm <= tol;
  return r;
}

}  // namespace riemdp

#endif

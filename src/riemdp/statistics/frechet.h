// Frechet mean by Riemannian gradient descent (methods article, "Fitting"):
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

// Rounding floor of the gradient norm: each point is resolved, and each
// Log_x(x_i) computed, to about eps * rounding_scale * (1 + dist), with the
// scale of the estimate or of the data, whichever is larger (far data on the
// hyperboloid, ill-conditioned matrices); below this floor the gradient is
// rounding noise and no step can reduce it reliably. The root mean squared
// distance sqrt(2F) stands for the data's spread.
// mean = sum_i w_i Log_p(x_i) / W and the Frechet cost
// F(p) = sum_i w_i dist(p, x_i)^2 / (2W), W = sum_i w_i (w null: all 1,
// through Manifold::mean_log; else Manifold::weighted_log_sum, which skips
// points of weight 0). The points are cut into fixed blocks
// (data_pass_chunks) shared out among the threads (parallel_blocks) and the
// blocks' sums added in block order: the same value to rounding, the same
// bits on any number of threads.
double mean_log_blocked(const Manifold& M, CVecRef p, const PointSet& X, VecRef mean, const Vec* w = nullptr);

double frechet_gradient_floor(const Manifold& M, CVecRef x, double data_scale, double F);

// A fixed amount of work towards the Frechet mean, for proposals whose run
// time must not depend on the data (sampling/kng_chain.h): `steps` full steps
// x <- Exp_x(mean Log_x(x_i)) from the first point, no stopping rule; a step
// that cannot be represented is skipped.
Vec frechet_fixed_steps(const Manifold& M, const PointSet& X, int steps);

// Steps x_t = Exp_x(t g) are accepted on the Armijo condition
// F(x_t) <= F(x) - 0.3 t |g|^2: on a quadratic with curvature lambda along g
// this holds for t lambda <= 1.4, so a unit step cannot zig-zag where the
// Hessian is near 2 (spread data in negative curvature, where it is >= 1).
// Near the minimum, where that decrease is lost in the rounding of F (far
// data on the hyperboloid makes F noisy well above eps F), steps are accepted
// on a decrease of the gradient norm instead (it decreases along -g wherever
// the Hessian is positive definite). The first trial step is the last
// accepted one, doubled after a step whose decrease showed t lambda < 0.4
// (slow progress where lambda < 1, in positive curvature).
// Stops when the gradient norm is below tol, or when no step reduces it any
// more near the minimum (converged if it is then within a small multiple of
// its rounding floor), after max_iter steps, or when no step decreases F. Every iterate is
// retracted onto the manifold (M.project), so rounding does not accumulate.
// weights (optional, length n, non-negative, not all zero: checked in R) give
// the weighted mean, the minimiser of sum_i w_i dist(x, x_i)^2 / (2 sum_i w_i);
// without them the manifold's fast mean_log runs.
FrechetResult frechet_mean(const Manifold& M, const PointSet& X, CVecRef init, int max_iter, double tol,
                           const Vec* weights = nullptr);

}  // namespace riemdp

#endif

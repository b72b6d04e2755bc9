// Geometric (Frechet) median by the Riemannian Weiszfeld algorithm
// (Fletcher, Venkatasubramanian & Joshi 2009, NeuroImage 45, S143-S152,
// eq. 4-5), with the Vardi-Zhang modification (Vardi & Zhang 2000, PNAS 97,
// 1423-1426, eq. 2.5-2.7) where an iterate coincides with data points.
#ifndef RIEMDP_STATISTICS_MEDIAN_H
#define RIEMDP_STATISTICS_MEDIAN_H

#include "../geometry/manifold.h"

namespace riemdp {

struct MedianResult {
  Vec median;
  int iterations = 0;
  double grad_norm = 0.0;  // norm of the minimal subgradient of F
  double cost = 0.0;       // F = sum_i w_i dist(x, x_i) / W
  bool converged = false;
  int data_point = -1;  // index of a data point the median coincides with, else -1
};

namespace detail {

// One pass over the data at x for F(x) = sum_i w_i d_i / W, d_i = dist(x, x_i):
// R = sum_{i not in K} w_i Log_x(x_i)/d_i, S = sum_{i not in K} w_i/d_i and
// W_K = sum_{i in K} w_i, K the points within `coincide` of x (x is one of
// them). The minimal subgradient of F has norm max(0, |R| - W_K)/W
// (Vardi & Zhang eq. 2.4). `nearest` is the point of largest w_i/d_i
// outside K; `dominance` is the share of S of the points at most twice as
// far from x as it (duplicates of it included): near them the unit vectors
// Log/d are unresolved, and the rounding floor of the subgradient is theirs.
struct MedianPass {
  Vec R, d;
  double S = 0.0, WK = 0.0, F = 0.0, Rnorm = 0.0, dominance = 0.0;
  Eigen::Index nearest = -1, coincident = -1;
};

// The pass runs on fixed blocks of the points (data_pass_chunks) shared out
// among the threads, each block in chunks through Manifold::log_many; the
// blocks' sums are added in block order, and the first coincident point and
// the nearest one (first of the largest w_i/d_i) found in block order, so the
// result is the same on any number of threads.
void median_pass(const Manifold& M, CVecRef x, const PointSet& X, const Vec& w, double coincide, MedianPass& out);

}  // namespace detail

// Minimises F(x) = sum_i w_i dist(x, x_i) / W (W = sum_i w_i; weights
// non-negative, not all zero; all 1 when null). The Weiszfeld step is
// x <- Exp_x(R/S) (Fletcher et al. eq. 5 with step 1), i.e. the weighted
// Frechet-mean step with weights w_i/d_i; where x lies on data points (the
// set K) it is scaled by (1 - W_K/|R|) (Vardi-Zhang), and x is the median
// when |R| <= W_K. When one data point x_k dominates the average (it and the
// points as near carry half of S), x_k itself is tested with that condition
// and taken if it holds: Weiszfeld converges to a data-point median only
// linearly, at rate |R|/w_k.
// A step that does not decrease F (possible on curved spaces: the unit
// Weiszfeld step overshoots in negative curvature) is halved, at most 30
// times. Every iterate is retracted onto the manifold.
// Stops when the subgradient norm is below tol, or below its rounding floor
// (each unit vector Log/d_i resolved to about eps * scale / d_i), or when no
// step decreases F (converged if within a small multiple of that floor), or
// after max_iter steps. The floor is not trusted where nearby data points
// dominate it (an iterate a hair's breadth from a data point that is not the
// median): the steps go on, and a stall there is not convergence.
MedianResult frechet_median(const Manifold& M, const PointSet& X, CVecRef init, int max_iter, double tol,
                            const Vec* weights = nullptr);

}  // namespace riemdp

#endif

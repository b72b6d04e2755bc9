// Mechanisms as target log-densities on the manifold (methods article, "Mechanisms and the noise scale"), built from
// public parameters and the data summary.
#ifndef RIEMDP_PRIVACY_TARGETS_H
#define RIEMDP_PRIVACY_TARGETS_H

#include <limits>

#include "../geometry/manifold.h"
#include "../sampling/radial.h"
#include "../statistics/frechet.h"

namespace riemdp {

// Optional restriction to the closed ball B_radius(center).
struct Ball {
  bool active = false;
  Vec center;
  double radius = std::numeric_limits<double>::infinity();
  bool contains(const Manifold& M, CVecRef x) const { return !active || M.dist(center, x) <= radius; }
};

// Laplace / Gaussian: log f(x) = kernel(dist(eta, x)).
struct RadialTarget {
  const Manifold& M;
  Vec eta;
  RadialKernel kernel;
  Ball ball;
  double operator()(CVecRef x) const {
    if (!ball.contains(M, x)) return -std::numeric_limits<double>::infinity();
    return kernel.h(M.dist(eta, x));
  }
};

// The KNG of the Frechet mean as a field for kng_chain() (no shooting
// vectors): (1/n) sum_i Log_x(x_i), minus the gradient of the Frechet cost,
// on parallel threads for large n (mean_log_blocked).
struct KNGFrechetField {
  const Manifold& M;
  const PointSet& X;
  Ball ball;
  template <class Z>
  bool operator()(const Z& z, Vec& gp, Mat&) const {
    mean_log_blocked(M, z.p, X, gp);
    return ball.contains(M, z.p);
  }
};

}  // namespace riemdp

#endif

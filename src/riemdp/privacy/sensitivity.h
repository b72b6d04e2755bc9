// Sensitivity bounds from public parameters only (DESIGN §4).
#ifndef RIEMDP_PRIVACY_SENSITIVITY_H
#define RIEMDP_PRIVACY_SENSITIVITY_H

#include <algorithm>
#include <cmath>
#include <limits>

#include "../geometry/manifold.h"

namespace riemdp {

// r* = 1/2 min{inj, pi / (2 sqrt(kappa))} (002 Assumption 1), kappa the upper
// curvature bound.
inline double frechet_radius_max(const Manifold& M) {
  const double kappa = M.curvature_max();
  double r = M.injectivity_radius();
  if (kappa > 0) r = std::min(r, num::pi / (2.0 * std::sqrt(kappa)));
  return 0.5 * r;
}

// h(r, kappa) = 2 r sqrt(kappa) cot(2 r sqrt(kappa)) for kappa > 0, else 1 (002 Thm 2).
inline double frechet_h(double r, double kappa) {
  if (!(kappa > 0)) return 1.0;
  const double a = 2.0 * r * std::sqrt(kappa);
  if (a < 1e-4) return 1.0 - a * a / 3.0;
  return a / std::tan(a);
}

// Delta = 2 r (2 - h) / (n h) (002 Thm 2). n is a double: it only enters the
// bound, and sample sizes beyond 2^31 must not wrap.
inline double sensitivity_frechet_mean(const Manifold& M, double n, double radius) {
  const double h = frechet_h(radius, M.curvature_max());
  return 2.0 * radius * (2.0 - h) / (n * h);
}

// KNG gradient sensitivity: ||Log_x(x_n) - Log_x(x_n')|| / n <= 2r(2-h)/n
// (kappa > 0, 002 supplement Lemma 1), 2r/n otherwise.
inline double sensitivity_frechet_gradient(const Manifold& M, double n, double radius) {
  const double h = frechet_h(radius, M.curvature_max());
  return 2.0 * radius * (2.0 - h) / n;
}

}  // namespace riemdp

#endif

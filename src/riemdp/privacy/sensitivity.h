// Sensitivity bounds from public parameters only (methods article, "Sensitivities and public domains").
#ifndef RIEMDP_PRIVACY_SENSITIVITY_H
#define RIEMDP_PRIVACY_SENSITIVITY_H

#include <algorithm>
#include <cmath>
#include <limits>

#include "../geometry/manifold.h"

namespace riemdp {

// r* = 1/2 min{inj, pi / (2 sqrt(kappa))} (Reimherr, Bharath & Soto 2021, Assumption 1), kappa the upper
// curvature bound.
inline double frechet_radius_max(const Manifold& M) {
  const double kappa = M.curvature_max();
  double r = M.injectivity_radius();
  if (kappa > 0) r = std::min(r, num::pi / (2.0 * std::sqrt(kappa)));
  return 0.5 * r;
}

// h(r, kappa) = 2 r sqrt(kappa) cot(2 r sqrt(kappa)) for kappa > 0, else 1 (Reimherr, Bharath & Soto 2021, Thm 2).
inline double frechet_h(double r, double kappa) {
  if (!(kappa > 0)) return 1.0;
  const double a = 2.0 * r * std::sqrt(kappa);
  if (a < 1e-4) return 1.0 - a * a / 3.0;
  return a / std::tan(a);
}

// Delta = 2 r (2 - h) / (n h) (Reimherr, Bharath & Soto 2021, Thm 2). n is a double: it only enters the
// bound, and sample sizes beyond 2^31 must not wrap.
inline double sensitivity_frechet_mean(const Manifold& M, double n, double radius) {
  const double h = frechet_h(radius, M.curvature_max());
  return 2.0 * radius * (2.0 - h) / (n * h);
}

// KNG gradient sensitivity: ||Log_x(x_n) - Log_x(x_n')|| / n <= 2r(2-h)/n
// (kappa > 0, Reimherr, Bharath & Soto 2021, supplement Lemma 1), 2r/n otherwise.
inline double sensitivity_frechet_gradient(const Manifold& M, double n, double radius) {
  const double h = frechet_h(radius, M.curvature_max());
  return 2.0 * radius * (2.0 - h) / n;
}

// Geodesic regression (Kulkarni & Soto, poster 2026, Table 1; methods article, "Sensitivities and public domains").
// With x_i in [0, 1], |v| <= tau_m and residuals clipped to norm tau,
// replacing one point changes one term of each gradient by at most 2 tau / n
// times the operator norm of the adjoint Jacobi maps (d_p Exp)^T and
// (d_v Exp(p, x v))^T. Rauch
// comparison bounds these by their values in constant curvature kappa_l (the
// LOWER curvature bound) across a geodesic of length L: jacobi_scaling(kappa_l, L),
// i.e. cosh(sqrt(-kappa_l) L) and sinhc(sqrt(-kappa_l) L) for kappa_l < 0; for
// kappa_l >= 0 both are 1 (the component along the geodesic is not scaled;
// |cos| <= 1 and x sinc <= 1 across it). L = 2 (tau_m + tau) is the poster's
// form (conservative), L = tau_m the Jacobi-field form |x v| <= tau_m.
struct RegressionSensitivity {
  double footpoint, shooting;
};
inline RegressionSensitivity sensitivity_geodesic_regression(const Manifold& M, double n, double tau, double tau_m,
                                                             bool poster_length) {
  const double kappa_l = M.curvature_min(), scale = 2.0 * tau / n;
  if (!(kappa_l < 0.0)) return {scale, scale};
  const JacobiScaling s = jacobi_scaling(kappa_l, poster_length ? 2.0 * (tau_m + tau) : tau_m);
  return {scale * s.footpoint, scale * s.shooting};
}

}  // namespace riemdp

#endif

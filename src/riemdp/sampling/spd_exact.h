// Exact draws of the log-eigenvalues of the Laplace and Gaussian laws on
// SPD(k) (spd_sampler.h; issue 6 item 2): r in R^k with density
//   f(r) = k(|r|) prod_{i<j} sinh(d_ij / 2),   d_ij = |r_i - r_j|,
// k(.) the mechanism's kernel. Envelope: sinh(y) <= y e^y and
// sum_{i<j} d_ij / 2 <= c |r|, c = spd_volume_growth(k), give
//   f(r) <= 2^-m k(|r|) e^{c|r|} prod_{i<j} d_ij,   m = k(k-1)/2.
// In polar form r = R u the envelope factorises: R has density
// k(R) e^{cR} R^{k-1+m} (log-concave: the radial sampler of radial.h, on
// R^{k+m} with the kernel tilted by e^{cR}) and u, independent of R, has
// density prop. to prod_{i<j} |u_i - u_j| on the unit sphere of R^k. A
// proposal is accepted with probability target / envelope
//   prod_{i<j} (1 - e^{-d_ij}) / d_ij * exp(sum_{i<j} d_ij / 2 - c R)
//   = prod_{i<j} sinhc(d_ij / 2) * e^{-cR}  (<= 1 by the two inequalities),
// which tends to 1 as sigma -> 0.
#ifndef RIEMDP_SAMPLING_SPD_EXACT_H
#define RIEMDP_SAMPLING_SPD_EXACT_H

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../geometry/euclidean.h"
#include "../interrupt.h"
#include "radial.h"

namespace riemdp {

// Volume growth rate of SPD(k): sum_{i<j} |r_i - r_j| / 2 <= c |r| with
// c = sqrt(k(k^2-1)/12), by Cauchy-Schwarz on the sorted r (the weights
// (2i - k - 1)/2 have squared norm k(k^2-1)/12); equality for r_i prop. to
// 2i - k - 1, so c is sharp. prod sinh(d_ij/2) grows like e^{c|r|}, and the
// Laplace law exists iff sigma < 1/c (spd_laplace_sigma_max).
inline double spd_volume_growth(int k) { return k < 2 ? 0.0 : std::sqrt(k * (k * k - 1.0) / 12.0); }

// log prod_{i<j} |u_i - u_j| (-inf when two coordinates coincide).
inline double log_vandermonde(CVecRef u) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < u.size(); ++i)
    for (Eigen::Index j = i + 1; j < u.size(); ++j) s += std::log(std::abs(u[i] - u[j]));
  return s;
}

// Maximum of log prod_{i<j} |u_i - u_j| over the unit sphere of R^k. By
// Stieltjes (Szego, Orthogonal Polynomials, Sec. 6.7) it is attained at the
// zeros of the Hermite polynomial H_k scaled to unit norm; the zeros are the
// eigenvalues of the symmetric tridiagonal Jacobi matrix of the Hermite
// recurrence, off-diagonal sqrt(i/2) (Golub-Welsch).
inline double vandermonde_log_max(int k) {
  if (k < 2) return 0.0;
  Vec diag = Vec::Zero(k), off(k - 1);
  for (int i = 1; i < k; ++i) off[i - 1] = std::sqrt(0.5 * i);
  Eigen::SelfAdjointEigenSolver<Mat> es;
  es.computeFromTridiagonal(diag, off, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) throw domain_error("the Hermite zeros could not be computed");
  const Vec z = es.eigenvalues();
  return log_vandermonde(z / z.norm());
}

// log of the acceptance probability of the proposal r = R u (R = |r|):
// sum_{i<j} log sinhc(d_ij / 2) - c R, each term as log((1 - e^{-d})/d) + d/2
// with expm1 (exact for small d, no overflow for large d). It is <= 0 up to
// rounding: log sinhc(a) <= a and sum d_ij / 2 <= c R.
inline double spd_exact_log_ratio(CVecRef r, double R, double c) {
  double s = 0.0, p = 1.0;  // the factors (1 - e^{-d})/d in (0, 1] are multiplied, logged once per 1e-200
  for (Eigen::Index i = 0; i < r.size(); ++i)
    for (Eigen::Index j = i + 1; j < r.size(); ++j) {
      const double d = std::abs(r[i] - r[j]);
      if (d > 0.0) {
        p *= -std::expm1(-d) / d;
        s += 0.5 * d;
        if (p < 1e-200) {
          s += std::log(p);
          p = 1.0;
        }
      }
    }
  return s + std::log(p) - c * R;
}

// A lower bound on the acceptance rate of the exact sampler, in logs,
// depending only on (k, kernel, sigma): the ratio is >= e^{-cR} (sinhc >= 1),
// so the rate is >= E[e^{-cR}] under the envelope's radial law
//   = int k(R) R^N dR / int k(R) e^{cR} R^N dR,   N = k - 1 + m.
// Laplace: (1 - c sigma)^{N+1}. Gaussian, in t = R / sigma with a = c sigma:
// 2^{(N-1)/2} Gamma((N+1)/2) / int t^N e^{-t^2/2 + a t} dt, the integral by
// Simpson's rule around its mode (the log integrand has curvature <= -1, so
// 40 either side of the mode holds all but e^{-800} of it). Returns -inf (a
// valid bound) where the rate is far below any useful level.
inline double spd_exact_log_acceptance_bound(int k, RadialKernel::Kind kind, double sigma) {
  if (k < 2) return 0.0;
  const double c = spd_volume_growth(k);
  const double N = k - 1.0 + 0.5 * k * (k - 1.0);
  const double a = c * sigma;
  const double none = -std::numeric_limits<double>::infinity();
  if (kind == RadialKernel::laplace) return a < 1.0 ? (N + 1.0) * std::log1p(-a) : none;
  if (!(a <= 1e6)) return none;
  const double t_mode = 0.5 * (a + std::sqrt(a * a + 4.0 * N));
  auto g = [&](double t) { return t > 0.0 ? N * std::log(t) - 0.5 * t * t + a * t : none; };
  const double g_mode = g(t_mode);
  const double lo = std::max(0.0, t_mode - 40.0), hi = t_mode + 40.0;
  const int steps = 8000;  // even
  const double h = (hi - lo) / steps;
  double sum = 0.0;
  for (int i = 0; i <= steps; ++i) {
    const double w = (i == 0 || i == steps) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    sum += w * std::exp(g(lo + i * h) - g_mode);
  }
  const double log_den = g_mode + std::log(sum * h / 3.0);
  const double log_num = 0.5 * (N - 1.0) * std::log(2.0) + std::lgamma(0.5 * (N + 1.0));
  return std::min(0.0, log_num - log_den);
}

// Directions u on the unit sphere of R^k with density prop. to
// prod_{i<j} |u_i - u_j|. For k <= uniform_max_k: rejection from the uniform
// law with the exact maximum as the bound (acceptance 0.64 at k = 2, 0.06 at
// k = 6, 0.003 at k = 10: it falls geometrically). Beyond: the normalised
// eigenvalues of a GOE matrix, whose density exp(-|l|^2/2) prod |l_i - l_j|
// (Weyl integration, beta = 1) is radial times the Vandermonde product,
// homogeneous of degree m, so l/|l| has exactly the law above. The GOE
// eigenvalues are drawn from the tridiagonal model of Dumitriu and Edelman
// (2002; beta = 1, the Householder reduction of the GOE): diagonal N(0, 1),
// off-diagonal chi_{k-1}, ..., chi_1 over sqrt(2); O(k^2) per draw, no
// rejection.
class VandermondeDirection {
 public:
  static constexpr int uniform_max_k = 6;  // the faster of the two up to k = 6 (bench/spd_exact.R)
  enum Method { automatic, uniform_rejection, goe };

  explicit VandermondeDirection(int k, Method method = automatic)
      : k_(k), goe_(method == goe || (method == automatic && k > uniform_max_k)),
        vmax_(std::exp(vandermonde_log_max(k))) {}

  template <class Rng>
  void draw(VecRef u, Rng& rng) const {
    if (goe_) {
      Vec diag(k_), off(k_ > 1 ? k_ - 1 : 0);
      for (int i = 0; i < k_; ++i) diag[i] = rng.norm();
      for (int j = 0; j + 1 < k_; ++j) {
        double chi2 = 0.0;  // chi^2 with k - 1 - j degrees of freedom
        for (int t = 0; t < k_ - 1 - j; ++t) {
          const double z = rng.norm();
          chi2 += z * z;
        }
        off[j] = std::sqrt(0.5 * chi2);
      }
      Eigen::SelfAdjointEigenSolver<Mat> es;
      es.computeFromTridiagonal(diag, off, Eigen::EigenvaluesOnly);
      if (es.info() != Eigen::Success) throw domain_error("a GOE eigenvalue draw failed");
      u = es.eigenvalues() / es.eigenvalues().norm();
      return;
    }
    // The uniform acceptance rate is >= 0.05 for k <= 6: 10^6 tries without
    // acceptance have probability below 1e-22000.
    for (long t = 0; t < 1000000L; ++t) {
      check_interrupt();
      for (int i = 0; i < k_; ++i) u[i] = rng.norm();
      const double nu = u.norm();
      if (!(nu > 0.0)) continue;
      u /= nu;
      double v = 1.0;  // prod |u_i - u_j| <= vmax_ (a few factors <= 2: no underflow)
      for (int i = 0; i < k_; ++i)
        for (int j = i + 1; j < k_; ++j) v *= std::abs(u[i] - u[j]);
      if (rng.unif() * vmax_ <= v) return;
    }
    throw domain_error("the direction sampler of the SPD log-eigenvalues accepted nothing in 10^6 tries");
  }

 private:
  int k_;
  bool goe_;
  double vmax_;
};

// Exact sampler of the SPD log-eigenvalue law (see the top of the file).
class SpdLogEigenSampler {
 public:
  // Proposals per draw before giving up; the expected number is 1 / the
  // acceptance rate, at most 1000 wherever "auto" uses this sampler.
  static constexpr long max_proposals = 100000000L;

  SpdLogEigenSampler(int k, RadialKernel kernel,
                     VandermondeDirection::Method direction = VandermondeDirection::automatic)
      : k_(k), c_(spd_volume_growth(k)), space_(k + k * (k - 1) / 2),
        radial_(space_, RadialKernel{kernel.kind, kernel.sigma, c_}), direction_(k, direction) {}

  // One draw of the envelope, r = R u; returns R.
  template <class Rng>
  double propose(VecRef r, Rng& rng) const {
    const double R = radial_.draw(rng);
    direction_.draw(r, rng);
    r *= R;
    return R;
  }

  // One exact draw of r.
  template <class Rng>
  void draw(VecRef r, Rng& rng) const {
    for (long t = 0; t < max_proposals; ++t) {
      check_interrupt();
      const double R = propose(r, rng);
      const double lu = std::log(rng.unif());
      if (lu <= -c_ * R) return;  // squeeze: the ratio is >= e^{-cR}
      if (lu <= spd_exact_log_ratio(r, R, c_)) return;
    }
    throw domain_error("the exact sampler of the SPD log-eigenvalues accepted none of 10^8 proposals: its "
                       "acceptance rate is too small for k = " + std::to_string(k_) +
                       " and this sigma; use method = \"auto\" (Metropolis-Hastings on the log-eigenvalues there) "
                       "or a smaller sigma");
  }

 private:
  int k_;
  double c_;
  Euclidean space_;  // R^{k+m}: its radial law has the factor R^{k-1+m}
  RadialSampler radial_;
  VandermondeDirection direction_;
};

}  // namespace riemdp

#endif

// Laplace and Gaussian laws on SPD(k) with the affine-invariant metric by the
// eigen-decomposition construction (Said et al. 2017; Hajri et al. 2016;
// methods article, "Samplers"): x = eta^{1/2} U diag(e^r) U^T eta^{1/2}, U Haar-orthogonal and
// r in R^k with density k(|r|) prod_{i<j} sinh(|r_i - r_j| / 2). U is exact;
// r is drawn exactly by envelope rejection (spd_exact.h) or by
// Metropolis-Hastings (a chain on R^k, thinned) where that rejection is slow.
#ifndef RIEMDP_SAMPLING_SPD_SAMPLER_H
#define RIEMDP_SAMPLING_SPD_SAMPLER_H

#include <Eigen/QR>

#include "../geometry/euclidean.h"
#include "../geometry/spd.h"
#include "mh.h"
#include "radial.h"
#include "spd_exact.h"

namespace riemdp {

// The Laplace law exists iff sigma < 1/c, c the volume growth rate
// (prod sinh(|r_i-r_j|/2) <= exp(c |r|), spd_exact.h).
inline double spd_laplace_sigma_max(int k) {
  if (k < 2) return std::numeric_limits<double>::infinity();
  return 1.0 / spd_volume_growth(k);
}

inline void check_spd_law(int k, RadialKernel kernel) {
  if (kernel.kind == RadialKernel::laplace && !(kernel.sigma < spd_laplace_sigma_max(k)))
    throw domain_error("the Laplace law on SPD does not exist for this sigma");
}

struct SpdEigenTarget {
  RadialKernel kernel;
  double operator()(CVecRef r) const {
    double s = kernel.h(r.norm());
    for (Eigen::Index i = 0; i < r.size(); ++i)
      for (Eigen::Index j = i + 1; j < r.size(); ++j) {
        const double a = 0.5 * std::abs(r[i] - r[j]);
        // log sinh a, stable for small and large a
        s += a + std::log(-std::expm1(-2.0 * a)) - std::log(2.0);
      }
    return s;
  }
};

// Haar-distributed orthogonal matrix: QR of a Gaussian matrix, signs fixed.
template <class Rng>
Mat haar_orthogonal(int k, Rng& rng) {
  Mat Z(k, k);
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) Z(i, j) = rng.norm();
  Eigen::HouseholderQR<Mat> qr(Z);
  Mat Q = qr.householderQ();
  const Mat R = qr.matrixQR().triangularView<Eigen::Upper>();
  for (int j = 0; j < k; ++j)
    if (R(j, j) < 0) Q.col(j) = -Q.col(j);
  return Q;
}

// x = eta^{1/2} U diag(e^r) U^T eta^{1/2} with a fresh Haar U.
// Whether double precision holds x as positive definite depends on eta (the
// data's footprint) as well as on r: where it does not (condition number
// beyond 1e12, a margin below the 1e16 where it fails), x is returned with its eigenvalues floored at 1e-12
// times the largest (SPD::project), a function of the computed x alone, so
// that no error depends on the data. A draw with a log-eigenvalue beyond
// +-650 is an error, decided on r alone: with eta's eigenvalues within
// e^+-50 the matrix then never overflows (the check after the product
// catches footprints beyond that).
template <class Rng>
void spd_from_log_eigen(const SPD& M, const SPD::Roots& roots, CVecRef r, Rng& rng, Vec& x) {
  const int k = static_cast<int>(r.size());
  const Mat U = haar_orthogonal(k, rng);
  const double r_max = r.cwiseAbs().maxCoeff();
  if (!(r_max <= 650.0))
    throw domain_error("a draw has log-eigenvalues up to " + num::fmt(r_max) +
                       ", beyond 650: the matrices such draws give overflow double precision; use a smaller sigma");
  const Mat W = num::sym(roots.half * U * r.array().exp().matrix().asDiagonal() * U.transpose() * roots.half);
  if (!W.allFinite())
    throw domain_error("a draw overflows double precision at this footprint (eigenvalues beyond e^50 or below e^-50); "
                       "rescale the data or use a smaller sigma");
  x = Eigen::Map<const Vec>(W.data(), k * k);
  Eigen::SelfAdjointEigenSolver<Mat> es(W, Eigen::EigenvaluesOnly);
  const Vec& lam = es.eigenvalues();
  if (!(lam(0) > 1e-12 * lam(k - 1))) M.project(Vec(x), x);
}

// Exact draws (spd_exact.h); calls out(i, x) for i = 0..n-1.
template <class Rng, class Out>
void sample_spd_exact(const SPD& M, int k, CVecRef eta, RadialKernel kernel, int n, Rng& rng, Out out) {
  check_spd_law(k, kernel);
  const SPD::Roots roots = M.roots(eta);
  const SpdLogEigenSampler sampler(k, kernel);
  Vec r(k), x(k * k);
  InterruptPoller poll(count_progress);  // counts draws (the proposals poll inside)
  for (int i = 0; i < n; ++i) {
    poll();
    sampler.draw(r, rng);
    spd_from_log_eigen(M, roots, r, rng, x);
    out(i, x);
  }
}

// Start of the log-eigenvalue chain when the user gives none: a random draw
// of a public law, never a fixed point (a chain that does not move would
// otherwise release the footprint itself; issue 6 item 1). The law is the
// flat analogue k(|r|) prod_{i<j} |r_i - r_j| of the target (its shape as
// sigma -> 0): R = |r| from the radial law of R^{k+m} under the kernel, the
// direction as in the exact sampler. It exists for every sigma.
template <class Rng>
Vec spd_chain_start(int k, RadialKernel kernel, Rng& rng) {
  const Euclidean space(k + k * (k - 1) / 2);
  const RadialSampler radial(space, RadialKernel{kernel.kind, kernel.sigma});
  const VandermondeDirection direction(k);
  Vec r(k);
  direction.draw(r, rng);
  r *= radial.draw(rng);
  return r;
}

// init: optional point whose log-eigenvalues (whitened by eta) start the
// chain, e.g. the last draw of a previous call (resuming), or chosen by the
// user; otherwise the chain starts at a draw of spd_chain_start.
template <class Rng, class Out>
MHResult sample_spd(const SPD& M, int k, CVecRef eta, RadialKernel kernel, int n, const MHSettings& set, Rng& rng,
                    Out out, const Vec* init = nullptr) {
  check_spd_law(k, kernel);
  const SPD::Roots roots = M.roots(eta);
  const Euclidean Rk(k);
  const SpdEigenTarget target{kernel};
  Vec r0(k);
  if (init) {
    const Mat W = num::sym(roots.inv_half * Eigen::Map<const Mat>(init->data(), k, k) * roots.inv_half);
    r0 = Eigen::SelfAdjointEigenSolver<Mat>(W, Eigen::EigenvaluesOnly).eigenvalues().array().log();
  } else {
    r0 = spd_chain_start(k, kernel, rng);
  }
  Vec x(k * k);
  return metropolis_hastings(Rk, target, r0, n, set, rng, [&](int i, const Vec& r, double) {
    spd_from_log_eigen(M, roots, r, rng, x);
    out(i, x);
  });
}

}  // namespace riemdp

#endif

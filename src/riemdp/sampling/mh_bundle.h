// Random-walk Metropolis-Hastings on the tangent bundle, for targets on
// parameters z = (p, v_1..v_m), p in M and v_j in T_p M (methods article, "The joint release of a geodesic regression"): propose
// p' = Exp_p(xi), v_j' = Gamma_{p->p'}(v_j + zeta_j), where
// (xi, zeta_1..zeta_m) = s (g_0..g_m) A^T for independent isotropic N(0, I)
// vectors g_k of T_p and a public (m + 1) x (m + 1) mixing matrix A (a
// preconditioner: covariance s^2 A A^T between the blocks), rejecting
// |xi| >= inj.
//
// Symmetry with respect to vol(M) x Lebesgue on each tangent space: the
// reverse move from z' = (p', v') uses xi' = -Gamma_{p->p'} xi (the geodesic
// from p' back to p, |xi'| = |xi| < inj, so it is the minimising one) and
// zeta_j' = -Gamma_{p->p'} zeta_j, which lands on (p, v) because parallel
// transport back along the same geodesic inverts Gamma_{p->p'}. Transport is
// a linear isometry, so (xi, zeta) -> (xi', zeta') preserves the Gaussian
// density (it depends on the g_k only through inner products, which the
// isometry and the sign keep) and the Lebesgue measure on the fibres, and Exp_p is the same
// bijection of the ball of radius inj both ways on these symmetric spaces.
// The acceptance ratio is therefore f(z')/f(z) (checked in the tests against
// an independent sampler on euclidean and on the sphere).
//
// With move_footpoint = false, p stays and only the v_j move (a random walk
// in T_p, symmetric for Lebesgue measure).
// The common scale s is adapted during burn-in only
// (Robbins-Monro on log s towards a target acceptance rate), then frozen.
#ifndef RIEMDP_SAMPLING_MH_BUNDLE_H
#define RIEMDP_SAMPLING_MH_BUNDLE_H

#include <cmath>
#include <limits>

#include "../geometry/manifold.h"
#include "../interrupt.h"
#include "../statistics/regression.h"
#include "mh.h"

namespace riemdp {

// Runs burn_in + n * thin iterations from z0 and calls out(i, z, log f(z)) at
// each kept draw. log_f returns -inf outside the support.
template <class LogTarget, class Rng, class Out>
MHResult metropolis_hastings_bundle(const Manifold& M, const LogTarget& log_f, const RegressionParameter& z0,
                                    const Mat& A, int n, const MHSettings& set, Rng& rng, Out out,
                                    bool move_footpoint = true) {
  if (n < 1 || set.thin < 1 || set.burn_in < 0)
    throw domain_error("a chain needs n >= 1, thin >= 1 and burn_in >= 0");
  const int D = M.ambient(), g = M.tangent_gaussian_size(), m = static_cast<int>(z0.V.cols());
  if (A.rows() != m + 1 || A.cols() != m + 1) throw domain_error("the proposal's mixing matrix must be (m + 1) x (m + 1)");
  const double inj = M.injectivity_radius();
  RegressionParameter z = z0, y = z0;
  // All buffers allocated once (no allocation per step).
  Mat G(D, m + 1);  // isotropic N(0, I) vectors of T_p, mixed by A
  const Mat At = A.transpose();  // column k: row k of A
  Vec xi(D), zeta(D), buf(D), w(g);
  double lz = log_f(z);
  if (!std::isfinite(lz)) throw domain_error("the chain's starting point has zero target density");
  double log_step = std::log(set.step), s = set.step;
  MHResult res;
  const long total = static_cast<long>(set.burn_in) + static_cast<long>(n) * set.thin;
  int kept = 0;
  InterruptPoller poll(count_progress);  // a step costs O(n) evaluations of the model: poll by the clock
  for (long it = 0; it < total; ++it) {
    poll();
    const bool burning = it < set.burn_in;
    if (burning || it == set.burn_in) s = std::exp(log_step);  // frozen after burn-in
    for (int k = 0; k <= m; ++k) {
      for (int l = 0; l < g; ++l) w[l] = rng.norm();
      M.tangent_gaussian(z.p, w, G.col(k));
    }
    // (xi, zeta_1..zeta_m) = s G A^T: jointly Gaussian with covariance s^2 A A^T (x) I
    // (column sums written out: a general matrix-vector product costs more for m + 1 = 2).
    const auto mix = [&](int j, Vec& out) {
      out = (s * At(0, j)) * G.col(0);
      for (int k = 1; k <= m; ++k) out += (s * At(k, j)) * G.col(k);
    };
    if (move_footpoint) mix(0, xi);
    else xi.setZero();
    const double nxi = M.norm(z.p, xi);
    bool acc = false;
    if (!move_footpoint || nxi < inj) {
      if (move_footpoint) {
        M.exp(z.p, xi, y.p);
        M.project(y.p, y.p);
      } else {
        y.p = z.p;
      }
      bool ok = y.p.allFinite();
      for (int j = 0; j < m && ok; ++j) {
        mix(j + 1, zeta);
        buf = z.V.col(j) + zeta;
        if (move_footpoint) {
          M.transport(z.p, y.p, buf, zeta);
          M.clean_tangent(y.p, zeta, buf);
        }
        y.V.col(j) = buf;
        ok = buf.allFinite();
      }
      // Every iteration evaluates the target once, so that a release's run
      // time does not reveal how often its chain (whose path depends on the
      // data) proposes where nothing needs evaluating.
      const double ly = ok ? log_f(y) : (log_f(z), -std::numeric_limits<double>::infinity());
      if (std::isfinite(ly) && std::log(rng.unif()) < ly - lz) {
        std::swap(z, y);
        lz = ly;
        acc = true;
      }
    } else {
      log_f(z);  // a proposal beyond inj: the same work as an evaluated one
    }
    if (burning) {
      if (set.adapt) log_step += ((acc ? 1.0 : 0.0) - set.target_accept) / std::pow(it + 1.0, 0.6);
    } else {
      ++res.proposed;
      if (acc) ++res.accepted;
      if ((it - set.burn_in + 1) % set.thin == 0) out(kept++, z, lz);
    }
  }
  res.state = z.p;
  res.step = std::exp(log_step);
  return res;
}

}  // namespace riemdp

#endif

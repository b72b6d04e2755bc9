// The exact K-norm gradient release of a Frechet mean by rejection from a
// Riemannian Laplace envelope, with a fixed public amount of work
// (R/kng-rejection.R states the lemma and the accounting; Seeman, Reimherr &
// Slavkovic 2021 for exact finite-run-time samplers of the exponential
// mechanism).
//
// Target f(z) propto exp(-|G(z)| / sigma) on the ball B_radius(c), G(z) =
// -(1/n) sum_i Log_z(x_i). With Hess F >= mu on the ball,
// |G(z)| >= mu d(z, zhat) - |G(zhat)| for every zhat in the ball, so a
// proposal z ~ Laplace(zhat, sigma / mu) kept with probability
// exp(-(|G(z)| - mu d(z, zhat) + |G(zhat)|) / sigma) <= 1 (and only inside the
// ball) is an exact draw of f, whatever zhat is.
//
// The work is fixed by public numbers: fit_iter gradient passes of the fit
// (steps of public length factor fit_step from c, each iterate clipped to
// the ball), one pass at the fit,
// and one pass per proposal for all n_proposals proposals, accepted or not
// (a proposal outside the ball is evaluated at its clip to the ball and
// discarded). The first accepted proposal is the release; with none, the
// public centre c.
#ifndef RIEMDP_PRIVACY_KNG_REJECTION_H
#define RIEMDP_PRIVACY_KNG_REJECTION_H

#include <cmath>

#include "../geometry/manifold.h"
#include "../interrupt.h"
#include "../sampling/radial.h"
#include "../statistics/frechet.h"
#include "ball.h"

namespace riemdp {

struct KngRejectionResult {
  bool found = false;
  long first = -1;         // index of the released proposal (tests only: depends on the data)
  long accepted = 0;       // proposals accepted in all (tests only: depends on the data)
  long gradient_passes = 0;  // passes over the n points: fit_iter + 1 + n_proposals for every data set
};

template <class Rng>
KngRejectionResult kng_rejection_draw(const Manifold& M, const PointSet& X, CVecRef c, double radius, double sigma,
                                      double mu, int fit_iter, long n_proposals, Rng& rng, VecRef out,
                                      double fit_step = 1.0) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw domain_error("kng_rejection_draw: sigma must be finite and > 0");
  if (!(mu > 0.0) || !(mu <= 1.0)) throw domain_error("kng_rejection_draw: mu must lie in (0, 1]");
  if (!(fit_step > 0.0) || !(fit_step <= 1.0)) throw domain_error("kng_rejection_draw: fit_step must lie in (0, 1]");
  if (fit_iter < 0 || n_proposals < 1) throw domain_error("kng_rejection_draw: fit_iter >= 0 and n_proposals >= 1");
  const int D = M.ambient();
  KngRejectionResult res;
  Vec z(D), g(D), buf(D), step(D);
  M.project(c, z);
  // The fit: fixed steps z <- Exp_z(fit_step mean Log_z(x_i)) (unit steps on
  // spheres, shorter on hyperbolic space), clipped to the ball.
  for (int k = 0; k < fit_iter; ++k) {
    check_interrupt();
    mean_log_blocked(M, z, X, g);
    ++res.gradient_passes;
    g *= fit_step;
    M.exp(z, g, buf);
    if (buf.allFinite()) {
      M.project(buf, step);
      clip_to_ball(M, c, radius, step, z);
    }
  }
  mean_log_blocked(M, z, X, g);
  ++res.gradient_passes;
  const double g_fit = M.norm(z, g);
  // Proposals from the Riemannian Laplace law at the fit, scale sigma / mu
  // (radial.h: density propto exp(-r mu / sigma) w.r.t. the volume).
  const RadialSampler radial(M, RadialKernel{RadialKernel::laplace, sigma / mu});
  const int m = M.tangent_gaussian_size();
  Vec zz(m), u(D), y(D), y_eval(D);
  for (long i = 0; i < n_proposals; ++i) {
    check_interrupt();
    double nu = 0.0;
    for (int attempt = 0; attempt < 64 && !(nu > 0.0); ++attempt) {
      for (int j = 0; j < m; ++j) zz[j] = rng.norm();
      nu = M.tangent_gaussian(z, zz, u);
    }
    if (!(nu > 0.0)) throw domain_error("kng_rejection_draw: no tangent direction in 64 attempts");
    u /= nu;
    const double r = radial.draw(rng);
    M.exp_unit(z, u, r, y);
    const double log_u = std::log(rng.unif());
    // The same work inside and outside the ball: the clip is always computed
    // (clip_to_ball selects without changing its work) and the gradient is
    // taken at the proposal or at its clip (then discarded). Only a
    // non-finite proposal, which no data set makes more likely, is replaced
    // by the fit first.
    const bool finite = y.allFinite();
    if (!finite) y = z;
    clip_to_ball(M, c, radius, y, y_eval);
    const bool inside = finite && M.dist(c, y) <= radius;
    mean_log_blocked(M, y_eval, X, g);
    ++res.gradient_passes;
    const double log_alpha = -(M.norm(y_eval, g) - mu * r + g_fit) / sigma;
    if (inside && log_u <= log_alpha) {
      ++res.accepted;
      if (!res.found) {
        res.found = true;
        res.first = i;
        out = y;
      }
    }
  }
  if (!res.found) M.project(c, out);
  return res;
}

}  // namespace riemdp

#endif

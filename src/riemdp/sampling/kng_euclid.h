// Exact K-norm gradient draws for the Frechet mean on R^d (methods article, "Samplers"): the
// gradient of E(x) = (1/2n) sum |x - x_i|^2 is x - xbar, so the law is
// exp(-|x - xbar|/sigma) on the ball B_radius(c) (Reimherr & Awan 2019).
// Two rejection samplers:
//   knorm:   x = xbar + R u, R ~ sigma Gamma(d), u uniform on the sphere,
//            kept if x lies in the ball;
//   uniform: x uniform on the ball, kept with probability exp(-|x - xbar|/sigma).
// Proposals are made in whole batches of `batch` (a public number, chosen in
// R) until a batch holds an accepted one, at most `cap` in all; the first
// accepted proposal is returned. The work is one batch except with a small
// probability, whatever the data.
#ifndef RIEMDP_SAMPLING_KNG_EUCLID_H
#define RIEMDP_SAMPLING_KNG_EUCLID_H

#include <cmath>
#include <optional>

#include "../geometry/euclidean.h"
#include "../interrupt.h"
#include "radial.h"

namespace riemdp {

struct KngEuclidDraw {
  bool found = false;
  double proposals = 0.0, accepted = 0.0;  // made and accepted (tests)
};

template <class Rng>
KngEuclidDraw kng_euclid_exact(CVecRef xbar, CVecRef c, double radius, double sigma, bool knorm, double batch,
                               double cap, Rng& rng, VecRef out) {
  const int d = static_cast<int>(xbar.size());
  const Euclidean E(d);
  std::optional<RadialSampler> radial;
  if (knorm) radial.emplace(E, RadialKernel{RadialKernel::laplace, sigma});
  Vec u(d), x(d);
  KngEuclidDraw res;
  InterruptPoller poll;
  for (double i = 0; i < cap; ++i) {
    if (res.found && std::fmod(i, batch) == 0.0) break;
    poll();
    res.proposals += 1.0;
    double nu;
    do {
      for (int j = 0; j < d; ++j) u[j] = rng.norm();
      nu = u.norm();
    } while (!(nu > 0.0));
    u /= nu;
    bool ok;
    // Norms in units of radius / sigma: no overflow of squares.
    if (knorm) {
      x = xbar + radial->draw(rng) * u;
      ok = ((x - c) / radius).norm() <= 1.0;
    } else {
      x = c + (radius * std::pow(rng.unif(), 1.0 / d)) * u;
      ok = ((x - xbar) / sigma).norm() <= rng.expo();
    }
    if (ok) {
      if (!res.found) out = x;
      res.found = true;
      res.accepted += 1.0;
    }
  }
  return res;
}

}  // namespace riemdp

#endif

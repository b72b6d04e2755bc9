// Exact draws from isotropic laws exp(k(dist(eta, x))) on a manifold: uniform
// direction in T_eta M and the radial draw of radial.h, then x = Exp_eta(r u)
// (DESIGN §3). The SPD construction is in spd_sampler.h.
#ifndef RIEMDP_SAMPLING_EXACT_H
#define RIEMDP_SAMPLING_EXACT_H

#include "radial.h"

namespace riemdp {

// Calls out(i, x) for i = 0..n-1.
template <class Rng, class Out>
void sample_isotropic(const Manifold& M, CVecRef eta, RadialKernel kernel, int n, Rng& rng, Out out) {
  if (!M.isotropic()) throw domain_error("no exact radial sampler on " + M.name());
  const RadialSampler radial(M, kernel);
  const Mat B = M.tangent_basis(eta);
  const int d = M.dim();
  Vec z(d), u(M.ambient()), x(M.ambient());
  for (int i = 0; i < n; ++i) {
    double nz;
    do {
      for (int j = 0; j < d; ++j) z[j] = rng.norm();
      nz = z.norm();
    } while (nz == 0.0);
    const double r = radial.draw(rng);
    u.noalias() = B * z;
    u /= nz;
    M.exp_unit(eta, u, r, x);
    out(i, x);
  }
}

}  // namespace riemdp

#endif

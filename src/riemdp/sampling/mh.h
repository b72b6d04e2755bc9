// Random-walk Metropolis-Hastings on a manifold (methods article, "Samplers"; Jiang et al. 2023, Sec. 4.1):
// proposal Exp_x(v), v ~ N(0, s^2 I) on T_x M (Manifold::tangent_gaussian:
// no basis, O(ambient) per step), rejecting |v| >= inj. The proposal is
// symmetric on the symmetric spaces here, so the acceptance ratio is f(y)/f(x).
// The step s is adapted during burn-in only (Robbins-Monro on log s towards a
// target acceptance rate) and frozen afterwards.
#ifndef RIEMDP_SAMPLING_MH_H
#define RIEMDP_SAMPLING_MH_H

#include <cmath>
#include <limits>

#include "../geometry/manifold.h"
#include "../interrupt.h"

namespace riemdp {

struct MHSettings {
  int burn_in = 1000;
  int thin = 1;
  double step = 0.1;
  bool adapt = true;
  double target_accept = 0.3;
};

struct MHResult {
  Vec state;
  double step = 0.0;
  long accepted = 0;   // after burn-in
  long proposed = 0;   // after burn-in
};

// Runs burn_in + n * thin iterations from x0 and calls out(i, x, log f(x)) at
// each kept draw. log_f returns -inf outside the support.
template <class LogTarget, class Rng, class Out>
MHResult metropolis_hastings(const Manifold& M, const LogTarget& log_f, CVecRef x0, int n, const MHSettings& set,
                             Rng& rng, Out out) {
  // Defence in depth (R validates these): a chain that keeps nothing would
  // return its unmoved starting state.
  if (n < 1 || set.thin < 1 || set.burn_in < 0)
    throw domain_error("a chain needs n >= 1, thin >= 1 and burn_in >= 0 (got n = " + std::to_string(n) +
                       ", thin = " + std::to_string(set.thin) + ", burn_in = " + std::to_string(set.burn_in) + ")");
  const int D = M.ambient(), m = M.tangent_gaussian_size();
  const double inj = M.injectivity_radius();
  Vec x = x0, y(D), v(D), z(m);
  double lx = log_f(x);
  if (!std::isfinite(lx)) throw domain_error("the chain's starting point has zero target density");
  double log_step = std::log(set.step);
  MHResult res;
  const long total = static_cast<long>(set.burn_in) + static_cast<long>(n) * set.thin;
  int kept = 0;
  InterruptPoller poll(count_progress);  // a step costs O(n) on the KNG target: poll by the clock
  for (long it = 0; it < total; ++it) {
    poll();
    const bool burning = it < set.burn_in;
    const double s = std::exp(log_step);
    for (int j = 0; j < m; ++j) z[j] = rng.norm();
    const double nv = s * M.tangent_gaussian(x, z, v);
    v *= s;
    bool acc = false;
    if (nv < inj) {
      M.exp(x, v, y);
      // Snap the proposal back onto the manifold so that rounding does not
      // accumulate along the chain (the hyperboloid drifts far from the origin).
      M.project(y, y);
      const double ly = y.allFinite() ? log_f(y) : -std::numeric_limits<double>::infinity();
      if (std::isfinite(ly) && std::log(rng.unif()) < ly - lx) {
        x.swap(y);
        lx = ly;
        acc = true;
      }
    }
    if (burning) {
      if (set.adapt) log_step += ((acc ? 1.0 : 0.0) - set.target_accept) / std::pow(it + 1.0, 0.6);
    } else {
      ++res.proposed;
      if (acc) ++res.accepted;
      if ((it - set.burn_in + 1) % set.thin == 0) out(kept++, x, lx);
    }
  }
  res.state = x;
  res.step = std::exp(log_step);
  return res;
}

}  // namespace riemdp

#endif

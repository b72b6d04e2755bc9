// Exact draws from isotropic laws exp(k(dist(eta, x))) on a manifold: uniform
// direction in T_eta M and the radial draw of radial.h, then x = Exp_eta(r u)
// (methods article, "Samplers"). The SPD construction is in spd_sampler.h.
#ifndef RIEMDP_SAMPLING_EXACT_H
#define RIEMDP_SAMPLING_EXACT_H

#include <vector>

#include "../interrupt.h"
#include "../parallel.h"
#include "radial.h"
#include "rng.h"

namespace riemdp {

// Draws i = begin..end-1 and calls out(i, x). The direction is an isotropic
// tangent Gaussian normalised in the metric at eta (no basis: O(ambient)
// memory and time per draw).
template <class Rng, class Out>
void sample_isotropic_range(const Manifold& M, CVecRef eta, const RadialSampler& radial, int begin, int end,
                            Rng& rng, Out& out) {
  const int m = M.tangent_gaussian_size();
  Vec z(m), u(M.ambient()), x(M.ambient());
  InterruptPoller poll(count_progress);
  for (int i = begin; i < end; ++i) {
    poll();
    double nu;
    do {
      for (int j = 0; j < m; ++j) z[j] = rng.norm();
      nu = M.tangent_gaussian(eta, z, u);
    } while (!(nu > 0.0));
    const double r = radial.draw(rng);
    u /= nu;
    M.exp_unit(eta, u, r, x);
    if (!x.allFinite())
      throw domain_error("a draw at distance " + num::fmt(r) +
                         " from the footprint overflows the coordinates of " + M.name() + "; use a smaller sigma");
    out(i, x);
  }
}

// Calls out(i, x) for i = 0..n-1 (out must accept concurrent calls for
// distinct i). The draws are split into `streams` contiguous blocks, block t
// using the generator jumped t times; the blocks run on parallel threads,
// but the result depends only on the generator's seed, not on the threads.
// An interrupt stops every block at its next draw (parallel_blocks).
template <class Out>
void sample_isotropic(const Manifold& M, CVecRef eta, RadialKernel kernel, int n, Xoshiro256pp rng, Out out,
                      int streams = 1) {
  if (!M.isotropic()) throw domain_error("no exact radial sampler on " + M.name());
  if (n < 1) throw domain_error("the number of draws must be >= 1 (got " + std::to_string(n) + ")");
  const RadialSampler radial(M, kernel);
  streams = std::max(1, std::min(streams, n / 10000 + 1));
  std::vector<Xoshiro256pp> gens;
  for (int t = 0; t < streams; ++t) {
    gens.push_back(rng);
    rng.jump();
  }
  parallel_blocks(streams, [&](int t) {
    const int begin = static_cast<int>(static_cast<long long>(n) * t / streams);
    const int end = static_cast<int>(static_cast<long long>(n) * (t + 1) / streams);
    sample_isotropic_range(M, eta, radial, begin, end, gens[t], out);
  });
}

}  // namespace riemdp

#endif

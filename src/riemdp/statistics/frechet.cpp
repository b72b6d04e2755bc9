// The Frechet mean (frechet.h): compiled once, here.
#include "frechet.h"

#include <limits>

#include "../interrupt.h"
#include "../parallel.h"

namespace riemdp {

double mean_log_blocked(const Manifold& M, CVecRef p, const PointSet& X, VecRef mean, const Vec* w) {
  const Eigen::Index n = X.cols();
  const int D = M.ambient(), blocks = data_pass_chunks(static_cast<double>(n), D);
  if (blocks == 1 && !w) return M.mean_log(p, X, mean);
  Mat parts(D, blocks);
  Vec costs(blocks), totals(blocks);
  parallel_blocks(blocks, [&](int t) {
    const Eigen::Index begin = n * t / blocks, end = n * (t + 1) / blocks;
    const PointSet part(X.data() + begin * X.outerStride(), X.rows(), end - begin,
                        Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(X.outerStride(), X.innerStride()));
    if (w) {
      costs[t] = M.weighted_log_sum(p, part, w->segment(begin, end - begin), parts.col(t));
      totals[t] = w->segment(begin, end - begin).sum();
      return;
    }
    Vec m(D);
    const double len = static_cast<double>(end - begin);
    costs[t] = M.mean_log(p, part, m) * len;
    parts.col(t) = m * len;
    totals[t] = len;
  });
  const double total = w ? totals.sum() : static_cast<double>(n);
  mean = parts.rowwise().sum() / total;
  return w ? costs.sum() / (2.0 * total) : costs.sum() / total;  // mean_log's part came halved
}

double frechet_gradient_floor(const Manifold& M, CVecRef x, double data_scale, double F) {
  return 64.0 * std::numeric_limits<double>::epsilon() * std::max(M.rounding_scale(x), data_scale) *
         (1.0 + std::sqrt(2.0 * F));
}

Vec frechet_fixed_steps(const Manifold& M, const PointSet& X, int steps) {
  const int D = M.ambient();
  Vec x = X.col(0), g(D), buf(D);
  for (int k = 0; k < steps; ++k) {
    mean_log_blocked(M, x, X, g);
    M.exp(x, g, buf);
    if (buf.allFinite()) M.project(buf, x);
  }
  return x;
}

FrechetResult frechet_mean(const Manifold& M, const PointSet& X, CVecRef init, int max_iter, double tol,
                           const Vec* weights) {
  if (X.cols() < 1) throw domain_error("the Frechet mean needs at least one point");
  if (weights && weights->size() != X.cols()) throw domain_error("weights and points differ in number");
  const int D = M.ambient();
  FrechetResult r;
  double data_scale = 0.0, total = 0.0;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    const double wi = weights ? (*weights)[i] : 1.0;
    if (wi == 0.0) continue;
    data_scale += wi * M.rounding_scale(X.col(i));
    total += wi;
  }
  if (!(total > 0.0)) throw domain_error("the weights are all zero");
  data_scale /= total;
  auto eval = [&](CVecRef p, VecRef grad) {
    return mean_log_blocked(M, p, X, grad, weights);
  };
  Vec x(D), g(D), xn(D), gn(D), step(D);
  M.project(init, x);
  double F = eval(x, g);
  double gnorm = M.norm(x, g);
  double floor = frechet_gradient_floor(M, x, data_scale, F);
  bool stalled = false;
  double t_last = 1.0;
  int it = 0;
  // The floor is a bound, often pessimistic (ill-conditioned spd, far data on
  // the hyperboloid): it must not stop a descent that still makes progress.
  // Below it, steps are taken only while they reduce the gradient norm, and
  // the run ends when none does (a stall), within max_iter.
  while (gnorm > tol && it < max_iter) {
    // F is resolved to about floor * spread (each distance to eps * scale)
    // and never better than eps F.
    const double F_rounding = std::max(16.0 * floor * std::sqrt(2.0 * F), 1e-10 * std::abs(F));
    const bool near_minimum = gnorm * gnorm <= F_rounding || gnorm <= floor;
    bool on_gradient = near_minimum;
    const int max_bt = near_minimum ? 12 : 60;
    double t = t_last;
    bool accepted = false;
    for (int bt = 0; bt < max_bt; ++bt, t *= 0.5) {
      check_interrupt(1);  // one poll per evaluation of F (a pass over the data)
      step = t * g;
      M.exp(x, step, xn);
      M.project(xn, xn);
      if (!xn.allFinite()) continue;  // not representable (Manifold::exp): a shorter step
      const double Fn = eval(xn, gn);
      const double gnorm_n = M.norm(xn, gn);
      const double decrease = 0.3 * t * gnorm * gnorm;
      if (!on_gradient && decrease <= F_rounding) on_gradient = true;  // Armijo is no longer decidable
      if (on_gradient ? gnorm_n < gnorm : Fn <= F - decrease) {
        t_last = !on_gradient && F - Fn > 0.8 * t * gnorm * gnorm ? std::min(2.0 * t, 8.0) : t;
        x.swap(xn);
        g.swap(gn);
        F = Fn;
        gnorm = gnorm_n;
        floor = frechet_gradient_floor(M, x, data_scale, F);
        accepted = true;
        break;
      }
    }
    if (!accepted) {  // no further decrease at machine precision
      stalled = on_gradient;
      break;
    }
    ++it;
  }
  r.mean = x;
  r.iterations = it;
  r.grad_norm = gnorm;
  r.cost = F;
  // A stall counts as convergence only at the level of the rounding floor.
  r.converged = gnorm <= tol || gnorm <= floor || (stalled && gnorm <= 16.0 * floor);
  return r;
}

}  // namespace riemdp

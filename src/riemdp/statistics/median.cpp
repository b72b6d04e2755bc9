// The geometric median (median.h): compiled once, here.
#include "median.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "../interrupt.h"
#include "../parallel.h"

namespace riemdp {

namespace detail {
void median_pass(const Manifold& M, CVecRef x, const PointSet& X, const Vec& w, double coincide, MedianPass& out) {
  const int D = M.ambient();
  const Eigen::Index n = X.cols();
  const int blocks = data_pass_chunks(static_cast<double>(n), D);
  struct Part {
    Vec R;
    double S = 0.0, WK = 0.0, F = 0.0, best = -1.0;
    Eigen::Index nearest = -1, coincident = -1;
  };
  std::vector<Part> parts(blocks);
  out.d.resize(n);
  parallel_blocks(blocks, [&](int t) {
    const Eigen::Index begin = n * t / blocks, end = n * (t + 1) / blocks;
    constexpr Eigen::Index chunk = 256;
    Part& p = parts[t];
    p.R.setZero(D);
    Mat logs(D, std::min(chunk, end - begin));
    Vec norms(logs.cols());
    InterruptPoller poll;
    for (Eigen::Index b = begin; b < end; b += chunk) {
      poll();  // one pass can be long (large n, costly Log)
      const Eigen::Index len = std::min(chunk, end - b);
      const PointSet sub(X.data() + b * X.outerStride(), X.rows(), len,
                         Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(X.outerStride(), X.innerStride()));
      M.log_many(x, sub, logs.leftCols(len), norms.head(len));
      for (Eigen::Index j = 0; j < len; ++j) {
        const Eigen::Index i = b + j;
        out.d[i] = -1.0;
        if (w[i] == 0.0) continue;
        const double d = norms[j];
        p.F += w[i] * d;
        if (d <= coincide) {
          p.WK += w[i];
          if (p.coincident < 0) p.coincident = i;
          continue;
        }
        out.d[i] = d;
        p.R += (w[i] / d) * logs.col(j);
        p.S += w[i] / d;
        if (w[i] / d > p.best) {
          p.best = w[i] / d;
          p.nearest = i;
        }
      }
    }
  });
  out.R.setZero(D);
  out.S = out.WK = out.F = 0.0;
  out.nearest = out.coincident = -1;
  double best = -1.0;
  for (const Part& p : parts) {
    out.R += p.R;
    out.S += p.S;
    out.WK += p.WK;
    out.F += p.F;
    if (out.coincident < 0) out.coincident = p.coincident;
    if (p.best > best) {
      best = p.best;
      out.nearest = p.nearest;
    }
  }
  out.Rnorm = M.norm(x, out.R);
  out.dominance = 0.0;
  if (out.nearest >= 0) {
    const double near = 2.0 * out.d[out.nearest];
    double share = 0.0;
    for (Eigen::Index i = 0; i < X.cols(); ++i)
      if (out.d[i] > 0.0 && out.d[i] <= near) share += w[i] / out.d[i];
    out.dominance = share / out.S;
  }
}
}  // namespace detail

MedianResult frechet_median(const Manifold& M, const PointSet& X, CVecRef init, int max_iter, double tol,
                            const Vec* weights) {
  const Eigen::Index n = X.cols();
  if (n < 1) throw domain_error("the Frechet median needs at least one point");
  if (weights && weights->size() != n) throw domain_error("weights and points differ in number");
  const Vec w = weights ? *weights : Vec::Ones(n);
  const int D = M.ambient();
  double W = 0.0, data_scale = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (w[i] == 0.0) continue;
    W += w[i];
    data_scale += w[i] * M.rounding_scale(X.col(i));
  }
  if (!(W > 0.0)) throw domain_error("the weights are all zero");
  data_scale /= W;
  const double eps = std::numeric_limits<double>::epsilon();
  // A point stored in double precision is resolved to about eps * scale: data
  // points closer than a small multiple of that coincide with x, and each unit
  // vector Log_x(x_i)/d_i is resolved to about eps * scale / d_i, which puts a
  // floor under the subgradient norm.
  auto scale_at = [&](CVecRef p) { return std::max(M.rounding_scale(p), data_scale); };
  auto coincide_at = [&](CVecRef p) { return 64.0 * eps * scale_at(p); };
  auto grad_of = [&](const detail::MedianPass& s) { return std::max(0.0, s.Rnorm - s.WK) / W; };
  auto floor_of = [&](CVecRef p, const detail::MedianPass& s) { return 64.0 * eps * scale_at(p) * s.S / W; };

  Vec x(D), xn(D), step(D), buf(D);
  M.project(init, x);
  detail::MedianPass cur, next;
  detail::median_pass(M, x, X, w, coincide_at(x), cur);
  double g = grad_of(cur);
  Eigen::Index tested = -1;  // the last data point that failed the median test
  bool stalled = false;
  int it = 0;
  // below the floor, and not near data points that dominate it
  auto at_floor = [&](double factor) { return g <= factor * floor_of(x, cur) && cur.dominance < 0.5; };
  while (g > tol && !at_floor(1.0) && it < max_iter) {
    check_interrupt(1);
    // A dominating data point: is it the median?
    if (cur.nearest >= 0 && cur.nearest != tested && cur.dominance >= 0.5) {
      buf = X.col(cur.nearest);
      M.project(buf, xn);
      const double c = coincide_at(xn);
      detail::median_pass(M, xn, X, w, c, next);
      if (next.coincident >= 0 && next.Rnorm <= next.WK && next.F <= cur.F + 4.0 * c * W) {
        x.swap(xn);
        std::swap(cur, next);
        g = grad_of(cur);  // 0
        ++it;
        break;
      }
      tested = cur.nearest;
      if (next.coincident >= 0 && next.F <= cur.F + 4.0 * c * W) {
        // Not the median, but no worse a point: step off it from there (the
        // Vardi-Zhang step has the length the data give, where a Weiszfeld
        // step from a hair's breadth off x_k has that length times |R|/w_k).
        x.swap(xn);
        std::swap(cur, next);
        g = grad_of(cur);
      }
    }
    if (!(cur.S > 0.0) || !(cur.Rnorm > 0.0)) break;  // every point on x, or R = 0: g is 0
    const double shrink = cur.WK > 0.0 ? std::max(0.0, 1.0 - cur.WK / cur.Rnorm) : 1.0;
    double t = shrink / cur.S;
    bool moved = false;
    for (int bt = 0; bt < 30; ++bt, t *= 0.5) {
      step = t * cur.R;
      M.exp(x, step, xn);
      M.project(xn, xn);
      if (!xn.allFinite()) continue;  // not representable (Manifold::exp): a shorter step
      const double c = coincide_at(xn);
      detail::median_pass(M, xn, X, w, c, next);
      // F decreases, or stays within its rounding (about c W) while the
      // subgradient decreases; otherwise a shorter step
      if (next.F < cur.F || (next.F <= cur.F + 4.0 * c * W && grad_of(next) < g)) {
        x.swap(xn);
        std::swap(cur, next);
        g = grad_of(cur);
        moved = true;
        break;
      }
    }
    if (!moved) {  // no further decrease at machine precision
      stalled = true;
      break;
    }
    ++it;
  }
  MedianResult r;
  r.median = x;
  r.iterations = it;
  r.grad_norm = g;
  r.cost = cur.F / W;
  r.converged = g <= tol || at_floor(1.0) || (stalled && at_floor(16.0));
  r.data_point = cur.coincident >= 0 ? static_cast<int>(cur.coincident) : -1;
  return r;
}

}  // namespace riemdp

// The K-norm gradient (KNG) law f(z) ∝ exp(-|G(z)|/sigma) on a compact public
// domain of the tangent bundle (z = (p, v_1..v_m), p in B_radius(c), |v_j| <=
// tau_m; m = 0 for a Frechet mean), drawn by a Metropolis-Hastings chain that
// reaches it from a public start in a public number of steps (methods article, "Chain-drawn releases":
// "a chain-drawn release is private only if its draw is at its law").
//
// The chain runs in a chart: delta in R^D, D = d (m + 1), orthonormal
// coordinates at a base z0 = (p0, V0), z = phi(delta) = (Exp_p0(xi),
// Gamma_{p0->p}(V0 + zeta)). For vol(M) x Lebesgue on the fibres its target
// is pi(delta) = f(phi(delta)) J(xi), J the Jacobian of Exp_p0 (transport is
// an isometry of the fibres). Each step is one of two kernels, both
// reversible for pi, picked at random:
// - local: delta' = delta + s L e, e ~ N(0, I), L = H^-1 (a symmetric
//   random walk, scale s adapted during burn-in only, then frozen);
// - independence: delta' from the mixture q = sum_k w_k q_k of the
//   linearised KNG laws delta = H^-1 (u - g0), u with density ∝
//   exp(-|u|/(s_k sigma)) (radius Gamma(D, s_k sigma), uniform direction),
//   and a defensive component uniform on the domain (p = Exp_c(xi), xi
//   uniform in the ball of T_c, each v_j uniform in the tau_m ball), accepted
//   with probability min(1, [pi/q](delta') / [pi/q](delta)).
// H and g0 linearise the pulled-back gradient G(delta) = Gamma_{p->p0} G(z)
// in coordinates, G(delta) ~ g0 + H delta, by central differences at the
// base. Where G is affine (least squares on R^d with no residual clipped) the
// first component is the law itself, up to the domain. The base and H may
// come from the data (the non-private fit): the stationary law is f whatever
// the proposal; the start and the number of steps are public.
// Every step evaluates G once and q once (at the proposal), whether or not
// the proposal is in the domain, so the run time does not depend on the
// chain's path.
#ifndef RIEMDP_SAMPLING_KNG_CHAIN_H
#define RIEMDP_SAMPLING_KNG_CHAIN_H

#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <vector>

#include "../geometry/manifold.h"
#include "../interrupt.h"
#include "../statistics/regression.h"

namespace riemdp {

// Orthonormal coordinates of the tangent bundle at a base point (see above);
// with move_point = false, of the fibre at the base's point only (delta =
// zeta: the point is fixed, as in the second block of Kulkarni & Soto's
// App. A scheme).
class BundleChart {
 public:
  BundleChart(const Manifold& M, RegressionParameter base, bool move_point = true)
      : M_(M), base_(std::move(base)), B_(M.tangent_basis(base_.p)), d_(M.dim()),
        m_(static_cast<int>(base_.V.cols())), o_(move_point ? d_ : 0), buf_(M.ambient()), buf2_(M.ambient()) {}

  int dim() const { return o_ + d_ * m_; }
  bool moves_point() const { return o_ > 0; }
  const Mat& basis() const { return B_; }
  int m() const { return m_; }
  const RegressionParameter& base() const { return base_; }

  // phi(delta); false where |xi| >= inj or the point is not representable.
  bool point(CVecRef delta, RegressionParameter& z) const {
    z.p.resize(M_.ambient());
    z.V.resize(M_.ambient(), m_);
    if (o_ > 0) {
      const Vec xi = B_ * delta.head(d_);
      if (!(M_.norm(base_.p, xi) < M_.injectivity_radius())) return false;
      M_.exp(base_.p, xi, buf_);
      if (!buf_.allFinite()) return false;
      M_.project(buf_, z.p);
    } else {
      z.p = base_.p;
    }
    for (int j = 0; j < m_; ++j) {
      buf_ = base_.V.col(j) + B_ * delta.segment(o_ + d_ * j, d_);
      if (o_ > 0) {
        M_.transport(base_.p, z.p, buf_, buf2_);
      } else {
        buf2_ = buf_;
      }
      // tangent to rounding: near v = 0 (a start), base_.V - B B^T base_.V
      // is all rounding, and its normal part would be most of it
      M_.clean_tangent(z.p, buf2_, buf_);
      z.V.col(j) = buf_;
    }
    return z.p.allFinite() && z.V.allFinite();
  }

  // phi^-1(z), z first aligned with the base (Kendall); false where
  // dist(p0, p) >= inj.
  // (With a fixed point, z.p must be the base's point.)
  bool coords(RegressionParameter& z, VecRef delta) const {
    if (o_ > 0) {
      M_.align_pair(base_.p, z.p, z.V);
      M_.log(base_.p, z.p, buf_);
      if (!buf_.allFinite() || !(M_.norm(base_.p, buf_) < M_.injectivity_radius())) return false;
      delta.head(d_) = coordinates(buf_);
    }
    for (int j = 0; j < m_; ++j) {
      if (o_ > 0) {
        M_.transport(z.p, base_.p, z.V.col(j), buf_);
      } else {
        buf_ = z.V.col(j);
      }
      buf2_ = buf_ - base_.V.col(j);
      delta.segment(o_ + d_ * j, d_) = coordinates(buf2_);
    }
    return delta.allFinite();
  }

  // log J(xi): the Jacobian of Exp_p0 at B xi (0 with a fixed point).
  double log_jacobian(CVecRef delta) const {
    return o_ > 0 ? M_.log_exp_jacobian(base_.p, B_ * delta.head(d_)) : 0.0;
  }

  // Coordinates of the bundle vector (gp, gV) at z.p, transported to p0
  // (gp dropped with a fixed point).
  void pull(const RegressionParameter& z, CVecRef gp, const Mat& gV, VecRef out) const {
    if (o_ > 0) {
      M_.transport(z.p, base_.p, gp, buf_);
      out.head(d_) = coordinates(buf_);
    }
    for (int j = 0; j < m_; ++j) {
      if (o_ > 0) {
        M_.transport(z.p, base_.p, gV.col(j), buf_);
      } else {
        buf_ = gV.col(j);
      }
      out.segment(o_ + d_ * j, d_) = coordinates(buf_);
    }
  }

 private:
  // Coordinates <b_k, w>_p0 in the orthonormal basis (the metric at p0).
  Vec coordinates(CVecRef w) const {
    Vec c(d_);
    for (int k = 0; k < d_; ++k) c[k] = M_.inner(base_.p, B_.col(k), w);
    return c;
  }

  const Manifold& M_;
  RegressionParameter base_;
  Mat B_;
  int d_, m_, o_;
  mutable Vec buf_, buf2_;
};


struct KNGChainSettings {
  int burn_in = 500;
  int n_iter = 500;  // steps after burn-in
  int thin = 1;      // out() every thin-th step after burn-in
  double local_share = 0.5;     // probability of a local step
  double target_accept = 0.3;   // of the local steps, during burn-in
  bool adapt = true;
  double step = 2.4;            // initial local scale, in units of sigma
  double fd_step = 1e-5;        // central differences of the linearisation
};

struct KNGChainResult {
  RegressionParameter state;
  double step = 0.0;  // the local scale, in units of sigma
  long local_proposed = 0, local_accepted = 0, ind_proposed = 0, ind_accepted = 0;  // after burn-in
};

// The public domain and its uniform law (the defensive component): p in
// B_radius(center) (Exp_c of a uniform point of the ball of T_c), each v_j
// uniform in the tau_m ball of T_p. fixed_point: p is the chain's base point
// (not drawn), only the v_j move.
struct KNGDomainLaw {
  Vec center;
  double radius, tau_m;
  bool fixed_point = false;
};

namespace kng_detail {
inline double log_ball_volume(int d, double R) {
  return 0.5 * d * std::log(num::pi) + d * std::log(R) - std::lgamma(0.5 * d + 1.0);
}
// log of the normaliser of exp(-|u|/t) on R^D: t^D Gamma(D) |S^{D-1}|.
inline double log_knorm_normaliser(int D, double t) {
  return D * std::log(t) + std::lgamma(static_cast<double>(D)) + std::log(2.0) + 0.5 * D * std::log(num::pi) -
         std::lgamma(0.5 * D);
}
inline double log_sum_exp(const double* a, int k) {
  double mx = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < k; ++i) mx = std::max(mx, a[i]);
  if (!std::isfinite(mx)) return mx;
  double s = 0.0;
  for (int i = 0; i < k; ++i) s += std::exp(a[i] - mx);
  return mx + std::log(s);
}
}  // namespace kng_detail

// Field: bool field(const RegressionParameter& z, Vec& gp, Mat& gV) fills
// the gradient at z and returns whether z is in the domain (f(z) = 0
// outside); it may throw domain_error where the gradient is not
// representable (f = 0 there too). out(i, z, level) at kept steps, with
// level = |G(z)|/sigma = -log f(z) (unnormalised).
template <class Field, class Rng, class Out>
KNGChainResult kng_chain(const Manifold& M, const Field& field, double sigma, const RegressionParameter& base,
                         const RegressionParameter& start, const KNGDomainLaw& dom, const KNGChainSettings& set,
                         Rng& rng, Out out) {
  using kng_detail::log_sum_exp;
  const double inf = std::numeric_limits<double>::infinity();
  if (set.n_iter < 1 || set.thin < 1 || set.burn_in < 0)
    throw domain_error("a chain needs n_iter >= 1, thin >= 1 and burn_in >= 0");
  if (!(sigma > 0.0) || !std::isfinite(sigma)) throw domain_error("the KNG chain needs a finite sigma > 0");
  const bool fixed = dom.fixed_point;
  if (fixed && base.V.cols() == 0) throw domain_error("a chain with a fixed point needs shooting vectors");
  const BundleChart chart(M, base, !fixed);
  const int d = M.dim(), m = chart.m(), D = chart.dim(), A = M.ambient();

  // -log f and the pulled-back gradient at phi(delta).
  Vec gp(A);
  Mat gV(A, m);
  const auto level_at = [&](const RegressionParameter& z, bool& inside) {
    try {
      inside = field(z, gp, gV);
    } catch (const domain_error&) {
      inside = false;
      return inf;
    }
    double s = M.inner(z.p, gp, gp);
    for (int j = 0; j < m; ++j) s += M.inner(z.p, gV.col(j), gV.col(j));
    return std::sqrt(num::clamp0(s)) / sigma;
  };

  // Linearisation G(delta) ~ g0 + H delta at the base (central differences),
  // its singular values floored where the law would be wider than the domain.
  const double scale = fixed ? dom.tau_m : std::max(dom.radius, m > 0 ? dom.tau_m : 0.0);
  const double h = set.fd_step * std::min(scale, M.injectivity_radius());
  RegressionParameter z(base), y(base);
  Vec g0(D), gplus(D), gminus(D), e(D);
  Mat H(D, D);
  const auto pulled = [&](CVecRef delta, VecRef g) {
    bool inside;
    if (!chart.point(delta, z)) throw domain_error("the KNG chain's base point cannot be linearised");
    if (!std::isfinite(level_at(z, inside))) throw domain_error("the KNG chain's base point cannot be linearised");
    chart.pull(z, gp, gV, g);
  };
  e.setZero();
  pulled(e, g0);
  for (int k = 0; k < D; ++k) {
    e.setZero();
    e[k] = h;
    pulled(e, gplus);
    e[k] = -h;
    pulled(e, gminus);
    H.col(k) = (gplus - gminus) / (2.0 * h);
  }
  // H is square, so Eigen applies no QR preconditioner: NoQRPreconditioner
  // gives the same bits without compiling the column-pivoting QR.
  Eigen::JacobiSVD<Mat, Eigen::NoQRPreconditioner> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Vec sv = svd.singularValues();
  const double floor_sv = sigma * D / scale;
  double log_det = 0.0;
  for (int k = 0; k < D; ++k) {
    if (!(sv[k] >= floor_sv)) sv[k] = floor_sv;
    log_det += std::log(sv[k]);
  }
  const Mat Hreg = svd.matrixU() * sv.asDiagonal() * svd.matrixV().transpose();
  const Mat Hinv = svd.matrixV() * sv.cwiseInverse().asDiagonal() * svd.matrixU().transpose();

  // The independence mixture: linearised laws at 1, 2, 5 sigma, and the
  // uniform law on the domain.
  constexpr int K = 4;
  const double scales[K - 1] = {1.0, 2.0, 5.0};
  const double weights[K] = {0.45, 0.25, 0.15, 0.15};
  double log_norm[K - 1];
  for (int k = 0; k < K - 1; ++k) log_norm[k] = kng_detail::log_knorm_normaliser(D, scales[k] * sigma);
  const double log_unif = (fixed ? 0.0 : -kng_detail::log_ball_volume(d, dom.radius)) -
                          (m > 0 ? m * kng_detail::log_ball_volume(d, dom.tau_m) : 0.0);
  const Mat Bc = M.tangent_basis(dom.center);
  const Mat& Bp = chart.basis();  // the fibre's basis with a fixed point
  Vec xi_c(A), buf(A), buf2(A);
  // log q(delta) for z = phi(delta).
  const auto log_q = [&](CVecRef delta, const RegressionParameter& w) {
    double a[K];
    const double r = (Hreg * delta + g0).norm() / sigma;
    for (int k = 0; k < K - 1; ++k) a[k] = std::log(weights[k]) + log_det - r / scales[k] - log_norm[k];
    a[K - 1] = -inf;
    bool in = true;
    if (!fixed) {
      M.log(dom.center, w.p, xi_c);
      in = M.norm(dom.center, xi_c) <= dom.radius;
    }
    for (int j = 0; j < m && in; ++j) in = M.norm(w.p, w.V.col(j)) <= dom.tau_m;
    if (in)
      a[K - 1] = std::log(weights[K - 1]) + log_unif +
                 (fixed ? 0.0 : chart.log_jacobian(delta) - M.log_exp_jacobian(dom.center, xi_c));
    return log_sum_exp(a, K);
  };
  // A uniform point of the ball of radius R of R^d, as a tangent vector in
  // the orthonormal basis B.
  Vec gauss_d(d);
  const auto uniform_ball = [&](double R, const Mat& B, VecRef outv) {
    for (int l = 0; l < d; ++l) gauss_d[l] = rng.norm();
    const double nr = gauss_d.norm();
    const double rad = R * std::pow(rng.unif(), 1.0 / d);
    outv = B * (gauss_d * (nr > 0.0 ? rad / nr : 0.0));
  };

  // The public start.
  Vec delta(D), prop(D), noise(D);
  z = start;
  if (!chart.coords(z, delta)) throw domain_error("the chain's public start is at the cut locus of its chart");
  if (!chart.point(delta, z)) throw domain_error("the chain's public start is not representable in its chart");
  bool inside = false;
  double lev = level_at(z, inside);
  double lp = inside ? -lev + chart.log_jacobian(delta) : -inf;
  if (!std::isfinite(lp)) throw domain_error("the chain's starting point has zero target density");
  double lq = log_q(delta, z);

  KNGChainResult res;
  double log_step = std::log(set.step);
  long local_burn = 0;
  const long total = static_cast<long>(set.burn_in) + static_cast<long>(set.n_iter);
  int kept = 0;
  InterruptPoller poll(count_progress);
  for (long it = 0; it < total; ++it) {
    poll();
    const bool burning = it < set.burn_in;
    const bool local = rng.unif() < set.local_share;
    bool valid = true;
    if (local) {
      for (int k = 0; k < D; ++k) noise[k] = rng.norm();
      prop = delta + (std::exp(log_step) * sigma) * (Hinv * noise);
    } else {
      double u = rng.unif(), acc_w = 0.0;
      int k = 0;
      while (k < K - 1 && u >= (acc_w += weights[k])) ++k;
      if (k < K - 1) {
        double rr = 0.0;
        for (int l = 0; l < D; ++l) rr += rng.expo();
        for (int l = 0; l < D; ++l) noise[l] = rng.norm();
        const double nn = noise.norm();
        prop = Hinv * (noise * (scales[k] * sigma * rr / (nn > 0.0 ? nn : 1.0)) - g0);
      } else {
        y.V.resize(A, m);
        if (fixed) {
          y.p = base.p;
          for (int j = 0; j < m; ++j) {
            uniform_ball(dom.tau_m, Bp, buf);
            y.V.col(j) = buf;
          }
        } else {
          uniform_ball(dom.radius, Bc, buf);
          y.p.resize(A);
          M.exp(dom.center, buf, buf2);
          M.project(buf2, y.p);
          for (int j = 0; j < m; ++j) {
            uniform_ball(dom.tau_m, Bc, buf);
            M.transport(dom.center, y.p, buf, buf2);
            M.clean_tangent(y.p, buf2, buf);
            y.V.col(j) = buf;
          }
        }
        valid = y.p.allFinite() && y.V.allFinite() && chart.coords(y, prop);
      }
    }
    valid = valid && prop.allFinite() && chart.point(prop, y);
    // One evaluation of the field per step, in the domain or not.
    double lp_new = -inf, lq_new = -inf;
    if (valid) {
      const double lv = level_at(y, inside);
      if (inside && std::isfinite(lv)) lp_new = -lv + chart.log_jacobian(prop);
      lq_new = log_q(prop, y);
    } else {
      level_at(z, inside);
      log_q(delta, z);
    }
    bool acc = false;
    if (std::isfinite(lp_new)) {
      const double log_ratio = local ? lp_new - lp : (lp_new - lq_new) - (lp - lq);
      acc = std::log(rng.unif()) < log_ratio;
    }
    if (acc) {
      delta.swap(prop);
      std::swap(z, y);
      lp = lp_new;
      lq = lq_new;
      lev = -lp_new + chart.log_jacobian(delta);
    }
    if (burning) {
      if (local && set.adapt) {
        ++local_burn;
        log_step += ((acc ? 1.0 : 0.0) - set.target_accept) / std::pow(static_cast<double>(local_burn), 0.6);
      }
    } else {
      if (local) {
        ++res.local_proposed;
        if (acc) ++res.local_accepted;
      } else {
        ++res.ind_proposed;
        if (acc) ++res.ind_accepted;
      }
      if ((it - set.burn_in + 1) % set.thin == 0) out(kept++, z, lev);
    }
  }
  res.state = z;
  res.step = std::exp(log_step);
  return res;
}

}  // namespace riemdp

#endif

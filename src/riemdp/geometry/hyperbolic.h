// Hyperbolic space H^d as the hyperboloid <x,x>_L = -1, x_0 > 0 in R^{d+1}
// (methods article, "Manifolds and their formulas"): curvature -1, infinite injectivity radius.
#ifndef RIEMDP_GEOMETRY_HYPERBOLIC_H
#define RIEMDP_GEOMETRY_HYPERBOLIC_H

#include "manifold.h"

namespace riemdp {

// Minkowski product <x,y>_L = -x_0 y_0 + sum_i x_i y_i.
inline double minkowski(CVecRef x, CVecRef y) {
  return x.tail(x.size() - 1).dot(y.tail(y.size() - 1)) - x(0) * y(0);
}

class Hyperbolic : public Manifold {
 public:
  explicit Hyperbolic(int d) : d_(d) {}
  std::string name() const override { return "hyperbolic"; }
  int dim() const override { return d_; }
  int ambient() const override { return d_ + 1; }
  double injectivity_radius() const override { return std::numeric_limits<double>::infinity(); }
  // H^1 is flat (isometric to R; see Sphere for S^1)
  double curvature_min() const override { return d_ == 1 ? 0.0 : -1.0; }
  double curvature_max() const override { return d_ == 1 ? 0.0 : -1.0; }

  // Points and tangent vectors are read in the spatial chart: a
  // point is fixed by its spatial part x_s (x_0 = sqrt(1 + |x_s|^2)), a
  // tangent vector v at p by v_s (v_0 = <p_s, v_s>/p_0). Every formula below
  // uses spatial parts only, without the Minkowski products of far points
  // that cancel (|<x,x>_L| is O(1) while x_0^2 is O(e^{2r})), and writes x_0
  // and v_0 consistently, so that results lie exactly on the hyperboloid.

  // Largest x_0 whose square is finite (about 355 from the origin): beyond it
  // the hyperboloid cannot be checked or used in double precision.
  static double x0_max();

  // The spatial part x_s (of compile-time size on fixed-size vectors).
  template <class X>
  auto spatial(X& x) const {
    constexpr int S = std::decay_t<X>::RowsAtCompileTime;
    if constexpr (S == Eigen::Dynamic) return x.tail(d_);
    else return x.template tail<S - 1>();
  }

  // x_0 = sqrt(1 + |x_s|^2) of the point with spatial part xs (no overflow of |x_s|^2).
  template <class X>
  static double lift(const X& xs) {
    const double n2 = xs.squaredNorm();
    if (std::isfinite(n2)) return std::sqrt(1.0 + n2);
    return std::hypot(1.0, xs.stableNorm());
  }

  static std::string too_far(double x0);

  // Writes out_0 for the point with spatial part out_s: Inf when the point is
  // not representable (x_0 > x0_max), for the caller to check.
  template <class O>
  void finish_point(O& out) const {
    out(0) = lift(spatial(out));
    if (!(out(0) <= x0_max())) out(0) = std::numeric_limits<double>::infinity();
  }
  // Writes out_0 for the vector with spatial part out_s, tangent at p.
  template <class P, class O>
  void finish_tangent(const P& p, double p0, O& out) const {
    out(0) = spatial(p).dot(spatial(out)) / p0;
  }

  // <u,v>_p for tangent vectors given by their spatial parts:
  // u_s.v_s - (p_s.u_s)(p_s.v_s)/p_0^2 = u_perp.v_perp + (p_s.u_s)(p_s.v_s)/(|p_s|^2 p_0^2),
  // perp = orthogonal to p_s; free of the cancellation of radial vectors.
  // (The chart formulas are templates: the regression pass runs them on
  // fixed-size vectors on H^2.)
  template <class Tp, class Tu, class Tv>
  double chart_inner(const Tp& p, const Tu& u, const Tv& v) const {
    const auto ps = spatial(p), us = spatial(u), vs = spatial(v);
    const double P = ps.squaredNorm();
    if (!(P > 0.0)) return us.dot(vs);
    const double a = ps.dot(us), b = ps.dot(vs);
    const double ka = a / P, kb = b / P;
    double perp = 0.0;
    for (int i = 0; i < d_; ++i) perp += (us[i] - ka * ps[i]) * (vs[i] - kb * ps[i]);
    return perp + ka * (b / (1.0 + P));
  }

  // S = |q - p|_L = sqrt(2(m - 1)) = 2 sinh(d/2), m = -<p,q>_L, from the
  // spatial parts without cancellation:
  //  * p_s.q_s <= 0: m - 1 = (p0 - 1) q0 + (q0 - 1) + |p_s.q_s|, x0 - 1 = |x_s|^2/(x0 + 1),
  //    a sum of non-negative terms;
  //  * p_s.q_s > 0: with c = q_s - p_s, e = q_s + p_s, e0 = p0 + q0,
  //    2(m - 1) = |c|^2 - (c.e/e0)^2 and 2(m + 1) = e0^2 - |e|^2 give
  //    S^2 = 2 (|q_s ^ p_s|^2 + (|q_s|^2 - |p_s|^2)^2/e0^2) / (p0 q0 - 1 + p_s.q_s),
  //    all terms positive; the wedge is |B| |s_perp|, s_perp the part of the
  //    shorter vector orthogonal to the longer one B (exact to rounding of
  //    the coordinates), and everything is scaled by e0 against overflow.
  template <class Tp, class Tq>
  double chord(const Tp& p, double p0, const Tq& q, double q0) const {
    const auto ps = spatial(p), qs = spatial(q);
    const double P = ps.squaredNorm(), Q = qs.squaredNorm();
    // Within 1e-10 of the origin the chart is flat to 1e-20 (and the squares
    // below would underflow for tiny coordinates).
    if (P <= 1e-20 && Q <= 1e-20) return (qs - ps).stableNorm();
    const double pq = ps.dot(qs);
    if (pq <= 0.0) {
      if (p0 < 1e150 && q0 < 1e150) return std::sqrt(2.0 * ((P / (p0 + 1.0)) * q0 + Q / (q0 + 1.0) - pq));
      // m = p0 q0 (1 - (p_s/p0).(q_s/q0)) up to a relative 1e-300
      const double cosine = (ps / p0).dot(qs / q0);
      return std::sqrt(2.0 * p0) * std::sqrt(q0) * std::sqrt(1.0 - cosine);
    }
    const double e0 = p0 + q0, inv = 1.0 / e0;
    if (e0 > 1e8) {
      // Far from the origin the wedge below rounds at eps |x_s|, which swamps
      // it for nearly radial pairs. The law of cosines in polar coordinates
      // about the origin, cosh d = cosh(a - b) + 2 sinh a sinh b sin^2(theta/2)
      // (a = asinh|p_s|, b = asinh|q_s|), gives without cancellation
      // sinh(d/2)^2 = sinh((a - b)/2)^2 + |p_s| |q_s| sin(theta/2)^2, with
      // sin(theta/2) = |p_s/|p_s| - q_s/|q_s||/2: exact on a ray from the
      // origin, and elsewhere within the rounding of the coordinates
      // (eps sinh a, the resolution of the model at distance a).
      const double np = std::sqrt(P), nq = std::sqrt(Q);
      const double half_angle = 0.5 * (ps / np - qs / nq).norm();
      const double radial = std::sinh(0.5 * (std::asinh(np) - std::asinh(nq)));
      return 2.0 * std::hypot(radial, std::sqrt(np) * std::sqrt(nq) * half_angle);
    }
    const auto perp_of = [&](const auto& small, const auto& big) {
      const double k = small.dot(big) / big.squaredNorm();
      double perp = 0.0;
      for (int i = 0; i < d_; ++i) {
        const double t = (small[i] - k * big[i]) * inv;
        perp += t * t;
      }
      return perp;
    };
    const double perp = P >= Q ? perp_of(qs, ps) : perp_of(ps, qs);
    const double wedge = perp * (std::max(P, Q) * inv * inv);   // |q_s ^ p_s|^2 / e0^2
    const double diff = (Q - P) * inv * inv;                    // (|q_s|^2 - |p_s|^2) / e0^2
    const double den = e0 < 1e150 ? ((P / (p0 + 1.0)) * q0 + Q / (q0 + 1.0) + pq) * inv * inv
                                  : (p0 * inv) * (q0 * inv) + (ps * inv).dot(qs * inv);
    return e0 * std::sqrt(2.0 * (wedge + diff * diff * inv * inv) / den);
  }

  static double dist_from_chord(double S);

  // Log_p(q) from its spatial part: (d/sinh d) (q_s - m p_s), written as
  // (d/sinh d)(c_s - (m - 1) p_s) for nearby points; returns d.
  template <class P, class Q, class O>
  double log_chart(const P& p, double p0, const Q& q, double q0, O& out) const {
    const double S = chord(p, p0, q, q0);
    const double d = dist_from_chord(S);
    auto os = spatial(out);
    if (S <= 1.0) {
      const double f = (S > 0.0 ? d / S : 1.0) / std::sqrt(1.0 + 0.25 * S * S);  // d / sinh d
      os = f * (spatial(q) - spatial(p) - (0.5 * S * S) * spatial(p));
    } else {
      os = num::inv_sinhc(d) * spatial(q) - (d / std::tanh(d)) * spatial(p);
    }
    finish_tangent(p, p0, out);
    return d;
  }

  // Exp_p(v) = cosh|v| p + sinh|v| v/|v| (spatial part; x_0 recomputed).
  // Not representable beyond x0_max (|v| up to ~710 from the origin): x_0 = Inf.
  void exp(CVecRef p, CVecRef v, VecRef out) const override;
  // The same with c = cosh|v| and sc = sinh(|v|)/|v| given.
  template <class P, class V, class O>
  void exp_chart(const P& p, const V& v, double c, double sc, O& out) const {
    spatial(out) = c * spatial(p) + sc * spatial(v);
    finish_point(out);
  }

  double dist(CVecRef p, CVecRef q) const override;

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override;

  void log(CVecRef p, CVecRef q, VecRef out) const override;

  double inner(CVecRef p, CVecRef u, CVecRef v) const override;

  // Gamma_{p->q}(v) = v + <q,v>_L/(1 + m) (p + q), with <q,v>_L = <Log_p q, v>_p
  // sinh(d)/d and sinh(d)/(1 + cosh d) = tanh(d/2).
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override;

  // d/dt [cosh(tL) p + sinh(tL) v/L] = L sinh(sL) p + cosh(sL) v at t = s
  // (spatial part; the time coordinate from the tangency at the end point).
  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override;

  // Blocks: along v (flat) and Minkowski-orthogonal to it (curvature -1).
  void regression_gauss_newton(CVecRef p, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override;

  // Along the geodesic from p with unit direction t = w/L: eps at its end
  // splits into a u, u = sinh(L) p + cosh(L) t the unit tangent there (it
  // transports back to a t), and a part Minkowski-orthogonal to the plane of
  // p and t, parallel (constant) along the geodesic and scaled by curvature -1.
  // Spatial parts throughout, time coordinates from the tangency condition.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef yhat, CVecRef eps, VecRef adj_p, VecRef adj_w) const override;
  // The same for L = |w|_p > 0 with s = jacobi_scaling(-1, L), sh = sinh L,
  // p0 and yhat0 the time coordinates of p and yhat; u a buffer.
  template <class P, class W, class Y, class E, class U, class O1, class O2>
  void adjoint_chart(const P& p, double p0, const W& w, double L, const JacobiScaling& s, double sh, const Y& yhat,
                     double yhat0, const E& eps, U& u, O1& adj_p, O2& adj_w) const {
    const auto t = spatial(w) / L;
    spatial(u) = sh * spatial(p) + s.footpoint * t;  // cosh L t
    finish_tangent(yhat, yhat0, u);
    const double a = chart_inner(yhat, eps, u);
    const auto perp = spatial(eps) - a * spatial(u);
    spatial(adj_p) = a * t + s.footpoint * perp;
    spatial(adj_w) = a * t + s.shooting * perp;
    finish_tangent(p, p0, adj_p);
    finish_tangent(p, p0, adj_w);
  }

  // One point of the regression pass (Manifold::regression_residuals):
  // yhat = Exp_p(w), eps = Log_yhat(y), the adjoint Jacobi fields; returns
  // |eps|. One cosh and sinh of L = |w|_p serve Exp and the Jacobi fields.
  template <class P, class W, class Y, class V>
  double regression_point(const P& p, double p0, const W& w, const Y& y, V& fit, V& eps, V& u, V& adj_p,
                          V& adj_w) const {
    const double L = std::sqrt(num::clamp0(chart_inner(p, w, w))), sh = std::sinh(L);
    const JacobiScaling s = jacobi_scaling_of(-1.0, L, sh, std::cosh(L));  // cosh L, sinh(L)/L
    exp_chart(p, w, s.footpoint, s.shooting, fit);
    if (!fit.allFinite())
      throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on hyperbolic");
    log_chart(fit, fit(0), y, lift(spatial(y)), eps);
    if (L == 0.0) {
      adj_p = eps;
      adj_w = eps;
    } else {
      adjoint_chart(p, p0, w, L, s, sh, fit, fit(0), eps, u, adj_p, adj_w);
    }
    return std::sqrt(num::clamp0(chart_inner(fit, eps, eps)));
  }

  // The pass of regression_point() (no allocation per point).
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override;

  // The clipped gradient sums by regression_point() in one pass
  // (fused_regression_gradient), on fixed-size vectors on H^2.
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override;
  // regression_gradient() with one covariate in the frame (p, t) of the
  // fitted geodesic, t = v/|v|_p (tangent_basis(p).col(0) when v = 0): with
  // phi_i = x_i |v| the fit is cosh phi p + sinh phi t; y_i = A p + C t + r_i
  // (A = -<p, y>_L, C = <t, y>_L, r_i Minkowski-orthogonal to both, tangent at
  // p) has tangent part a u + r_i at the fit, u = sinh phi p + cosh phi t, a =
  // C cosh phi - A sinh phi, s^2 = a^2 + |r_i|^2 = sinh^2 theta; the clip h =
  // asinh(min(s, sinh tau))/s (one log1p per point, the same work for every
  // point). adjoint_chart carries u to t (flat) and r_i unchanged (curvature
  // -1: cosh phi, sinh(phi)/|v|), so that
  //   sum_p = (sum h a) t + sum h cosh phi r_i,
  //   sum_V = (sum x h a) t + sum h sinh phi r_i / |v|,
  // sum c_i r_i = Y c - (c.A) p - (c.C) t: matrix-vector products and scalars,
  // spatial parts throughout. A and C are Minkowski
  // products, and a expands in cosh phi and sinh phi: they cancel to eps
  // x_0(p) x_0(y) e^|phi| for nearby points. The pass serves chains whose
  // public domain keeps every fit within frame_radius of the origin:
  // footpoints within the ball, |v| <= tau_m and covariates in [-1, 1] (a
  // release maps them to [0, 1]), so that acosh(x_0(center)) + radius + tau_m
  // <= 2 (about 1e-14 in the residual lengths; frame_ok()); the chart pass
  // serves the others. y_0 is recomputed from the spatial part (cached per
  // data set).
  static constexpr double frame_radius = 2.0;
  bool frame_ok(const RegressionScratch& scratch, const Mat& x, Eigen::Index begin, Eigen::Index end) const;
  void gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const;

  template <class Vt>
  void gradient_pass(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                     Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V) const {
    Vt p, fit, e, u;
    for (Vt* b : {&p, &fit, &e, &u}) b->resize(d_ + 1);
    p = p_in;
    const double p0 = lift(p.tail(d_));
    fused_regression_gradient<Vt>(V, Y, x, begin, end, tau, sum_p, sum_V,
                                  [&](const Vt& w, const Vt& y, Vt& ap, Vt& aw) {
                                    return regression_point(p, p0, w, y, fit, e, u, ap, aw);
                                  });
  }

  // In the spatial chart a tangent vector is its spatial part: recompute v_0.
  // (to_tangent's <p,x>_L cancels to eps x_0^2 far from the origin.)
  void clean_tangent(CVecRef p, CVecRef v, VecRef out) const override;

  // x + <p,x>_L p (spatial part), then v_0 from the tangency condition.
  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override;

  // The boost taking (1,0,...,0) to p applied to e_1..e_d.
  Mat tangent_basis(CVecRef p) const override;

  // tangent_basis(p) z in O(d): with w the spatial part of p,
  // B z = (<w,z>, z + w <w,z>/(1 + p_0)); the boost is an isometry, |B z|_L = |z|.
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override;

  // Keep the spatial coordinates, lift x_0 onto the upper sheet; an error
  // when that point is too far from the origin to be represented.
  void project(CVecRef x, VecRef out) const override;

  // x_0 > 0 and <x,x>_L = -1 relative to x_0^2 (a relative error tol in x_0),
  // for x_0^2 finite (x_0 < 1.3e154, about 355 from the origin).
  std::string point_problem(CVecRef x, double tol) const override;

  // The normal part <p,v>_L against tol max(1, |v|_p) (as the other
  // manifolds: relative, absolute for small vectors), plus the rounding floor
  // of <p,v>_L itself (a few ulps of p_0|v_0| + |p_s||v_s|): at a point r
  // from the origin a double resolves the tangent space only to about
  // eps e^{2r}, and the old bound tol |p||v| accepted any vector there.
  std::string tangent_problem(CVecRef p, CVecRef v, double tol) const override;

  // Log_x(x_i) and dist^2 in one pass (fixed-size vectors on H^2).
  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override;

  // Rounding of a point r from the origin: its coordinates resolve it to
  // about eps x_0 (the angular resolution eps times sinh r).
  double rounding_scale(CVecRef p) const override;

  // Area of geodesic spheres: sinh^{d-1} r.
  // log sinh r = r + log(1 - e^{-2r}) - log 2, finite for large r.
  double log_volume_density(double r) const override;
  double d_log_volume_density(double r) const override;

 private:
  int d_;

  template <int N>
  double mean_log_sized(CVecRef p, const PointSet& X, VecRef mean) const {
    using V = Eigen::Matrix<double, N, 1>;
    const V pp = p;
    const double p0 = lift(spatial(pp));
    V buf(d_ + 1), w(d_ + 1), acc = V::Zero(d_ + 1);
    double cost = 0.0;
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      buf = X.col(i);
      const double d = log_chart(pp, p0, buf, lift(spatial(buf)), w);
      acc += w;
      cost += d * d;
    }
    const double n = static_cast<double>(X.cols());
    mean = acc / n;
    return cost / (2.0 * n);
  }
};

}  // namespace riemdp

#endif

// Kendall's shape space of k planar landmarks (methods article, "Manifolds and their formulas"). A point is stored
// as a preshape: a k x 2 configuration (column-major: x then y), centred and
// of unit Frobenius norm, read as z in C^k with z_j = x_j + i y_j. The
// centred configurations are isometric to the Helmertised C^{k-1}, so no
// Helmert matrix is needed. Tangent vectors are horizontal:
// centred, Re<v,z> = 0 and Re<v,iz> = 0. Curvature in [1, 4], inj = pi/2.
#ifndef RIEMDP_GEOMETRY_KENDALL_H
#define RIEMDP_GEOMETRY_KENDALL_H

#include "sphere.h"

namespace riemdp {

class Kendall : public Manifold {
 public:
  explicit Kendall(int k) : k_(k) {}
  std::string name() const override { return "kendall"; }
  int dim() const override { return 2 * k_ - 4; }
  int ambient() const override { return 2 * k_; }
  double injectivity_radius() const override { return num::pi / 2.0; }
  // k = 3: the sphere of radius 1/2, constant curvature 4.
  double curvature_min() const override { return k_ == 3 ? 4.0 : 1.0; }
  double curvature_max() const override { return 4.0; }

  // i z: (x, y) -> (-y, x).
  Vec times_i(CVecRef z) const {
    Vec out(2 * k_);
    out.head(k_) = -z.tail(k_);
    out.tail(k_) = z.head(k_);
    return out;
  }

  // c = sum_j conj(z_j) w_j.
  // (hermitian, align, dot_i and the adjoint fields are templates: the
  // regression pass runs them on plain vectors.)
  template <class Z, class W>
  void hermitian(const Z& z, const W& w, double& re, double& im) const {
    re = z.dot(w);
    im = z.head(k_).dot(w.tail(k_)) - z.tail(k_).dot(w.head(k_));
  }

  void representative(CVecRef p, CVecRef q, VecRef out) const override { align(p, q, out); }

  void align_pair(CVecRef ref, VecRef p, Eigen::Ref<Mat> V) const override {
    double re, im;
    hermitian(ref, p, re, im);
    const double m = std::hypot(re, im);
    if (m == 0.0) return;
    const double c = re / m, s = im / m;
    const auto rotate = [&](auto w) {
      const Vec x = w.head(k_), y = w.tail(k_);
      w.head(k_) = c * x + s * y;
      w.tail(k_) = c * y - s * x;
    };
    rotate(p.segment(0, 2 * k_));
    for (Eigen::Index j = 0; j < V.cols(); ++j) rotate(V.col(j));
  }

  // w rotated into optimal alignment with z: w* = w exp(-i arg c); returns |c|.
  template <class Z, class W, class O>
  double align(const Z& z, const W& w, O&& out) const {
    double re, im;
    hermitian(z, w, re, im);
    const double m = std::hypot(re, im);
    if (m == 0.0) { out = w; return 0.0; }
    const double c = re / m, s = im / m;
    out.head(k_) = c * w.head(k_) + s * w.tail(k_);
    out.tail(k_) = c * w.tail(k_) - s * w.head(k_);
    return m;
  }

  void exp(CVecRef p, CVecRef v, VecRef out) const override { unit_sphere_exp(p, v, out); }

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override { out = std::cos(r) * p + std::sin(r) * u; }

  // Align, then the sphere log (which is horizontal after alignment).
  void log(CVecRef p, CVecRef q, VecRef out) const override {
    Vec w(2 * k_);
    if (!log_aligned(p, q, w, out))
      throw domain_error("the shapes are at the maximal distance pi/2 (cut locus): the log is not defined");
  }
  // The same with a buffer for the aligned q; false at the cut locus.
  template <class P, class Q, class B, class O>
  bool log_aligned(const P& p, const Q& q, B& buf, O& out) const {
    if (align(p, q, buf) < 1e-14) return false;
    double a2, b2;
    return unit_sphere_log_core(p, buf, out, a2, b2);
  }

  // dist = acos|<z,w>| in a stable form: chord angle after alignment when the
  // shapes are close, acos where it is accurate.
  double dist(CVecRef p, CVecRef q) const override {
    Vec w(2 * k_);
    const double m = align(p, q, w);
    if (m < 0.5) return std::acos(m);
    return num::chord_angle((w - p).norm(), (w + p).norm());
  }

  double inner(CVecRef, CVecRef u, CVecRef v) const override { return u.dot(v); }

  // Along the geodesic from p with unit direction t: u = a t + b (i t) + rest
  // becomes a g'(s) + b i g'(s) + rest, g'(s) = -sin(s) p + cos(s) t.
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override {
    Vec lg(2 * k_);
    log(p, q, lg);
    const double s = lg.norm();
    if (s == 0.0) { out = v; return; }
    const Vec t = lg / s;
    const Vec it = times_i(t);
    const double a = v.dot(t), b = v.dot(it);
    const Vec g = -std::sin(s) * p + std::cos(s) * t;
    out = v - a * t - b * it + a * g + b * times_i(g);
  }

  // The preshape sphere's great circle (horizontal geodesics stay horizontal).
  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override {
    unit_sphere_geodesic_velocity(p, v, s, out);
  }

  // Blocks: along i v (curvature 4), then the sphere's (along v flat, the
  // rest curvature 1).
  void regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override {
    dp.setZero();
    dv.setZero();
    const double L = v.norm();
    if (L == 0.0) return gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
    const Vec it = times_i(v) / L;
    const double bp = gp.dot(it), bv = gv.dot(it);
    gauss_newton_block(4.0 * L * L, x, h).apply(bp * it, bv * it, dp, dv);
    unit_sphere_gauss_newton(v, x, h, gp - bp * it, gv - bv * it, dp, dv);
  }

  // Three curvature blocks along the horizontal geodesic from p with unit
  // direction t = w/L (methods article, "Fitting"): eps at its end is a u + b i u + rest, u the
  // unit tangent there; back at p it is a t + b i t + rest (as in transport),
  // and the i t part is scaled by curvature 4, the rest by curvature 1.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override {
    const double L = w.norm();
    if (L == 0.0) {
      adj_p = eps;
      adj_w = eps;
      return;
    }
    adjoint_core(p, w, L, std::sin(L), std::cos(L), jacobi_scaling(1.0, L), jacobi_scaling(4.0, L), eps, adj_p,
                 adj_w);
  }
  // The same for L = |w| > 0 with sL = sin L, cL = cos L and the Jacobi
  // scalings s1, s4 of curvatures 1 and 4 over L.
  template <class P, class W, class E, class O1, class O2>
  void adjoint_core(const P& p, const W& w, double L, double sL, double cL, const JacobiScaling& s1,
                    const JacobiScaling& s4, const E& eps, O1&& adj_p, O2&& adj_w) const {
    // Expanded (no temporaries, as on the sphere): with u = -sin L p + cos L t,
    // a t + c4 b (i t) + c1 (eps - a u - b i u) = c1 eps + a (1 - c1 cos L) t
    // + c1 a sin L p + b (c4 - c1 cos L) (i t) + c1 b sin L (i p).
    const double a = cL * eps.dot(w) / L - sL * eps.dot(p);
    const double b = cL * dot_i(eps, w) / L - sL * dot_i(eps, p);
    // One loop per field, with i x = (-x_y, x_x).
    const auto blocks = [&](double c1, double c4, auto& out) {
      const double ct = a * (1.0 - c1 * cL) / L, cp = c1 * a * sL, cw = b * (c4 - c1 * cL) / L, ci = c1 * b * sL;
      for (int j = 0; j < k_; ++j) {
        const int l = j + k_;
        out[j] = c1 * eps[j] + ct * w[j] + cp * p[j] - cw * w[l] - ci * p[l];
        out[l] = c1 * eps[l] + ct * w[l] + cp * p[l] + cw * w[j] + ci * p[j];
      }
    };
    blocks(s1.footpoint, s4.footpoint, adj_p);
    blocks(s1.shooting, s4.shooting, adj_w);
  }

  // One point of the regression pass (Manifold::regression_residuals):
  // yhat = Exp_p(w), eps = Log_yhat(y) (cut_locus_safe_log), the adjoint
  // Jacobi fields; returns |eps|. One sine and cosine of L = |w| serve Exp
  // and the Jacobi fields; yal is a buffer for y aligned to yhat.
  template <class P, class W, class Y, class V>
  double regression_point(const P& p, const W& w, const Y& y, V& fit, V& yal, V& eps, V& adj_p, V& adj_w) const {
    const double L = w.norm(), sL = std::sin(L);
    const JacobiScaling s1 = jacobi_scaling_of(1.0, L, sL, std::cos(L));  // cos L, sin(L)/L
    // Beyond |w| = 1/eps the fit is not representable (unit_sphere_exp).
    const bool representable = L <= 1.0 / std::numeric_limits<double>::epsilon();
    if (representable) unit_sphere_exp_scaled(p, w, s1.footpoint, s1.shooting, fit);
    if (!representable || !fit.allFinite())
      throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on kendall");
    if (!log_aligned(fit, y, yal, eps)) cut_locus_safe_log(fit, y, eps);
    if (L == 0.0) {
      adj_p = eps;
      adj_w = eps;
    } else {
      adjoint_core(p, w, L, sL, s1.footpoint, s1, jacobi_scaling(4.0, L), eps, adj_p, adj_w);
    }
    return std::sqrt(num::clamp0(eps.dot(eps)));
  }

  // The pass of regression_point() (no allocation per point).
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override {
    Vec yal(2 * k_);
    regression_residual_pass(W, Y, dist, adj_p, adj_w, yhat, eps,
                             [&](const Vec& w, const Vec& y, Vec& fit, Vec& e, Vec& ap, Vec& aw) {
                               return regression_point(p, w, y, fit, yal, e, ap, aw);
                             });
  }

  // The clipped gradient sums by regression_point() in one pass
  // (fused_regression_gradient).
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch&) const override {
    const int D = 2 * k_;
    const Vec pv = p;
    Vec fit(D), yal(D), e(D);
    fused_regression_gradient<Vec>(V, Y, x, begin, end, tau, sum_p, sum_V,
                                   [&](const Vec& w, const Vec& y, Vec& ap, Vec& aw) {
                                     return regression_point(pv, w, y, fit, yal, e, ap, aw);
                                   });
  }

  // <e, i x>, without forming i x.
  template <class E, class X>
  double dot_i(const E& e, const X& x) const { return e.tail(k_).dot(x.head(k_)) - e.head(k_).dot(x.tail(k_)); }

  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override {
    out = x;
    centre(out);
    const Vec ip = times_i(p);
    out -= p.dot(out) * p;
    out -= ip.dot(out) * ip;
  }

  // Horizontal projection of an ambient N(0, I): N(0, I) on the horizontal
  // space (an orthogonal projection onto a subspace).
  int tangent_gaussian_size() const override { return 2 * k_; }
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override {
    to_tangent(p, z, out);
    return out.norm();
  }

  Mat tangent_basis(CVecRef p) const override {
    Mat P = Mat::Identity(2 * k_, 2 * k_);
    const Vec ip = times_i(p);
    P.topLeftCorner(k_, k_).array() -= 1.0 / k_;
    P.bottomRightCorner(k_, k_).array() -= 1.0 / k_;
    P -= p * p.transpose() + ip * ip.transpose();
    return projector_range(P, dim());
  }

  // Remove location and scale: the preshape. The configuration is first
  // scaled by the power of two at its largest coordinate (exactly), so that
  // centring and the norm neither overflow nor underflow at any scale
  // (shapes are scale-free).
  void project(CVecRef x, VecRef out) const override {
    if (!x.allFinite()) { out = x; return; }  // see Manifold::project
    if (!scaled_centred(x, out)) throw domain_error("all landmarks coincide: the configuration has no shape");
    out /= out.norm();
  }

  // Accepts raw configurations at any scale: any finite configuration whose
  // landmarks do not all coincide (relative to its magnitude, up to the
  // rounding of centring) represents a shape.
  std::string point_problem(CVecRef x, double) const override {
    Vec c(2 * k_);
    if (!scaled_centred(x, c)) return "has all landmarks at the same place: it has no shape";
    return "";
  }

  std::string tangent_problem(CVecRef p, CVecRef v, double tol) const override {
    const double scale = tol * std::max(1.0, v.norm());
    const double cx = v.head(k_).sum(), cy = v.tail(k_).sum();
    if (std::abs(cx) > scale * k_ || std::abs(cy) > scale * k_)
      return "is not a tangent vector: its columns do not sum to 0";
    const double a = p.dot(v), b = times_i(p).dot(v);
    if (std::abs(a) > scale || std::abs(b) > scale)
      return "is not a horizontal tangent vector at its base point (Re<v,z> = " + num::fmt(a) +
             ", Re<v,iz> = " + num::fmt(b) + ")";
    return "";
  }

  // Area of geodesic spheres: sin^{2m-1} r cos r on [0, pi/2], m = k - 2.
  double log_volume_density(double r) const override {
    return (2.0 * (k_ - 2) - 1.0) * std::log(std::sin(r)) + std::log(std::cos(r));
  }
  double d_log_volume_density(double r) const override {
    return (2.0 * (k_ - 2) - 1.0) / std::tan(r) - std::tan(r);
  }

 private:
  int k_;
  void centre(VecRef x) const {
    x.head(k_).array() -= x.head(k_).mean();
    x.tail(k_).array() -= x.tail(k_).mean();
  }
  // out = centred x / 2^e, 2^e the power of two at max|x_j| (an exact
  // scaling); false when the landmarks coincide to within the rounding of
  // centring (|centred| <= 4 k eps max|x_j|), i.e. at any scale only when
  // they really coincide.
  bool scaled_centred(CVecRef x, VecRef out) const {
    const double s = x.cwiseAbs().maxCoeff();
    if (!(s > 0.0)) return false;
    int e;
    std::frexp(s, &e);
    out = x * std::ldexp(1.0, -e);
    centre(out);
    return out.norm() > 4.0 * k_ * std::numeric_limits<double>::epsilon();
  }
};

}  // namespace riemdp

#endif

// Kendall's shape space of k planar landmarks (methods article, "Manifolds and their formulas"). A point is stored
// as a preshape: a k x 2 configuration (column-major: x then y), centred and
// of unit Frobenius norm, read as z in C^k with z_j = x_j + i y_j. The
// centred configurations are isometric to the Helmertised C^{k-1}, so no
// Helmert matrix is needed. Tangent vectors are horizontal:
// centred, Re<v,z> = 0 and Re<v,iz> = 0. Curvature in [1, 4], inj = pi/2.
#ifndef RIEMDP_GEOMETRY_KENDALL_H
#define RIEMDP_GEOMETRY_KENDALL_H

#include "manifold.h"

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
  Vec times_i(CVecRef z) const;

  // c = sum_j conj(z_j) w_j.
  // (hermitian, align, dot_i and the adjoint fields are templates: the
  // regression pass runs them on plain vectors.)
  template <class Z, class W>
  void hermitian(const Z& z, const W& w, double& re, double& im) const {
    re = z.dot(w);
    im = z.head(k_).dot(w.tail(k_)) - z.tail(k_).dot(w.head(k_));
  }

  void representative(CVecRef p, CVecRef q, VecRef out) const override;

  void align_pair(CVecRef ref, VecRef p, Eigen::Ref<Mat> V) const override;

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

  void exp(CVecRef p, CVecRef v, VecRef out) const override;

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override;

  // Align, then the sphere log (which is horizontal after alignment).
  void log(CVecRef p, CVecRef q, VecRef out) const override;
  // The same with a buffer for the aligned q; false at the cut locus.
  template <class P, class Q, class B, class O>
  bool log_aligned(const P& p, const Q& q, B& buf, O& out) const;

  // dist = acos|<z,w>| in a stable form: chord angle after alignment when the
  // shapes are close, acos where it is accurate.
  double dist(CVecRef p, CVecRef q) const override;

  double inner(CVecRef, CVecRef u, CVecRef v) const override;

  // Along the geodesic from p with unit direction t: u = a t + b (i t) + rest
  // becomes a g'(s) + b i g'(s) + rest, g'(s) = -sin(s) p + cos(s) t.
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override;

  // The preshape sphere's great circle (horizontal geodesics stay horizontal).
  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override;

  // Blocks: along i v (curvature 4), then the sphere's (along v flat, the
  // rest curvature 1).
  void regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override;

  // Three curvature blocks along the horizontal geodesic from p with unit
  // direction t = w/L (methods article, "Fitting"): eps at its end is a u + b i u + rest, u the
  // unit tangent there; back at p it is a t + b i t + rest (as in transport),
  // and the i t part is scaled by curvature 4, the rest by curvature 1.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override;
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
  double regression_point(const P& p, const W& w, const Y& y, V& fit, V& yal, V& eps, V& adj_p, V& adj_w) const;

  // The pass of regression_point() (no allocation per point).
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override;

  // The clipped gradient sums by regression_point() in one pass
  // (fused_regression_gradient).
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override;

  // regression_gradient() with one covariate in the frame (p, i p, t, i t),
  // t = v/|v| (tangent_basis(p).col(0) when v = 0): with phi_i = x_i |v|
  // the fit is cos phi_i p + sin phi_i t, and y_i = A p + B ip + C t + E it
  // + r_i (r_i orthogonal to the frame). Its alignment to the fit is the
  // rotation by psi_i = arg(<fit, y_i>), <fit, y_i> = (cos phi A + sin phi C)
  // + i (cos phi B + sin phi E); after it, Log_fit(y) = (theta/s)(a u + b iu
  // + e^{-i psi} r_i), u = -sin phi p + cos phi t, a + i b = e^{-i psi}
  // <u, y_i>, s^2 = a^2 + b^2 + |r_i|^2 = sin^2 theta. adjoint_core carries u
  // to t (flat), iu to it (curvature 4: cos 2 phi, sin(2 phi)/(2 |v|)) and
  // the rest unchanged (curvature 1: cos phi, sin(phi)/|v|), so that
  //   sum_p = (sum h a) t + (sum h b cos 2phi) it + R(h cos phi),
  //   sum_V = (sum x h a) t + (sum h b sin 2phi)/(2|v|) it + R(h sin phi)/|v|,
  // R(c) = sum_i c_i e^{-i psi_i} r_i, four matrix-vector products with Y and
  // the per-point scalars in between: no per-point vector work. h = the
  // clipped angle over s. Where |<fit, y_i>| < 1e-14 (the cut locus of the
  // alignment; an event of probability zero) the chunk is rerun by
  // regression_point().
  void gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const;

  // <e, i x>, without forming i x.
  template <class E, class X>
  double dot_i(const E& e, const X& x) const { return e.tail(k_).dot(x.head(k_)) - e.head(k_).dot(x.tail(k_)); }

  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override;

  // Horizontal projection of an ambient N(0, I): N(0, I) on the horizontal
  // space (an orthogonal projection onto a subspace).
  int tangent_gaussian_size() const override;
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override;

  Mat tangent_basis(CVecRef p) const override;

  // Remove location and scale: the preshape. The configuration is first
  // scaled by the power of two at its largest coordinate (exactly), so that
  // centring and the norm neither overflow nor underflow at any scale
  // (shapes are scale-free).
  void project(CVecRef x, VecRef out) const override;

  // Accepts raw configurations at any scale: any finite configuration whose
  // landmarks do not all coincide (relative to its magnitude, up to the
  // rounding of centring) represents a shape.
  std::string point_problem(CVecRef x, double) const override;

  std::string tangent_problem(CVecRef p, CVecRef v, double tol) const override;

  // Area of geodesic spheres: sin^{2m-1} r cos r on [0, pi/2], m = k - 2.
  double log_volume_density(double r) const override;
  double d_log_volume_density(double r) const override;

 private:
  int k_;
  void centre(VecRef x) const;
  // out = centred x / 2^e, 2^e the power of two at max|x_j| (an exact
  // scaling); false when the landmarks coincide to within the rounding of
  // centring (|centred| <= 4 k eps max|x_j|), i.e. at any scale only when
  // they really coincide.
  bool scaled_centred(CVecRef x, VecRef out) const;
};

}  // namespace riemdp

#endif

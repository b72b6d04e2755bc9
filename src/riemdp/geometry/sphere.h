// Unit sphere S^d in R^{d+1} (methods article, "Manifolds and their formulas"): curvature 1, injectivity radius pi.
#ifndef RIEMDP_GEOMETRY_SPHERE_H
#define RIEMDP_GEOMETRY_SPHERE_H

#include "manifold.h"

namespace riemdp {

class Sphere : public Manifold {
 public:
  explicit Sphere(int d) : d_(d) {}
  std::string name() const override { return "sphere"; }
  int dim() const override { return d_; }
  int ambient() const override { return d_ + 1; }
  double injectivity_radius() const override { return num::pi; }
  // S^1 is flat: a 1-manifold has no sectional curvature (its Riemann
  // tensor is zero), so its Frechet bounds are Euclidean (r* = pi/2, Delta = 2r/n).
  double curvature_min() const override { return d_ == 1 ? 0.0 : 1.0; }
  double curvature_max() const override { return d_ == 1 ? 0.0 : 1.0; }

  void exp(CVecRef p, CVecRef v, VecRef out) const override;

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override;

  void log(CVecRef p, CVecRef q, VecRef out) const override;

  double dist(CVecRef p, CVecRef q) const override;
  double inner(CVecRef, CVecRef u, CVecRef v) const override;

  // Gamma_{p->q}(v) = v - <q,v>/(1+<p,q>) (p+q), with 1 + <p,q> = |p+q|^2/2
  // (accurate near the antipode, where 1 + <p,q> cancels).
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override;

  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override;

  // tangent_basis(p) z in O(d), d normals: with q = +-p (q_0 >= 0) and w its
  // last d coordinates, B z = (-<w,z>, z - w <w,z>/(1 + q_0)); B is
  // orthonormal, so |B z| = |z|. (Projecting an ambient N(0, I) onto T_p is
  // as exact but needs d + 1 normals.)
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override;

  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override;

  void regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override;

  // Along the great circle from p with unit direction t = w/L: eps at its end
  // splits into a u, u = -sin(L) p + cos(L) t the unit tangent there (it
  // transports back to a t), and a part orthogonal to the circle's plane,
  // which is parallel (constant) along it and scaled by curvature 1.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override;

  // The regression pass in one loop: one sine and cosine of |w_i| per point
  // serve Exp, the Jacobi scalings (cos L, sin L / L) and the split of eps.
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override;

  // Rotation taking e_0 to +-p applied to e_1..e_d (T_p = T_{-p}).
  Mat tangent_basis(CVecRef p) const override;

  // The clipped gradient sums (Manifold::regression_gradient) in one pass
  // without buffers: per point one sine and cosine of |w_i|, the log and the
  // adjoint Jacobi fields of regression_residuals(), the Huber weight
  // (gradient_pass; on S^2 with fixed-size vectors); on S^2 with one
  // covariate the same sums in the frame of the fitted circle on vector lanes
  // (gradient_pass_s2; where the compiler has vector extensions).
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override;

  // x/|x|, with |x| free of overflow and underflow (stableNorm).
  void project(CVecRef x, VecRef out) const override;

  std::string point_problem(CVecRef x, double tol) const override;

  // Area of geodesic spheres: sin^{d-1} r on [0, pi].
  double log_volume_density(double r) const override;
  double d_log_volume_density(double r) const override;

  // Hot loops over raw strided data: the same formulas as dist() and
  // unit_sphere_log(), inlined because the generic loop (copy to a buffer,
  // virtual log) makes frechet_mean of 10^5 points 2.5x slower (55 ms vs 21 ms).
  // Batch distances (riem_dist one against many): chunks of points whose
  // squared chords are accumulated coordinate by coordinate and turned into
  // angles by unit_chord_angle_near on Eigen arrays (vectorised, branch-free,
  // no libm call).
  void dist_many(CVecRef p, const PointSet& X, VecRef out) const override;

  // The same pass with the check of point_problem(): a NaN or Inf coordinate
  // makes the squared norm fail the test as well.
  Eigen::Index dist_many_checked(CVecRef p, const PointSet& X, double tol, VecRef out) const override;

  // One pass per point: w = x - p - <p, x - p> p (the tangent part of x), the
  // angle from the squared chords by chord_angle_sq (no libm call), one square
  // root and one division; on S^2 on lanes (s2_mean_log).
  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override;
  // Log_p(x_i) and |Log_p(x_i)| for every column in one pass per point
  // (the Frechet median's pass).
  void log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const override;

  // The same pass with weights on S^2 (points of weight 0 skipped).
  double weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const override;

 private:
  int d_;

  template <int Dfix>
  void log_many_pass(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const;
  template <int Dfix>
  double mean_log_pass(CVecRef p, const PointSet& X, VecRef mean) const;

  // regression_gradient() with the vectors of the pass in buf (p, w, y, fit,
  // eps, adj_p, adj_w, sum of x_i adj_w), fixed-size or maps onto scratch
  // memory. Per point: w_i = V x_i (m = 1: L = |x_i| |v|), the fit, eps =
  // Log_fit(y) as unit_sphere_log_core with the angle by chord_angle_sq and
  // |eps| taken as that angle (equal to rounding), at the cut locus
  // cut_locus_safe_log's dist times tangent_basis(fit).col(0); eps scaled by
  // the Huber weight (the adjoints are linear in eps), then sphere_adjoint.
  // The same operations for every point (no early exit).
  template <class Vt>
  void gradient_pass(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin, Eigen::Index end,
                     double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V, Vt* buf) const;

  // (Defined where the compiler has vector extensions, lanes.h.)
  // regression_gradient() on S^2 with one covariate, in the frame (p, u, n)
  // of the fitted great circle: u = v/|v| (tangent_basis(p).col(0) when v =
  // 0), n = p x u. With phi_i = x_i |v|, the fit is yhat_i = cos phi_i p +
  // sin phi_i u with unit tangent t_i = -sin phi_i p + cos phi_i u, and
  // y_i/|y_i| = alpha_i p + beta_i u + gamma_i n has <yhat_i, y_i/|y_i|> = c_i
  // = alpha_i cos phi_i + beta_i sin phi_i and tangent part a_i t_i + gamma_i
  // n, a_i = beta_i cos phi_i - alpha_i sin phi_i, of length s_i = sin theta_i:
  // eps_i = h_i (a_i t_i + gamma_i n), h_i = min(theta_i, tau) / s_i (the
  // Huber weight). sphere_adjoint carries t_i to u (along the circle: flat)
  // and keeps n (orthogonal to its plane: curvature 1) scaled by cos phi_i
  // for p and sin(phi_i)/phi_i for v, so that
  //   sum_p = (sum h a) u + (sum h gamma cos phi) n,
  //   sum_V = (sum x h a) u + (sum h gamma sin(phi)/|v|) n.
  // theta_i only enters through the clip: with c_i > 0 and s_i <= sin tau,
  // theta_i = asin(s_i) <= tau and h_i = asin(s_i)/s_i (asin_small's
  // rational); otherwise theta_i >= tau and h_i = tau/s_i, as long as tau <=
  // pi/6 (a public choice of formula); for larger tau, theta_i by
  // chord_angle_sq of the chords in the frame. At the cut locus (s_i = 0, c_i
  // < 0) cut_locus_safe_log's direction tangent_basis(yhat_i).col(0), for the
  // few points concerned (a rerun of the pass, s2_pass_kernel: an event of
  // probability zero). y_i/|y_i| is cached in scratch (unit_points): the angle
  // is to the point's direction, where gradient_pass's chord angle of the raw
  // y_i differs from it by up to | |y_i| - 1 | (within the point tolerance)
  // when y_i is at its fit. The kernel runs on lanes of 8 points (lanes.h:
  // SSE2 vectors, or AVX2 where the CPU has it, with the same bits), without
  // a branch on the data; padding lanes copy the batch's first point and get
  // h = 0. Agrees with gradient_pass() to ~1e-15 for unit data
  // (test-kng-fused.R: cut locus, v = 0 and long v included).
  void gradient_pass_s2(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                        Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                        RegressionScratch& scratch) const;

  // regression_gradient() on S^d, d >= 3, with one covariate: the pass of
  // gradient_pass_s2 in the frame (p, u) of the fitted great circle, where
  // the part of y_i/|y_i| orthogonal to p and u, g_i = y_i/|y_i| - alpha_i p
  // - beta_i u, takes the place of gamma_i n: the kernel reads alpha_i,
  // beta_i and gamma_i = |g_i| (two matrix-vector products and one pass over
  // the coordinates) and returns the weights c_i of the orthogonal parts, whose
  // sums sum_i c_i g_i = Yu^T c - (c.alpha) p - (c.beta) u are two more
  // matrix-vector products: no per-point vector work, any dimension. At the
  // cut locus (an event of probability zero) the chunk is rerun by
  // gradient_pass. (Defined where the compiler has vector extensions.)
  void gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const;

  // y_i / |y_i| for the points of Y (rows of an n x (d + 1) matrix), computed once
  // per data set and kept in scratch (a scratch serves one data set: the
  // cache is keyed by its address, size and strides).
  static const Mat& unit_points(const PointSet& Y, RegressionScratch& scratch);

  template <bool Check>
  Eigen::Index batch_dist(CVecRef p, const PointSet& X, double tol, VecRef out) const;
};

}  // namespace riemdp

#endif

// The manifold interface: a small required set, everything else derived once.
// Points and tangent vectors are flat vectors of length ambient() (matrices
// column-major). Argument order is always (base point, vector).
#ifndef RIEMDP_GEOMETRY_MANIFOLD_H
#define RIEMDP_GEOMETRY_MANIFOLD_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "../numerics.h"

namespace riemdp {

// The Huber-type loss of residual norm d with clip tau (methods article, "The joint release of a geodesic regression"):
// rho(d) = d^2/2 for d <= tau, tau d - tau^2/2 beyond; its gradient is the
// least-squares one with the residual scaled by min(1, tau/d) (clipped to
// norm tau). tau = Inf is least squares.
inline double huber_loss(double d, double tau) { return d <= tau ? 0.5 * d * d : tau * d - 0.5 * tau * tau; }
// Branch-free in d (a release's run time must not depend on how many
// residuals are clipped): min(1, tau/d) is 1 for d <= tau (also for d = 0 and
// tau = Inf) and tau/d beyond; a NaN d stays NaN.
inline double huber_weight(double d, double tau) {
  const double r = tau / d;
  return d != d ? d : (r < 1.0 ? r : 1.0);
}

// The losses of robust geodesic regression (Shin & Oh 2022; as GeodRegr), on
// the residual norm d with cutoff c (distance units): E = (1/n) sum rho(d_i),
// and the gradient is the least-squares one with residual i weighted by
// weight(d) = psi(d)/d, psi = rho' (IRLS form).
//   l2: d^2/2 (weight 1); huber: huber_loss/huber_weight above;
//   tukey (biweight): c^2/6 (1 - (1 - (d/c)^2)^3) for d < c, c^2/6 beyond,
//     weight (1 - (d/c)^2)^2, 0 beyond (non-convex);
//   l1: d, smoothed at 0 as huber_loss(d, c)/c (= d - c/2 beyond a tiny c,
//     weight min(1/c, 1/d)): the weight 1/d is undefined at d = 0 (the
//     classical IRLS for least absolute deviations caps it so).
enum class LossType { l2 = 0, huber = 1, tukey = 2, l1 = 3 };
struct RegressionLoss {
  LossType type = LossType::l2;
  double c = std::numeric_limits<double>::infinity();
  // Least squares exactly (the plain Gauss-Newton path).
  bool least_squares() const { return type == LossType::l2 || (type == LossType::huber && !std::isfinite(c)); }
  double rho(double d) const {
    switch (type) {
      case LossType::huber: return huber_loss(d, c);
      case LossType::tukey: {
        if (d >= c) return c * c / 6.0;
        const double u = 1.0 - (d / c) * (d / c);
        return c * c / 6.0 * (1.0 - u * u * u);
      }
      case LossType::l1: return huber_loss(d, c) / c;
      default: return 0.5 * d * d;
    }
  }
  double weight(double d) const {
    switch (type) {
      case LossType::huber: return huber_weight(d, c);
      case LossType::tukey: {
        if (d >= c) return 0.0;
        const double u = 1.0 - (d / c) * (d / c);
        return u * u;
      }
      case LossType::l1: return huber_weight(d, c) / c;
      default: return 1.0;
    }
  }
};

// Buffers of Manifold::regression_gradient's default (reused from call to
// call: no allocation once sized). A scratch serves one data set: Sphere
// caches its unit points there, keyed by the data's address.
struct RegressionScratch {
  Mat W, adj_p, adj_w;
  Vec dist;
  Mat unit;
  Mat frame;  // per-point columns of the frame passes (sphere, kendall, hyperbolic)
  // The public domain of the chain the pass serves (footpoints in the ball
  // of radius domain_radius about domain_center, shooting vectors of norm at
  // most domain_tau_m; radius < 0: not given): a pass may choose its formulas
  // from it, never from the data.
  Vec domain_center;
  double domain_radius = -1.0, domain_tau_m = -1.0;
  const double* unit_source = nullptr;
  Eigen::Index unit_inner = 0, unit_outer = 0;
};

// The clipped gradient sums of Manifold::regression_gradient over the points
// begin..end-1 through a per-point kernel point(w, y, adj_p, adj_w) -> |eps|
// (w = V x_i, y = column i of Y; the adjoint Jacobi fields written into
// adj_p, adj_w): for fused passes on buffers of type Vt, fixed-size or
// allocated once per call. The sums are accumulated as in the default (the
// same bits; with several covariates w_i may differ in its last bits).
template <class Vt, class Point>
inline void fused_regression_gradient(const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                      Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                      Point point) {
  const Eigen::Index D = V.rows(), m = V.cols();
  Vt w, y, ap, aw, sp;
  for (Vt* b : {&w, &y, &ap, &aw, &sp}) b->resize(D);
  sp.setZero();
  sum_V.setZero();
  for (Eigen::Index i = begin; i < end; ++i) {
    if (m == 1) w = x(i, 0) * V.col(0);
    else w.noalias() = V * x.row(i).transpose();
    y = Y.col(i);
    const double h = huber_weight(point(w, y, ap, aw), tau);
    sp += h * ap;
    for (Eigen::Index j = 0; j < m; ++j) sum_V.col(j) += x(i, j) * (h * aw);
  }
  sum_p = sp;
}

// The residual pass of Manifold::regression_residuals through a per-point
// kernel point(w, y, fit, eps, adj_p, adj_w) -> |eps| (w = column i of W):
// the distances and adjoint fields, and on request the fitted values and
// residuals, with buffers allocated once per call.
template <class Point>
inline void regression_residual_pass(const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                                     Mat* yhat, Mat* eps, Point point) {
  const Eigen::Index D = Y.rows();
  Vec w(D), y(D), fit(D), e(D), ap(D), aw(D);
  for (Eigen::Index i = 0; i < Y.cols(); ++i) {
    w = W.col(i);
    y = Y.col(i);
    dist[i] = point(w, y, fit, e, ap, aw);
    adj_p.col(i) = ap;
    adj_w.col(i) = aw;
    if (yhat) yhat->col(i) = fit;
    if (eps) eps->col(i) = e;
  }
}

class Manifold {
 public:
  virtual ~Manifold() = default;

  // ---- required -----------------------------------------------------------
  virtual std::string name() const = 0;
  virtual int dim() const = 0;      // intrinsic dimension
  virtual int ambient() const = 0;  // length of a stored point
  virtual double injectivity_radius() const = 0;
  virtual double curvature_min() const = 0;
  virtual double curvature_max() const = 0;

  // Where the result cannot be represented in double precision (overflow,
  // an angle |v| lost to rounding) out is non-finite: the glue turns that
  // into an error, Metropolis-Hastings into a rejected proposal.
  virtual void exp(CVecRef p, CVecRef v, VecRef out) const = 0;
  // Throws domain_error at the cut locus.
  virtual void log(CVecRef p, CVecRef q, VecRef out) const = 0;
  virtual double inner(CVecRef p, CVecRef u, CVecRef v) const = 0;
  // Parallel transport of v in T_p along the minimising geodesic to q.
  virtual void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const = 0;
  // Orthogonal projection of an ambient vector onto T_p.
  virtual void to_tangent(CVecRef p, CVecRef x, VecRef out) const = 0;
  // Columns: an orthonormal basis of T_p (dim() columns).
  virtual Mat tangent_basis(CVecRef p) const = 0;
  // Explicit snapping of an ambient array onto the manifold; a non-finite x
  // (an unrepresentable exp) is passed through unchanged for the caller to
  // check, a finite x without a representable projection is a domain_error.
  virtual void project(CVecRef x, VecRef out) const = 0;
  // "" when x is a point (within the relative tolerance tol), else what is wrong.
  virtual std::string point_problem(CVecRef x, double tol) const = 0;

  // ---- derived (override where a closed form is faster or more stable) ----
  // A vector computed as tangent at p (up to rounding) cleaned of that
  // rounding: the projection onto T_p by default; overridden where that
  // projection is ill-conditioned (far from the origin of the hyperboloid).
  virtual void clean_tangent(CVecRef p, CVecRef v, VecRef out) const;

  // "" when v lies in T_p within tol (relative to |v|, ambient norm).
  virtual std::string tangent_problem(CVecRef p, CVecRef v, double tol) const;

  virtual double dist(CVecRef p, CVecRef q) const;

  double norm(CVecRef p, CVecRef v) const;

  // Exp_p(r u) for a unit vector u (samplers); override to save the norm.
  virtual void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const;

  // Exp_p(t v); an error where it cannot be represented in double precision.
  void geodesic(CVecRef p, CVecRef v, double t, VecRef out) const;

  // Isotropic tangent Gaussians without a basis (samplers): maps z ~ N(0, I)
  // of length tangent_gaussian_size() to out ~ N(0, I) in T_p, i.e. identity
  // covariance in any orthonormal basis of T_p for the metric at p, and
  // returns |out|_p (computed stably: far from the origin of the hyperboloid
  // the Minkowski norm of out cancels). The default is the product with
  // tangent_basis(p) (O(dim^2) time and memory); manifolds override it in
  // closed form.
  virtual int tangent_gaussian_size() const;
  virtual double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const;

  // Distances from p to every column of X.
  virtual void dist_many(CVecRef p, const PointSet& X, VecRef out) const;

  // The point check and dist_many in one call (riem_dist): returns the index
  // of the first column that is not a point (not finite, or point_problem()
  // not empty) and leaves out unspecified, or -1 when every column is a point
  // and out holds the distances. Overridden with one fused pass where cheap.
  virtual Eigen::Index dist_many_checked(CVecRef p, const PointSet& X, double tol, VecRef out) const;

  // mean = (1/n) sum_i Log_p(x_i) (minus the Frechet gradient, methods article, "Fitting");
  // returns the Frechet cost F(p) = 1/(2n) sum_i dist(p, x_i)^2.
  virtual double mean_log(CVecRef p, const PointSet& X, VecRef mean) const;

  // Weighted batch form: sum = sum_i w_i Log_p(x_i); returns
  // sum_i w_i |Log_p(x_i)|^2. Points of weight 0 are skipped (no Log).
  virtual double weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const;

  // Batch form of log and norm: Log_p(x_i) into column i of logs and
  // |Log_p(x_i)| into norms[i].
  virtual void log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const;

  // ---- geodesic regression (methods article, "Fitting"; Kulkarni & Soto 2025, eq. 5-8) ----
  // Adjoint Jacobi fields along the geodesic t -> Exp_p(t w), yhat = Exp_p(w):
  // for eps in T_yhat, adj_p = (d_p Exp(p, w))^T eps (p varied with w
  // parallel transported along the variation) and adj_w = (d_w Exp(p, w))^T
  // eps, both in T_p. Valid for any length |w| (beyond the cut locus too).
  virtual void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef yhat, CVecRef eps, VecRef adj_p,
                              VecRef adj_w) const = 0;

  // The velocity of the geodesic t -> Exp_p(t v) at t = s (in T_{Exp_p(s v)}).
  virtual void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const = 0;

  // Gauss-Newton direction of geodesic regression with one covariate x
  // (centred): (d_p, d_v) = -N^{-1} (g_p, g_v), N = (1/n) sum_i J_i^T J_i the
  // Gauss-Newton operator of the residuals, J_i = (d_p Exp, x_i d_w Exp) at
  // w_i = x_i v. All the geodesics share the direction of v, so N is block
  // diagonal over the eigenspaces of the curvature operator along v, one
  // gauss_newton_block() per eigenspace (the Jacobi scalings of methods article, "Fitting").
  // With weights h (size n; empty: all 1) N = (1/n) sum_i h_i J_i^T J_i
  // (IRLS for the robust losses, RegressionLoss::weight).
  virtual void regression_gauss_newton(CVecRef p, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                       VecRef dv) const = 0;

  // Log_p(q), except at the cut locus of p, where every direction is
  // minimising: there the first tangent basis direction times dist(p, q)
  // (the residual of a regression, which private releases clip to norm tau).
  void cut_locus_safe_log(CVecRef p, CVecRef q, VecRef out) const;

  // One pass of the regression model over the data: for each column i,
  // yhat_i = Exp_p(W_i), eps_i = Log_{yhat_i}(y_i) (on quotient spaces with
  // y_i aligned to yhat_i), dist_i = |eps_i|, and the adjoint Jacobi fields of
  // eps_i in column i of adj_p and adj_w. yhat and eps are written when not
  // null. Overridden where whitening once per call pays (spd).
  virtual void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p,
                                    Mat& adj_w, Mat* yhat, Mat* eps) const;

  // The clipped gradient sums of geodesic regression over the points
  // begin..end-1 (columns of Y, rows of the n x m covariates x), without the
  // energy (the KNG target, methods article, "The joint release of a geodesic regression"): with w_i = V x_i, eps_i and the adjoint
  // Jacobi fields as in regression_residuals() and h_i = huber_weight(|eps_i|, tau),
  //   sum_p = sum_i h_i adj_p(eps_i),  sum_V(:, j) = sum_i x_ij h_i adj_w(eps_i)
  // (overwritten). Residuals at the cut locus as in cut_locus_safe_log().
  // The default calls regression_residuals() on chunks of points in scratch;
  // overridden by fused passes without buffers (sphere, euclidean).
  virtual void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                   Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                   RegressionScratch& scratch) const;

  // log A(r), A the area density of geodesic spheres of radius r, up to a
  // constant (methods article, "Samplers"); only for isotropic spaces.
  virtual double log_volume_density(double /*r*/) const;
  // Its derivative in r.
  virtual double d_log_volume_density(double /*r*/) const;
  virtual bool isotropic() const { return true; }

  // log of the Jacobian of Exp_p at v for the volume of M and the Lebesgue
  // measure of T_p (1 at v = 0): log A(r) - (d - 1) log r on isotropic
  // spaces, r = |v|; overridden where it depends on the direction.
  virtual double log_exp_jacobian(CVecRef p, CVecRef v) const;

  // Rotates a parameter (p, V) into alignment with ref, for quotient spaces
  // (Kendall: p and every column of V times the same unit complex number);
  // the identity elsewhere.
  virtual void align_pair(CVecRef /*ref*/, VecRef /*p*/, Eigen::Ref<Mat> /*V*/) const;

  // Scale of the rounding errors at p, relative to machine epsilon: a point
  // stored in double precision is resolved, and Log_p computed, to about
  // eps * rounding_scale(p) * (1 + distance) in the metric (the stopping
  // floor of frechet_mean). 1 where the coordinates are O(1) (sphere, Kendall).
  virtual double rounding_scale(CVecRef /*p*/) const;

  // The representative of q chosen relative to p: q itself, except on
  // quotient spaces (Kendall: q rotated into optimal alignment with p).
  virtual void representative(CVecRef /*p*/, CVecRef q, VecRef out) const;
};

// Jacobi scalings across a geodesic of length L in constant curvature K
// (methods article, "Fitting"): a Jacobi field orthogonal to the geodesic with J(0) = u,
// J'(0) = 0 ends at c_K(L) u, with J(0) = 0, J'(0) = u at sn_K(L)/L u
// (both parallel transported), c_K = cos(sqrt(K) L), sn_K = sin(sqrt(K) L)/sqrt(K)
// (cosh, sinh for K < 0; 1 and L for K = 0); along the geodesic both are 1.
struct JacobiScaling {
  double footpoint, shooting;
};
// jacobi_scaling_of: the same from s = sqrt|K| L and its sine and cosine
// (sinh and cosh for K < 0), for passes that need those anyway.
inline JacobiScaling jacobi_scaling_of(double K, double s, double sin_s, double cos_s) {
  if (K > 0.0) return {cos_s, num::sinc_of(s, sin_s)};
  if (K < 0.0) return {cos_s, num::sinhc_of(s, sin_s)};
  return {1.0, 1.0};
}
inline JacobiScaling jacobi_scaling(double K, double L) {
  if (K > 0.0) {
    const double s = std::sqrt(K) * L;
    return jacobi_scaling_of(K, s, std::sin(s), std::cos(s));
  }
  if (K < 0.0) {
    const double s = std::sqrt(-K) * L;
    return jacobi_scaling_of(K, s, std::sinh(s), std::cosh(s));
  }
  return {1.0, 1.0};
}

// The 2 x 2 Gauss-Newton block of geodesic regression (one covariate) on an
// eigenspace of the curvature operator along v where the Jacobi scalings at
// covariate x are those of curvature kappa over length |x| (kappa = K |v|^2
// on constant curvature): N = (1/n) sum_i h_i (f_i, g_i)(f_i, g_i)^T (h the
// IRLS weights; all 1 when h is empty),
// f_i = c(x_i), g_i = x_i sn(x_i)/x_i; stored as its inverse [a b; b c].
// Where N is near singular (Jacobi fields vanishing at conjugate points) the
// block of the flat case (kappa = 0, the design's Gram matrix) stands in.
struct GaussNewtonBlock {
  double a, b, c;
  // (d_p, d_v) -= N^{-1} (u_p, u_v) on the block.
  template <class U, class V>
  void apply(const U& up, const V& uv, VecRef dp, VecRef dv) const {
    dp -= a * up + b * uv;
    dv -= b * up + c * uv;
  }
};
GaussNewtonBlock gauss_newton_block(double kappa, CVecRef x, CVecRef h);

// Orthonormal basis of the range of a symmetric projector (eigenvalues ~ 1).
Mat projector_range(const Mat& P, int rank);

}  // namespace riemdp

#endif

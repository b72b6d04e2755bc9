// Euclidean space R^d: the flat reference case (methods article, "Manifolds and their formulas").
#ifndef RIEMDP_GEOMETRY_EUCLIDEAN_H
#define RIEMDP_GEOMETRY_EUCLIDEAN_H

#include "manifold.h"

namespace riemdp {

class Euclidean : public Manifold {
 public:
  explicit Euclidean(int d) : d_(d) {}
  std::string name() const override { return "euclidean"; }
  int dim() const override { return d_; }
  int ambient() const override { return d_; }
  double injectivity_radius() const override { return std::numeric_limits<double>::infinity(); }
  double curvature_min() const override { return 0.0; }
  double curvature_max() const override { return 0.0; }

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override { out = p + r * u; }

  void exp(CVecRef p, CVecRef v, VecRef out) const override { out = p + v; }
  void log(CVecRef p, CVecRef q, VecRef out) const override { out = q - p; }
  double inner(CVecRef, CVecRef u, CVecRef v) const override { return u.dot(v); }
  void transport(CVecRef, CVecRef, CVecRef v, VecRef out) const override { out = v; }
  void to_tangent(CVecRef, CVecRef x, VecRef out) const override { out = x; }
  Mat tangent_basis(CVecRef) const override { return Mat::Identity(d_, d_); }
  void project(CVecRef x, VecRef out) const override { out = x; }
  std::string point_problem(CVecRef, double) const override { return ""; }
  std::string tangent_problem(CVecRef, CVecRef, double) const override { return ""; }
  double dist(CVecRef p, CVecRef q) const override { return (q - p).norm(); }

  void geodesic_velocity(CVecRef, CVecRef v, double, VecRef out) const override { out = v; }

  void regression_gauss_newton(CVecRef, CVecRef, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override {
    dp.setZero();
    dv.setZero();
    gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
  }

  // Flat: every Jacobi scaling is 1.
  void adjoint_jacobi(CVecRef, CVecRef, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override {
    adj_p = eps;
    adj_w = eps;
  }

  // The clipped gradient sums (Manifold::regression_gradient) in one pass:
  // eps_i = y_i - p - V x_i, both adjoints eps_i; the residual in scratch.dist.
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override {
    const Eigen::Index m = V.cols(), is = Y.innerStride(), os = Y.outerStride();
    if (scratch.dist.size() != d_) scratch.dist.resize(d_);
    double* e = scratch.dist.data();
    sum_p.setZero();
    sum_V.setZero();
    for (Eigen::Index i = begin; i < end; ++i) {
      const double* yi = Y.data() + i * os;
      double d2 = 0.0;
      for (int k = 0; k < d_; ++k) {
        double w = 0.0;  // w_i = V x_i, fit p + w_i
        for (Eigen::Index j = 0; j < m; ++j) w += V(k, j) * x(i, j);
        e[k] = yi[k * is] - (p[k] + w);
        d2 += e[k] * e[k];
      }
      const double h = huber_weight(std::sqrt(d2), tau);
      for (int k = 0; k < d_; ++k) {
        const double he = h * e[k];
        sum_p[k] += he;
        for (Eigen::Index j = 0; j < m; ++j) sum_V(k, j) += x(i, j) * he;
      }
    }
  }

  double tangent_gaussian(CVecRef, CVecRef z, VecRef out) const override {
    out = z;
    return z.norm();
  }

  // Raw strided loops (riem_dist one against many); a non-finite or
  // overflowing coordinate sends the caller to the checked slow path.
  void dist_many(CVecRef p, const PointSet& X, VecRef out) const override {
    for (Eigen::Index i = 0; i < X.cols(); ++i) out[i] = std::sqrt(sq_dist(p, X, i));
  }
  Eigen::Index dist_many_checked(CVecRef p, const PointSet& X, double, VecRef out) const override {
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      const double a = sq_dist(p, X, i);
      if (!std::isfinite(a)) return i;
      out[i] = std::sqrt(a);
    }
    return -1;
  }

  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override {
    mean.setZero();
    double cost = 0.0;
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      mean += X.col(i);
      cost += (X.col(i) - p).squaredNorm();
    }
    const double n = static_cast<double>(X.cols());
    mean = mean / n - p;
    return cost / (2.0 * n);
  }

  // Coordinates of size |p| are resolved to eps |p|.
  double rounding_scale(CVecRef p) const override { return std::max(1.0, p.cwiseAbs().maxCoeff()); }

  double log_volume_density(double r) const override { return (d_ - 1) * std::log(r); }
  double log_exp_jacobian(CVecRef, CVecRef) const override { return 0.0; }
  double d_log_volume_density(double r) const override { return (d_ - 1) / r; }

 private:
  int d_;
  static double sq_dist(CVecRef p, const PointSet& X, Eigen::Index i) {
    const double* xi = X.data() + i * X.outerStride();
    const Eigen::Index is = X.innerStride();
    double a = 0.0;
    for (Eigen::Index j = 0; j < p.size(); ++j) {
      const double m = xi[j * is] - p[j];
      a += m * m;
    }
    return a;
  }
};

}  // namespace riemdp

#endif

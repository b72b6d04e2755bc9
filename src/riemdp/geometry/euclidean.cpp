// The methods of Euclidean space R^d (euclidean.h), compiled once, here.
#include "euclidean.h"

namespace riemdp {

void Euclidean::exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const { out = p + r * u; }

void Euclidean::exp(CVecRef p, CVecRef v, VecRef out) const { out = p + v; }

void Euclidean::log(CVecRef p, CVecRef q, VecRef out) const { out = q - p; }

double Euclidean::inner(CVecRef, CVecRef u, CVecRef v) const { return u.dot(v); }

void Euclidean::transport(CVecRef, CVecRef, CVecRef v, VecRef out) const { out = v; }

void Euclidean::to_tangent(CVecRef, CVecRef x, VecRef out) const { out = x; }

Mat Euclidean::tangent_basis(CVecRef) const { return Mat::Identity(d_, d_); }

void Euclidean::project(CVecRef x, VecRef out) const { out = x; }

std::string Euclidean::point_problem(CVecRef, double) const { return ""; }

std::string Euclidean::tangent_problem(CVecRef, CVecRef, double) const { return ""; }

double Euclidean::dist(CVecRef p, CVecRef q) const { return (q - p).norm(); }

void Euclidean::geodesic_velocity(CVecRef, CVecRef v, double, VecRef out) const { out = v; }

void Euclidean::regression_gauss_newton(CVecRef, CVecRef, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                        VecRef dv) const {
  dp.setZero();
  dv.setZero();
  gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
}

void Euclidean::adjoint_jacobi(CVecRef, CVecRef, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const {
  adj_p = eps;
  adj_w = eps;
}

void Euclidean::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                    Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                    RegressionScratch& scratch) const {
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

double Euclidean::tangent_gaussian(CVecRef, CVecRef z, VecRef out) const {
  out = z;
  return z.norm();
}

void Euclidean::dist_many(CVecRef p, const PointSet& X, VecRef out) const {
  for (Eigen::Index i = 0; i < X.cols(); ++i) out[i] = std::sqrt(sq_dist(p, X, i));
}

Eigen::Index Euclidean::dist_many_checked(CVecRef p, const PointSet& X, double, VecRef out) const {
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    const double a = sq_dist(p, X, i);
    if (!std::isfinite(a)) return i;
    out[i] = std::sqrt(a);
  }
  return -1;
}

double Euclidean::mean_log(CVecRef p, const PointSet& X, VecRef mean) const {
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

double Euclidean::rounding_scale(CVecRef p) const { return std::max(1.0, p.cwiseAbs().maxCoeff()); }

double Euclidean::log_volume_density(double r) const { return (d_ - 1) * std::log(r); }

double Euclidean::log_exp_jacobian(CVecRef, CVecRef) const { return 0.0; }

double Euclidean::d_log_volume_density(double r) const { return (d_ - 1) / r; }

double Euclidean::sq_dist(CVecRef p, const PointSet& X, Eigen::Index i) {
  const double* xi = X.data() + i * X.outerStride();
  const Eigen::Index is = X.innerStride();
  double a = 0.0;
  for (Eigen::Index j = 0; j < p.size(); ++j) {
    const double m = xi[j * is] - p[j];
    a += m * m;
  }
  return a;
}

}  // namespace riemdp

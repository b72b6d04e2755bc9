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

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override;

  void exp(CVecRef p, CVecRef v, VecRef out) const override;
  void log(CVecRef p, CVecRef q, VecRef out) const override;
  double inner(CVecRef, CVecRef u, CVecRef v) const override;
  void transport(CVecRef, CVecRef, CVecRef v, VecRef out) const override;
  void to_tangent(CVecRef, CVecRef x, VecRef out) const override;
  Mat tangent_basis(CVecRef) const override;
  void project(CVecRef x, VecRef out) const override;
  std::string point_problem(CVecRef, double) const override;
  std::string tangent_problem(CVecRef, CVecRef, double) const override;
  double dist(CVecRef p, CVecRef q) const override;

  void geodesic_velocity(CVecRef, CVecRef v, double, VecRef out) const override;

  void regression_gauss_newton(CVecRef, CVecRef, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override;

  // Flat: every Jacobi scaling is 1.
  void adjoint_jacobi(CVecRef, CVecRef, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override;

  // The clipped gradient sums (Manifold::regression_gradient) in one pass:
  // eps_i = y_i - p - V x_i, both adjoints eps_i; the residual in scratch.dist.
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override;

  double tangent_gaussian(CVecRef, CVecRef z, VecRef out) const override;

  // Raw strided loops (riem_dist one against many); a non-finite or
  // overflowing coordinate sends the caller to the checked slow path.
  void dist_many(CVecRef p, const PointSet& X, VecRef out) const override;
  Eigen::Index dist_many_checked(CVecRef p, const PointSet& X, double, VecRef out) const override;

  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override;

  // Coordinates of size |p| are resolved to eps |p|.
  double rounding_scale(CVecRef p) const override;

  double log_volume_density(double r) const override;
  double log_exp_jacobian(CVecRef, CVecRef) const override;
  double d_log_volume_density(double r) const override;

 private:
  int d_;
  static double sq_dist(CVecRef p, const PointSet& X, Eigen::Index i);
};

}  // namespace riemdp

#endif

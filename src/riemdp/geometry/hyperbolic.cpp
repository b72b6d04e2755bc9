// The methods of hyperbolic space H^d on the hyperboloid (hyperbolic.h), compiled once, here.
#include "hyperbolic.h"

namespace riemdp {

double Hyperbolic::x0_max() { return std::sqrt(std::numeric_limits<double>::max()); }

std::string Hyperbolic::too_far(double x0) {
  return "is too far from the origin to be represented in double precision (x0 = " + num::fmt(x0) +
         "; points of the hyperboloid need x0 < " + num::fmt(x0_max()) + ", about 355 from the origin)";
}

double Hyperbolic::dist_from_chord(double S) { return 2.0 * std::asinh(0.5 * S); }

void Hyperbolic::exp(CVecRef p, CVecRef v, VecRef out) const {
  const double nv = std::sqrt(num::clamp0(chart_inner(p, v, v)));
  exp_chart(p, v, std::cosh(nv), num::sinhc(nv), out);
}

double Hyperbolic::dist(CVecRef p, CVecRef q) const {
  return dist_from_chord(chord(p, lift(p.tail(d_)), q, lift(q.tail(d_))));
}

void Hyperbolic::exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const {
  out.tail(d_) = std::cosh(r) * p.tail(d_) + std::sinh(r) * u.tail(d_);
  finish_point(out);
}

void Hyperbolic::log(CVecRef p, CVecRef q, VecRef out) const {
  log_chart(p, lift(p.tail(d_)), q, lift(q.tail(d_)), out);
}

double Hyperbolic::inner(CVecRef p, CVecRef u, CVecRef v) const { return chart_inner(p, u, v); }

void Hyperbolic::transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const {
  Vec lg(d_ + 1);
  const double d = log_chart(p, lift(p.tail(d_)), q, lift(q.tail(d_)), lg);
  if (d == 0.0) {
    out = v;
    return;
  }
  const double k = std::tanh(0.5 * d) * chart_inner(p, lg, v) / d;
  out.tail(d_) = v.tail(d_) + k * (p.tail(d_) + q.tail(d_));
  finish_tangent(q, lift(q.tail(d_)), out);
}

void Hyperbolic::geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const {
  const double L = norm(p, v);
  Vec end(d_ + 1);
  end.tail(d_) = std::cosh(s * L) * p.tail(d_) + num::sinhc(s * L) * (s * v.tail(d_));
  finish_point(end);
  out.tail(d_) = (L * std::sinh(s * L)) * p.tail(d_) + std::cosh(s * L) * v.tail(d_);
  finish_tangent(end, end(0), out);
}

void Hyperbolic::regression_gauss_newton(CVecRef p, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                         VecRef dv) const {
  dp.setZero();
  dv.setZero();
  const double L = norm(p, v);
  if (L == 0.0) return gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
  const Vec t = v / L;
  const double ap = chart_inner(p, gp, t), av = chart_inner(p, gv, t);
  gauss_newton_block(0.0, x, h).apply(ap * t, av * t, dp, dv);
  gauss_newton_block(-L * L, x, h).apply(gp - ap * t, gv - av * t, dp, dv);
}

void Hyperbolic::adjoint_jacobi(CVecRef p, CVecRef w, CVecRef yhat, CVecRef eps, VecRef adj_p, VecRef adj_w) const {
  const double L = norm(p, w);
  if (L == 0.0) {
    adj_p = eps;
    adj_w = eps;
    return;
  }
  Vec u(d_ + 1);
  adjoint_chart(p, lift(p.tail(d_)), w, L, jacobi_scaling(-1.0, L), std::sinh(L), yhat, lift(yhat.tail(d_)), eps,
                u, adj_p, adj_w);
}

void Hyperbolic::regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p,
                                      Mat& adj_w, Mat* yhat, Mat* eps) const {
  const double p0 = lift(p.tail(d_));
  Vec u(d_ + 1);
  regression_residual_pass(W, Y, dist, adj_p, adj_w, yhat, eps,
                           [&](const Vec& w, const Vec& y, Vec& fit, Vec& e, Vec& ap, Vec& aw) {
                             return regression_point(p, p0, w, y, fit, e, u, ap, aw);
                           });
}

void Hyperbolic::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                     Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                     RegressionScratch&) const {
  if (d_ == 2) gradient_pass<Eigen::Vector3d>(p, V, Y, x, begin, end, tau, sum_p, sum_V);
  else gradient_pass<Vec>(p, V, Y, x, begin, end, tau, sum_p, sum_V);
}

void Hyperbolic::clean_tangent(CVecRef p, CVecRef v, VecRef out) const {
  out.tail(d_) = v.tail(d_);
  finish_tangent(p, lift(p.tail(d_)), out);
}

void Hyperbolic::to_tangent(CVecRef p, CVecRef x, VecRef out) const {
  const double p0 = lift(p.tail(d_));
  const double a = p.tail(d_).dot(x.tail(d_)) - p0 * x(0);
  out.tail(d_) = x.tail(d_) + a * p.tail(d_);
  finish_tangent(p, p0, out);
}

Mat Hyperbolic::tangent_basis(CVecRef p) const {
  Mat B(d_ + 1, d_);
  const double c = 1.0 + p(0);
  for (int i = 0; i < d_; ++i) {
    B(0, i) = p(i + 1);
    for (int j = 0; j < d_; ++j) B(j + 1, i) = (i == j ? 1.0 : 0.0) + p(i + 1) * p(j + 1) / c;
  }
  return B;
}

double Hyperbolic::tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const {
  const double wz = p.tail(d_).dot(z);
  out(0) = wz;
  out.tail(d_) = z + (wz / (1.0 + p(0))) * p.tail(d_);
  return z.norm();
}

void Hyperbolic::project(CVecRef x, VecRef out) const {
  out = x;
  if (!x.allFinite()) return;  // an unrepresentable result passed through (see Manifold::project)
  finish_point(out);
  if (!std::isfinite(out(0))) throw domain_error("the projected point " + too_far(lift(x.tail(d_))));
}

std::string Hyperbolic::point_problem(CVecRef x, double tol) const {
  if (!(x(0) > 0.0)) return "is not on the upper sheet of the hyperboloid (x0 = " + num::fmt(x(0)) + " <= 0)";
  if (!(x(0) <= x0_max())) return too_far(x(0));
  const double s = x.tail(d_).norm();
  const double defect = (x(0) - s) * (x(0) + s) - 1.0;  // -<x,x>_L - 1
  if (!(std::abs(defect) <= tol * std::max(1.0, x(0) * x(0))))
    return "is not on the hyperboloid: <x,x>_L = " + num::fmt(-1.0 - defect) + ", expected -1";
  return "";
}

std::string Hyperbolic::tangent_problem(CVecRef p, CVecRef v, double tol) const {
  const double p0 = lift(p.tail(d_));
  const double m = p.tail(d_).dot(v.tail(d_)) - p0 * v(0);
  const double floor = 64.0 * std::numeric_limits<double>::epsilon() *
                       (p0 * std::abs(v(0)) + p.tail(d_).norm() * v.tail(d_).norm());
  const double nt = std::sqrt(num::clamp0(chart_inner(p, v, v)));
  if (!(std::abs(m) <= tol * std::max(1.0, nt) + floor))
    return "is not a tangent vector at its base point: <p,v>_L = " + num::fmt(m) + ", expected 0";
  return "";
}

double Hyperbolic::mean_log(CVecRef p, const PointSet& X, VecRef mean) const {
  return d_ == 2 ? mean_log_sized<3>(p, X, mean) : mean_log_sized<Eigen::Dynamic>(p, X, mean);
}

double Hyperbolic::rounding_scale(CVecRef p) const { return lift(p.tail(d_)); }

double Hyperbolic::log_volume_density(double r) const {
  return (d_ - 1) * (r + std::log(-std::expm1(-2.0 * r)) - std::log(2.0));
}

double Hyperbolic::d_log_volume_density(double r) const { return (d_ - 1) / std::tanh(r); }

}  // namespace riemdp

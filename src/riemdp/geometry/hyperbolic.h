// Hyperbolic space H^d as the hyperboloid <x,x>_L = -1, x_0 > 0 in R^{d+1}
// (DESIGN §1): curvature -1, infinite injectivity radius.
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
  double curvature_min() const override { return -1.0; }
  double curvature_max() const override { return -1.0; }

  // Exp_p(v) = cosh|v| p + sinh|v| v/|v|.
  void exp(CVecRef p, CVecRef v, VecRef out) const override {
    const double nv = std::sqrt(num::clamp0(minkowski(v, v)));
    out = std::cosh(nv) * p + num::sinhc(nv) * v;
  }

  // Distance from the chord c = q - p: 2 asinh(|c|_L / 2) for nearby points,
  // where acosh(-<p,q>_L) loses half the digits; acosh(-<p,q>_L) for far
  // points, where |c|_L^2 cancels.
  static double dist_from_chord(CVecRef p, CVecRef q, CVecRef c) {
    const double c2 = num::clamp0(minkowski(c, c));
    if (c2 < 4.0) return 2.0 * std::asinh(0.5 * std::sqrt(c2));
    const double m = -minkowski(p, q);
    return std::acosh(m < 1.0 ? 1.0 : m);
  }

  double dist(CVecRef p, CVecRef q) const override {
    Vec c = q - p;
    return dist_from_chord(p, q, c);
  }

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override { out = std::cosh(r) * p + std::sinh(r) * u; }

  // Log_p(q) = dist * w/|w|_L, w = q + <p,q>_L p = (q-p) + <p,q-p>_L p.
  void log(CVecRef p, CVecRef q, VecRef out) const override {
    out = q - p;
    const double d = dist_from_chord(p, q, out);
    out += minkowski(p, out) * p;
    const double nw = std::sqrt(num::clamp0(minkowski(out, out)));
    if (nw == 0.0) { out.setZero(); return; }
    out *= d / nw;
  }

  double inner(CVecRef, CVecRef u, CVecRef v) const override { return minkowski(u, v); }

  // Gamma_{p->q}(v) = v + <q,v>_L/(1 - <p,q>_L) (p+q).
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override {
    out = v + (minkowski(q, v) / (1.0 - minkowski(p, q))) * (p + q);
  }

  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override { out = x + minkowski(p, x) * p; }

  // The boost taking (1,0,...,0) to p applied to e_1..e_d.
  Mat tangent_basis(CVecRef p) const override {
    Mat B(d_ + 1, d_);
    const double c = 1.0 + p(0);
    for (int i = 0; i < d_; ++i) {
      B(0, i) = p(i + 1);
      for (int j = 0; j < d_; ++j) B(j + 1, i) = (i == j ? 1.0 : 0.0) + p(i + 1) * p(j + 1) / c;
    }
    return B;
  }

  // tangent_basis(p) z in O(d): with w the spatial part of p,
  // B z = (<w,z>, z + w <w,z>/(1 + p_0)); the boost is an isometry, |B z|_L = |z|.
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override {
    const double wz = p.tail(d_).dot(z);
    out(0) = wz;
    out.tail(d_) = z + (wz / (1.0 + p(0))) * p.tail(d_);
    return z.norm();
  }

  // Keep the spatial coordinates, lift x_0 onto the upper sheet.
  void project(CVecRef x, VecRef out) const override {
    out = x;
    out(0) = std::sqrt(1.0 + x.tail(d_).squaredNorm());
  }

  std::string point_problem(CVecRef x, double tol) const override {
    if (!(x(0) > 0.0)) return "is not on the upper sheet of the hyperboloid (x0 = " + num::fmt(x(0)) + " <= 0)";
    const double m = minkowski(x, x);
    if (std::abs(m + 1.0) > tol * std::max(1.0, x(0) * x(0)))
      return "is not on the hyperboloid: <x,x>_L = " + num::fmt(m) + ", expected -1";
    return "";
  }

  std::string tangent_problem(CVecRef p, CVecRef v, double tol) const override {
    const double m = minkowski(p, v);
    if (std::abs(m) > tol * std::max(1.0, p.norm() * v.norm()))
      return "is not a tangent vector at its base point: <p,v>_L = " + num::fmt(m) + ", expected 0";
    return "";
  }

  // Area of geodesic spheres: sinh^{d-1} r.
  // log sinh r = r + log(1 - e^{-2r}) - log 2, finite for large r.
  double log_volume_density(double r) const override {
    return (d_ - 1) * (r + std::log(-std::expm1(-2.0 * r)) - std::log(2.0));
  }
  double d_log_volume_density(double r) const override { return (d_ - 1) / std::tanh(r); }

 private:
  int d_;
};

}  // namespace riemdp

#endif

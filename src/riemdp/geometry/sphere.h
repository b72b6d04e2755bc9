// Unit sphere S^d in R^{d+1} (DESIGN §1): curvature 1, injectivity radius pi.
#ifndef RIEMDP_GEOMETRY_SPHERE_H
#define RIEMDP_GEOMETRY_SPHERE_H

#include "manifold.h"

namespace riemdp {

// Exp and Log on a unit sphere of any ambient dimension; shared with Kendall's
// preshape sphere.
// Exp_p(v) = cos|v| p + sin|v| v/|v|.
// Beyond |v| = 1/eps the angle |v| mod 2 pi is not resolved in double
// precision: NaN (not representable, see Manifold::exp) rather than an
// arbitrary point.
inline void unit_sphere_exp(CVecRef p, CVecRef v, VecRef out) {
  const double nv = v.norm();
  if (!(nv <= 1.0 / std::numeric_limits<double>::epsilon())) {
    out.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  out = std::cos(nv) * p + num::sinc(nv) * v;
}

// Log_p(q) = dist * w/|w|, w = q - <p,q>p written as (q-p) - <p,q-p>p so that
// nearby points do not cancel; dist = 2 atan2(|q-p|, |q+p|). Returns false
// at the cut locus (out unspecified), with a2 = |q-p|^2 and b2 = |q+p|^2
// (for the distance there); templated for fixed-size vectors (hot loops).
template <class P, class Q, class O>
inline bool unit_sphere_log_core(const P& p, const Q& q, O& out, double& a2, double& b2) {
  out = q - p;
  a2 = out.squaredNorm();
  b2 = (q + p).squaredNorm();
  const double a = std::sqrt(a2), b = std::sqrt(b2);
  out -= p.dot(out) * p;
  const double nw = out.norm();
  if (nw == 0.0) {
    if (a > b) return false;
    out.setZero();
    return true;
  }
  out *= num::chord_angle(a, b) / nw;
  return true;
}
inline void unit_sphere_log(CVecRef p, CVecRef q, VecRef out) {
  double a2, b2;
  if (!unit_sphere_log_core(p, q, out, a2, b2))
    throw domain_error("antipodal points on the sphere: the log is not defined at the cut locus");
}

// Column i of the orthonormal basis of T_p of Sphere::tangent_basis: the
// rotation taking e_0 to q = +-p (q_0 >= 0) applied to e_{i+1},
// (-q_{i+1}, e_i - q_{i+1} q_{1..d} / (1 + q_0)).
template <class P, class O>
inline void unit_sphere_basis_col(const P& p, int i, O&& out) {
  const double sign = p(0) < 0 ? -1.0 : 1.0, c = 1.0 + sign * p(0), qi = sign * p(i + 1);
  out(0) = -qi;
  for (Eigen::Index j = 0; j + 1 < p.size(); ++j) out(j + 1) = (i == j ? 1.0 : 0.0) - qi * (sign * p(j + 1)) / c;
}

// asin on [-1/2, 1/2] by the rational approximation of fdlibm's e_asin.c
// (error below 1 ulp there), inlined and branch-free, for doubles and Eigen
// arrays alike: the libm call dominates batch distances.
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunPro, a Sun Microsystems, Inc. business. Permission to use,
//   copy, modify, and distribute this software is freely granted, provided
//   that this notice is preserved.
template <class T>
inline T asin_small(const T& x) {
  const T t = x * x;
  const T p =
      t * (1.66666666666666657415e-01 +
           t * (-3.25565818622400915405e-01 +
                t * (2.01212532134862925881e-01 +
                     t * (-4.00555345006794114027e-02 + t * (7.91534994289814532176e-04 + t * 3.47933107596021167570e-05)))));
  const T q = 1.0 + t * (-2.40339491173441421878e+00 +
                         t * (2.02094576023350569471e+00 + t * (-6.88283971605453293030e-01 + t * 7.70381505559019352791e-02)));
  return x + x * (p / q);
}

// sin and cos of 0 <= L <= 1e5 on Eigen arrays, branch-free (SSE2 packets,
// no libm call): L = k pi/2 + r with k = round(2L/pi) (by adding and
// subtracting 1.5 * 2^52) and r = L - k pi/2 by Cody and Waite's three-part
// pi/2 (P1, P2 carry 33 bits, so k P1 and k P2 are exact for k < 2^20), then
// the Taylor series of sin r and cos r on |r| <= pi/4 to r^17 and r^18
// (truncation below 1e-19) and the quadrant k mod 4. Absolute error a few
// 1e-16 (checked through the pass against libm in test-kng-fused.R).
template <class T>
inline void sincos_batch(const T& L, T& sin_out, T& cos_out) {
  const double shifter = 0x1.8p52;
  const T k = (L * 0.63661977236758134308 + shifter) - shifter;
  const T r = ((L - k * 0x1.921fb544p+0) - k * 0x1.0b4611a6p-34) - k * 0x1.3198a2e037073p-69;
  const T r2 = r * r;
  const T sr =
      r + r * r2 *
              (-1.0 / 6 +
               r2 * (1.0 / 120 +
                     r2 * (-1.0 / 5040 +
                           r2 * (1.0 / 362880 +
                                 r2 * (-1.0 / 39916800 +
                                       r2 * (1.0 / 6227020800 +
                                             r2 * (-1.0 / 1307674368000 + r2 * (1.0 / 355687428096000))))))));
  const T cr =
      1.0 - 0.5 * r2 +
      r2 * r2 *
          (1.0 / 24 +
           r2 * (-1.0 / 720 +
                 r2 * (1.0 / 40320 +
                       r2 * (-1.0 / 3628800 +
                             r2 * (1.0 / 479001600 +
                                   r2 * (-1.0 / 87178291200 +
                                         r2 * (1.0 / 20922789888000 + r2 * (-1.0 / 6402373705728000))))))));
  // quadrant: m = k - 4 round(k / 4) in {-2, -1, 0, 1, 2}; k mod 4 = 3 is m = -1, 2 is |m| = 2
  const T m = k - 4.0 * ((0.25 * k + shifter) - shifter);
  const auto q1 = m == 1.0, q2 = m.abs() == 2.0, q3 = m == -1.0;
  sin_out = q1.select(cr, q2.select(-sr, q3.select(-cr, sr)));
  cos_out = q1.select(-sr, q2.select(-cr, q3.select(sr, cr)));
}

// Angle between a unit vector q and the nearer of +-p (in [0, pi/2]) from
// m = min(|q-p|^2, |q+p|^2) <= 2: with phi the half angle, sin phi = sqrt(m)/2,
// and the quarter angle has sin(phi/2) = sqrt(m / (8 (1 + cos phi))) <= 0.383,
// where asin_small is accurate and well conditioned (no cancellation either:
// cos phi = sqrt(1 - m/4) >= 0.7). Relative error ~1e-16 at every angle.
template <class T>
inline T unit_chord_angle_near(const T& m) {
  using Eigen::sqrt;
  using std::sqrt;
  return 4.0 * asin_small<T>(sqrt(m / (8.0 * (1.0 + sqrt(1.0 - 0.25 * m)))));
}

// Angle between unit vectors p, q from the squared chords a2 = |q-p|^2 and
// b2 = |q+p|^2: the angle to the nearer of +-p, reflected when that is -p.
// As accurate as num::chord_angle (2 atan2, relative error ~1e-16 also at
// 1e-12 and pi - 1e-6) and several times cheaper; vectors far off the unit
// sphere fall back to num::chord_angle.
inline double unit_chord_angle(double a2, double b2) {
  const double m = std::min(a2, b2);
  if (!(m <= 2.5)) return num::chord_angle(std::sqrt(a2), std::sqrt(b2));
  const double t = unit_chord_angle_near(m);
  return a2 <= b2 ? t : num::pi - t;
}

// num::chord_angle(sqrt(a2), sqrt(b2)) = 2 atan2(|q-p|, |q+p|) from the
// squared chords a2, b2 of vectors of any norms (data within the point
// tolerance of the sphere: the ratio of the chords sets the angle), without a
// libm call: with phi = atan(sqrt(m/M)), m = min(a2, b2), M = max, r2 = a2 + b2,
// sin^2(phi/2) = (m/r2) / (2 (1 + sqrt(M/r2))) <= 0.147, and asin_small
// (unit_chord_angle_near is the case r2 = 4). Relative error ~1e-16.
inline double chord_angle_sq(double a2, double b2) {
  const double r2 = a2 + b2;
  if (!(r2 > 0.0 && r2 <= 1e300)) return num::chord_angle(std::sqrt(a2), std::sqrt(b2));  // 0, Inf, NaN
  const double m = std::min(a2, b2), M = std::max(a2, b2);
  const double t = 4.0 * asin_small(std::sqrt((m / r2) / (2.0 * (1.0 + std::sqrt(M / r2)))));
  return a2 <= b2 ? t : num::pi - t;
}

// d/dt [cos(tL) p + sin(tL) v/L] = -L sin(sL) p + cos(sL) v at t = s, L = |v|
// (unit sphere; shared with Kendall's horizontal geodesics).
inline void unit_sphere_geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) {
  const double L = v.norm();
  out = (-L * std::sin(s * L)) * p + std::cos(s * L) * v;
}

// Adds the Gauss-Newton direction (Manifold::regression_gauss_newton) of the
// unit sphere to (dp, dv): blocks along v (flat) and orthogonal to it
// (curvature 1). Kendall removes its i v block (curvature 4) first.
inline void unit_sphere_gauss_newton(CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp, VecRef dv) {
  const double L = v.norm();
  if (L == 0.0) return gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
  const double ap = gp.dot(v) / L, av = gv.dot(v) / L;
  gauss_newton_block(0.0, x, h).apply((ap / L) * v, (av / L) * v, dp, dv);
  gauss_newton_block(L * L, x, h).apply(gp - (ap / L) * v, gv - (av / L) * v, dp, dv);
}

// The adjoint Jacobi fields on the unit sphere (Sphere::adjoint_jacobi) for
// |w| = L > 0 with sL = sin L, cL = cos L, expanded so that no temporary is
// formed: with a = <eps, u>, u = -sin L p + cos L w/L the unit tangent at
// the end, and the scaling c of the part orthogonal to the circle's plane,
// a w/L + c (eps - a u) = c eps + a (1 - c cos L)/L w + c a sin L p.
template <class P, class W, class E, class O1, class O2>
inline void sphere_adjoint(const P& p, const W& w, double L, double sL, double cL, const E& eps, O1&& adj_p,
                           O2&& adj_w) {
  const double a = cL * eps.dot(w) / L - sL * eps.dot(p);
  const double c_p = cL, c_w = L < 1e-4 ? num::sinc(L) : sL / L;  // jacobi_scaling(1, L)
  adj_p = c_p * eps + (a * (1.0 - c_p * cL) / L) * w + (c_p * a * sL) * p;
  adj_w = c_w * eps + (a * (1.0 - c_w * cL) / L) * w + (c_w * a * sL) * p;
}

class Sphere : public Manifold {
 public:
  explicit Sphere(int d) : d_(d) {}
  std::string name() const override { return "sphere"; }
  int dim() const override { return d_; }
  int ambient() const override { return d_ + 1; }
  double injectivity_radius() const override { return num::pi; }
  double curvature_min() const override { return 1.0; }
  double curvature_max() const override { return 1.0; }

  void exp(CVecRef p, CVecRef v, VecRef out) const override { unit_sphere_exp(p, v, out); }

  void exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const override { out = std::cos(r) * p + std::sin(r) * u; }

  void log(CVecRef p, CVecRef q, VecRef out) const override { unit_sphere_log(p, q, out); }

  double dist(CVecRef p, CVecRef q) const override {
    return unit_chord_angle((q - p).squaredNorm(), (q + p).squaredNorm());
  }
  double inner(CVecRef, CVecRef u, CVecRef v) const override { return u.dot(v); }

  // Gamma_{p->q}(v) = v - <q,v>/(1+<p,q>) (p+q), with 1 + <p,q> = |p+q|^2/2
  // (accurate near the antipode, where 1 + <p,q> cancels).
  void transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const override {
    const double c = 0.5 * (p + q).squaredNorm();
    if (c <= 1e-24) throw domain_error("antipodal points on the sphere: the minimising geodesic is not unique");
    out = v - (q.dot(v) / c) * (p + q);
  }

  void to_tangent(CVecRef p, CVecRef x, VecRef out) const override { out = x - p.dot(x) * p; }

  // tangent_basis(p) z in O(d), d normals: with q = +-p (q_0 >= 0) and w its
  // last d coordinates, B z = (-<w,z>, z - w <w,z>/(1 + q_0)); B is
  // orthonormal, so |B z| = |z|. (Projecting an ambient N(0, I) onto T_p is
  // as exact but needs d + 1 normals.)
  double tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const override {
    const double sign = p(0) < 0 ? -1.0 : 1.0;
    const double wz = sign * p.tail(d_).dot(z);
    out(0) = -wz;
    out.tail(d_) = z - (sign * wz / (1.0 + sign * p(0))) * p.tail(d_);
    return z.norm();
  }

  void geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const override {
    unit_sphere_geodesic_velocity(p, v, s, out);
  }

  void regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                               VecRef dv) const override {
    dp.setZero();
    dv.setZero();
    unit_sphere_gauss_newton(v, x, h, gp, gv, dp, dv);
  }

  // Along the great circle from p with unit direction t = w/L: eps at its end
  // splits into a u, u = -sin(L) p + cos(L) t the unit tangent there (it
  // transports back to a t), and a part orthogonal to the circle's plane,
  // which is parallel (constant) along it and scaled by curvature 1.
  void adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const override {
    const double L = w.norm();
    if (L == 0.0) {
      adj_p = eps;
      adj_w = eps;
      return;
    }
    sphere_adjoint(p, w, L, std::sin(L), std::cos(L), eps, adj_p, adj_w);
  }

  // The regression pass in one loop: one sine and cosine of |w_i| per point
  // serve Exp, the Jacobi scalings (cos L, sin L / L) and the split of eps.
  void regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                            Mat* yhat, Mat* eps) const override {
    const int D = d_ + 1;
    Vec w(D), fit(D), y(D), e(D);  // copies of the strided columns: no temporaries
    for (Eigen::Index i = 0; i < Y.cols(); ++i) {
      w = W.col(i);
      const double L = w.norm();
      if (!(L <= 1.0 / std::numeric_limits<double>::epsilon()))
        throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on sphere");
      const double sL = std::sin(L), cL = std::cos(L);
      fit = cL * p + (L < 1e-4 ? num::sinc(L) : sL / L) * w;
      y = Y.col(i);
      cut_locus_safe_log(fit, y, e);
      dist[i] = e.norm();
      if (L == 0.0) {
        adj_p.col(i) = e;
        adj_w.col(i) = e;
      } else {
        sphere_adjoint(p, w, L, sL, cL, e, adj_p.col(i), adj_w.col(i));
      }
      if (yhat) yhat->col(i) = fit;
      if (eps) eps->col(i) = e;
    }
  }

  // Rotation taking e_0 to +-p applied to e_1..e_d (T_p = T_{-p}).
  Mat tangent_basis(CVecRef p) const override {
    Mat B(d_ + 1, d_);
    for (int i = 0; i < d_; ++i) unit_sphere_basis_col(p, i, B.col(i));
    return B;
  }

  // The clipped gradient sums (Manifold::regression_gradient) in one pass
  // without buffers: per point one sine and cosine of |w_i|, the log and the
  // adjoint Jacobi fields of regression_residuals(), the Huber weight; on
  // S^2 with fixed-size vectors.
  void regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                           Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                           RegressionScratch& scratch) const override {
    if (d_ == 2 && V.cols() == 1) {
      if (end - begin <= 64) gradient_pass_s2<8>(p, V, Y, x, begin, end, tau, sum_p, sum_V);  // less padding
      else gradient_pass_s2<32>(p, V, Y, x, begin, end, tau, sum_p, sum_V);
    } else if (d_ == 2) {
      Eigen::Vector3d buf[9];
      gradient_pass(p, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
    } else {
      const int D = d_ + 1;
      if (scratch.W.rows() != D || scratch.W.cols() != 9) scratch.W.resize(D, 9);
      double* b = scratch.W.data();
      Eigen::Map<Vec> buf[9] = {{b, D}, {b + D, D}, {b + 2 * D, D}, {b + 3 * D, D}, {b + 4 * D, D},
                                {b + 5 * D, D}, {b + 6 * D, D}, {b + 7 * D, D}, {b + 8 * D, D}};
      gradient_pass(p, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
    }
  }

  // x/|x|, with |x| free of overflow and underflow (stableNorm).
  void project(CVecRef x, VecRef out) const override {
    if (!x.allFinite()) { out = x; return; }  // see Manifold::project
    const double n = x.stableNorm();
    if (!(n > 0.0)) throw domain_error("cannot project the zero vector onto the sphere");
    if (!std::isfinite(n)) throw domain_error("cannot project a vector whose norm overflows onto the sphere");
    out = x / n;
  }

  std::string point_problem(CVecRef x, double tol) const override {
    const double n = x.norm();
    if (std::abs(n - 1.0) > tol) return "is not on the sphere: its norm is " + num::fmt(n);
    return "";
  }

  // Area of geodesic spheres: sin^{d-1} r on [0, pi].
  double log_volume_density(double r) const override { return (d_ - 1) * std::log(std::sin(r)); }
  double d_log_volume_density(double r) const override { return (d_ - 1) / std::tan(r); }

  // Hot loops over raw strided data: the same formulas as dist() and
  // unit_sphere_log(), inlined because the generic loop (copy to a buffer,
  // virtual log) makes frechet_mean of 10^5 points 2.5x slower (55 ms vs 21 ms).
  // Batch distances (riem_dist one against many): chunks of points whose
  // squared chords are accumulated coordinate by coordinate and turned into
  // angles by unit_chord_angle_near on Eigen arrays (vectorised, branch-free,
  // no libm call).
  void dist_many(CVecRef p, const PointSet& X, VecRef out) const override { batch_dist<false>(p, X, 0.0, out); }

  // The same pass with the check of point_problem(): a NaN or Inf coordinate
  // makes the squared norm fail the test as well.
  Eigen::Index dist_many_checked(CVecRef p, const PointSet& X, double tol, VecRef out) const override {
    return batch_dist<true>(p, X, tol, out);
  }

  double mean_log(CVecRef p, const PointSet& X, VecRef mean) const override {
    const double* x = X.data();
    const Eigen::Index is = X.innerStride(), os = X.outerStride(), D = d_ + 1;
    const double* pp = p.data();
    mean.setZero();
    double cost = 0.0;
    double w[64];
    Vec wbig;
    double* wp = w;
    if (D > 64) { wbig.resize(D); wp = wbig.data(); }
    for (Eigen::Index i = 0; i < X.cols(); ++i) {
      const double* xi = x + i * os;
      double a = 0.0, b = 0.0, pd = 0.0;
      for (Eigen::Index j = 0; j < D; ++j) {
        const double xj = xi[j * is];
        const double m = xj - pp[j], s = xj + pp[j];
        wp[j] = m;
        a += m * m;
        b += s * s;
        pd += pp[j] * m;
      }
      double nw2 = 0.0;
      for (Eigen::Index j = 0; j < D; ++j) {
        wp[j] -= pd * pp[j];
        nw2 += wp[j] * wp[j];
      }
      const double nw = std::sqrt(nw2);
      const double theta = num::chord_angle(std::sqrt(a), std::sqrt(b));
      if (nw == 0.0) {
        if (theta > 1.0) throw domain_error("a data point is antipodal to the current estimate: the log is not defined");
        continue;
      }
      const double f = theta / nw;
      for (Eigen::Index j = 0; j < D; ++j) mean[j] += f * wp[j];
      cost += theta * theta;
    }
    const double n = static_cast<double>(X.cols());
    mean /= n;
    return cost / (2.0 * n);
  }

 private:
  int d_;

  // regression_gradient() with the vectors of the pass in buf (p, w, y, fit,
  // eps, adj_p, adj_w, sum of x_i adj_w), fixed-size or maps onto scratch
  // memory. Per point: w_i = V x_i (m = 1: L = |x_i| |v|), the fit, eps =
  // Log_fit(y) as unit_sphere_log_core with the angle by chord_angle_sq and
  // |eps| taken as that angle (equal to rounding), at the cut locus
  // cut_locus_safe_log's dist times tangent_basis(fit).col(0); eps scaled by
  // the Huber weight (the adjoints are linear in eps), then sphere_adjoint.
  // The same operations for every point (no early exit).
  template <class Vt>
  void gradient_pass(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                     Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V, Vt* buf) const {
    Vt &p = buf[0], &w = buf[1], &y = buf[2], &fit = buf[3], &e = buf[4], &ap = buf[5], &aw = buf[6],
       &sp = buf[7], &sv = buf[8];
    const Eigen::Index m = V.cols(), D = d_ + 1, is = Y.innerStride(), os = Y.outerStride();
    const double Lv = m == 1 ? V.col(0).norm() : 0.0;
    const double max_L = 1.0 / std::numeric_limits<double>::epsilon();
    p = p_in;
    sp.setZero();
    sv.setZero();
    sum_V.setZero();
    for (Eigen::Index i = begin; i < end; ++i) {
      double L;
      if (m == 1) {
        w = x(i, 0) * V.col(0);
        L = std::abs(x(i, 0)) * Lv;
      } else {
        w.noalias() = V * x.row(i).transpose();
        L = w.norm();
      }
      if (!(L <= max_L))
        throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on sphere");
      const double sL = std::sin(L), cL = std::cos(L);
      fit = cL * p + (L < 1e-4 ? num::sinc(L) : sL / L) * w;
      const double* yi = Y.data() + i * os;
      for (Eigen::Index k = 0; k < D; ++k) y(k) = yi[k * is];
      e = y - fit;
      const double a2 = e.squaredNorm(), b2 = (y + fit).squaredNorm();
      e -= fit.dot(e) * fit;
      const double nw = e.norm(), theta = chord_angle_sq(a2, b2);
      double scale = 0.0;  // eps = scale * e
      if (nw > 0.0) {
        scale = theta / nw;
      } else if (a2 > b2) {  // cut locus
        unit_sphere_basis_col(fit, 0, e);
        scale = theta;
      }
      e *= huber_weight(theta, tau) * scale;
      if (L == 0.0) {
        ap = e;
        aw = e;
      } else {
        sphere_adjoint(p, w, L, sL, cL, e, ap, aw);
      }
      sp += ap;
      if (m == 1) sv += x(i, 0) * aw;
      else for (Eigen::Index j = 0; j < m; ++j) sum_V.col(j) += x(i, j) * aw;
    }
    sum_p = sp;
    if (m == 1) sum_V.col(0) = sv;
  }

  // regression_gradient() on S^2 with one covariate, in batches of B points
  // as structure of arrays (Eigen arrays: SSE2 packets, or scalar code): the
  // formulas of gradient_pass() with every branch a select, so that the
  // dependent chains of square roots and divisions of several points overlap
  // (~2x faster at n = 1000), with reciprocals shared between divisions and
  // sin, cos by sincos_batch (agreeing with gradient_pass() to ~1e-15 in
  // test-kng-fused.R, cut locus and L = 0 included). Per
  // batch: sin and cos of L_i = |x_i| |v|; then for all
  // points the fit, the residual (unit_sphere_log_core, chord_angle_sq; the
  // cut-locus direction of cut_locus_safe_log computed for every point), the
  // Huber weight and sphere_adjoint; then the sums in the order of the
  // points. Padding lanes of the last batch copy its first point and are not
  // summed.
  template <int B>
  RIEMDP_FLATTEN void gradient_pass_s2(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                        Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V) const {
    const Eigen::Index is = Y.innerStride(), os = Y.outerStride();
    const double p0 = p_in(0), p1 = p_in(1), p2 = p_in(2), v0 = V(0, 0), v1 = V(1, 0), v2 = V(2, 0);
    const double Lv = V.col(0).norm();
    const double max_L = 1.0 / std::numeric_limits<double>::epsilon();
    double sp0 = 0.0, sp1 = 0.0, sp2 = 0.0, sv0 = 0.0, sv1 = 0.0, sv2 = 0.0;
    alignas(16) double X[B], Ls[B], y0[B], y1[B], y2[B];
    alignas(16) double ap0[B], ap1[B], ap2[B], aw0[B], aw1[B], aw2[B];
    for (Eigen::Index i0 = begin; i0 < end; i0 += B) {
      const int len = static_cast<int>(std::min<Eigen::Index>(B, end - i0));
      bool representable = true;
      for (int k = 0; k < len; ++k) {
        const Eigen::Index i = i0 + k;
        const double xi = x(i, 0), L = std::abs(xi) * Lv;
        representable = representable && L <= max_L;
        X[k] = xi;
        Ls[k] = L;
        const double* yi = Y.data() + i * os;
        y0[k] = yi[0];
        y1[k] = yi[is];
        y2[k] = yi[2 * is];
      }
      for (int k = len; k < B; ++k) {  // padding: copies of the first point
        X[k] = X[0];
        Ls[k] = Ls[0];
        y0[k] = y0[0];
        y1[k] = y1[0];
        y2[k] = y2[0];
      }
      if (!representable)
        throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on sphere");
      using Arr = Eigen::Array<double, B, 1>;
      using Map = Eigen::Map<Arr, Eigen::Aligned16>;
      const Arr xa = Map(X), L = Map(Ls), L2 = L * L, invL = 1.0 / L;
      Arr sL, cL;
      if (L.maxCoeff() <= 1e5) {
        sincos_batch<Arr>(L, sL, cL);
      } else {  // beyond the reduction's range: libm
        for (int k = 0; k < B; ++k) {
          sL[k] = std::sin(L[k]);
          cL[k] = std::cos(L[k]);
        }
      }
      const Arr coef = (L < 1e-4).select(1.0 - L2 / 6.0 + L2 * L2 / 120.0, sL * invL);  // num::sinc(L)
      const Arr w0 = xa * v0, w1 = xa * v1, w2 = xa * v2;
      const Arr f0 = cL * p0 + coef * w0, f1 = cL * p1 + coef * w1, f2 = cL * p2 + coef * w2;
      Arr e0 = Map(y0) - f0, e1 = Map(y1) - f1, e2 = Map(y2) - f2;
      const Arr s0 = Map(y0) + f0, s1 = Map(y1) + f1, s2 = Map(y2) + f2;
      const Arr a2 = e0 * e0 + e1 * e1 + e2 * e2, b2 = s0 * s0 + s1 * s1 + s2 * s2;
      const Arr fe = f0 * e0 + f1 * e1 + f2 * e2;
      e0 = e0 - fe * f0;
      e1 = e1 - fe * f1;
      e2 = e2 - fe * f2;
      const Arr nw = (e0 * e0 + e1 * e1 + e2 * e2).sqrt();
      // chord_angle_sq(a2, b2), with its fallback (r2 = 0, Inf or NaN)
      const Arr r2 = a2 + b2, mn = (b2 < a2).select(b2, a2), mx = (a2 < b2).select(b2, a2);
      const Arr inv_r2 = 1.0 / r2;
      const Arr t = 4.0 * asin_small<Arr>(((mn * inv_r2) / (2.0 * (1.0 + (mx * inv_r2).sqrt()))).sqrt());
      Arr theta = (a2 <= b2).select(t, num::pi - t);
      if (!(r2.minCoeff() > 0.0 && r2.maxCoeff() <= 1e300))
        for (int k = 0; k < B; ++k)
          if (!(r2[k] > 0.0 && r2[k] <= 1e300)) theta[k] = chord_angle_sq(a2[k], b2[k]);
      // at the cut locus: unit_sphere_basis_col(fit, 0, .) (for every point)
      const Arr sign = (f0 < 0.0).select(Arr::Constant(-1.0), Arr::Constant(1.0));
      const Arr qi = sign * f1, qc = qi / (1.0 + sign * f0);
      const Arr c0 = -qi, c1 = 1.0 - qc * (sign * f1), c2 = 0.0 - qc * (sign * f2);
      const auto reg = nw > 0.0;
      const auto cut = !reg && a2 > b2;
      // the residual's length min(theta, tau) (huber_weight; NaN kept) over |direction|
      const Arr clipped = (theta > tau).select(Arr::Constant(tau), theta);
      const Arr h = reg.select(clipped / nw, cut.select(clipped, Arr::Zero()));
      e0 = cut.select(c0, e0) * h;
      e1 = cut.select(c1, e1) * h;
      e2 = cut.select(c2, e2) * h;
      // sphere_adjoint(p, w, L, sL, cL, eps, ., .); eps itself when L = 0
      const Arr a = cL * (e0 * w0 + e1 * w1 + e2 * w2) * invL - sL * (e0 * p0 + e1 * p1 + e2 * p2);
      const Arr a_L = a * invL;
      const Arr kp = a_L * (1.0 - cL * cL), lp = cL * a * sL;
      const Arr kw = a_L * (1.0 - coef * cL), lw = coef * a * sL;
      const auto flat = L == 0.0;
      Map(ap0, B) = flat.select(e0, cL * e0 + kp * w0 + lp * p0);
      Map(ap1, B) = flat.select(e1, cL * e1 + kp * w1 + lp * p1);
      Map(ap2, B) = flat.select(e2, cL * e2 + kp * w2 + lp * p2);
      Map(aw0, B) = flat.select(e0, coef * e0 + kw * w0 + lw * p0);
      Map(aw1, B) = flat.select(e1, coef * e1 + kw * w1 + lw * p1);
      Map(aw2, B) = flat.select(e2, coef * e2 + kw * w2 + lw * p2);
      for (int k = 0; k < len; ++k) {
        sp0 += ap0[k];
        sp1 += ap1[k];
        sp2 += ap2[k];
        sv0 += X[k] * aw0[k];
        sv1 += X[k] * aw1[k];
        sv2 += X[k] * aw2[k];
      }
    }
    sum_p(0) = sp0;
    sum_p(1) = sp1;
    sum_p(2) = sp2;
    sum_V(0, 0) = sv0;
    sum_V(1, 0) = sv1;
    sum_V(2, 0) = sv2;
  }

  template <bool Check>
  Eigen::Index batch_dist(CVecRef p, const PointSet& X, double tol, VecRef out) const {
    using Arr = Eigen::ArrayXd;
    constexpr Eigen::Index L = 256;
    const Eigen::Index n = X.cols(), is = X.innerStride(), os = X.outerStride(), D = d_ + 1;
    const double lo = tol < 1.0 ? (1.0 - tol) * (1.0 - tol) : 0.0, hi = (1.0 + tol) * (1.0 + tol);
    const double p2 = p.squaredNorm();
    Arr a_buf(L), b_buf(L), t_buf(L);
    for (Eigen::Index i0 = 0; i0 < n; i0 += L) {
      const Eigen::Index len = std::min(L, n - i0);
      auto a = a_buf.head(len), b = b_buf.head(len), t = t_buf.head(len);
      a.setZero();
      b.setZero();
      auto add = [&](const auto& x, double pj) {
        a += (x - pj).square();
        b += (x + pj).square();
      };
      for (Eigen::Index j = 0; j < D; ++j) {
        const double* xj = X.data() + i0 * os + j * is;
        if (os == 1) add(Eigen::Map<const Arr>(xj, len), p[j]);  // points as rows: contiguous
        else add(Eigen::Map<const Arr, 0, Eigen::InnerStride<>>(xj, len, Eigen::InnerStride<>(os)), p[j]);
      }
      if (Check) {
        // |x|^2 = (a + b)/2 - |p|^2, exact to ~1e-15, far below any tolerance;
        // NaN and Inf coordinates make it NaN or Inf (caught by the sum).
        t = 0.5 * (a + b) - p2;
        if (!(t.minCoeff() >= lo && t.maxCoeff() <= hi && std::isfinite(t.sum())))
          for (Eigen::Index k = 0; k < len; ++k)
            if (!(t[k] >= lo && t[k] <= hi)) return i0 + k;
      }
      t = a.min(b);
      const bool valid = t.maxCoeff() <= 2.5;  // unit vectors: min <= 2
      t = unit_chord_angle_near<Arr>(t);
      for (Eigen::Index k = 0; k < len; ++k) {
        const double w = a[k] <= b[k];  // blend, not a branch: exact since w is 0 or 1
        out[i0 + k] = w * t[k] + (1.0 - w) * (num::pi - t[k]);
      }
      if (!valid)
        for (Eigen::Index k = 0; k < len; ++k) out[i0 + k] = unit_chord_angle(a[k], b[k]);
    }
    return -1;
  }
};

}  // namespace riemdp

#endif

// The sphere's kernels: Exp and Log of a unit sphere of any ambient dimension
// (shared with Kendall's preshape sphere), chord angles, and the fused passes
// on S^2 (on vector lanes, lanes.h). Included by sphere.cpp and kendall.cpp only.
#ifndef RIEMDP_GEOMETRY_SPHERE_KERNELS_H
#define RIEMDP_GEOMETRY_SPHERE_KERNELS_H

#include "../lanes.h"
#include "manifold.h"

namespace riemdp {

// Exp and Log on a unit sphere of any ambient dimension; shared with Kendall's
// preshape sphere.
// Exp_p(v) = cos|v| p + sin|v| v/|v|, given c = cos|v| and sc = sin(|v|)/|v|.
template <class P, class V, class O>
inline void unit_sphere_exp_scaled(const P& p, const V& v, double c, double sc, O&& out) {
  out = c * p + sc * v;
}
// Beyond |v| = 1/eps the angle |v| mod 2 pi is not resolved in double
// precision: NaN (not representable, see Manifold::exp) rather than an
// arbitrary point.
inline void unit_sphere_exp(CVecRef p, CVecRef v, VecRef out) {
  const double nv = v.norm();
  if (!(nv <= 1.0 / std::numeric_limits<double>::epsilon())) {
    out.setConstant(std::numeric_limits<double>::quiet_NaN());
    return;
  }
  unit_sphere_exp_scaled(p, v, std::cos(nv), num::sinc(nv), out);
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
// asin_small(x) = x + x P/Q with P, Q rational in t = x^2.
template <class T>
inline void asin_small_pq(const T& t, T& p, T& q) {
  p = t * (1.66666666666666657415e-01 +
           t * (-3.25565818622400915405e-01 +
                t * (2.01212532134862925881e-01 +
                     t * (-4.00555345006794114027e-02 + t * (7.91534994289814532176e-04 + t * 3.47933107596021167570e-05)))));
  q = 1.0 + t * (-2.40339491173441421878e+00 +
                 t * (2.02094576023350569471e+00 + t * (-6.88283971605453293030e-01 + t * 7.70381505559019352791e-02)));
}
template <class T>
inline T asin_small(const T& x) {
  T p, q;
  asin_small_pq<T>(x * x, p, q);
  return x + x * (p / q);
}

#if defined(RIEMDP_LANES)
// sin and cos of 0 <= L <= 1e5 on lanes (lanes.h), branch-free (no libm
// call): L = k pi/2 + r with k = round(2L/pi) (by adding and
// subtracting 1.5 * 2^52) and r = L - k pi/2 by Cody and Waite's three-part
// pi/2 (P1, P2 carry 33 bits, so k P1 and k P2 are exact for k < 2^20), then
// fdlibm's minimax polynomials of sin r and cos r on |r| <= pi/4 (degrees 13
// and 14, error below 1 ulp there) and the quadrant k mod 4. Absolute error a few
// 1e-16 (checked through the pass against libm in test-kng-fused.R).
template <class T>
inline void sincos_batch(const T& L, T& sin_out, T& cos_out) {
  const double shifter = 0x1.8p52;
  const T k = (L * 0.63661977236758134308 + shifter) - shifter;
  const T r = ((L - k * 0x1.921fb544p+0) - k * 0x1.0b4611a6p-34) - k * 0x1.3198a2e037073p-69;
  const T r2 = r * r;
  // fdlibm's k_sin.c and k_cos.c minimax kernels (notice above asin_small_pq)
  const T sr = r + r * r2 *
                       (-1.66666666666666324348e-01 +
                        r2 * (8.33333333332248946124e-03 +
                              r2 * (-1.98412698298579493134e-04 +
                                    r2 * (2.75573137070700676789e-06 +
                                          r2 * (-2.50507602534068634195e-08 + r2 * 1.58969099521155010221e-10)))));
  const T cr = 1.0 - 0.5 * r2 +
               r2 * r2 *
                   (4.16666666666666019037e-02 +
                    r2 * (-1.38888888888741095749e-03 +
                          r2 * (2.48015872894767294178e-05 +
                                r2 * (-2.75573143513906633035e-07 +
                                      r2 * (2.08757232129817482790e-09 + r2 * -1.13596475577881948265e-11)))));
  // quadrant: m = k - 4 round(k / 4) in {-2, -1, 0, 1, 2}; k mod 4 = 3 is m = -1, 2 is |m| = 2
  using lanes::eq;
  using lanes::select;
  const T m = k - 4.0 * ((0.25 * k + shifter) - shifter);
  const auto q1 = eq(m, lanes::constant<T>(1.0)), q2 = eq(lanes::abs(m), lanes::constant<T>(2.0)),
             q3 = eq(m, lanes::constant<T>(-1.0));
  const T msr = -sr, mcr = -cr;
  sin_out = select(q1, cr, select(q2, msr, select(q3, mcr, sr)));
  cos_out = select(q1, msr, select(q2, mcr, select(q3, sr, cr)));
}
#endif  // RIEMDP_LANES

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
// The formula on lanes (lanes.h; Ops gives the square root) or doubles,
// without the fallback.
template <class T, class Ops>
inline T chord_angle_core(const T& a2, const T& b2) {
  using lanes::lt;
  using lanes::select;
  const T r2 = a2 + b2, m = select(lt(b2, a2), b2, a2), M = select(lt(a2, b2), b2, a2);
  const T t = 4.0 * asin_small<T>(Ops::sqrt((m / r2) / (2.0 * (1.0 + Ops::sqrt(M / r2)))));
  const T pi_t = num::pi - t;
  return select(lanes::le(a2, b2), t, pi_t);
}
inline double chord_angle_sq(double a2, double b2) {
  const double r2 = a2 + b2;
  if (!(r2 > 0.0 && r2 <= 1e300)) return num::chord_angle(std::sqrt(a2), std::sqrt(b2));  // 0, Inf, NaN
  return chord_angle_core<double, lanes::ScalarOps>(a2, b2);
}

// The fused Log of a point x (coordinates x[j * is], j < D) at the unit
// vector p: writes its tangent part w = (x - p) - <p, x - p> p, sets nw2 =
// |w|^2 and returns the angle between p and x from the squared chords
// (chord_angle_sq: no libm call); Log_p(x) = theta w / |w|. Shared by the
// per-point passes of Sphere::mean_log and Sphere::log_many.
inline double unit_sphere_tangent_part(const double* p, const double* x, Eigen::Index is, Eigen::Index D, double* w,
                                       double& nw2) {
  double a = 0.0, b = 0.0, pd = 0.0;
  for (Eigen::Index j = 0; j < D; ++j) {
    const double xj = x[j * is];
    const double m = xj - p[j], s = xj + p[j];
    w[j] = m;
    a += m * m;
    b += s * s;
    pd += p[j] * m;
  }
  nw2 = 0.0;
  for (Eigen::Index j = 0; j < D; ++j) {
    w[j] -= pd * p[j];
    nw2 += w[j] * w[j];
  }
  return chord_angle_sq(a, b);
}

#if defined(RIEMDP_LANES)
// The S^2 regression pass (Sphere::gradient_pass_s2) on points begin..end-1:
// covariates x, unit points (y0, y1, y2) as contiguous arrays; the frame (p,
// u, nv) and |v|; the four sums of the pass.
//
// The frame form (Sphere::gradient_pass_frame, S^d for any d): alpha, beta
// and gamma given per point (arrays indexed from begin; gamma = |the part of
// y_i orthogonal to p and u| >= 0) instead of y0, y1, y2 and the frame; the
// pass then also writes per point c_cos = h cos phi and c_sin = h sin phi
// (h x when |v| is tiny, as gs), the weights of the orthogonal parts, and
// asks for fallback at the cut locus (its direction is not in the frame).
struct S2PassInput {
  const double *x, *y0, *y1, *y2;
  Eigen::Index begin, end;
  double p[3], u[3], nv[3];
  double Lv, inv_Lv, tau, sin_tau;
  bool tiny_v, small_tau;
  const double *alpha = nullptr, *beta = nullptr, *gamma = nullptr;
  double *c_cos = nullptr, *c_sin = nullptr;
};
struct S2PassSums {
  double a = 0.0, gc = 0.0, xa = 0.0, gs = 0.0;
  bool representable = true, careful = false, fallback = false;
};

// The kernel of the pass, written once on lanes of type T (lanes.h), Ops
// giving the square root; see Sphere::gradient_pass_s2 for the formulas.
// Without Careful, the loop has no branch: lanes beyond the reduction's range
// of sincos_batch (|x_i v| > 1e5, or NaN) and lanes at the cut locus (which
// contribute 0 there) are only flagged, and a flag asks for the Careful
// pass, which treats them (libm; cut_locus_safe_log's direction) batch by
// batch. Both passes give the same bits when no lane is flagged.
template <class T, class Ops, bool Careful>
inline S2PassSums s2_pass_kernel(const S2PassInput& in) {
  using namespace lanes;
  constexpr int width = lane_count<T>::value;
  const T zero = constant<T>(0.0), tau = constant<T>(in.tau), sin_tau = constant<T>(in.sin_tau),
          far_L = constant<T>(1e5), quarter = constant<T>(0.25);
  const double max_L = 1.0 / std::numeric_limits<double>::epsilon();
  T acc_a = zero, acc_gc = zero, acc_xa = zero, acc_gs = zero;
  auto flags = lt(zero, zero);  // all false
  S2PassSums out;
  alignas(64) double xb[width], yb0[width], yb1[width], yb2[width], index[width];
  for (int k = 0; k < width; ++k) index[k] = k;
  const T* tag = nullptr;
  const T lane_index = load(tag, index);
  const bool frame = in.alpha != nullptr;
  for (Eigen::Index i0 = in.begin; i0 < in.end; i0 += width) {
    const int len = static_cast<int>(std::min<Eigen::Index>(width, in.end - i0));
    const Eigen::Index off = i0 - in.begin;
    const double *px = in.x + i0, *p0 = frame ? in.alpha + off : in.y0 + i0,
                 *p1 = frame ? in.beta + off : in.y1 + i0, *p2 = frame ? in.gamma + off : in.y2 + i0;
    if (len < width) {  // the last, padded batch: copies of its first point
      for (int k = 0; k < width; ++k) {
        const int j = k < len ? k : 0;
        xb[k] = px[j];
        yb0[k] = p0[j];
        yb1[k] = p1[j];
        yb2[k] = p2[j];
      }
      px = xb;
      p0 = yb0;
      p1 = yb1;
      p2 = yb2;
    }
    const T xa = load(tag, px), y0 = load(tag, p0), y1 = load(tag, p1), y2 = load(tag, p2);
    const T phi = abs(xa) * in.Lv;
    const auto far = negate(le(phi, far_L));  // or NaN
    T sn, cs;
    sincos_batch<T>(phi, sn, cs);
    if (!Careful) {
      flags = either(flags, far);
    } else if (any(far)) {  // beyond the reduction's range: libm
      for (int k = 0; k < width; ++k) {
        if (!(lane(phi, k) <= max_L)) {
          out.representable = false;
          return out;
        }
        set_lane(sn, k, std::sin(lane(phi, k)));
        set_lane(cs, k, std::cos(lane(phi, k)));
      }
    }
    const T msn = -sn;
    sn = select(lt(xa, zero), msn, sn);  // sin of the signed angle x_i |v|
    const T alpha = frame ? y0 : in.p[0] * y0 + in.p[1] * y1 + in.p[2] * y2;
    const T beta = frame ? y1 : in.u[0] * y0 + in.u[1] * y1 + in.u[2] * y2;
    const T gamma = frame ? y2 : in.nv[0] * y0 + in.nv[1] * y1 + in.nv[2] * y2;
    const T c = alpha * cs + beta * sn, a = beta * cs - alpha * sn;
    const T s2 = a * a + gamma * gamma, s = Ops::sqrt(s2);
    T h, clipped;  // h = min(theta, tau) / s (huber_weight), NaN kept
    if (in.small_tau) {
      // theta <= tau iff c > 0 and s <= sin tau; then h = asin(s)/s = 1 +
      // P/Q (asin_small's rational), else tau/s: one division
      const auto inside = both(lt(zero, c), le(s, sin_tau));
      const T t = select(lt(s2, quarter), s2, quarter);
      T P, Q;
      asin_small_pq<T>(t, P, Q);
      const T num = Q + P;
      h = select(inside, num, tau) / select(inside, Q, s);
      clipped = tau;  // at the cut locus (c < 0)
    } else {
      const T am = alpha - cs, bm = beta - sn, ap = alpha + cs, bp = beta + sn, g2 = gamma * gamma;
      // unit vectors: a2 + b2 = 4 (NaN lanes stay NaN), chord_angle_sq's fallback never applies
      const T theta = chord_angle_core<T, Ops>(am * am + bm * bm + g2, ap * ap + bp * bp + g2);
      clipped = select(lt(tau, theta), tau, theta);
      h = clipped / s;
    }
    // no residual (s = 0; the cut locus is treated below), and padding lanes
    if (len < width) h = select(lt(lane_index, constant<T>(len)), h, zero);
    h = select(eq(s2, zero), zero, h);
    T ha = h * a, hg = h * gamma;
    const auto cut = both(eq(s2, zero), lt(c, zero));
    if (!Careful) {
      flags = either(flags, cut);
    } else if (any(cut)) {  // cut_locus_safe_log: tangent_basis(yhat).col(0) times the clipped angle
      if (frame) {
        out.fallback = true;
        return out;
      }
      for (int k = 0; k < len; ++k) {
        if (!lane(cut, k)) continue;
        const Eigen::Vector3d p(in.p[0], in.p[1], in.p[2]), u(in.u[0], in.u[1], in.u[2]),
            nv(in.nv[0], in.nv[1], in.nv[2]);
        const double ck = lane(cs, k), sk = lane(sn, k);
        Eigen::Vector3d d;
        unit_sphere_basis_col(Eigen::Vector3d(ck * p + sk * u), 0, d);
        const double dt = d.dot(ck * u - sk * p), dn = d.dot(nv);
        set_lane(ha, k, lane(clipped, k) * dt);
        set_lane(hg, k, lane(clipped, k) * dn);
      }
    }
    acc_a += ha;
    acc_gc += hg * cs;
    acc_xa += xa * ha;
    T sin_factor = sn;  // x_i sin(phi_i)/phi_i = sin(x_i |v|)/|v| (the 1/|v| after the sum)
    if (in.tiny_v) {
      const T phi2 = phi * phi, taylor = xa * (1.0 - phi2 / 6.0 + phi2 * phi2 / 120.0), ratio = sn / in.Lv;
      sin_factor = select(lt(phi, constant<T>(1e-4)), taylor, ratio);
    }
    acc_gs += hg * sin_factor;
    if (frame) {
      const T hc = h * cs, hs = h * sin_factor;
      for (int k = 0; k < len; ++k) {
        in.c_cos[off + k] = lane(hc, k);
        in.c_sin[off + k] = lane(hs, k);
      }
    }
  }
  if (!Careful && any(flags)) {
    out.careful = true;
    return out;
  }
  out.a = sum(acc_a);
  out.gc = sum(acc_gc);
  out.xa = sum(acc_xa);
  out.gs = in.tiny_v ? sum(acc_gs) : sum(acc_gs) * in.inv_Lv;
  return out;
}

// The kernel for each instruction set (lanes::isa()): one set of formulas,
// 8 lanes (measured fastest at n = 20 and 1000: bench/dp-regression.R).
using S2LanesDefault = lanes::Twin<lanes::Twin<lanes::V2>>;
using S2OpsDefault = lanes::TwinOps<lanes::TwinOps<lanes::Ops2>>;
template <bool Careful>
RIEMDP_FLATTEN inline S2PassSums s2_pass_default(const S2PassInput& in) {
  return s2_pass_kernel<S2LanesDefault, S2OpsDefault, Careful>(in);
}
#if defined(RIEMDP_LANES_DISPATCH)
using S2LanesAvx2 = lanes::Twin<lanes::V4>;  // 8 lanes too: the same sums
using S2OpsAvx2 = lanes::TwinOps4Avx2;
template <bool Careful>
__attribute__((target("avx2"), flatten)) inline S2PassSums s2_pass_avx2(const S2PassInput& in) {
  return s2_pass_kernel<S2LanesAvx2, S2OpsAvx2, Careful>(in);
}
#endif
inline S2PassSums s2_pass(const S2PassInput& in) {
#if defined(RIEMDP_LANES_DISPATCH)
  if (lanes::isa() == 1) {
    const S2PassSums r = s2_pass_avx2<false>(in);
    return r.careful ? s2_pass_avx2<true>(in) : r;
  }
#endif
  const S2PassSums r = s2_pass_default<false>(in);
  return r.careful ? s2_pass_default<true>(in) : r;
}

// Sphere::mean_log on S^2 on lanes: points begin..end-1 of X (strided,
// gathered batch by batch), the same formulas as mean_log_pass (squared
// chords, chord_angle_core, one square root and one division per point),
// branch-free; sums in lane order, so every variant gives the same bits.
struct S2MeanLogSums {
  double m[3] = {0.0, 0.0, 0.0}, cost = 0.0;
  bool antipodal = false;
};
// With weights w (null: all 1), the weighted sums sum_i w_i Log_p(x_i) and
// sum_i w_i theta_i^2; a point of weight 0 adds nothing and is not checked
// for the antipode (as Manifold::weighted_log_sum skips it).
template <class T, class Ops>
inline S2MeanLogSums s2_mean_log_kernel(const double* p, const double* x, Eigen::Index is, Eigen::Index os,
                                        Eigen::Index n, const double* w) {
  using namespace lanes;
  constexpr int width = lane_count<T>::value;
  const T zero = constant<T>(0.0), one = constant<T>(1.0);
  T acc0 = zero, acc1 = zero, acc2 = zero, acc_c = zero;
  auto anti = lt(zero, zero);  // all false
  alignas(64) double b0[width], b1[width], b2[width], bw[width], index[width];
  for (int k = 0; k < width; ++k) index[k] = k;
  const T* tag = nullptr;
  const T lane_index = load(tag, index);
  for (Eigen::Index i0 = 0; i0 < n; i0 += width) {
    const int len = static_cast<int>(std::min<Eigen::Index>(width, n - i0));
    for (int k = 0; k < width; ++k) {  // the last batch padded with its first point
      const double* xi = x + (i0 + (k < len ? k : 0)) * os;
      b0[k] = xi[0];
      b1[k] = xi[is];
      b2[k] = xi[2 * is];
      if (w) bw[k] = k < len ? w[i0 + k] : 0.0;
    }
    const T x0 = load(tag, b0), x1 = load(tag, b1), x2 = load(tag, b2);
    T m0 = x0 - p[0], m1 = x1 - p[1], m2 = x2 - p[2];
    const T s0 = x0 + p[0], s1 = x1 + p[1], s2 = x2 + p[2];
    const T a = m0 * m0 + m1 * m1 + m2 * m2, b = s0 * s0 + s1 * s1 + s2 * s2;
    const T pd = p[0] * m0 + p[1] * m1 + p[2] * m2;
    m0 = m0 - pd * p[0];
    m1 = m1 - pd * p[1];
    m2 = m2 - pd * p[2];
    const T nw2 = m0 * m0 + m1 * m1 + m2 * m2;
    T theta = chord_angle_core<T, Ops>(a, b);
    const auto none = eq(nw2, zero);
    const T safe = select(none, one, nw2);
    if (w) {
      const T wt = load(tag, bw);
      anti = either(anti, both(both(none, lt(one, theta)), lt(zero, wt)));
      const T f = select(none, zero, wt * (theta / Ops::sqrt(safe)));
      acc0 += f * m0;
      acc1 += f * m1;
      acc2 += f * m2;
      acc_c += select(none, zero, wt * (theta * theta));
      continue;
    }
    anti = either(anti, both(none, lt(one, theta)));
    if (len < width) theta = select(lt(lane_index, constant<T>(len)), theta, zero);
    const T f = select(none, zero, theta / Ops::sqrt(safe));
    acc0 += f * m0;
    acc1 += f * m1;
    acc2 += f * m2;
    const T t2 = select(none, zero, theta * theta);
    acc_c += t2;
  }
  S2MeanLogSums out;
  out.antipodal = any(anti);
  out.m[0] = sum(acc0);
  out.m[1] = sum(acc1);
  out.m[2] = sum(acc2);
  out.cost = sum(acc_c);
  return out;
}
RIEMDP_FLATTEN inline S2MeanLogSums s2_mean_log_default(const double* p, const double* x, Eigen::Index is,
                                                       Eigen::Index os, Eigen::Index n, const double* w) {
  return s2_mean_log_kernel<S2LanesDefault, S2OpsDefault>(p, x, is, os, n, w);
}
#if defined(RIEMDP_LANES_DISPATCH)
__attribute__((target("avx2"), flatten)) inline S2MeanLogSums s2_mean_log_avx2(const double* p, const double* x,
                                                                              Eigen::Index is, Eigen::Index os,
                                                                              Eigen::Index n, const double* w) {
  return s2_mean_log_kernel<S2LanesAvx2, S2OpsAvx2>(p, x, is, os, n, w);
}
#endif
inline S2MeanLogSums s2_mean_log(const double* p, const double* x, Eigen::Index is, Eigen::Index os,
                                 Eigen::Index n, const double* w = nullptr) {
#if defined(RIEMDP_LANES_DISPATCH)
  if (lanes::isa() == 1) return s2_mean_log_avx2(p, x, is, os, n, w);
#endif
  return s2_mean_log_default(p, x, is, os, n, w);
}
#endif  // RIEMDP_LANES

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

}  // namespace riemdp

#endif

// The methods of hyperbolic space H^d on the hyperboloid (hyperbolic.h), compiled once, here.
#include "hyperbolic.h"
#include "../lanes.h"

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

#if defined(RIEMDP_LANES)
namespace {

// The per-point part of the frame pass (Hyperbolic::gradient_pass_frame) on
// vector lanes (lanes.h), for |x_i v| <= 2 and a clip with sinh^2 tau <= 0.1:
// cosh phi and sinh(phi)/phi by their Taylor series in phi^2 (all terms
// positive, 14 of them: truncation below 1e-20 for |phi| <= 2), a, s^2 and
// the clip h = asinh(min(s, sinh tau))/s by the alternating series `coef`
// (K + 1 terms, public). Writes h cosh phi and h x sinhc(phi) per point and
// returns the sums of h a and x h a.
struct HypFrameInput {
  const double *x, *A, *C, *rr;
  double *w_ch, *w_shc;
  Eigen::Index len;
  double Lv, tau, st2;
  const double* coef;
  int K;
};
struct HypFrameSums {
  double a = 0.0, xa = 0.0;
};
constexpr int hyp_taylor_terms = 14;

template <class T, class Ops>
inline HypFrameSums hyp_frame_kernel(const HypFrameInput& in) {
  using namespace lanes;
  constexpr int width = lane_count<T>::value;
  double c_ch[hyp_taylor_terms], c_sh[hyp_taylor_terms];  // 1/(2k)!, 1/(2k+1)!
  c_ch[0] = c_sh[0] = 1.0;
  for (int k = 1; k < hyp_taylor_terms; ++k) {
    c_ch[k] = c_sh[k - 1] / (2.0 * k);
    c_sh[k] = c_ch[k] / (2.0 * k + 1.0);
  }
  const T zero = constant<T>(0.0), st2 = constant<T>(in.st2), tau = constant<T>(in.tau);
  T acc_a = zero, acc_xa = zero;
  alignas(64) double xb[width], ab[width], cb[width], rb[width], o1[width], o2[width], index[width];
  for (int k = 0; k < width; ++k) index[k] = k;
  const T* tag = nullptr;
  const T lane_index = load(tag, index);
  for (Eigen::Index i0 = 0; i0 < in.len; i0 += width) {
    const int len = static_cast<int>(std::min<Eigen::Index>(width, in.len - i0));
    const double *px = in.x + i0, *pa = in.A + i0, *pc = in.C + i0, *pr = in.rr + i0;
    if (len < width) {  // the last, padded batch: copies of its first point
      for (int k = 0; k < width; ++k) {
        const int j = k < len ? k : 0;
        xb[k] = px[j];
        ab[k] = pa[j];
        cb[k] = pc[j];
        rb[k] = pr[j];
      }
      px = xb;
      pa = ab;
      pc = cb;
      pr = rb;
    }
    const T xa = load(tag, px), A = load(tag, pa), C = load(tag, pc), rr = load(tag, pr);
    const T phi = xa * in.Lv, u = phi * phi;
    T ch = constant<T>(c_ch[hyp_taylor_terms - 1]), shc = constant<T>(c_sh[hyp_taylor_terms - 1]);
    for (int k = hyp_taylor_terms - 2; k >= 0; --k) {
      ch = ch * u + c_ch[k];
      shc = shc * u + c_sh[k];
    }
    const T a = C * ch - A * (phi * shc);
    const T s2 = a * a + rr;
    const auto inside = le(s2, st2);
    const T w = select(inside, s2, st2);
    T hs = constant<T>(in.coef[in.K]);
    for (int k = in.K - 1; k >= 0; --k) hs = hs * w + in.coef[k];
    T h = select(inside, hs, tau / Ops::sqrt(select(inside, st2, s2)));
    h = select(lt(zero, s2), h, zero);  // no residual
    if (len < width) h = select(lt(lane_index, constant<T>(len)), h, zero);
    const T ha = h * a;
    acc_a += ha;
    acc_xa += xa * ha;
    const T w1 = h * ch, w2 = h * xa * shc;
    for (int k = 0; k < len; ++k) {
      in.w_ch[i0 + k] = lane(w1, k);
      in.w_shc[i0 + k] = lane(w2, k);
    }
  }
  HypFrameSums out;
  out.a = sum(acc_a);
  out.xa = sum(acc_xa);
  return out;
}

using HypLanesDefault = lanes::Twin<lanes::Twin<lanes::V2>>;
using HypOpsDefault = lanes::TwinOps<lanes::TwinOps<lanes::Ops2>>;
RIEMDP_FLATTEN HypFrameSums hyp_frame_default(const HypFrameInput& in) {
  return hyp_frame_kernel<HypLanesDefault, HypOpsDefault>(in);
}
#if defined(RIEMDP_LANES_DISPATCH)
__attribute__((target("avx2"), flatten)) HypFrameSums hyp_frame_avx2(const HypFrameInput& in) {
  return hyp_frame_kernel<lanes::Twin<lanes::V4>, lanes::TwinOps4Avx2>(in);
}
#endif
HypFrameSums hyp_frame(const HypFrameInput& in) {
#if defined(RIEMDP_LANES_DISPATCH)
  if (lanes::isa() == 1) return hyp_frame_avx2(in);
#endif
  return hyp_frame_default(in);
}

}  // namespace
#endif

bool Hyperbolic::frame_ok(const RegressionScratch& scratch, const Mat& x, Eigen::Index begin, Eigen::Index end) const {
  if (!(scratch.domain_radius >= 0.0 && scratch.domain_tau_m >= 0.0) || scratch.domain_center.size() != d_ + 1)
    return false;
  if (!(std::acosh(lift(scratch.domain_center.tail(d_))) + scratch.domain_radius + scratch.domain_tau_m <=
        frame_radius))
    return false;
  // covariates in [-1, 1]: always so in a release (mapped to [0, 1]), so that
  // the choice depends on public values only there
  return x.col(0).segment(begin, end - begin).cwiseAbs().maxCoeff() <= 1.0;
}

void Hyperbolic::gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                     Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                     RegressionScratch& scratch) const {
  const Eigen::Index D = d_ + 1, len = end - begin;
  // The points with y_0 = lift(y_s), as rows (computed once per data set), so
  // that every per-point step below runs on arrays over the points.
  if (scratch.unit_source != Y.data() || scratch.unit.rows() != Y.cols() || scratch.unit.cols() != D ||
      scratch.unit_inner != Y.innerStride() || scratch.unit_outer != Y.outerStride()) {
    scratch.unit.resize(Y.cols(), D);
    for (Eigen::Index i = 0; i < Y.cols(); ++i) {
      scratch.unit.row(i).tail(d_) = Y.col(i).tail(d_).transpose();
      scratch.unit(i, 0) = lift(Y.col(i).tail(d_));
    }
    scratch.unit_source = Y.data();
    scratch.unit_inner = Y.innerStride();
    scratch.unit_outer = Y.outerStride();
  }
  const auto Yb = scratch.unit.middleRows(begin, len);
  if (scratch.frame.rows() < len || scratch.frame.cols() != 12)
    scratch.frame.resize(std::max<Eigen::Index>(len, 4096), 12);
  auto F = scratch.frame.topRows(len);  // A, C, |r|^2, h cosh phi, h sinh phi, then the pass's arrays
  if (scratch.W.rows() != D || scratch.W.cols() != 5) scratch.W.resize(D, 5);
  auto p = scratch.W.col(0), t = scratch.W.col(1), mp = scratch.W.col(2), mt = scratch.W.col(3),
       buf = scratch.W.col(4);
  p.tail(d_) = p_in.tail(d_);
  p(0) = lift(p.tail(d_));
  const double p0 = p(0);
  const double Lv = std::sqrt(num::clamp0(chart_inner(p, V.col(0), V.col(0))));
  const bool tiny_v = !(Lv >= 1e-100);  // 1/|v| may overflow: x sinhc(phi)
  if (Lv > 0.0) t.tail(d_) = V.col(0).tail(d_) / Lv;
  else t = tangent_basis(p).col(0);
  finish_tangent(p, p0, t);
  // A = p_0 y_0 - p_s.y_s, C = t_s.y_s - t_0 y_0
  mp(0) = p0;
  mp.tail(d_) = -p.tail(d_);
  mt(0) = -t(0);
  mt.tail(d_) = t.tail(d_);
  F.leftCols(2).noalias() = Yb * scratch.W.middleCols(2, 2);
  // |r_i|^2 = |r_s|^2 - r_0^2, r_s = y_s - A p_s - C t_s, r_0 = p_s.r_s/p_0
  // (r is tangent at p): r_0^2 <= tanh^2(|p|) |r_s|^2, a cancellation by at
  // most 1/(1 - tanh^2 2) = 14 for footpoints in the frame's domain.
  {
    const auto A = F.col(0).array(), C = F.col(1).array();
    auto pr = F.col(2).array(), rr = F.col(11).array(), r = F.col(10).array();
    pr.setZero();
    rr.setZero();
    for (Eigen::Index j = 1; j < D; ++j) {
      r = Yb.col(j).array() - A * p[j] - C * t[j];
      pr += p[j] * r;
      rr += r.square();
    }
    F.col(2).array() = rr - (pr * (1.0 / p0)).square();
  }
  // The clip h = min(theta, tau)/s, theta = asinh(s): where sinh^2 tau <=
  // 0.1, asinh(s)/s by its alternating series in s^2 <= st2 for s <= sinh
  // tau, cut where the first omitted term is below 1e-17 (a public number of
  // terms); beyond, tau/s.
  const double sinh_tau = std::sinh(std::min(tau, 800.0)), st2 = sinh_tau * sinh_tau;
  double c[32];
  int K = 1;
  c[0] = 1.0;
  if (st2 <= 0.1) {
    double b = 1.0, pw = 1.0;
    for (;; ++K) {  // K <= 16 for st2 <= 0.1
      b *= (2.0 * K - 1.0) / (2.0 * K);
      pw *= st2;
      c[K] = ((K % 2) ? -b : b) / (2.0 * K + 1.0);
      if (b / (2.0 * K + 1.0) * pw <= 1e-17 || K == 31) break;
    }
  }
  // F.col(4) holds h x sinh(phi)/phi (lanes) or h sinh(phi) (arrays)
  bool shc_weights = false;
  double Sa = 0.0, Sxa = 0.0;
#if defined(RIEMDP_LANES)
  // |phi| <= |v| <= 2 (|x_i| <= 1 in the frame's domain): on vector lanes
  if (st2 <= 0.1 && Lv <= 2.0) {
    const HypFrameInput in{x.col(0).data() + begin, F.col(0).data(), F.col(1).data(), F.col(2).data(),
                           F.col(3).data(), F.col(4).data(), len, Lv, tau, st2, c, K};
    const HypFrameSums sums = hyp_frame(in);
    Sa = sums.a;
    Sxa = sums.xa;
    shc_weights = true;
  }
#endif
  if (!shc_weights) {
    // On arrays over the chunk (vectorised): phi, cosh and sinh from one exp
    // (sinh by its Taylor polynomial below 1e-2, where e - 1/e cancels), a, s.
    const auto X = x.col(0).segment(begin, len).array();
    auto phi = F.col(5).array(), ch = F.col(6).array(), sh = F.col(7).array(), a = F.col(8).array(),
         s2 = F.col(9).array(), h = F.col(10).array();
    phi = X * Lv;
    ch = phi.exp();
    sh = 0.5 * (ch - ch.inverse());
    ch = 0.5 * (ch + ch.inverse());
    sh = (phi.abs() < 1e-2)
             .select(phi * (1.0 + phi.square() / 6.0 * (1.0 + phi.square() / 20.0 * (1.0 + phi.square() / 42.0))),
                     sh);
    if (!((ch * p0 + sh * t(0)) <= x0_max()).all())
      throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on hyperbolic");
    a = F.col(1).array() * ch - F.col(0).array() * sh;
    s2 = a.square() + F.col(2).array();
    if (st2 <= 0.1) {
      auto u = F.col(5).array();  // phi is no longer needed
      u = s2.min(st2);
      h = c[K];
      for (int k = K - 1; k >= 0; --k) h = h * u + c[k];
      h = (s2 <= st2).select(h, tau / s2.sqrt());
    } else {
      for (Eigen::Index i = 0; i < len; ++i) {  // asinh(min(s, sinh tau)) = min(theta, tau)
        const double si = std::sqrt(s2[i]), tc = std::min(si, sinh_tau);
        h[i] = std::log1p(tc + tc * tc / (1.0 + std::sqrt(1.0 + tc * tc))) / si;
      }
    }
    h = (s2 > 0.0).select(h, 0.0);
    Sa = (h * a).sum();
    Sxa = (X * h * a).sum();
    F.col(3).array() = h * ch;
    if (tiny_v) {  // x sinh(L)/L = x sinhc(phi)
      for (Eigen::Index i = 0; i < len; ++i) F(i, 4) = h[i] * X[i] * num::sinhc(X[i] * Lv);
    } else {
      F.col(4).array() = h * sh;
    }
  }
  // sum_i c_i r_i = Y c - (c.A) p - (c.C) t (spatial parts; time coordinates from tangency)
  const auto rest = [&](int col, auto out) {
    buf.noalias() = Yb.transpose() * F.col(col);
    out.tail(d_) = buf.tail(d_) - F.col(col).dot(F.col(0)) * p.tail(d_) - F.col(col).dot(F.col(1)) * t.tail(d_);
  };
  rest(3, sum_p);
  sum_p.tail(d_) += Sa * t.tail(d_);
  finish_tangent(p, p0, sum_p);
  auto sv = sum_V.col(0);
  rest(4, sv);
  if (!tiny_v && !shc_weights) sv.tail(d_) /= Lv;
  sv.tail(d_) += Sxa * t.tail(d_);
  finish_tangent(p, p0, sv);
}

void Hyperbolic::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                     Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                     RegressionScratch& scratch) const {
  if (V.cols() == 1 && frame_ok(scratch, x, begin, end))
    return gradient_pass_frame(p, V, Y, x, begin, end, tau, sum_p, sum_V, scratch);
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

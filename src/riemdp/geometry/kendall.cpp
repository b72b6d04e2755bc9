// The methods of Kendall's shape space of planar landmarks (kendall.h), compiled once, here.
#include "kendall.h"
#include "sphere_kernels.h"

namespace riemdp {

template <class P, class Q, class B, class O>
bool Kendall::log_aligned(const P& p, const Q& q, B& buf, O& out) const {
  if (align(p, q, buf) < 1e-14) return false;
  double a2, b2;
  return unit_sphere_log_core(p, buf, out, a2, b2);
}

template <class P, class W, class Y, class V>
double Kendall::regression_point(const P& p, const W& w, const Y& y, V& fit, V& yal, V& eps, V& adj_p, V& adj_w) const {
  const double L = w.norm(), sL = std::sin(L);
  const JacobiScaling s1 = jacobi_scaling_of(1.0, L, sL, std::cos(L));  // cos L, sin(L)/L
  // Beyond |w| = 1/eps the fit is not representable (unit_sphere_exp).
  const bool representable = L <= 1.0 / std::numeric_limits<double>::epsilon();
  if (representable) unit_sphere_exp_scaled(p, w, s1.footpoint, s1.shooting, fit);
  if (!representable || !fit.allFinite())
    throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on kendall");
  if (!log_aligned(fit, y, yal, eps)) cut_locus_safe_log(fit, y, eps);
  if (L == 0.0) {
    adj_p = eps;
    adj_w = eps;
  } else {
    adjoint_core(p, w, L, sL, s1.footpoint, s1, jacobi_scaling(4.0, L), eps, adj_p, adj_w);
  }
  return std::sqrt(num::clamp0(eps.dot(eps)));
}

Vec Kendall::times_i(CVecRef z) const {
  Vec out(2 * k_);
  out.head(k_) = -z.tail(k_);
  out.tail(k_) = z.head(k_);
  return out;
}

void Kendall::representative(CVecRef p, CVecRef q, VecRef out) const { align(p, q, out); }

void Kendall::align_pair(CVecRef ref, VecRef p, Eigen::Ref<Mat> V) const {
  double re, im;
  hermitian(ref, p, re, im);
  const double m = std::hypot(re, im);
  if (m == 0.0) return;
  const double c = re / m, s = im / m;
  const auto rotate = [&](auto w) {
    const Vec x = w.head(k_), y = w.tail(k_);
    w.head(k_) = c * x + s * y;
    w.tail(k_) = c * y - s * x;
  };
  rotate(p.segment(0, 2 * k_));
  for (Eigen::Index j = 0; j < V.cols(); ++j) rotate(V.col(j));
}

void Kendall::exp(CVecRef p, CVecRef v, VecRef out) const { unit_sphere_exp(p, v, out); }

void Kendall::exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const { out = std::cos(r) * p + std::sin(r) * u; }

// The aligned point's buffer, one per thread, sized once: the passes that
// call log() and dist() once per point allocate nothing per point.
static Vec& aligned_buffer(Eigen::Index size) {
  thread_local Vec buf;
  if (buf.size() != size) buf.resize(size);
  return buf;
}

void Kendall::log(CVecRef p, CVecRef q, VecRef out) const {
  Vec& w = aligned_buffer(2 * k_);
  if (!log_aligned(p, q, w, out))
    throw domain_error("the shapes are at the maximal distance pi/2 (cut locus): the log is not defined");
}

double Kendall::dist(CVecRef p, CVecRef q) const {
  Vec& w = aligned_buffer(2 * k_);
  const double m = align(p, q, w);
  if (m < 0.5) return std::acos(m);
  return num::chord_angle((w - p).norm(), (w + p).norm());
}

double Kendall::inner(CVecRef, CVecRef u, CVecRef v) const { return u.dot(v); }

void Kendall::transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const {
  Vec lg(2 * k_);
  log(p, q, lg);
  const double s = lg.norm();
  if (s == 0.0) { out = v; return; }
  const Vec t = lg / s;
  const Vec it = times_i(t);
  const double a = v.dot(t), b = v.dot(it);
  const Vec g = -std::sin(s) * p + std::cos(s) * t;
  out = v - a * t - b * it + a * g + b * times_i(g);
}

void Kendall::geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const {
  unit_sphere_geodesic_velocity(p, v, s, out);
}

void Kendall::regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                      VecRef dv) const {
  dp.setZero();
  dv.setZero();
  const double L = v.norm();
  if (L == 0.0) return gauss_newton_block(0.0, x, h).apply(gp, gv, dp, dv);
  const Vec it = times_i(v) / L;
  const double bp = gp.dot(it), bv = gv.dot(it);
  gauss_newton_block(4.0 * L * L, x, h).apply(bp * it, bv * it, dp, dv);
  unit_sphere_gauss_newton(v, x, h, gp - bp * it, gv - bv * it, dp, dv);
}

void Kendall::adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const {
  const double L = w.norm();
  if (L == 0.0) {
    adj_p = eps;
    adj_w = eps;
    return;
  }
  adjoint_core(p, w, L, std::sin(L), std::cos(L), jacobi_scaling(1.0, L), jacobi_scaling(4.0, L), eps, adj_p,
               adj_w);
}

void Kendall::regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                                   Mat* yhat, Mat* eps) const {
  Vec yal(2 * k_);
  regression_residual_pass(W, Y, dist, adj_p, adj_w, yhat, eps,
                           [&](const Vec& w, const Vec& y, Vec& fit, Vec& e, Vec& ap, Vec& aw) {
                             return regression_point(p, w, y, fit, yal, e, ap, aw);
                           });
}

#if defined(RIEMDP_LANES)
namespace {

// The frame pass (Kendall::gradient_pass_frame) on vector lanes (lanes.h) for
// tau <= pi/6, |x_i v| <= 1e5 and D = 2k <= kendall_lanes_max_dim, in one
// read of the points: per batch of points the frame coordinates A, B, C, E,
// the part r off the frame, then the same formulas as the scalar loop
// (sincos_batch, asin_small_pq as on S^2), and the sums G_c = sum_i w_ci r_i
// of the four weights. `cut` flags a point at the alignment's cut locus
// (the caller reruns the per-point pass).
constexpr int kendall_lanes_max_dim = 64;
struct KendallFrameInput {
  const double* x;
  const double* Y;  // the points as rows: coordinate j of point i at Y[j * stride + i]
  Eigen::Index stride, len;
  int D;
  const double* frame;  // D x 4, column-major: p, ip, t, it
  double Lv, tau, sin_tau;
  bool tiny_v;
  double* G;  // D x 4, column-major (out)
};
struct KendallFrameSums {
  double a = 0.0, xa = 0.0, bc = 0.0, bs = 0.0;
  bool cut = false;
};

template <class T, class Ops>
inline KendallFrameSums kendall_frame_kernel(const KendallFrameInput& in) {
  using namespace lanes;
  constexpr int width = lane_count<T>::value;
  const int D = in.D;
  const T zero = constant<T>(0.0), tau = constant<T>(in.tau), sin_tau = constant<T>(in.sin_tau),
          quarter = constant<T>(0.25), mu_min = constant<T>(1e-14);
  T acc_a = zero, acc_xa = zero, acc_bc = zero, acc_bs = zero;
  T accG[4 * kendall_lanes_max_dim], r[kendall_lanes_max_dim];
  for (int j = 0; j < 4 * D; ++j) accG[j] = zero;
  auto cut = lt(zero, zero);  // all false
  alignas(64) double buf[width], index[width];
  for (int k = 0; k < width; ++k) index[k] = k;
  const T* tag = nullptr;
  const T lane_index = load(tag, index);
  const double* fr = in.frame;
  for (Eigen::Index i0 = 0; i0 < in.len; i0 += width) {
    const int len = static_cast<int>(std::min<Eigen::Index>(width, in.len - i0));
    const bool padded = len < width;  // the last batch: copies of its first point
    const double* px = in.x + i0;
    if (padded) {
      for (int k = 0; k < width; ++k) buf[k] = px[k < len ? k : 0];
      px = buf;
    }
    const T xa = load(tag, px);
    T A = zero, B = zero, C = zero, E = zero;
    for (int j = 0; j < D; ++j) {
      const double* py = in.Y + j * in.stride + i0;
      if (padded) {
        for (int k = 0; k < width; ++k) buf[k] = py[k < len ? k : 0];
        py = buf;
      }
      r[j] = load(tag, py);
      A += r[j] * fr[j];
      B += r[j] * fr[D + j];
      C += r[j] * fr[2 * D + j];
      E += r[j] * fr[3 * D + j];
    }
    T rr = zero;
    for (int j = 0; j < D; ++j) {
      r[j] = r[j] - A * fr[j] - B * fr[D + j] - C * fr[2 * D + j] - E * fr[3 * D + j];
      rr += r[j] * r[j];
    }
    T sp, cp;
    sincos_batch<T>(abs(xa) * in.Lv, sp, cp);
    const T msp = -sp;
    sp = select(lt(xa, zero), msp, sp);  // sin of the signed angle x_i |v|
    const T re = cp * A + sp * C, im = cp * B + sp * E, mu = Ops::sqrt(re * re + im * im);
    cut = either(cut, negate(le(mu_min, mu)));
    const T cps = re / mu, sps = im / mu;
    const T a0 = cp * C - sp * A, b0 = cp * E - sp * B;
    const T a = cps * a0 + sps * b0, b = cps * b0 - sps * a0;
    const T s2 = a * a + b * b + rr, s = Ops::sqrt(s2);
    // theta <= tau iff s <= sin tau; then asin(s)/s = 1 + P/Q, else tau/s
    const auto inside = le(s, sin_tau);
    T P, Q;
    asin_small_pq<T>(select(lt(s2, quarter), s2, quarter), P, Q);
    T h = select(inside, Q + P, tau) / select(inside, Q, s);
    h = select(lt(zero, s2), h, zero);  // no residual
    if (len < width) h = select(lt(lane_index, constant<T>(len)), h, zero);
    // x sin(L)/L and x sin(2L)/(2L) as sin(phi)/|v|, sin(2 phi)/(2|v|) (the 1/|v| after the sums)
    const T s1 = in.tiny_v ? xa : sp, s4 = in.tiny_v ? xa : sp * cp;
    const T ha = h * a, hb = h * b;
    acc_a += ha;
    acc_xa += xa * ha;
    acc_bc += hb * (cp * cp - sp * sp);
    acc_bs += hb * s4;
    const T hc = h * cp, hs = h * s1;
    const T w0 = hc * cps, w1 = hc * sps, w2 = hs * cps, w3 = hs * sps;
    for (int j = 0; j < D; ++j) {
      accG[4 * j] += w0 * r[j];
      accG[4 * j + 1] += w1 * r[j];
      accG[4 * j + 2] += w2 * r[j];
      accG[4 * j + 3] += w3 * r[j];
    }
  }
  for (int j = 0; j < D; ++j)
    for (int c = 0; c < 4; ++c) in.G[c * D + j] = sum(accG[4 * j + c]);
  KendallFrameSums out;
  out.a = sum(acc_a);
  out.xa = sum(acc_xa);
  out.bc = sum(acc_bc);
  out.bs = sum(acc_bs);
  out.cut = any(cut);
  return out;
}

using KendallLanesDefault = lanes::Twin<lanes::Twin<lanes::V2>>;
using KendallOpsDefault = lanes::TwinOps<lanes::TwinOps<lanes::Ops2>>;
RIEMDP_FLATTEN KendallFrameSums kendall_frame_default(const KendallFrameInput& in) {
  return kendall_frame_kernel<KendallLanesDefault, KendallOpsDefault>(in);
}
#if defined(RIEMDP_LANES_DISPATCH)
__attribute__((target("avx2"), flatten)) KendallFrameSums kendall_frame_avx2(const KendallFrameInput& in) {
  return kendall_frame_kernel<lanes::Twin<lanes::V4>, lanes::TwinOps4Avx2>(in);
}
#endif
KendallFrameSums kendall_frame(const KendallFrameInput& in) {
#if defined(RIEMDP_LANES_DISPATCH)
  if (lanes::isa() == 1) return kendall_frame_avx2(in);
#endif
  return kendall_frame_default(in);
}

}  // namespace
#endif

void Kendall::gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                  Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                  RegressionScratch& scratch) const {
  const Eigen::Index D = 2 * k_, len = end - begin;
  if (scratch.frame.rows() < len || scratch.frame.cols() != 9)
    scratch.frame.resize(std::max<Eigen::Index>(len, 4096), 9);
  if (scratch.W.rows() != D || scratch.W.cols() != 8) scratch.W.resize(D, 8);
  auto F = scratch.frame.topRows(len);  // A, B, C, E, |r|^2, then four weights
  auto frame = scratch.W.leftCols(4);   // p, ip, t, it
  const double Lv = V.col(0).norm();
  const bool tiny_v = !(Lv >= 1e-100);  // 1/|v| may overflow: x sinc(phi)
  frame.col(0) = p_in;
  if (Lv > 0.0) frame.col(2) = V.col(0) / Lv;
  else frame.col(2) = tangent_basis(p_in).col(0);
  for (int j = 0; j < 2; ++j) {
    frame.col(2 * j + 1).head(k_) = -frame.col(2 * j).tail(k_);
    frame.col(2 * j + 1).tail(k_) = frame.col(2 * j).head(k_);
  }
  // The points as rows (copied once per data set): the lanes kernel reads
  // each coordinate of a batch of points from one place.
  if (scratch.unit_source != Y.data() || scratch.unit.rows() != Y.cols() || scratch.unit.cols() != D ||
      scratch.unit_inner != Y.innerStride() || scratch.unit_outer != Y.outerStride()) {
    scratch.unit = Y.transpose();
    scratch.unit_source = Y.data();
    scratch.unit_inner = Y.innerStride();
    scratch.unit_outer = Y.outerStride();
  }
  const auto Yb = scratch.unit.middleRows(begin, len);
  const double max_L = 1.0 / std::numeric_limits<double>::epsilon();
  const bool small_tau = tau <= num::pi / 6;  // public: the clip's formula
  const double sin_tau = std::sin(std::min(tau, 1.0));
  double Sa = 0.0, Sxa = 0.0, Sbc = 0.0, Sbs = 0.0;
  bool cut = false;
  bool lanes_done = false;
  // G: the four sums sum_i c_i r_i of the weights c (cos psi and sin psi
  // times h cos phi and h x sinc), r_i the part of y_i off the frame
  auto G = scratch.W.rightCols(4);
#if defined(RIEMDP_LANES)
  if (small_tau && D <= kendall_lanes_max_dim && x.col(0).segment(begin, len).cwiseAbs().maxCoeff() * Lv <= 1e5) {
    const KendallFrameInput in{x.col(0).data() + begin, scratch.unit.data() + begin, scratch.unit.rows(), len,
                               static_cast<int>(D), frame.data(), Lv, tau, sin_tau, tiny_v, G.data()};
    const KendallFrameSums sums = kendall_frame(in);
    Sa = sums.a;
    Sxa = sums.xa;
    Sbc = sums.bc;
    Sbs = sums.bs;
    cut = sums.cut;
    lanes_done = true;
  }
#endif
  if (!lanes_done) {
    for (int j = 0; j < 4; ++j) F.col(j).noalias() = Yb * frame.col(j);
    {  // |r_i|^2, the part of y_i off the frame
      auto r2 = F.col(4).array(), r = F.col(5).array();
      const auto A = F.col(0).array(), B = F.col(1).array(), C = F.col(2).array(), E = F.col(3).array();
      r2.setZero();
      for (Eigen::Index j = 0; j < D; ++j) {
        r = Yb.col(j).array() - A * frame(j, 0) - B * frame(j, 1) - C * frame(j, 2) - E * frame(j, 3);
        r2 += r.square();
      }
    }
    for (Eigen::Index i = 0; i < len; ++i) {
      const double xi = x(begin + i, 0), phi = xi * Lv;
      if (!(std::abs(phi) <= max_L))
        throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on kendall");
      const double sp = std::sin(phi), cp = std::cos(phi);
      const double A = F(i, 0), B = F(i, 1), C = F(i, 2), E = F(i, 3);
      const double re = cp * A + sp * C, im = cp * B + sp * E, mu = std::sqrt(re * re + im * im);
      cut = cut || !(mu >= 1e-14);
      const double cps = re / mu, sps = im / mu;
      const double a0 = cp * C - sp * A, b0 = cp * E - sp * B;
      const double a = cps * a0 + sps * b0, b = cps * b0 - sps * a0;
      const double s2 = a * a + b * b + F(i, 4), s = std::sqrt(s2);
      double h;  // min(theta, tau) / s, s = sin(theta), theta in [0, pi/2]
      if (small_tau) {  // as gradient_pass_s2: theta <= tau iff s <= sin(tau), then asin(s)/s = 1 + P/Q
        double P, Q;
        asin_small_pq<double>(std::min(s2, 0.25), P, Q);
        const bool inside = s <= sin_tau;
        h = (inside ? Q + P : tau) / (inside ? Q : s);
      } else {
        const double q = s2 / (1.0 + mu);  // 1 - mu for unit y
        h = std::min(chord_angle_sq(s2 + q * q, s2 + (1.0 + mu) * (1.0 + mu)), tau) / s;
      }
      if (!(s2 > 0.0)) h = 0.0;
      // x sin(L)/L and x sin(2L)/(2L) as sin(phi)/|v|, sin(2 phi)/(2|v|) (the 1/|v| after the sums)
      const double s1 = tiny_v ? xi * num::sinc(phi) : sp, s4 = tiny_v ? xi * num::sinc(2.0 * phi) : sp * cp;
      const double ha = h * a, hb = h * b;
      Sa += ha;
      Sxa += xi * ha;
      Sbc += hb * (cp * cp - sp * sp);
      Sbs += hb * s4;
      F(i, 5) = h * cp * cps;
      F(i, 6) = h * cp * sps;
      F(i, 7) = h * s1 * cps;
      F(i, 8) = h * s1 * sps;
    }
    if (!cut) {
      Eigen::Matrix4d along;
      for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < 4; ++i) along(i, j) = F.col(i).dot(F.col(5 + j));
        G.col(j).noalias() = Yb.transpose() * F.col(5 + j);
      }
      G.noalias() -= frame * along;
    }
  }
  if (cut) {  // the alignment's cut locus: the per-point pass
    const Vec pv = p_in;
    Vec fit(D), yal(D), e(D);
    fused_regression_gradient<Vec>(V, Y, x, begin, end, tau, sum_p, sum_V,
                                   [&](const Vec& w, const Vec& y, Vec& ap, Vec& aw) {
                                     return regression_point(pv, w, y, fit, yal, e, ap, aw);
                                   });
    return;
  }
  // R(c) = sum_i c_i (cos psi_i r_i - sin psi_i i r_i) from G: sum c cos psi r, sum c sin psi r
  const auto rest = [&](int j, VecRef out) {  // R(c) = sum c cos psi r - i sum c sin psi r
    out.head(k_) = G.col(j).head(k_) + G.col(j + 1).tail(k_);
    out.tail(k_) = G.col(j).tail(k_) - G.col(j + 1).head(k_);
  };
  rest(0, sum_p);
  sum_p += Sa * frame.col(2) + Sbc * frame.col(3);
  auto sv = sum_V.col(0);
  rest(2, sv);
  const double inv = tiny_v ? 1.0 : 1.0 / Lv;
  sv *= inv;
  sv += Sxa * frame.col(2) + (Sbs * inv) * frame.col(3);
}

void Kendall::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                  Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                  RegressionScratch& scratch) const {
  if (V.cols() == 1) return gradient_pass_frame(p, V, Y, x, begin, end, tau, sum_p, sum_V, scratch);
  const int D = 2 * k_;
  const Vec pv = p;
  Vec fit(D), yal(D), e(D);
  fused_regression_gradient<Vec>(V, Y, x, begin, end, tau, sum_p, sum_V,
                                 [&](const Vec& w, const Vec& y, Vec& ap, Vec& aw) {
                                   return regression_point(pv, w, y, fit, yal, e, ap, aw);
                                 });
}

void Kendall::to_tangent(CVecRef p, CVecRef x, VecRef out) const {
  out = x;
  centre(out);
  const Vec ip = times_i(p);
  out -= p.dot(out) * p;
  out -= ip.dot(out) * ip;
}

int Kendall::tangent_gaussian_size() const { return 2 * k_; }

double Kendall::tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const {
  to_tangent(p, z, out);
  return out.norm();
}

Mat Kendall::tangent_basis(CVecRef p) const {
  Mat P = Mat::Identity(2 * k_, 2 * k_);
  const Vec ip = times_i(p);
  P.topLeftCorner(k_, k_).array() -= 1.0 / k_;
  P.bottomRightCorner(k_, k_).array() -= 1.0 / k_;
  P -= p * p.transpose() + ip * ip.transpose();
  return projector_range(P, dim());
}

void Kendall::project(CVecRef x, VecRef out) const {
  if (!x.allFinite()) { out = x; return; }  // see Manifold::project
  if (!scaled_centred(x, out)) throw domain_error("all landmarks coincide: the configuration has no shape");
  out /= out.norm();
}

std::string Kendall::point_problem(CVecRef x, double) const {
  Vec c(2 * k_);
  if (!scaled_centred(x, c)) return "has all landmarks at the same place: it has no shape";
  return "";
}

std::string Kendall::tangent_problem(CVecRef p, CVecRef v, double tol) const {
  const double scale = tol * std::max(1.0, v.norm());
  const double cx = v.head(k_).sum(), cy = v.tail(k_).sum();
  if (std::abs(cx) > scale * k_ || std::abs(cy) > scale * k_)
    return "is not a tangent vector: its columns do not sum to 0";
  const double a = p.dot(v), b = times_i(p).dot(v);
  if (std::abs(a) > scale || std::abs(b) > scale)
    return "is not a horizontal tangent vector at its base point (Re<v,z> = " + num::fmt(a) +
           ", Re<v,iz> = " + num::fmt(b) + ")";
  return "";
}

double Kendall::log_volume_density(double r) const {
  return (2.0 * (k_ - 2) - 1.0) * std::log(std::sin(r)) + std::log(std::cos(r));
}

double Kendall::d_log_volume_density(double r) const {
  return (2.0 * (k_ - 2) - 1.0) / std::tan(r) - std::tan(r);
}

void Kendall::centre(VecRef x) const {
  x.head(k_).array() -= x.head(k_).mean();
  x.tail(k_).array() -= x.tail(k_).mean();
}

bool Kendall::scaled_centred(CVecRef x, VecRef out) const {
  const double s = x.cwiseAbs().maxCoeff();
  if (!(s > 0.0)) return false;
  int e;
  std::frexp(s, &e);
  out = x * std::ldexp(1.0, -e);
  centre(out);
  return out.norm() > 4.0 * k_ * std::numeric_limits<double>::epsilon();
}

}  // namespace riemdp

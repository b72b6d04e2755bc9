// The methods of the unit sphere S^d (sphere.h), compiled once, here; its kernels are in sphere_kernels.h.
#include "sphere.h"
#include "sphere_kernels.h"

namespace riemdp {

template <int Dfix>
double Sphere::mean_log_pass(CVecRef p, const PointSet& X, VecRef mean) const {
  const double* x = X.data();
  const Eigen::Index is = X.innerStride(), os = X.outerStride(), D = Dfix == Eigen::Dynamic ? d_ + 1 : Dfix;
  const double* pp = p.data();
  double w[Dfix == Eigen::Dynamic ? 64 : Dfix], acc[Dfix == Eigen::Dynamic ? 64 : Dfix];
  Vec wbig, accbig;
  double *wp = w, *ap = acc;
  if (D > 64) {
    wbig.resize(D);
    accbig.resize(D);
    wp = wbig.data();
    ap = accbig.data();
  }
  for (Eigen::Index j = 0; j < D; ++j) ap[j] = 0.0;
  double cost = 0.0;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    double nw2;
    const double theta = unit_sphere_tangent_part(pp, x + i * os, is, D, wp, nw2);
    if (nw2 == 0.0) {
      if (theta > 1.0) throw domain_error("a data point is antipodal to the current estimate: the log is not defined");
      continue;
    }
    const double f = theta / std::sqrt(nw2);
    for (Eigen::Index j = 0; j < D; ++j) ap[j] += f * wp[j];
    cost += theta * theta;
  }
  const double n = static_cast<double>(X.cols());
  for (Eigen::Index j = 0; j < D; ++j) mean[j] = ap[j] / n;
  return cost / (2.0 * n);
}

template <class Vt>
void Sphere::gradient_pass(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
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

void Sphere::exp(CVecRef p, CVecRef v, VecRef out) const { unit_sphere_exp(p, v, out); }

void Sphere::exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const { out = std::cos(r) * p + std::sin(r) * u; }

void Sphere::log(CVecRef p, CVecRef q, VecRef out) const { unit_sphere_log(p, q, out); }

double Sphere::dist(CVecRef p, CVecRef q) const {
  return unit_chord_angle((q - p).squaredNorm(), (q + p).squaredNorm());
}

double Sphere::inner(CVecRef, CVecRef u, CVecRef v) const { return u.dot(v); }

void Sphere::transport(CVecRef p, CVecRef q, CVecRef v, VecRef out) const {
  const double c = 0.5 * (p + q).squaredNorm();
  if (c <= 1e-24) throw domain_error("antipodal points on the sphere: the minimising geodesic is not unique");
  out = v - (q.dot(v) / c) * (p + q);
}

void Sphere::to_tangent(CVecRef p, CVecRef x, VecRef out) const { out = x - p.dot(x) * p; }

double Sphere::tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const {
  const double sign = p(0) < 0 ? -1.0 : 1.0;
  const double wz = sign * p.tail(d_).dot(z);
  out(0) = -wz;
  out.tail(d_) = z - (sign * wz / (1.0 + sign * p(0))) * p.tail(d_);
  return z.norm();
}

void Sphere::geodesic_velocity(CVecRef p, CVecRef v, double s, VecRef out) const {
  unit_sphere_geodesic_velocity(p, v, s, out);
}

void Sphere::regression_gauss_newton(CVecRef, CVecRef v, CVecRef x, CVecRef h, CVecRef gp, CVecRef gv, VecRef dp,
                                     VecRef dv) const {
  dp.setZero();
  dv.setZero();
  unit_sphere_gauss_newton(v, x, h, gp, gv, dp, dv);
}

void Sphere::adjoint_jacobi(CVecRef p, CVecRef w, CVecRef, CVecRef eps, VecRef adj_p, VecRef adj_w) const {
  const double L = w.norm();
  if (L == 0.0) {
    adj_p = eps;
    adj_w = eps;
    return;
  }
  sphere_adjoint(p, w, L, std::sin(L), std::cos(L), eps, adj_p, adj_w);
}

void Sphere::regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p, Mat& adj_w,
                                  Mat* yhat, Mat* eps) const {
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

Mat Sphere::tangent_basis(CVecRef p) const {
  Mat B(d_ + 1, d_);
  for (int i = 0; i < d_; ++i) unit_sphere_basis_col(p, i, B.col(i));
  return B;
}

void Sphere::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                 Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                 RegressionScratch& scratch) const {
  if (d_ == 2 && V.cols() == 1) {
#if defined(RIEMDP_LANES)
    gradient_pass_s2(p, V, Y, x, begin, end, tau, sum_p, sum_V, scratch);
#else
    Eigen::Vector3d buf[9];
    gradient_pass(p, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
#endif
  } else if (d_ == 2) {
    Eigen::Vector3d buf[9];
    gradient_pass(p, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
#if defined(RIEMDP_LANES)
  } else if (V.cols() == 1) {
    gradient_pass_frame(p, V, Y, x, begin, end, tau, sum_p, sum_V, scratch);
#endif
  } else {
    const int D = d_ + 1;
    if (scratch.W.rows() != D || scratch.W.cols() != 9) scratch.W.resize(D, 9);
    double* b = scratch.W.data();
    Eigen::Map<Vec> buf[9] = {{b, D}, {b + D, D}, {b + 2 * D, D}, {b + 3 * D, D}, {b + 4 * D, D},
                              {b + 5 * D, D}, {b + 6 * D, D}, {b + 7 * D, D}, {b + 8 * D, D}};
    gradient_pass(p, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
  }
}

void Sphere::project(CVecRef x, VecRef out) const {
  if (!x.allFinite()) { out = x; return; }  // see Manifold::project
  const double n = x.stableNorm();
  if (!(n > 0.0)) throw domain_error("cannot project the zero vector onto the sphere");
  if (!std::isfinite(n)) throw domain_error("cannot project a vector whose norm overflows onto the sphere");
  out = x / n;
}

std::string Sphere::point_problem(CVecRef x, double tol) const {
  const double n = x.norm();
  if (std::abs(n - 1.0) > tol) return "is not on the sphere: its norm is " + num::fmt(n);
  return "";
}

double Sphere::log_volume_density(double r) const { return (d_ - 1) * std::log(std::sin(r)); }

double Sphere::d_log_volume_density(double r) const { return (d_ - 1) / std::tan(r); }

void Sphere::dist_many(CVecRef p, const PointSet& X, VecRef out) const { batch_dist<false>(p, X, 0.0, out); }

Eigen::Index Sphere::dist_many_checked(CVecRef p, const PointSet& X, double tol, VecRef out) const {
  return batch_dist<true>(p, X, tol, out);
}

double Sphere::mean_log(CVecRef p, const PointSet& X, VecRef mean) const {
#if defined(RIEMDP_LANES)
  if (d_ == 2 && X.cols() > 0) {  // on lanes (s2_mean_log)
    const Eigen::Vector3d pc = p;
    const S2MeanLogSums r = s2_mean_log(pc.data(), X.data(), X.innerStride(), X.outerStride(), X.cols());
    if (r.antipodal) throw domain_error("a data point is antipodal to the current estimate: the log is not defined");
    const double n = static_cast<double>(X.cols());
    for (int j = 0; j < 3; ++j) mean[j] = r.m[j] / n;
    return r.cost / (2.0 * n);
  }
#endif
  return d_ == 2 ? mean_log_pass<3>(p, X, mean) : mean_log_pass<Eigen::Dynamic>(p, X, mean);
}

// Log_p(x_i) and its norm for every column, in one pass per point
// (unit_sphere_tangent_part, as mean_log_pass; one square root per point).
template <int Dfix>
void Sphere::log_many_pass(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const {
  const Eigen::Index is = X.innerStride(), os = X.outerStride(), D = Dfix == Eigen::Dynamic ? d_ + 1 : Dfix;
  const double* pp = p.data();
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    double* li = logs.col(i).data();
    double nw2;
    const double theta = unit_sphere_tangent_part(pp, X.data() + i * os, is, D, li, nw2);
    if (nw2 == 0.0) {
      if (theta > 1.0) throw domain_error("antipodal points on the sphere: the log is not defined at the cut locus");
      for (Eigen::Index j = 0; j < D; ++j) li[j] = 0.0;
      norms[i] = 0.0;
      continue;
    }
    const double f = theta / std::sqrt(nw2);
    for (Eigen::Index j = 0; j < D; ++j) li[j] *= f;
    norms[i] = theta;
  }
}

void Sphere::log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const {
  if (d_ == 2) log_many_pass<3>(p, X, logs, norms);
  else log_many_pass<Eigen::Dynamic>(p, X, logs, norms);
}

double Sphere::weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const {
#if defined(RIEMDP_LANES)
  if (d_ == 2 && X.cols() > 0) {  // on lanes (s2_mean_log with weights)
    const Eigen::Vector3d pc = p;
    const S2MeanLogSums r = s2_mean_log(pc.data(), X.data(), X.innerStride(), X.outerStride(), X.cols(), w.data());
    if (r.antipodal) throw domain_error("a data point is antipodal to the current estimate: the log is not defined");
    for (int j = 0; j < 3; ++j) sum[j] = r.m[j];
    return r.cost;
  }
#endif
  return Manifold::weighted_log_sum(p, X, w, sum);
}

#if defined(RIEMDP_LANES)
// regression_gradient() on S^2 with one covariate, in the frame (p, u, n)
// of the fitted great circle: u = v/|v| (tangent_basis(p).col(0) when v =
// 0), n = p x u. With phi_i = x_i |v|, the fit is yhat_i = cos phi_i p +
// sin phi_i u with unit tangent t_i = -sin phi_i p + cos phi_i u, and
// y_i/|y_i| = alpha_i p + beta_i u + gamma_i n has <yhat_i, y_i/|y_i|> = c_i
// = alpha_i cos phi_i + beta_i sin phi_i and tangent part a_i t_i + gamma_i
// n, a_i = beta_i cos phi_i - alpha_i sin phi_i, of length s_i = sin theta_i:
// eps_i = h_i (a_i t_i + gamma_i n), h_i = min(theta_i, tau) / s_i (the
// Huber weight). sphere_adjoint carries t_i to u (along the circle: flat)
// and keeps n (orthogonal to its plane: curvature 1) scaled by cos phi_i
// for p and sin(phi_i)/phi_i for v, so that
//   sum_p = (sum h a) u + (sum h gamma cos phi) n,
//   sum_V = (sum x h a) u + (sum h gamma sin(phi)/|v|) n.
// theta_i only enters through the clip: with c_i > 0 and s_i <= sin tau,
// theta_i = asin(s_i) <= tau and h_i = asin(s_i)/s_i (asin_small's
// rational); otherwise theta_i >= tau and h_i = tau/s_i, as long as tau <=
// pi/6 (a public choice of formula); for larger tau, theta_i by
// chord_angle_sq of the chords in the frame. At the cut locus (s_i = 0, c_i
// < 0) cut_locus_safe_log's direction tangent_basis(yhat_i).col(0), for the
// few points concerned (a rerun of the pass, s2_pass_kernel: an event of
// probability zero). y_i/|y_i| is cached in scratch (unit_points): the angle
// is to the point's direction, where gradient_pass's chord angle of the raw
// y_i differs from it by up to | |y_i| - 1 | (within the point tolerance)
// when y_i is at its fit. The kernel runs on lanes of 8 points (lanes.h:
// SSE2 vectors, or AVX2 where the CPU has it, with the same bits), without
// a branch on the data; padding lanes copy the batch's first point and get
// h = 0. Agrees with gradient_pass() to ~1e-15 for unit data
// (test-kng-fused.R: cut locus, v = 0 and long v included).
void Sphere::gradient_pass_s2(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                              Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                              RegressionScratch& scratch) const {
  const Mat& Yu = unit_points(Y, scratch);
  const Eigen::Vector3d p = p_in, v = V.col(0);
  S2PassInput in;
  in.Lv = v.norm();
  in.inv_Lv = 1.0 / in.Lv;
  in.tiny_v = !(in.Lv >= 1e-100);  // 1/|v| may overflow: sin(x |v|)/|v| by num::sinc
  Eigen::Vector3d u;
  if (in.Lv > 0.0) u = v * in.inv_Lv;
  else unit_sphere_basis_col(p, 0, u);
  // n = p x u (Eigen's cross() formula; written out to spare Eigen/Geometry)
  const Eigen::Vector3d nv(p(1) * u(2) - p(2) * u(1), p(2) * u(0) - p(0) * u(2), p(0) * u(1) - p(1) * u(0));
  for (int j = 0; j < 3; ++j) {
    in.p[j] = p(j);
    in.u[j] = u(j);
    in.nv[j] = nv(j);
  }
  in.tau = tau;
  in.small_tau = tau <= num::pi / 6;  // public: the clip
  in.sin_tau = std::sin(std::min(tau, 1.0));
  in.x = x.col(0).data();
  in.y0 = Yu.col(0).data();
  in.y1 = Yu.col(1).data();
  in.y2 = Yu.col(2).data();
  in.begin = begin;
  in.end = end;
  const S2PassSums r = s2_pass(in);
  if (!r.representable)
    throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on sphere");
  sum_p = r.a * u + r.gc * nv;
  sum_V.col(0) = r.xa * u + r.gs * nv;
}

void Sphere::gradient_pass_frame(CVecRef p_in, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                 Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                 RegressionScratch& scratch) const {
  const Mat& Yu = unit_points(Y, scratch);
  const Eigen::Index D = d_ + 1, len = end - begin;
  if (scratch.frame.rows() < len) scratch.frame.resize(std::max<Eigen::Index>(len, 4096), 5);
  auto alpha = scratch.frame.col(0).head(len), beta = scratch.frame.col(1).head(len),
       gamma = scratch.frame.col(2).head(len), c_cos = scratch.frame.col(3).head(len),
       c_sin = scratch.frame.col(4).head(len);
  const auto Yb = Yu.middleRows(begin, len);
  S2PassInput in;
  in.Lv = V.col(0).norm();
  in.inv_Lv = 1.0 / in.Lv;
  in.tiny_v = !(in.Lv >= 1e-100);
  // The frame at p: u = v/|v| (tangent_basis(p).col(0) when v = 0); the
  // vectors live in the first columns of the sphere's scratch W.
  if (scratch.W.rows() != D || scratch.W.cols() < 2) scratch.W.resize(D, 9);
  auto p = scratch.W.col(0), u = scratch.W.col(1);
  p = p_in;
  if (in.Lv > 0.0) u = V.col(0) * in.inv_Lv;
  else unit_sphere_basis_col(p, 0, u);
  alpha.noalias() = Yb * p;
  beta.noalias() = Yb * u;
  gamma.setZero();
  for (Eigen::Index k = 0; k < D; ++k)
    gamma.array() += (Yb.col(k).array() - alpha.array() * p[k] - beta.array() * u[k]).square();
  gamma = gamma.cwiseSqrt();
  in.tau = tau;
  in.small_tau = tau <= num::pi / 6;
  in.sin_tau = std::sin(std::min(tau, 1.0));
  in.x = x.col(0).data();
  in.begin = begin;
  in.end = end;
  in.alpha = alpha.data();
  in.beta = beta.data();
  in.gamma = gamma.data();
  in.c_cos = c_cos.data();
  in.c_sin = c_sin.data();
  const S2PassSums r = s2_pass(in);
  if (!r.representable)
    throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on sphere");
  if (r.fallback) {  // the cut locus
    const Eigen::Index Dn = D;
    if (scratch.W.rows() != Dn || scratch.W.cols() != 9) scratch.W.resize(Dn, 9);
    double* b = scratch.W.data();
    Eigen::Map<Vec> buf[9] = {{b, Dn}, {b + Dn, Dn}, {b + 2 * Dn, Dn}, {b + 3 * Dn, Dn}, {b + 4 * Dn, Dn},
                              {b + 5 * Dn, Dn}, {b + 6 * Dn, Dn}, {b + 7 * Dn, Dn}, {b + 8 * Dn, Dn}};
    gradient_pass(p_in, V, Y, x, begin, end, tau, sum_p, sum_V, buf);
    return;
  }
  // sum_i c_i g_i = Yu^T c - (c.alpha) p - (c.beta) u
  sum_p.noalias() = Yb.transpose() * c_cos;
  sum_p += (r.a - c_cos.dot(beta)) * u - c_cos.dot(alpha) * p;
  const double s = in.tiny_v ? 1.0 : in.inv_Lv;
  sum_V.col(0).noalias() = Yb.transpose() * c_sin;
  sum_V.col(0) -= c_sin.dot(alpha) * p + c_sin.dot(beta) * u;
  sum_V.col(0) *= s;
  sum_V.col(0) += r.xa * u;
}

const Mat& Sphere::unit_points(const PointSet& Y, RegressionScratch& scratch) {
  const Eigen::Index D = Y.rows();
  if (scratch.unit_source != Y.data() || scratch.unit.rows() != Y.cols() || scratch.unit.cols() != D ||
      scratch.unit_inner != Y.innerStride() || scratch.unit_outer != Y.outerStride()) {
    scratch.unit.resize(Y.cols(), D);
    for (Eigen::Index i = 0; i < Y.cols(); ++i) {
      if (D == 3) {
        const Eigen::Vector3d y = Y.col(i);
        scratch.unit.row(i) = (y / y.norm()).transpose();
      } else {
        scratch.unit.row(i) = (Y.col(i) / Y.col(i).norm()).transpose();
      }
    }
    scratch.unit_source = Y.data();
    scratch.unit_inner = Y.innerStride();
    scratch.unit_outer = Y.outerStride();
  }
  return scratch.unit;
}

#endif

template <bool Check>
Eigen::Index Sphere::batch_dist(CVecRef p, const PointSet& X, double tol, VecRef out) const {
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

}  // namespace riemdp

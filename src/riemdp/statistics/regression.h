// Geodesic regression (Fletcher 2011; Kulkarni & Soto 2025, eq. 3-8;
// methods article, "Fitting"), with several covariates as multiple geodesic regression (Kim et al. 2014):
// minimise E(p, V) = 1/(2n) sum_i dist(Exp_p(w_i), y_i)^2, w_i = sum_j x_ij v_j,
// over the footpoint p and the shooting vectors v_j in T_p.
#ifndef RIEMDP_STATISTICS_REGRESSION_H
#define RIEMDP_STATISTICS_REGRESSION_H

#include <algorithm>
#include <limits>
#include <vector>

#include "../geometry/manifold.h"
#include "../interrupt.h"
#include "../parallel.h"
#include "frechet.h"

namespace riemdp {

// The data of a regression: n points y_i (columns of Y) and an n x m matrix of
// covariates.
struct RegressionData {
  const PointSet& Y;
  const Mat& x;
  int n() const { return static_cast<int>(Y.cols()); }
  int m() const { return static_cast<int>(x.cols()); }
};

// A parameter (p, V): V holds the shooting vectors v_1..v_m as columns.
struct RegressionParameter {
  Vec p;
  Mat V;
};

// The energy and its Riemannian gradients at a parameter, with the residuals
// behind them (methods article, "Fitting"): grad_p = -(1/n) sum_i adj_p(eps_i),
// grad_V(:, j) = -(1/n) sum_i x_ij adj_w(eps_i).
struct RegressionEvaluation {
  double energy = 0.0;
  Vec grad_p;
  Mat grad_V;
  Vec dist;             // |eps_i|
  Vec weight;           // the loss's IRLS weights psi(d_i)/d_i (empty: least squares)
  Mat fitted, residual;  // filled on request only
};

// Tangent vectors w_i = V x_i as the columns of a D x n matrix.
inline Mat regression_shooting(const RegressionParameter& z, const Mat& x) { return z.V * x.transpose(); }

// huber_loss() and huber_weight(): the Huber-type loss of clip tau, in
// geometry/manifold.h (the fused gradient passes use the weight).

// One evaluation of E = (1/n) sum_i rho(|eps_i|) and its gradient, with
// rho a RegressionLoss (the private release's: Huber of clip tau, least
// squares when tau = Inf, see the overload below); the
// pass over the data runs on two threads for large n (every column depends
// on its own point only, so the result does not depend on the number of
// threads). keep = true also fills fitted and residual.
inline RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data,
                                                const RegressionParameter& z, bool keep, const RegressionLoss& loss) {
  const int D = M.ambient(), n = data.n();
  const Mat W = regression_shooting(z, data.x);
  RegressionEvaluation ev;
  ev.dist.resize(n);
  Mat adj_p(D, n), adj_w(D, n);
  if (keep) {
    ev.fitted.resize(D, n);
    ev.residual.resize(D, n);
  }
  const int blocks = data_pass_blocks(n, D);
  const Eigen::Index chunk = std::max<Eigen::Index>(16, (Eigen::Index{1} << 14) / D);
  parallel_blocks(blocks, [&](int t) {
    const Eigen::Index begin = static_cast<Eigen::Index>(n) * t / blocks,
                       end = static_cast<Eigen::Index>(n) * (t + 1) / blocks;
    for (Eigen::Index b = begin; b < end; b += chunk) {
      const Eigen::Index len = std::min(chunk, end - b);
      const PointSet Ys(data.Y.data() + b * data.Y.outerStride(), D, len,
                        Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(data.Y.outerStride(), data.Y.innerStride()));
      const PointSet Ws(W.data() + b * D, D, len, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(D, 1));
      Mat ap(D, len), aw(D, len), fit, res;
      if (keep) {
        fit.resize(D, len);
        res.resize(D, len);
      }
      M.regression_residuals(z.p, Ws, Ys, ev.dist.segment(b, len), ap, aw, keep ? &fit : nullptr,
                             keep ? &res : nullptr);
      adj_p.middleCols(b, len) = ap;
      adj_w.middleCols(b, len) = aw;
      if (keep) {
        ev.fitted.middleCols(b, len) = fit;
        ev.residual.middleCols(b, len) = res;
      }
      check_interrupt(1);
    }
  });
  const double inv_n = 1.0 / n;
  if (!loss.least_squares()) {
    double sum = 0.0;
    ev.weight.resize(n);
    for (int i = 0; i < n; ++i) {
      sum += loss.rho(ev.dist[i]);
      const double w = loss.weight(ev.dist[i]);
      ev.weight[i] = w;
      adj_p.col(i) *= w;
      adj_w.col(i) *= w;
    }
    ev.energy = inv_n * sum;
  } else {
    ev.energy = 0.5 * inv_n * ev.dist.squaredNorm();
  }
  ev.grad_p = -inv_n * adj_p.rowwise().sum();
  ev.grad_V = -inv_n * (adj_w * data.x);
  // Remove the rounding off the tangent space.
  Vec buf(D);
  M.clean_tangent(z.p, ev.grad_p, buf);
  ev.grad_p = buf;
  for (int j = 0; j < data.m(); ++j) {
    M.clean_tangent(z.p, ev.grad_V.col(j), buf);
    ev.grad_V.col(j) = buf;
  }
  return ev;
}

// The Huber-type energy of clip tau (least squares when tau = Inf): the
// private release's target (methods article, "The joint release of a geodesic regression").
inline RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data,
                                                const RegressionParameter& z, bool keep = false,
                                                double tau = std::numeric_limits<double>::infinity()) {
  RegressionLoss loss;
  loss.type = LossType::huber;
  loss.c = tau;
  return regression_evaluate(M, data, z, keep, loss);
}

// Buffers of regression_gradient(), sized on first use and then reused (no
// allocation per evaluation): per block of the data, the manifold's scratch
// and the partial sums.
struct RegressionGradientWorkspace {
  static constexpr int max_blocks = 2;
  RegressionScratch scratch[max_blocks];
  Vec part_p[max_blocks], chunk_p[max_blocks], grad_p, buf;
  Mat part_V[max_blocks], chunk_V[max_blocks], grad_V;
};

// The clipped gradient (grad_p, grad_V) of E_tau at z into ws.grad_p and
// ws.grad_V, without the energy: the same field as regression_evaluate(M,
// data, z, false, tau) (to rounding), through Manifold::regression_gradient
// on fixed blocks of the data, each in chunks (an interrupt check between
// chunks), summed in a fixed order.
inline void regression_gradient(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                double tau, RegressionGradientWorkspace& ws) {
  const int D = M.ambient(), n = data.n(), m = data.m();
  const int blocks = data_pass_blocks(n, D);
  constexpr Eigen::Index chunk = 4096;
  for (int t = 0; t < blocks; ++t) {
    if (ws.part_p[t].size() != D || ws.part_V[t].cols() != m) {
      ws.part_p[t].resize(D);
      ws.chunk_p[t].resize(D);
      ws.part_V[t].resize(D, m);
      ws.chunk_V[t].resize(D, m);
    }
  }
  parallel_blocks(blocks, [&](int t) {
    const Eigen::Index begin = static_cast<Eigen::Index>(n) * t / blocks,
                       end = static_cast<Eigen::Index>(n) * (t + 1) / blocks;
    ws.part_p[t].setZero();
    ws.part_V[t].setZero();
    for (Eigen::Index b = begin; b < end; b += chunk) {
      M.regression_gradient(z.p, z.V, data.Y, data.x, b, std::min(end, b + chunk), tau, ws.chunk_p[t],
                            ws.chunk_V[t], ws.scratch[t]);
      ws.part_p[t] += ws.chunk_p[t];
      ws.part_V[t] += ws.chunk_V[t];
      if (end - begin > chunk) check_interrupt(1);
    }
  });
  const double inv_n = 1.0 / n;
  if (ws.grad_p.size() != D || ws.grad_V.cols() != m) {
    ws.grad_p.resize(D);
    ws.grad_V.resize(D, m);
    ws.buf.resize(D);
  }
  ws.grad_p = ws.part_p[0];
  ws.grad_V = ws.part_V[0];
  for (int t = 1; t < blocks; ++t) {
    ws.grad_p += ws.part_p[t];
    ws.grad_V += ws.part_V[t];
  }
  ws.grad_p *= -inv_n;
  ws.grad_V *= -inv_n;
  // Remove the rounding off the tangent space.
  M.clean_tangent(z.p, ws.grad_p, ws.buf);
  ws.grad_p = ws.buf;
  for (int j = 0; j < m; ++j) {
    M.clean_tangent(z.p, ws.grad_V.col(j), ws.buf);
    ws.grad_V.col(j) = ws.buf;
  }
}

// |(grad_p, grad_V)| in the product metric of T_p^(m+1).
inline double regression_grad_norm(const Manifold& M, const RegressionParameter& z, const RegressionEvaluation& ev) {
  double s = M.inner(z.p, ev.grad_p, ev.grad_p);
  for (Eigen::Index j = 0; j < ev.grad_V.cols(); ++j) s += M.inner(z.p, ev.grad_V.col(j), ev.grad_V.col(j));
  return std::sqrt(num::clamp0(s));
}

// The Gram matrix H = (1/n) sum_i (1, x_i)(1, x_i)^T of the design: the
// Hessian of E on euclidean spaces (block (j, l) times the identity), whose
// inverse preconditions the gradient (one step solves least squares exactly).
// With IRLS weights h: (1/n) sum_i h_i (1, x_i)(1, x_i)^T.
inline Mat regression_design_gram(const Mat& x, const Vec& h = Vec()) {
  const Eigen::Index n = x.rows(), m = x.cols();
  Mat Z(n, m + 1);
  Z.col(0).setOnes();
  Z.rightCols(m) = x;
  if (h.size() == n) return (Z.transpose() * h.asDiagonal() * Z) / static_cast<double>(n);
  return (Z.transpose() * Z) / static_cast<double>(n);
}

// Start (methods article, "Fitting"): the least-squares line in the tangent space at the
// Frechet mean ybar, u_i = Log_ybar(y_i) ~ b_0 + sum_j x_ij b_j; then
// p = Exp_ybar(b_0) and v_j = Gamma_{ybar -> p}(b_j).
inline RegressionParameter regression_tangent_start(const Manifold& M, const RegressionData& data, CVecRef ybar) {
  const int D = M.ambient(), n = data.n(), m = data.m();
  Mat U(n, D);
  Vec y(D), u(D);
  for (int i = 0; i < n; ++i) {
    check_interrupt();
    y = data.Y.col(i);
    M.log(ybar, y, u);
    U.row(i) = u.transpose();
  }
  Mat Z(n, m + 1);
  Z.col(0).setOnes();
  Z.rightCols(m) = data.x;
  const Mat B = Z.colPivHouseholderQr().solve(U);  // (m + 1) x D
  RegressionParameter z;
  z.p.resize(D);
  const Vec b0 = B.row(0).transpose();
  Vec b0t(D);
  M.clean_tangent(ybar, b0, b0t);
  M.exp(ybar, b0t, z.p);
  if (!z.p.allFinite()) throw domain_error("the tangent least-squares start cannot be represented in double precision");
  M.project(z.p, z.p);
  z.V.resize(D, m);
  for (int j = 0; j < m; ++j) {
    const Vec bj = B.row(j + 1).transpose();
    M.clean_tangent(ybar, bj, u);
    M.transport(ybar, z.p, u, y);
    M.clean_tangent(z.p, y, u);
    z.V.col(j) = u;
  }
  return z;
}

struct RegressionResult {
  RegressionParameter z;
  RegressionEvaluation ev;  // at z, with fitted values and residuals
  int iterations = 0;
  double grad_norm = 0.0;
  bool converged = false;
  double cutoff = std::numeric_limits<double>::infinity();  // the loss's cutoff c (distance units)
  double scale = std::numeric_limits<double>::quiet_NaN();  // the MAD scale when estimated
  int scale_iterations = 0;
  bool scale_converged = true;
};

// Rounding floor of the gradient norm (as frechet_gradient_floor, with the
// covariates' scale: the shooting gradient sums x_i times residuals). With
// IRLS weights h_i the gradient sums h_i eps_i: the rounding of eps_i is
// amplified by the mean weight when it exceeds 1 (l1: up to 1/radius).
inline double regression_gradient_floor(const Manifold& M, const RegressionParameter& z, double data_scale,
                                        double energy, double x_scale, const Vec& weight = Vec()) {
  const double amplification = weight.size() > 0 ? std::max(1.0, weight.mean()) : 1.0;
  return 64.0 * std::numeric_limits<double>::epsilon() * std::max(M.rounding_scale(z.p), data_scale) *
         (1.0 + std::sqrt(2.0 * energy)) * x_scale * amplification;
}

// The descent direction at z (columns: footpoint, shooting vectors):
// Gauss-Newton with one covariate (Manifold::regression_gauss_newton,
// IRLS-weighted), else the gradient G preconditioned by the IRLS-weighted Gram
// matrix of the design (H, the plain one, where that is singular).
inline void regression_direction(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                 const RegressionEvaluation& ev, const Eigen::LDLT<Mat>& H, Mat& G, Mat& Dir) {
  const int n = data.n(), m = data.m();
  G.col(0) = ev.grad_p;
  G.rightCols(m) = ev.grad_V;
  if (m == 1) {  // Gauss-Newton (curvature-aware; on euclidean the same as H), IRLS-weighted
    M.regression_gauss_newton(z.p, z.V.col(0), data.x.col(0), ev.weight, ev.grad_p, ev.grad_V.col(0), Dir.col(0),
                              Dir.col(1));
  } else if (ev.weight.size() == n) {  // IRLS: the weighted Gram matrix (the plain one if singular)
    const Eigen::LDLT<Mat> Hw(regression_design_gram(data.x, ev.weight));
    const bool ok = Hw.info() == Eigen::Success && Hw.vectorD().minCoeff() > 1e-12 * Hw.vectorD().maxCoeff();
    Dir = -((ok ? Hw : H).solve(G.transpose())).transpose();
  } else {
    Dir = -(H.solve(G.transpose())).transpose();  // d_k = -sum_l (H^-1)_kl g_l
  }
}

// zn = z moved by t Dir: p' = Exp_p(t d_p), v_j' = Gamma_{p->p'}(v_j + t d_vj),
// retracted onto the manifold and its tangent space; false where a result is
// not representable.
inline bool regression_step(const Manifold& M, const RegressionParameter& z, const Mat& Dir, double t,
                            RegressionParameter& zn, Vec& step, Vec& buf) {
  step = t * Dir.col(0);
  M.exp(z.p, step, zn.p);
  if (!zn.p.allFinite()) return false;
  M.project(zn.p, zn.p);
  for (Eigen::Index j = 0; j < z.V.cols(); ++j) {
    step = z.V.col(j) + t * Dir.col(j + 1);
    M.transport(z.p, zn.p, step, buf);
    M.clean_tangent(zn.p, buf, step);
    if (!step.allFinite()) return false;
    zn.V.col(j) = step;
  }
  return true;
}

// Riemannian descent on the tangent bundle. With one covariate the direction
// is Gauss-Newton's (Manifold::regression_gauss_newton: curvature-aware, one
// 2 x 2 block per eigenspace of the curvature operator along v); with several
// it is the gradient preconditioned by the design's Gram matrix,
// (d_p, d_V) = -H^{-1} (grad_p, grad_V) (a linear combination of vectors of
// T_p; both are Newton's step on euclidean). Step p' = Exp_p(t d_p),
// v_j' = Gamma_{p->p'}(v_j + t d_vj), t = 1 halved until the Armijo condition
// E' <= E + 1e-4 t <g, d> holds. Near the minimum, where that decrease
// is lost in the rounding of E, a step is accepted when it reduces the
// gradient norm (as in frechet_mean). Stops when |g| <= tol or at the
// rounding floor, when no step makes progress (a stall), or after max_iter
// steps; iterates are retracted onto the manifold and its tangent spaces.
inline RegressionResult regression_descent(const Manifold& M, const RegressionData& data, RegressionParameter z,
                                           int max_iter, double tol, const RegressionLoss& loss = RegressionLoss()) {
  const int D = M.ambient(), n = data.n(), m = data.m();
  if (n < 2) throw domain_error("geodesic regression needs at least two points");
  const Eigen::LDLT<Mat> H(regression_design_gram(data.x));
  if (H.info() != Eigen::Success || !(H.vectorD().minCoeff() > 0.0))
    throw domain_error("the covariates are collinear (their design matrix with an intercept is singular)");
  double data_scale = 0.0;
  for (int i = 0; i < n; ++i) data_scale += M.rounding_scale(data.Y.col(i));
  data_scale /= n;
  const double x_scale = 1.0 + data.x.cwiseAbs().maxCoeff();
  const double max_step = std::isfinite(M.injectivity_radius()) ? 0.5 * M.injectivity_radius()
                                                                 : std::numeric_limits<double>::infinity();
  RegressionResult r;
  M.project(z.p, z.p);
  RegressionEvaluation ev = regression_evaluate(M, data, z, true, loss);
  double gnorm = regression_grad_norm(M, z, ev);
  double floor = regression_gradient_floor(M, z, data_scale, ev.energy, x_scale, ev.weight);
  bool stalled = false;
  int it = 0;
  Mat G(D, m + 1), Dir(D, m + 1);
  RegressionParameter zn;
  zn.p.resize(D);
  zn.V.resize(D, m);
  Vec step(D), buf(D);
  // As in frechet_mean, the floor is a bound, often pessimistic (an
  // ill-conditioned spd footpoint): it does not stop a descent that still
  // reduces the gradient norm; it decides convergence after a stall.
  while (gnorm > tol && it < max_iter) {
    regression_direction(M, data, z, ev, H, G, Dir);
    double slope = 0.0;                           // <g, d> < 0
    for (int k = 0; k <= m; ++k) slope += M.inner(z.p, G.col(k), Dir.col(k));
    const double E_rounding =
        std::max(16.0 * floor * std::sqrt(2.0 * ev.energy), 1e-12 * std::abs(ev.energy));
    bool on_gradient = -slope <= E_rounding;
    const int max_bt = on_gradient || gnorm <= floor ? 12 : 60;
    double t = 1.0;
    const double dp_norm = M.norm(z.p, Dir.col(0));
    if (dp_norm * t > max_step) t = max_step / dp_norm;
    bool accepted = false;
    for (int bt = 0; bt < max_bt; ++bt, t *= 0.5) {
      check_interrupt(1);
      if (!regression_step(M, z, Dir, t, zn, step, buf)) continue;
      RegressionEvaluation evn;
      try {
        evn = regression_evaluate(M, data, zn, true, loss);
      } catch (const domain_error&) {
        continue;  // a fitted point not representable (a step too long): shorter
      }
      const double gnorm_n = regression_grad_norm(M, zn, evn);
      if (!on_gradient && -t * slope <= E_rounding) on_gradient = true;  // the predicted decrease is rounding
      if (on_gradient ? gnorm_n < gnorm : evn.energy <= ev.energy + 1e-4 * t * slope) {
        std::swap(z, zn);
        ev = std::move(evn);
        gnorm = gnorm_n;
        floor = regression_gradient_floor(M, z, data_scale, ev.energy, x_scale, ev.weight);
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      stalled = on_gradient;
      break;
    }
    ++it;
  }
  r.iterations = it;
  r.grad_norm = gnorm;
  r.converged = gnorm <= tol || gnorm <= floor || (stalled && gnorm <= 16.0 * floor);
  r.z = std::move(z);
  r.ev = std::move(ev);
  return r;
}

// A fixed amount of work towards the fit, for a proposal that may use the data
// but whose run time must not depend on them (sampling/kng_chain.h): the
// Frechet mean by `steps` full steps x <- Exp_x(mean Log_x(y_i)), the tangent
// least-squares start, then `steps` undamped IRLS Gauss-Newton steps (the
// directions of regression_descent(), length capped at half the injectivity
// radius), with no stopping rule and no line search. A step that cannot be
// represented is skipped.
inline RegressionParameter regression_fixed_steps(const Manifold& M, const RegressionData& data, int steps,
                                                  const RegressionLoss& loss) {
  const int D = M.ambient(), m = data.m();
  Vec buf(D), step(D);
  RegressionParameter z = regression_tangent_start(M, data, frechet_fixed_steps(M, data.Y, steps)), zn = z;
  const Eigen::LDLT<Mat> H(regression_design_gram(data.x));
  const double max_step = std::isfinite(M.injectivity_radius()) ? 0.5 * M.injectivity_radius()
                                                                 : std::numeric_limits<double>::infinity();
  Mat G(D, m + 1), Dir(D, m + 1);
  for (int k = 0; k < steps; ++k) {
    const RegressionEvaluation ev = regression_evaluate(M, data, z, false, loss);
    regression_direction(M, data, z, ev, H, G, Dir);
    if (!Dir.allFinite()) continue;
    const double dp = M.norm(z.p, Dir.col(0));
    const double t = dp > max_step ? max_step / dp : 1.0;
    if (regression_step(M, z, Dir, t, zn, step, buf)) std::swap(z, zn);
  }
  return z;
}

// The geodesic x -> Exp_p(x v) (one covariate) re-based at x = s: the
// footpoint Exp_p(s v) and the geodesic's velocity there.
inline RegressionParameter regression_rebase(const Manifold& M, const RegressionParameter& z, double s) {
  const int D = M.ambient();
  RegressionParameter out;
  out.p.resize(D);
  out.V.resize(D, 1);
  M.geodesic(z.p, z.V.col(0), s, out.p);
  M.project(out.p, out.p);
  Vec vel(D);
  M.geodesic_velocity(z.p, z.V.col(0), s, vel);
  M.clean_tangent(out.p, vel, out.V.col(0));
  if (!out.V.allFinite()) throw domain_error("the fitted geodesic cannot be represented in double precision");
  return out;
}

// The median of the residual distances (GeodRegr's scale: the MAD about 0).
inline double regression_median_dist(const Vec& dist) {
  std::vector<double> d(dist.data(), dist.data() + dist.size());
  const std::size_t h = d.size() / 2;
  std::nth_element(d.begin(), d.begin() + h, d.end());
  if (d.size() % 2) return d[h];
  const double hi = d[h];
  return 0.5 * (*std::max_element(d.begin(), d.begin() + h) + hi);
}

// Geodesic regression from a start z (or, when null, the tangent least-squares
// line at the Frechet mean ybar). With one covariate the descent runs in the
// centred covariate x - xbar, an exact reparametrisation of the same
// geodesics (footpoint Exp_p(xbar v), the velocity there) under which the
// design's Gram matrix is diagonal: p and v do not couple, and a covariate
// far from 0 (a footpoint far along the geodesic) costs nothing. The result
// is mapped back to x = 0; its grad_norm is the centred fit's. With several
// covariates the model is not invariant under such shifts, and the
// preconditioner alone handles the coupling.
//
// Robust losses (RegressionLoss; Shin & Oh 2022): IRLS, i.e. the same
// descent with the weights psi(d_i)/d_i frozen per step in the Gauss-Newton
// operator. With xi > 0 the cutoff is loss.c times GeodRegr's concurrent
// scale sigma = median_i d(yhat_i, y_i) / xi (xi = the median of chi_d, the
// residual norm of standard Gaussian tangent errors): the fit and sigma are
// iterated to their joint fixed point (at most 100 refits, each warm-started;
// sigma relative change <= 1e-12). With xi = 0, loss.c is the cutoff itself.
// For l1, loss.c is ignored: the smoothing radius is l1_smoothing = 1e-6
// times the start's root mean squared residual (at 1e-9 the IRLS weights
// 1/d_i of interpolated points, up to 1/radius, amplify the rounding of d_i
// above the gradient tolerance: the descent stalled). The smoothed minimiser's
// L1 objective exceeds the minimum by at most radius/2; the reported energy
// is the L1 objective itself.
constexpr double l1_smoothing = 1e-6;
inline RegressionResult geodesic_regression(const Manifold& M, const RegressionData& data,
                                            const RegressionParameter* start, CVecRef ybar, int max_iter, double tol,
                                            RegressionLoss loss = RegressionLoss(), double xi = 0.0) {
  const bool one = data.m() == 1;
  const double xbar = one ? data.x.mean() : 0.0;
  const Mat xc = one ? Mat(data.x.array() - xbar) : Mat();
  const RegressionData work = one ? RegressionData{data.Y, xc} : data;
  RegressionParameter z = start ? (one ? regression_rebase(M, *start, xbar) : *start)
                                : regression_tangent_start(M, work, ybar);
  RegressionResult r;
  const bool estimate_scale = xi > 0.0 && (loss.type == LossType::huber || loss.type == LossType::tukey);
  const double c = loss.c;
  if (loss.type == LossType::l1) {
    const RegressionEvaluation e0 = regression_evaluate(M, work, z);
    loss.c = l1_smoothing * std::max(std::sqrt(2.0 * e0.energy), std::numeric_limits<double>::min() / l1_smoothing);
  }
  if (estimate_scale) {
    const auto cutoff_at = [&](const Vec& dist) {
      const double sigma = regression_median_dist(dist) / xi;
      if (!(sigma > 0.0) || !std::isfinite(sigma))
        throw domain_error("the median residual distance is zero (half the points lie on the fitted geodesic): "
                           "the scale cannot be estimated; give it");
      return sigma;
    };
    double sigma = cutoff_at(regression_evaluate(M, work, z).dist);
    r.scale_converged = false;
    int total = 0;  // descent steps over all refits
    for (int k = 0; k < 100; ++k) {
      loss.c = c * sigma;
      r = regression_descent(M, work, z, max_iter, tol, loss);
      total += r.iterations;
      r.iterations = total;
      z = r.z;
      r.scale_iterations = k + 1;
      const double s_new = cutoff_at(r.ev.dist);
      const bool done = std::abs(s_new - sigma) <= 1e-12 * sigma;
      sigma = s_new;
      if (done) {
        r.scale_converged = true;
        break;
      }
    }
    r.scale = sigma;
    r.cutoff = loss.c;
  } else {
    r = regression_descent(M, work, z, max_iter, tol, loss);
    r.cutoff = loss.c;
  }
  // l1 reports its own objective (1/n) sum_i d_i, not the smoothed one.
  if (loss.type == LossType::l1) r.ev.energy = r.ev.dist.mean();
  if (one) r.z = regression_rebase(M, r.z, -xbar);
  // r.ev (energy, fitted values, residuals) is the descent's last evaluation:
  // the re-based geodesic is the same curve.
  return r;
}

}  // namespace riemdp

#endif

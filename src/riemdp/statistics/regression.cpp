// Geodesic regression (regression.h): compiled once, here.
#include "regression.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <limits>
#include <vector>

#include "../interrupt.h"
#include "../parallel.h"
#include "frechet.h"

namespace riemdp {

RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                         bool keep, const RegressionLoss& loss) {
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

RegressionEvaluation regression_evaluate(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
                                         bool keep, double tau) {
  RegressionLoss loss;
  loss.type = LossType::huber;
  loss.c = tau;
  return regression_evaluate(M, data, z, keep, loss);
}

void regression_gradient(const Manifold& M, const RegressionData& data, const RegressionParameter& z, double tau,
                         RegressionGradientWorkspace& ws) {
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

double regression_grad_norm(const Manifold& M, const RegressionParameter& z, const RegressionEvaluation& ev) {
  double s = M.inner(z.p, ev.grad_p, ev.grad_p);
  for (Eigen::Index j = 0; j < ev.grad_V.cols(); ++j) s += M.inner(z.p, ev.grad_V.col(j), ev.grad_V.col(j));
  return std::sqrt(num::clamp0(s));
}

Mat regression_design_gram(const Mat& x, const Vec& h) {
  const Eigen::Index n = x.rows(), m = x.cols();
  Mat Z(n, m + 1);
  Z.col(0).setOnes();
  Z.rightCols(m) = x;
  if (h.size() == n) return (Z.transpose() * h.asDiagonal() * Z) / static_cast<double>(n);
  return (Z.transpose() * Z) / static_cast<double>(n);
}

RegressionParameter regression_tangent_start(const Manifold& M, const RegressionData& data, CVecRef ybar) {
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

double regression_gradient_floor(const Manifold& M, const RegressionParameter& z, double data_scale, double energy,
                                 double x_scale, const Vec& weight) {
  const double amplification = weight.size() > 0 ? std::max(1.0, weight.mean()) : 1.0;
  return 64.0 * std::numeric_limits<double>::epsilon() * std::max(M.rounding_scale(z.p), data_scale) *
         (1.0 + std::sqrt(2.0 * energy)) * x_scale * amplification;
}

void regression_direction(const Manifold& M, const RegressionData& data, const RegressionParameter& z,
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

bool regression_step(const Manifold& M, const RegressionParameter& z, const Mat& Dir, double t, RegressionParameter& zn,
                     Vec& step, Vec& buf) {
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

RegressionResult regression_descent(const Manifold& M, const RegressionData& data, RegressionParameter z, int max_iter,
                                    double tol, const RegressionLoss& loss) {
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

RegressionParameter regression_fixed_steps(const Manifold& M, const RegressionData& data, int steps,
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

RegressionParameter regression_rebase(const Manifold& M, const RegressionParameter& z, double s) {
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

double regression_median_dist(const Vec& dist) {
  std::vector<double> d(dist.data(), dist.data() + dist.size());
  const std::size_t h = d.size() / 2;
  std::nth_element(d.begin(), d.begin() + h, d.end());
  if (d.size() % 2) return d[h];
  const double hi = d[h];
  return 0.5 * (*std::max_element(d.begin(), d.begin() + h) + hi);
}

RegressionResult geodesic_regression(const Manifold& M, const RegressionData& data, const RegressionParameter* start,
                                     CVecRef ybar, int max_iter, double tol, RegressionLoss loss, double xi) {
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

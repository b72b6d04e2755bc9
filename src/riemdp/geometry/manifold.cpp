// The derived methods of the Manifold interface (manifold.h), compiled once, here.
#include "manifold.h"

#include <Eigen/Eigenvalues>

namespace riemdp {

void Manifold::clean_tangent(CVecRef p, CVecRef v, VecRef out) const { to_tangent(p, v, out); }

std::string Manifold::tangent_problem(CVecRef p, CVecRef v, double tol) const {
  Vec w(ambient());
  to_tangent(p, v, w);
  const double err = (v - w).norm();
  if (err > tol * std::max(1.0, v.norm()))
    return "is not a tangent vector at its base point (distance to the tangent space " +
           num::fmt(err) + ")";
  return "";
}

double Manifold::dist(CVecRef p, CVecRef q) const {
  Vec w(ambient());
  log(p, q, w);
  return norm(p, w);
}

double Manifold::norm(CVecRef p, CVecRef v) const { return std::sqrt(num::clamp0(inner(p, v, v))); }

void Manifold::exp_unit(CVecRef p, CVecRef u, double r, VecRef out) const {
  Vec v = r * u;
  exp(p, v, out);
}

void Manifold::geodesic(CVecRef p, CVecRef v, double t, VecRef out) const {
  Vec tv = t * v;
  exp(p, tv, out);
  if (!out.allFinite())
    throw domain_error("the geodesic point at t = " + num::fmt(t) +
                       " cannot be represented in double precision on " + name() + " (|t v| = " +
                       num::fmt(norm(p, tv)) + " is too large)");
}

int Manifold::tangent_gaussian_size() const { return dim(); }

double Manifold::tangent_gaussian(CVecRef p, CVecRef z, VecRef out) const {
  out.noalias() = tangent_basis(p) * z;
  return z.norm();
}

void Manifold::dist_many(CVecRef p, const PointSet& X, VecRef out) const {
  Vec buf(ambient());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    buf = X.col(i);
    out[i] = dist(p, buf);
  }
}

Eigen::Index Manifold::dist_many_checked(CVecRef p, const PointSet& X, double tol, VecRef out) const {
  Vec buf(ambient());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    buf = X.col(i);
    if (!buf.allFinite() || !point_problem(buf, tol).empty()) return i;
  }
  dist_many(p, X, out);
  return -1;
}

double Manifold::mean_log(CVecRef p, const PointSet& X, VecRef mean) const {
  Vec buf(ambient()), w(ambient());
  mean.setZero();
  double cost = 0.0;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    buf = X.col(i);
    log(p, buf, w);
    mean += w;
    cost += inner(p, w, w);
  }
  const double n = static_cast<double>(X.cols());
  mean /= n;
  return cost / (2.0 * n);
}

double Manifold::weighted_log_sum(CVecRef p, const PointSet& X, CVecRef w, VecRef sum) const {
  Vec buf(ambient()), l(ambient());
  sum.setZero();
  double cost = 0.0;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    if (w[i] == 0.0) continue;
    buf = X.col(i);
    log(p, buf, l);
    sum += w[i] * l;
    cost += w[i] * inner(p, l, l);
  }
  return cost;
}

void Manifold::log_many(CVecRef p, const PointSet& X, Eigen::Ref<Mat> logs, VecRef norms) const {
  Vec buf(ambient()), l(ambient());
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    buf = X.col(i);
    log(p, buf, l);
    logs.col(i) = l;
    norms[i] = norm(p, l);
  }
}

void Manifold::cut_locus_safe_log(CVecRef p, CVecRef q, VecRef out) const {
  try {
    log(p, q, out);
  } catch (const domain_error&) {
    out = dist(p, q) * tangent_basis(p).col(0);
  }
}

void Manifold::regression_residuals(CVecRef p, const PointSet& W, const PointSet& Y, VecRef dist, Mat& adj_p,
                                    Mat& adj_w, Mat* yhat, Mat* eps) const {
  const int D = ambient();
  Vec w(D), y(D), fit(D), e(D), ap(D), aw(D);
  for (Eigen::Index i = 0; i < Y.cols(); ++i) {
    w = W.col(i);
    y = Y.col(i);
    exp(p, w, fit);
    if (!fit.allFinite())
      throw domain_error("a fitted point Exp_p(x_i v) cannot be represented in double precision on " + name());
    cut_locus_safe_log(fit, y, e);
    dist[i] = norm(fit, e);
    adjoint_jacobi(p, w, fit, e, ap, aw);
    adj_p.col(i) = ap;
    adj_w.col(i) = aw;
    if (yhat) yhat->col(i) = fit;
    if (eps) eps->col(i) = e;
  }
}

void Manifold::regression_gradient(CVecRef p, const Mat& V, const PointSet& Y, const Mat& x, Eigen::Index begin,
                                   Eigen::Index end, double tau, VecRef sum_p, Eigen::Ref<Mat> sum_V,
                                   RegressionScratch& scratch) const {
  const int D = ambient();
  const Eigen::Index m = V.cols(), chunk = 64;
  if (scratch.W.rows() != D || scratch.W.cols() != chunk) {
    scratch.W.resize(D, chunk);
    scratch.adj_p.resize(D, chunk);
    scratch.adj_w.resize(D, chunk);
    scratch.dist.resize(chunk);
  }
  sum_p.setZero();
  sum_V.setZero();
  for (Eigen::Index b = begin; b < end; b += chunk) {
    const Eigen::Index len = std::min(chunk, end - b);
    scratch.W.leftCols(len).noalias() = V * x.middleRows(b, len).transpose();
    const PointSet Ws(scratch.W.data(), D, len, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(D, 1));
    const PointSet Ys(Y.data() + b * Y.outerStride(), D, len,
                      Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(Y.outerStride(), Y.innerStride()));
    regression_residuals(p, Ws, Ys, scratch.dist.head(len), scratch.adj_p, scratch.adj_w, nullptr, nullptr);
    for (Eigen::Index k = 0; k < len; ++k) {
      const double h = huber_weight(scratch.dist[k], tau);
      sum_p += h * scratch.adj_p.col(k);
      for (Eigen::Index j = 0; j < m; ++j) sum_V.col(j) += x(b + k, j) * (h * scratch.adj_w.col(k));
    }
  }
}

double Manifold::log_volume_density(double /*r*/) const {
  throw domain_error("the volume density of geodesic spheres is not isotropic on " + name());
}

double Manifold::d_log_volume_density(double /*r*/) const {
  throw domain_error("the volume density of geodesic spheres is not isotropic on " + name());
}

double Manifold::log_exp_jacobian(CVecRef p, CVecRef v) const {
  const double r = norm(p, v);
  if (r == 0.0) return 0.0;
  return log_volume_density(r) - (dim() - 1) * std::log(r);
}

void Manifold::align_pair(CVecRef /*ref*/, VecRef /*p*/, Eigen::Ref<Mat> /*V*/) const {}

double Manifold::rounding_scale(CVecRef /*p*/) const { return 1.0; }

void Manifold::representative(CVecRef /*p*/, CVecRef q, VecRef out) const { out = q; }

GaussNewtonBlock gauss_newton_block(double kappa, CVecRef x, CVecRef h) {
  double s11 = 0.0, s12 = 0.0, s22 = 0.0;
  const bool weighted = h.size() == x.size();
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const JacobiScaling s = jacobi_scaling(kappa, std::abs(x[i]));
    const double f = s.footpoint, g = x[i] * s.shooting, w = weighted ? h[i] : 1.0;
    s11 += w * f * f;
    s12 += w * f * g;
    s22 += w * g * g;
  }
  const double det = s11 * s22 - s12 * s12;
  if (!(det > 1e-10 * s11 * s22) || !std::isfinite(det))
    return kappa == 0.0 ? GaussNewtonBlock{0.0, 0.0, 0.0} : gauss_newton_block(0.0, x, h);
  const double n = static_cast<double>(x.size());
  return {n * s22 / det, -n * s12 / det, n * s11 / det};
}

Mat projector_range(const Mat& P, int rank) {
  Eigen::SelfAdjointEigenSolver<Mat> es(num::sym(P));
  return es.eigenvectors().rightCols(rank);
}

}  // namespace riemdp

// The K-norm gradient mechanism for geodesic regression on the tangent bundle
// (methods article, "The joint release of a geodesic regression"; Kulkarni & Soto 2025, eq. 10, with the package's corrections):
// log f(p, V) = -||grad E_tau(p, V; D)|| / sigma on the public domain
// dist(center, p) <= radius, |v_j|_p <= tau_m, where E_tau uses residuals
// clipped to norm tau (the Huber-type loss) and
// ||.||^2 = ||grad_p||^2 + sum_j ||grad_vj||^2. The scheme of App. A of
// Kulkarni & Soto 2025 (for reproducing it only) uses one block of the
// gradient: the footpoint's, with the shooting vector carried along, or the
// shooting vector's at a fixed footpoint.
#ifndef RIEMDP_PRIVACY_REGRESSION_KNG_H
#define RIEMDP_PRIVACY_REGRESSION_KNG_H

#include <limits>

#include "../statistics/regression.h"

namespace riemdp {

struct RegressionDomain {
  Vec center;
  double radius;
  double tau_m;
  // check_shooting = false: the footpoint's ball only (Kulkarni & Soto 2025,
  // App. A step 1, where v is not sampled).
  bool contains(const Manifold& M, const RegressionParameter& z, bool check_shooting = true) const {
    if (!(M.dist(center, z.p) <= radius)) return false;
    if (!check_shooting) return true;
    for (Eigen::Index j = 0; j < z.V.cols(); ++j)
      if (!(M.norm(z.p, z.V.col(j)) <= tau_m)) return false;
    return true;
  }
};

enum class KNGBlock { joint, footpoint, shooting };

struct KNGRegressionTarget {
  const Manifold& M;
  const RegressionData& data;
  double sigma, tau;
  RegressionDomain domain;
  KNGBlock block = KNGBlock::joint;
  // Buffers of the gradient pass (the target is evaluated on one thread).
  mutable RegressionGradientWorkspace ws{};
  // The gradient is evaluated before the domain is checked, so that every
  // call does the same work (a release's run time must not reveal how often
  // its chain, whose path depends on the data, proposes outside the domain).
  double operator()(const RegressionParameter& z) const {
    if (ws.scratch[0].domain_radius != domain.radius) set_public_domain(ws, domain.center, domain.radius, domain.tau_m);
    try {
      regression_gradient(M, data, z, tau, ws);
    } catch (const domain_error&) {
      return -std::numeric_limits<double>::infinity();  // a fitted point not representable
    }
    if (!domain.contains(M, z, block != KNGBlock::footpoint)) return -std::numeric_limits<double>::infinity();
    double s = 0.0;
    if (block != KNGBlock::shooting) s += M.inner(z.p, ws.grad_p, ws.grad_p);
    if (block != KNGBlock::footpoint)
      for (Eigen::Index j = 0; j < ws.grad_V.cols(); ++j) s += M.inner(z.p, ws.grad_V.col(j), ws.grad_V.col(j));
    return -std::sqrt(num::clamp0(s)) / sigma;
  }
};

// The same mechanism as a field for kng_chain() (sampling/kng_chain.h): the
// clipped gradient (grad_p, grad_V) at z, and whether z is in the domain.
// The blocks of Kulkarni & Soto's App. A scheme: footpoint, z = p alone (no
// shooting vectors in the chain), the gradient in p at (p, Gamma_{p_ref ->
// p} V_ref), carried = (p_ref, V_ref); shooting, the gradient in V (the
// chain holds p fixed: KNGDomainLaw::fixed_point).
struct KNGRegressionField {
  const Manifold& M;
  const RegressionData& data;
  double tau;
  RegressionDomain domain;
  KNGBlock block = KNGBlock::joint;
  const RegressionParameter* carried = nullptr;
  mutable RegressionGradientWorkspace ws{};
  mutable RegressionParameter full{};
  mutable Vec buf{};
  bool operator()(const RegressionParameter& z, Vec& gp, Mat& gV) const {
    if (ws.scratch[0].domain_radius != domain.radius) set_public_domain(ws, domain.center, domain.radius, domain.tau_m);
    if (block != KNGBlock::footpoint) {
      regression_gradient(M, data, z, tau, ws);
      gV = ws.grad_V;
      if (block == KNGBlock::joint) {
        gp = ws.grad_p;
      } else {
        gp.setZero();
      }
      return domain.contains(M, z, true);
    }
    full.p = z.p;
    full.V.resize(carried->V.rows(), carried->V.cols());
    buf.resize(carried->V.rows());
    for (Eigen::Index j = 0; j < carried->V.cols(); ++j) {
      M.transport(carried->p, z.p, carried->V.col(j), buf);
      full.V.col(j) = buf;
    }
    regression_gradient(M, data, full, tau, ws);
    gp = ws.grad_p;
    gV.resize(gp.size(), 0);
    return domain.contains(M, z, false);
  }
};

}  // namespace riemdp

#endif

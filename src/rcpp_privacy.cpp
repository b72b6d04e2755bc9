// Rcpp exports for samplers, mechanisms and sensitivities.
#include "glue.h"
#include "progress.h"
#include "riemdp/geometry/euclidean.h"
#include "riemdp/geometry/spd.h"
#include "riemdp/parallel.h"
#include "riemdp/privacy/ball.h"
#include "riemdp/privacy/kng_rejection.h"
#include "riemdp/privacy/regression_kng.h"
#include "riemdp/privacy/sensitivity.h"
#include "riemdp/privacy/targets.h"
#include "riemdp/sampling/exact.h"
#include "riemdp/sampling/kng_chain.h"
#include "riemdp/sampling/kng_euclid.h"
#include "riemdp/sampling/mh.h"
#include "riemdp/sampling/mh_bundle.h"
#include "riemdp/sampling/radial.h"
#include "riemdp/sampling/spd_exact.h"
#include "riemdp/sampling/spd_sampler.h"
#include "riemdp/statistics/frechet.h"
#include "riemdp/statistics/regression.h"

using namespace glue;

namespace {

MHSettings mh_settings(const Rcpp::List& c) {
  MHSettings s;
  s.burn_in = Rcpp::as<int>(c["burn_in"]);
  s.thin = Rcpp::as<int>(c["thin"]);
  s.step = Rcpp::as<double>(c["step"]);
  s.adapt = Rcpp::as<bool>(c["adapt"]);
  s.target_accept = Rcpp::as<double>(c["target_accept"]);
  return s;
}

// Progress settings of a chain (R's mcmc_control()$verbose): the bar counts
// its burn_in + n * thin iterations, a public number.
bool control_verbose(const Rcpp::List& c) { return c.containsElementNamed("verbose") && Rcpp::as<bool>(c["verbose"]); }
double chain_length(const MHSettings& s, int n) { return s.burn_in + static_cast<double>(n) * s.thin; }

Rcpp::List mh_output(const Writer& W, const Rcpp::NumericVector& trace, const MHResult& r, int D) {
  return Rcpp::List::create(
      Rcpp::Named("draws") = W.out, Rcpp::Named("trace") = trace,
      Rcpp::Named("state") = Rcpp::NumericVector(r.state.data(), r.state.data() + D),
      Rcpp::Named("step") = r.step,
      Rcpp::Named("acceptance") = r.proposed > 0 ? static_cast<double>(r.accepted) / r.proposed : NA_REAL);
}

Ball make_ball(const Rcpp::List& M, const Manifold& m, SEXP center, double radius) {
  Ball b;
  if (Rf_isNull(center)) return b;
  Set C(Rcpp::List(center), m.ambient());
  b.active = true;
  b.center.resize(m.ambient());
  C.get(0, b.center);
  b.radius = radius;
  (void)M;
  return b;
}

// SPD(k) from the manifold list and the footprint as a flat k*k vector.
struct SpdFootprint {
  int k;
  SPD m;
  Vec eta;
  SpdFootprint(const Rcpp::List& M, const Rcpp::List& eta_set)
      : k(Rcpp::as<int>(M["k"])), m(k), eta(k * k) {
    Set(eta_set, k * k).get(0, eta);
  }
};

}  // namespace

// Exact draws from the Laplace / Gaussian law with footprint eta.
// [[Rcpp::export]]
Rcpp::NumericVector samp_exact(Rcpp::List M, Rcpp::List eta, int n, std::string kernel, double sigma, bool by_row,
                               bool verbose = false) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set E(eta, D);
  Vec e(D);
  E.get(0, e);
  Xoshiro256pp rng = rng_from_r();
  // sample_isotropic writes every draw (or throws, and W is dropped).
  Writer W = Writer::uninitialised(n, D, by_row);
  ProgressBar bar(verbose, n, "Exact draws");
  // Two streams (on at most two threads, within riemdp.threads); the draws
  // depend only on R's seed.
  interruptible([&] {
    sample_isotropic(
        *m, e, RadialKernel{kernel_kind(kernel), sigma}, n, rng, [&](int i, const Vec& x) { W.put(i, x); }, 2);
  });
  bar.finish();
  return W.out;
}

// Exact draws of r = dist(eta, x) alone (tests and diagnostics).
// [[Rcpp::export]]
Rcpp::NumericVector samp_radial(Rcpp::List M, int n, std::string kernel, double sigma) {
  auto m = make_manifold(M);
  Xoshiro256pp rng = rng_from_r();
  Rcpp::NumericVector out(n);
  interruptible([&] {
    const RadialSampler s(*m, RadialKernel{kernel_kind(kernel), sigma});
    for (int i = 0; i < n; ++i) {
      check_interrupt();
      out[i] = s.draw(rng);
    }
  });
  return out;
}

// Log density of r = dist(eta, x) under a radial mechanism, up to its
// constant: the kernel plus the log area of geodesic spheres (methods article, "Samplers"),
// -Inf outside (0, inj). For quantiles of the law (release plots). Internal.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector radial_log_density(Rcpp::List M, std::string kernel, double sigma, Rcpp::NumericVector r) {
  auto m = make_manifold(M);
  const RadialKernel k{kernel_kind(kernel), sigma};
  const double inj = m->injectivity_radius();
  Rcpp::NumericVector out(r.size());
  for (R_xlen_t i = 0; i < r.size(); ++i)
    out[i] = r[i] > 0.0 && r[i] < inj ? k.h(r[i]) + m->log_volume_density(r[i])
                                      : -std::numeric_limits<double>::infinity();
  return out;
}

// SPD: exact Haar directions, MH on the log-eigenvalues (started at a draw of
// a public law unless init is given).
// [[Rcpp::export]]
Rcpp::List samp_spd(Rcpp::List M, Rcpp::List eta, int n, std::string kernel, double sigma, Rcpp::List control,
                    SEXP init) {
  const SpdFootprint F(M, eta);
  const int k = F.k, D = k * k;
  const SPD& m = F.m;
  const Vec& e = F.eta;
  Xoshiro256pp rng = rng_from_r();
  Vec x0(D);
  if (!Rf_isNull(init)) Set(Rcpp::List(init), D).get(0, x0);
  Writer W(n, D, false);
  Rcpp::NumericVector trace(n);
  Vec last(D);
  const MHSettings set = mh_settings(control);
  ProgressBar bar(control_verbose(control), chain_length(set, n), "MH chain");
  MHResult r = interruptible([&] {
    return sample_spd(
        m, k, e, RadialKernel{kernel_kind(kernel), sigma}, n, set, rng,
        [&](int i, const Vec& x) {
          W.put(i, x);
          trace[i] = m.dist(e, x);
          last = x;
        },
        Rf_isNull(init) ? nullptr : &x0);
  });
  bar.finish();
  // The chain runs on the log-eigenvalues; its state is carried by the last
  // draw, from which a resumed call recovers them.
  r.state = last;
  return mh_output(W, trace, r, D);
}

// SPD: exact draws (Haar directions, envelope rejection for the
// log-eigenvalues), k x k x n.
// [[Rcpp::export]]
Rcpp::NumericVector samp_spd_exact(Rcpp::List M, Rcpp::List eta, int n, std::string kernel, double sigma,
                                   bool verbose = false) {
  const SpdFootprint F(M, eta);
  const int k = F.k, D = k * k;
  const SPD& m = F.m;
  const Vec& e = F.eta;
  Xoshiro256pp rng = rng_from_r();
  Writer W(n, D, false);
  ProgressBar bar(verbose, n, "Exact draws");
  interruptible([&] {
    sample_spd_exact(m, k, e, RadialKernel{kernel_kind(kernel), sigma}, n, rng,
                     [&](int i, const Vec& x) { W.put(i, x); });
    return 0;
  });
  bar.finish();
  return W.out;
}

// SPD log-eigenvalue draws alone (tests and bench), n x k: "exact", "envelope"
// (proposals of the exact sampler), "start" (the chain's public start law),
// "direction_uniform" / "direction_goe" (the Vandermonde direction law by
// either method).
// [[Rcpp::export]]
Rcpp::NumericMatrix samp_spd_log_eigen(int k, int n, std::string kernel, double sigma, std::string what) {
  const RadialKernel K{kernel_kind(kernel), sigma};
  Xoshiro256pp rng = rng_from_r();
  Rcpp::NumericMatrix out(n, k);
  Vec r(k);
  interruptible([&] {
    if (what == "exact" || what == "envelope") {
      check_spd_law(k, K);
      const SpdLogEigenSampler s(k, K);
      for (int i = 0; i < n; ++i) {
        if (what == "exact") s.draw(r, rng);
        else s.propose(r, rng);
        for (int j = 0; j < k; ++j) out(i, j) = r[j];
      }
    } else if (what == "start") {
      for (int i = 0; i < n; ++i) {
        r = spd_chain_start(k, K, rng);
        for (int j = 0; j < k; ++j) out(i, j) = r[j];
      }
    } else if (what == "direction_uniform" || what == "direction_goe") {
      const VandermondeDirection d(k, what == "direction_goe" ? VandermondeDirection::goe
                                                              : VandermondeDirection::uniform_rejection);
      for (int i = 0; i < n; ++i) {
        check_interrupt();
        d.draw(r, rng);
        for (int j = 0; j < k; ++j) out(i, j) = r[j];
      }
    } else {
      throw std::invalid_argument("unknown draw '" + what + "'");
    }
    return 0;
  });
  return out;
}

// Constants of the exact SPD sampler: the growth rate c, the log maximum of
// the Vandermonde product on the unit sphere, and the log lower bound on the
// acceptance rate (used by method = "auto").
// [[Rcpp::export(rng = false)]]
Rcpp::List priv_spd_exact_info(int k, std::string kernel, double sigma) {
  return Rcpp::List::create(
      Rcpp::Named("growth") = spd_volume_growth(k), Rcpp::Named("log_vandermonde_max") = vandermonde_log_max(k),
      Rcpp::Named("log_acceptance_bound") = spd_exact_log_acceptance_bound(k, kernel_kind(kernel), sigma));
}

// log acceptance probabilities of the exact SPD sampler at the rows r of a
// matrix (tests: never above 0).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector priv_spd_exact_log_ratio(Rcpp::NumericMatrix r) {
  const int k = r.ncol();
  const double c = spd_volume_growth(k);
  Rcpp::NumericVector out(r.nrow());
  Vec v(k);
  for (int i = 0; i < r.nrow(); ++i) {
    for (int j = 0; j < k; ++j) v[j] = r(i, j);
    out[i] = spd_exact_log_ratio(v, v.norm(), c);
  }
  return out;
}

// Metropolis-Hastings for the Laplace / Gaussian law (optionally restricted
// to a ball). The trace holds dist(eta, x) at each kept draw.
// [[Rcpp::export]]
Rcpp::List samp_mh_radial(Rcpp::List M, Rcpp::List eta, int n, std::string kernel, double sigma, Rcpp::List init,
                          Rcpp::List control, SEXP center, double radius, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set E(eta, D), I(init, D);
  Vec e(D), x0(D);
  E.get(0, e);
  I.get(0, x0);
  const RadialTarget target{*m, e, RadialKernel{kernel_kind(kernel), sigma}, make_ball(M, *m, center, radius)};
  Xoshiro256pp rng = rng_from_r();
  Writer W(n, D, by_row);
  Rcpp::NumericVector trace(n);
  const MHSettings set = mh_settings(control);
  ProgressBar bar(control_verbose(control), chain_length(set, n), "MH chain");
  const MHResult r = interruptible([&] {
    return metropolis_hastings(*m, target, x0, n, set, rng, [&](int i, const Vec& x, double) {
      W.put(i, x);
      trace[i] = m->dist(e, x);
    });
  });
  bar.finish();
  return mh_output(W, trace, r, D);
}

// Exact K-norm gradient draw for the Frechet mean of X on R^d, on the ball
// B_radius(center) by the sampler `proposal` ("knorm" or "uniform"), in
// batches of `batch` proposals, at most `cap` (kng_euclid.h).
// [[Rcpp::export]]
Rcpp::List samp_kng_euclid(Rcpp::List X, Rcpp::List center, double radius, double sigma, std::string proposal,
                           double batch, double cap) {
  const int d = static_cast<int>(Rcpp::as<Rcpp::NumericVector>(center["x"]).size());
  Set S(X, d), C(center, d);
  Vec c(d), xbar(d), x(d);
  C.get(0, c);
  Euclidean(d).mean_log(c, S.points, xbar);  // xbar - c, accurate for data near c
  xbar += c;
  Xoshiro256pp rng = rng_from_r();
  const KngEuclidDraw r =
      interruptible([&] { return kng_euclid_exact(xbar, c, radius, sigma, proposal == "knorm", batch, cap, rng, x); });
  return Rcpp::List::create(Rcpp::Named("found") = r.found,
                            Rcpp::Named("draw") = r.found ? Rcpp::NumericVector(x.data(), x.data() + d)
                                                          : Rcpp::NumericVector(0),
                            Rcpp::Named("proposals") = r.proposals, Rcpp::Named("accepted") = r.accepted);
}

// The exact K-norm gradient release of a Frechet mean by rejection from a
// Riemannian Laplace envelope (kng_rejection.h): fit_iter fit steps from the
// centre, then n_proposals proposals, all evaluated. `accepted` and `first`
// depend on the data: for tests only, never stored in a release.
// [[Rcpp::export]]
Rcpp::List samp_kng_rejection(Rcpp::List M, Rcpp::List X, Rcpp::List center, double radius, double sigma, double mu,
                              int fit_iter, double n_proposals, double fit_step = 1.0) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(X, D), C(center, D);
  Vec c(D), x(D);
  C.get(0, c);
  Xoshiro256pp rng = rng_from_r();
  const KngRejectionResult r = interruptible([&] {
    return kng_rejection_draw(*m, S.points, c, radius, sigma, mu, fit_iter, static_cast<long>(n_proposals), rng, x,
                              fit_step);
  });
  return Rcpp::List::create(Rcpp::Named("found") = r.found, Rcpp::Named("draw") = Rcpp::NumericVector(x.data(), x.data() + D),
                            Rcpp::Named("accepted") = static_cast<double>(r.accepted),
                            Rcpp::Named("first") = static_cast<double>(r.first),
                            Rcpp::Named("gradient_passes") = static_cast<double>(r.gradient_passes));
}

// Sensitivities and the admissible radius (methods article, "Sensitivities and public domains").
// [[Rcpp::export(rng = false)]]
Rcpp::List priv_frechet_sensitivity(Rcpp::List M, double n, double radius) {
  auto m = make_manifold(M);
  return Rcpp::List::create(Rcpp::Named("radius_max") = frechet_radius_max(*m),
                            Rcpp::Named("h") = frechet_h(radius, m->curvature_max()),
                            Rcpp::Named("mean") = sensitivity_frechet_mean(*m, n, radius),
                            Rcpp::Named("gradient") = sensitivity_frechet_gradient(*m, n, radius));
}

// [[Rcpp::export(rng = false)]]
double priv_spd_laplace_sigma_max(int k) { return spd_laplace_sigma_max(k); }

// Data moved into the public ball B_radius(center) (points outside go to the
// boundary along the geodesic to the centre).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector priv_clip_to_ball(Rcpp::List M, Rcpp::List center, double radius, Rcpp::List x, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set C(center, D);
  Vec c(D);
  C.get(0, c);
  return interruptible(
      [&] { return pointwise(D, by_row, [&](const Vec& a, Vec& o) { clip_to_ball(*m, c, radius, a, o); }, Set(x, D)); });
}

// q as represented relative to p (Kendall: rotated into alignment with p).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_representative(Rcpp::List M, Rcpp::List p, Rcpp::List q, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->representative(a, b, o); }, Set(p, D),
                     Set(q, D));
  });
}

namespace {

RegressionParameter regression_parameter_from(int D, const Rcpp::NumericVector& p, const Rcpp::NumericMatrix& V) {
  RegressionParameter z;
  z.p = Eigen::Map<const Vec>(p.begin(), D);
  z.V = Eigen::Map<const Mat>(V.begin(), D, V.ncol());
  return z;
}

}  // namespace

// The K-norm gradient mechanism of geodesic regression (privacy/regression_kng.h)
// by Metropolis-Hastings on the tangent bundle (sampling/mh_bundle.h), from the
// public start (p0, V0) with the public proposal mixing matrix A. x is n x m,
// already mapped to [0, 1]. block: "joint",
// "footpoint" (Kulkarni & Soto 2025, App. A step 1: the shooting vectors are
// Gamma_{p_ref -> p}(V_ref), not sampled) or "shooting" (step 2: p fixed at p0).
// Returns the n kept states (footpoints n x D or D x n by layout; shooting
// vectors D x m x n), the log-density trace, the acceptance rate and the step.
// [[Rcpp::export]]
Rcpp::List samp_mh_regression(Rcpp::List M, Rcpp::List Y, Rcpp::NumericMatrix x, double sigma, double tau,
                              Rcpp::NumericVector center, double radius, double tau_m, std::string block,
                              Rcpp::NumericMatrix A, Rcpp::NumericVector p0, Rcpp::NumericMatrix V0,
                              Rcpp::Nullable<Rcpp::NumericVector> p_ref, Rcpp::Nullable<Rcpp::NumericMatrix> V_ref,
                              int n, Rcpp::List control) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(Y, D);
  const Mat X = Eigen::Map<const Mat>(x.begin(), x.nrow(), x.ncol());
  const RegressionData data{S.points, X};
  const int mm = static_cast<int>(X.cols());
  RegressionDomain domain{Eigen::Map<const Vec>(center.begin(), D), radius, tau_m};
  const KNGBlock kind = block == "joint" ? KNGBlock::joint : block == "footpoint" ? KNGBlock::footpoint
                                                                                 : KNGBlock::shooting;
  KNGRegressionTarget target{*m, data, sigma, tau, domain, kind};
  RegressionParameter ref;
  if (kind == KNGBlock::footpoint) ref = regression_parameter_from(D, Rcpp::NumericVector(p_ref.get()),
                                                                   Rcpp::NumericMatrix(V_ref.get()));
  // Step 1 of the paper's scheme: v = Gamma_{p_ref -> p}(v_ref) at every p.
  auto carried = [&](const RegressionParameter& z) {
    RegressionParameter c{z.p, Mat(D, mm)};
    Vec buf(D), out(D);
    for (int j = 0; j < mm; ++j) {
      buf = ref.V.col(j);
      m->transport(ref.p, z.p, buf, out);
      c.V.col(j) = out;
    }
    return c;
  };
  auto log_f = [&](const RegressionParameter& z) { return kind == KNGBlock::footpoint ? target(carried(z)) : target(z); };
  Xoshiro256pp rng = rng_from_r();
  const bool by_row = true;
  Writer P(n, D, by_row);
  Rcpp::NumericVector V_out(static_cast<R_xlen_t>(D) * mm * n), trace(n);
  const MHSettings set = mh_settings(control);
  ProgressBar bar(control_verbose(control), chain_length(set, n), "MH chain");
  const MHResult r = interruptible([&] {
    return metropolis_hastings_bundle(
        *m, log_f, regression_parameter_from(D, p0, V0), Eigen::Map<const Mat>(A.begin(), A.nrow(), A.ncol()), n,
        set, rng,
        [&](int i, const RegressionParameter& z, double lf) {
          const RegressionParameter c = kind == KNGBlock::footpoint ? carried(z) : z;
          P.put(i, c.p);
          std::copy(c.V.data(), c.V.data() + static_cast<R_xlen_t>(D) * mm, V_out.begin() + static_cast<R_xlen_t>(i) * D * mm);
          trace[i] = lf;
        },
        kind != KNGBlock::shooting);
  });
  bar.finish();
  return Rcpp::List::create(Rcpp::Named("footpoints") = P.out, Rcpp::Named("shooting") = V_out,
                            Rcpp::Named("trace") = trace, Rcpp::Named("step") = r.step,
                            Rcpp::Named("acceptance") = r.proposed > 0 ? static_cast<double>(r.accepted) / r.proposed
                                                                        : NA_REAL);
}

namespace {

// The chain's chart base: about the non-private fit (regression: the Huber
// fit of clip tau; Frechet: the mean), after a fixed number of steps, moved
// into the public domain. It shapes the
// proposal only (kng_chain.h); where it cannot be computed, the public start.
RegressionParameter kng_chain_base(const Manifold& M, const PointSet& Y, const Mat* x, double tau,
                                   const KNGDomainLaw& dom, const RegressionParameter& start) {
  const int D = M.ambient();
  RegressionParameter z = start;
  // A fixed number of steps (public): the time spent here does not depend on
  // the data beyond n.
  constexpr int steps = 12;
  try {
    if (!x) {
      z.p = frechet_fixed_steps(M, Y, steps);
    } else {
      RegressionLoss loss;
      loss.type = LossType::huber;
      loss.c = tau;
      const RegressionData data{Y, *x};
      z = regression_fixed_steps(M, data, steps, loss);
    }
  } catch (const domain_error&) {
    return start;
  }
  if (!z.p.allFinite() || !z.V.allFinite()) return start;
  Vec p(D), buf(D);
  const double r = dom.radius * (1.0 - 1e-9);
  clip_to_ball(M, dom.center, std::min(r, M.injectivity_radius() * (1.0 - 1e-6)), z.p, p);
  for (Eigen::Index j = 0; j < z.V.cols(); ++j) {
    M.transport(z.p, p, z.V.col(j), buf);
    const double nv = M.norm(p, buf), cap = dom.tau_m * (1.0 - 1e-9);
    z.V.col(j) = nv > cap ? Vec(buf * (cap / nv)) : buf;
  }
  z.p = p;
  return z;
}

}  // namespace

// The K-norm gradient mechanism by the converging chain of
// sampling/kng_chain.h: regression (x an n x m matrix of covariates mapped to
// [0, 1]; privacy/regression_kng.h) or, with x = NULL, the Frechet mean of Y
// on the ball (privacy/targets.h). One chain per public start (columns of
// starts_p, D x m blocks of starts_V); each keeps `keep` states after
// burn-in (thin = n_iter / keep), the last being the draw.
// block: "joint", or a block of Kulkarni & Soto's App. A scheme:
// "footpoint" (the chain moves p alone, the shooting vectors carried from
// (p_ref, V_ref); starts without shooting vectors) or "shooting" (p fixed at
// the starts' footpoint, which every start shares).
// [[Rcpp::export]]
Rcpp::List samp_kng_chain(Rcpp::List M, Rcpp::List Y, Rcpp::Nullable<Rcpp::NumericMatrix> x, double sigma, double tau,
                          Rcpp::NumericVector center, double radius, double tau_m, Rcpp::NumericMatrix starts_p,
                          Rcpp::NumericVector starts_V, int keep, Rcpp::List control, std::string block = "joint",
                          Rcpp::Nullable<Rcpp::NumericVector> p_ref = R_NilValue,
                          Rcpp::Nullable<Rcpp::NumericMatrix> V_ref = R_NilValue) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(Y, D);
  const bool regression = x.isNotNull();
  Mat X;
  if (regression) {
    Rcpp::NumericMatrix xm(x.get());
    X = Eigen::Map<const Mat>(xm.begin(), xm.nrow(), xm.ncol());
  }
  const KNGBlock kind = block == "joint" ? KNGBlock::joint : block == "footpoint" ? KNGBlock::footpoint
                                                                                 : KNGBlock::shooting;
  if (kind != KNGBlock::joint && !regression) throw std::invalid_argument("blocks need a regression");
  // mm: shooting vectors in the chain's state (none in the footpoint block)
  const int mm = regression && kind != KNGBlock::footpoint ? static_cast<int>(X.cols()) : 0, chains = starts_p.ncol();
  KNGDomainLaw dom{Eigen::Map<const Vec>(center.begin(), D), radius, regression ? tau_m : 1.0};
  dom.fixed_point = kind == KNGBlock::shooting;
  RegressionParameter ref;
  if (kind == KNGBlock::footpoint) ref = regression_parameter_from(D, Rcpp::NumericVector(p_ref.get()),
                                                                   Rcpp::NumericMatrix(V_ref.get()));
  KNGChainSettings set;
  set.burn_in = Rcpp::as<int>(control["burn_in"]);
  set.n_iter = Rcpp::as<int>(control["n_iter"]);
  set.adapt = Rcpp::as<bool>(control["adapt"]);
  set.target_accept = Rcpp::as<double>(control["target_accept"]);
  if (keep < 1 || set.n_iter % keep != 0) throw std::invalid_argument("keep must divide n_iter");
  set.thin = set.n_iter / keep;
  std::vector<RegressionParameter> starts(chains);
  for (int c = 0; c < chains; ++c) {
    starts[c].p = Eigen::Map<const Vec>(starts_p.begin() + static_cast<R_xlen_t>(c) * D, D);
    starts[c].V = Eigen::Map<const Mat>(starts_V.begin() + static_cast<R_xlen_t>(c) * D * mm, D, mm);
  }
  Xoshiro256pp rng = rng_from_r();
  Rcpp::NumericMatrix P(D, chains), trace(keep, chains);
  Rcpp::NumericVector V_out(static_cast<R_xlen_t>(D) * mm * chains), step(chains), acc_local(chains),
      acc_ind(chains);
  ProgressBar bar(control_verbose(control), static_cast<double>(set.burn_in + set.n_iter) * chains, "KNG chain");
  interruptible([&] {
    const RegressionData data{S.points, X};
    const KNGRegressionField reg_field{*m, data, tau, RegressionDomain{dom.center, radius, tau_m}, kind, &ref};
    const KNGFrechetField mean_field{*m, S.points, Ball{true, dom.center, radius}};
    RegressionParameter base = kng_chain_base(*m, S.points, regression ? &X : nullptr, tau, dom, starts[0]);
    if (kind == KNGBlock::footpoint) base.V.resize(D, 0);
    if (kind == KNGBlock::shooting) {  // the fit's shooting vectors at the fixed footpoint, within tau_m
      Vec buf(D);
      try {
        for (Eigen::Index j = 0; j < base.V.cols(); ++j) {
          m->transport(base.p, starts[0].p, base.V.col(j), buf);
          const double nv = m->norm(starts[0].p, buf), cap = tau_m * (1.0 - 1e-9);
          base.V.col(j) = nv > cap && nv > 0.0 ? Vec(buf * (cap / nv)) : buf;
        }
      } catch (const domain_error&) {
        base.V = starts[0].V;
      }
      base.p = starts[0].p;
      if (!base.V.allFinite()) base.V = starts[0].V;
    }
    for (int c = 0; c < chains; ++c) {
      const auto out = [&](int i, const RegressionParameter&, double level) { trace(i, c) = level; };
      const auto run = [&](const RegressionParameter& b) {
        return regression ? kng_chain(*m, reg_field, sigma, b, starts[c], dom, set, rng, out)
                          : kng_chain(*m, mean_field, sigma, b, starts[c], dom, set, rng, out);
      };
      KNGChainResult r;
      try {
        r = run(base);
      } catch (const domain_error&) {
        r = run(starts[0]);  // a base that cannot be linearised: the public start
      }
      std::copy(r.state.p.data(), r.state.p.data() + D, P.begin() + static_cast<R_xlen_t>(c) * D);
      std::copy(r.state.V.data(), r.state.V.data() + static_cast<R_xlen_t>(D) * mm,
                V_out.begin() + static_cast<R_xlen_t>(c) * D * mm);
      step[c] = r.step;
      acc_local[c] = r.local_proposed > 0 ? static_cast<double>(r.local_accepted) / r.local_proposed : NA_REAL;
      acc_ind[c] = r.ind_proposed > 0 ? static_cast<double>(r.ind_accepted) / r.ind_proposed : NA_REAL;
    }
  });
  bar.finish();
  return Rcpp::List::create(Rcpp::Named("footpoints") = P, Rcpp::Named("shooting") = V_out,
                            Rcpp::Named("trace") = trace, Rcpp::Named("step") = step,
                            Rcpp::Named("acceptance_local") = acc_local, Rcpp::Named("acceptance_independence") = acc_ind);
}

// Sensitivities of geodesic regression (Kulkarni & Soto, poster 2026,
// Table 1; methods article, "Sensitivities and public domains"): the footpoint and shooting bounds; bound "poster"
// (length 2 (tau_m + tau)) or "jacobi" (length tau_m). tau_m is only read when the lower curvature bound
// is negative.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector priv_regression_sensitivity(Rcpp::List M, double n, double tau, double tau_m, std::string bound) {
  auto m = make_manifold(M);
  if (bound != "poster" && bound != "jacobi") throw std::invalid_argument("unknown bound '" + bound + "'");
  const RegressionSensitivity s = sensitivity_geodesic_regression(*m, n, tau, tau_m, bound == "poster");
  return Rcpp::NumericVector::create(Rcpp::Named("footpoint") = s.footpoint, Rcpp::Named("shooting") = s.shooting);
}

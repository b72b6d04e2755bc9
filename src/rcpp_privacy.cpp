// Rcpp exports for samplers, mechanisms and sensitivities.
#include "glue.h"

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

// ---------------------------------------------------------------- GDP accounting (Jiang et al. 2023; gdp.h)

namespace {

// Constant curvature of the pair geometry: "sphere" 1, "hyperbolic" -1,
// "euclidean" 0 (R maps hyperbolic(1), isometric to R, to "euclidean").
int gdp_kappa(const std::string& type) {
  if (type == "sphere") return 1;
  if (type == "hyperbolic") return -1;
  if (type == "euclidean") return 0;
  throw std::invalid_argument("GDP accounting needs constant curvature; got '" + type + "'");
}

// Default largest eps of the grid (documented in ?gdp_control): where the
// profile vanishes on S^d, the paper's choice on R^d (max{10, 5 mu0 + mu0^2/2},
// mu0 = Delta/sigma; Jiang et al. 2023, Sec. 4.2, at Delta = 1), and on H^d the largest loss
// on the radial window that holds all but e^-40 of the peak density.
double gdp_default_eps_max(int kappa, int d, double Delta, double sigma) {
  if (kappa > 0) return Delta * (2.0 * num::pi - Delta) / (2.0 * sigma * sigma);
  const double mu0 = Delta / sigma;
  const double flat = std::max(10.0, 5.0 * mu0 + 0.5 * mu0 * mu0);
  if (kappa == 0) return flat;
  const gdp::QuadratureProfile Q(kappa, d, Delta, sigma);
  return std::max(flat, Q.loss_max());
}

// Monte Carlo: beyond this Delta/sigma no draw falls where the loss is <= 0
// (P < 1e-80 for each of at most 2^31 draws), so the estimate is inf.
constexpr double gdp_mc_max_mu0 = 40.0;

std::vector<double> gdp_linear_grid(double eps_max, int n_eps, bool with_zero) {
  std::vector<double> g;
  if (with_zero) g.push_back(0.0);
  for (int j = 1; j <= n_eps; ++j) g.push_back(eps_max * j / n_eps);
  return g;
}

std::unique_ptr<Manifold> gdp_space(int kappa, int d) {
  if (kappa > 0) return std::make_unique<Sphere>(d);
  if (kappa < 0) return std::make_unique<Hyperbolic>(d);
  return std::make_unique<Euclidean>(d);
}

// n loss draws (gdp::draw_losses) with the tabulated exact radial sampler
// (gdp::TableRadial, on the window of the quadrature), or the general one
// where the table cannot be built.
class GdpLossDraws {
 public:
  GdpLossDraws(int kappa, int d, double Delta, double sigma)
      : G_(kappa, d, Delta, sigma),
        space_(gdp_space(kappa, d)),
        radial_(*space_, RadialKernel{RadialKernel::gaussian, sigma}),
        table_(table(G_, kappa, d, Delta, sigma)) {}
  std::vector<double> operator()(long n, Xoshiro256pp& rng, int threads) const {
    if (table_ && table_->ok()) return gdp::draw_losses(G_, n, *table_, rng, threads);
    return gdp::draw_losses(G_, n, radial_, rng, threads);
  }

 private:
  gdp::PairGeometry G_;
  std::unique_ptr<Manifold> space_;
  RadialSampler radial_;
  std::unique_ptr<gdp::TableRadial> table_;
  static std::unique_ptr<gdp::TableRadial> table(const gdp::PairGeometry& G, int kappa, int d, double Delta,
                                                 double sigma) {
    try {
      const gdp::QuadratureProfile Q(kappa, d, Delta, sigma);
      return std::make_unique<gdp::TableRadial>(G, Q.r_lo(), Q.r_hi());
    } catch (const domain_error&) {
      return nullptr;
    }
  }
};

}  // namespace

// Default eps_max for the manifold (paper = Algorithm 1's pi Delta/(2 sigma^2)).
// [[Rcpp::export(rng = false)]]
double gdp_eps_max_cpp(std::string type, int d, double Delta, double sigma, bool paper) {
  const int kappa = gdp_kappa(type);
  if (paper) return num::pi * Delta / (2.0 * sigma * sigma);
  return interruptible([&] { return gdp_default_eps_max(kappa, d, Delta, sigma); });
}

// delta_mu(eps) of Jiang et al. (2023), Def. 3.1, elementwise (R recycles to one length).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector gdp_delta_cpp(Rcpp::NumericVector eps, Rcpp::NumericVector mu) {
  Rcpp::NumericVector out(eps.size());
  for (R_xlen_t i = 0; i < eps.size(); ++i) out[i] = gdp::delta(eps[i], mu[i]);
  return out;
}

// a / b rounded up, elementwise (the closed-form mu = Delta/sigma on the safe side).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector gdp_div_up_cpp(Rcpp::NumericVector a, Rcpp::NumericVector b) {
  if (a.size() != b.size()) throw std::invalid_argument("gdp_div_up_cpp: lengths differ");
  Rcpp::NumericVector out(a.size());
  for (R_xlen_t i = 0; i < a.size(); ++i) out[i] = gdp::div_up(a[i], b[i]);
  return out;
}

// Smallest mu with delta_mu(eps) >= l, rounded up (relative tolerance tol).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector gdp_mu_from_delta_cpp(Rcpp::NumericVector eps, Rcpp::NumericVector l, double tol) {
  Rcpp::NumericVector out(eps.size());
  for (R_xlen_t i = 0; i < eps.size(); ++i) out[i] = gdp::mu_from_delta(eps[i], l[i], tol);
  return out;
}

// Relative accuracy of a deterministic mu (the reported mu is rounded up by
// it). "algorithm1": the inversion's tol (a closed-form profile).
// "quadrature": the documented level (1e-6 up to mu = 8, 1e-4 up to 12,
// 1e-3 beyond; checked against orders 40/40/30 where mu ~ Delta/sigma), or
// 4 times the relative difference to the same quadrature with twice the
// orders at eps = 0 and at the supremum, whichever is larger. The orders are
// doubled once where that difference exceeds 1e-3; if it still does, or
// where a mu cannot be computed, inf.
double gdp_quadrature_level(double mu, double tol) {
  return std::max(tol, mu <= 8.0 ? 1e-6 : mu <= 12.0 ? 1e-4 : 1e-3);
}

// The last reference values of gdp::mu_any_sigma (at lo or hi, which depend on
// the pair and the settings only): a grid of sigmas outside [lo, hi], or
// gdp_sigma() there, evaluates the profile once. R's thread only.
struct GdpRefKey {
  int kappa, d;
  double Delta, sigma;
  std::string method;
  bool paper;
  int n_eps;
  double tol;
  bool operator==(const GdpRefKey& o) const {
    return kappa == o.kappa && d == o.d && Delta == o.Delta && sigma == o.sigma && method == o.method &&
           paper == o.paper && n_eps == o.n_eps && tol == o.tol;
  }
};
std::vector<std::pair<GdpRefKey, gdp::MuValue>>& gdp_ref_cache() {
  static std::vector<std::pair<GdpRefKey, gdp::MuValue>> cache;
  return cache;
}

const char* gdp_regime_name(gdp::Regime r) {
  return r == gdp::Regime::profile ? "profile" : r == gdp::Regime::small_sigma ? "small_sigma" : "large_sigma";
}

// Deterministic mu: method "algorithm1" (S^1; paper = Cor. 3.2.1 as printed
// with the paper's grid, else the corrected profile with eps = 0 and a refined
// supremum) or "quadrature" (S^d, H^d, R^d), at any sigma > 0 through
// gdp::mu_any_sigma (the profile itself for sigma in gdp::sigma_range, the
// documented bounds outside), rounded up. The inversions run to relative
// 1e-13 at most (tol if smaller): a coarser bracket end would add a
// sawtooth in sigma. eps_max <= 0: the default (a given eps_max applies at
// sigma itself only). Returns mu, the eps of the supremum, eps_max, the
// accuracy, the regime, the sigma of the numerical value, and l at eval_eps
// (the profile at sigma itself).
// [[Rcpp::export(rng = false)]]
Rcpp::List gdp_det_cpp(std::string type, int d, double Delta, double sigma, std::string method, bool paper,
                       int n_eps, double eps_max, double tol, Rcpp::NumericVector eval_eps) {
  const int kappa = gdp_kappa(type);
  if (method == "algorithm1" && (kappa <= 0 || d != 1)) throw domain_error("algorithm1 is for the circle S^1 only");
  if (method != "algorithm1" && method != "quadrature")
    throw std::invalid_argument("unknown deterministic method '" + method + "'");
  const double rt = std::min(tol, 1e-13);
  return interruptible([&] {
    double eps_max_used = NA_REAL;
    auto grid_max = [&](double s) {
      if (eps_max > 0.0 && s == sigma) return eps_max;
      return paper ? num::pi * Delta / (2.0 * s * s) : gdp_default_eps_max(kappa, d, Delta, s);
    };
    auto numeric = [&](double s) -> gdp::MuValue {
      const double em = grid_max(s);
      if (s == sigma) eps_max_used = em;
      if (method == "algorithm1") {
        auto f = [&](double e) {
          const double l = paper ? gdp::s1_profile_paper(e, s, Delta) : gdp::s1_profile_corrected(e, s, Delta);
          return gdp::mu_from_delta(e, l, rt);
        };
        // Algorithm 1 as printed: grid k, ..., n_eps k, maximum read off it.
        const gdp::SupResult r = gdp::sup_refined(f, gdp_linear_grid(em, n_eps, !paper), paper ? 0 : 60);
        return {r.mu, r.eps, tol};
      }
      // A grid denser near 0 (where the supremum sits in every case checked),
      // eps_j = eps_max (j/K)^2, then golden section around the best point.
      const int K = std::min(n_eps, 40);
      std::vector<double> grid(K + 1);
      for (int j = 0; j <= K; ++j) grid[j] = em * (double(j) / K) * (double(j) / K);
      // the orders chosen from Delta/sigma, checked against twice those orders
      // at eps = 0 and at the supremum; doubled once if they differ by more
      // than 1e-3 (large Delta on H^d), inf if they still do
      std::unique_ptr<gdp::QuadratureProfile> Q = std::make_unique<gdp::QuadratureProfile>(kappa, d, Delta, s);
      for (int pass = 0;; ++pass) {
        const gdp::QuadratureProfile& q = *Q;
        const gdp::SupResult r = gdp::sup_refined([&](double e) { return gdp::mu_from_delta(e, q(e), rt); }, grid, 40);
        auto Q2 = std::make_unique<gdp::QuadratureProfile>(kappa, d, Delta, s, 2 * q.orders_r(), 2 * q.orders_phi(),
                                                           2 * q.orders_panels());
        double mu = r.mu, diff = std::isfinite(r.mu) ? 0.0 : gdp::inf();
        for (double e : {0.0, r.eps}) {
          const double a = gdp::mu_from_delta(e, q(e), rt), b = gdp::mu_from_delta(e, (*Q2)(e), rt);
          if (!std::isfinite(b)) return {gdp::inf(), r.eps, 0.0};
          mu = std::max(mu, b);
          diff = std::max(diff, std::isfinite(a) ? std::abs(a - b) / b : gdp::inf());
        }
        if (diff <= 1e-3) return {mu, r.eps, std::max(gdp_quadrature_level(mu, tol), 4.0 * diff)};
        if (pass >= 1) return {gdp::inf(), r.eps, 0.0};
        Q = std::move(Q2);
      }
    };
    auto cached = [&](double s) -> gdp::MuValue {
      if (s == sigma) return numeric(s);
      const GdpRefKey key{kappa, d, Delta, s, method, paper, n_eps, tol};
      auto& cache = gdp_ref_cache();
      for (const auto& kv : cache)
        if (kv.first == key) return kv.second;
      const gdp::MuValue v = numeric(s);
      if (cache.size() >= 16) cache.erase(cache.begin());
      cache.emplace_back(key, v);
      return v;
    };
    const gdp::SafeMu m = gdp::mu_any_sigma(cached, kappa, d, Delta, sigma);
    Rcpp::NumericVector l(eval_eps.size());
    if (eval_eps.size() > 0) {
      if (method == "algorithm1") {
        for (R_xlen_t i = 0; i < eval_eps.size(); ++i)
          l[i] = paper ? gdp::s1_profile_paper(eval_eps[i], sigma, Delta)
                       : gdp::s1_profile_corrected(eval_eps[i], sigma, Delta);
      } else {
        const gdp::QuadratureProfile Q(kappa, d, Delta, sigma);
        for (R_xlen_t i = 0; i < eval_eps.size(); ++i) l[i] = Q(eval_eps[i]);
      }
    }
    return Rcpp::List::create(Rcpp::Named("mu") = m.mu, Rcpp::Named("epsilon_sup") = m.eps,
                              Rcpp::Named("epsilon_max") = eps_max_used, Rcpp::Named("accuracy") = m.accuracy,
                              Rcpp::Named("regime") = gdp_regime_name(m.regime),
                              Rcpp::Named("sigma_ref") = m.sigma_ref, Rcpp::Named("l") = l);
  });
}

// Monte Carlo mu from n*m exact draws about eta1 (and, for "algorithm2",
// n*m about eta2): "monte_carlo" is the change-of-measure estimator with
// eps = 0, a refined supremum and a delta-method standard error;
// "algorithm2" is Algorithm 2 of Jiang et al. (2023) as published
// (frequencies, grid k..n_eps k). The draws use a fixed set of generator
// streams on `threads` threads (0: those of riemdp.threads): the result
// depends on R's seed only.
// Beyond gdp::sigma_range: for Delta/sigma > 40 (no draw falls where the
// loss is <= 0: the estimate is inf) mu = inf without draws; above hi the
// estimate at hi times (hi/sigma)^p (an estimate of an upper bound); the
// profile at eval_eps is then not available. An estimate of 0 (every
// estimated l <= 0 on the grid, as Algorithm 2 gives with few draws) is
// reported as inf: the draws say nothing about mu.
// [[Rcpp::export]]
Rcpp::List gdp_mc_cpp(std::string type, int d, double Delta, double sigma, std::string method, int n, int m,
                      int n_eps, double eps_max, double tol, Rcpp::NumericVector eval_eps, bool verbose = false,
                      int threads = 0) {
  const int kappa = gdp_kappa(type);
  if (method != "monte_carlo" && method != "algorithm2")
    throw std::invalid_argument("unknown Monte Carlo method '" + method + "'");
  const gdp::SigmaRange R = gdp::sigma_range(kappa, d, Delta);
  const bool none = Delta / sigma > gdp_mc_max_mu0, above = sigma > R.hi;
  if ((none || above) && eval_eps.size() > 0)
    throw domain_error("the Monte Carlo profile is evaluated for sigma in [sensitivity / " + num::fmt(gdp_mc_max_mu0) +
                       ", " + num::fmt(R.hi) + "] only (here sigma = " + num::fmt(sigma) + ")");
  if (none) {
    return Rcpp::List::create(Rcpp::Named("mu") = R_PosInf, Rcpp::Named("epsilon_sup") = NA_REAL,
                              Rcpp::Named("epsilon_max") = NA_REAL, Rcpp::Named("se") = NA_REAL,
                              Rcpp::Named("l") = Rcpp::NumericVector(0), Rcpp::Named("l_se") = Rcpp::NumericVector(0),
                              Rcpp::Named("regime") = "small_sigma", Rcpp::Named("sigma_ref") = NA_REAL);
  }
  const double s_run = above ? R.hi : sigma;
  double scale = 1.0;
  for (int k = 0; above && k < R.power; ++k) scale *= R.hi / sigma;
  Xoshiro256pp rng = rng_from_r();
  // The bar counts the loss draws: n * m, or 2 n * m for algorithm2.
  ProgressBar bar(verbose, (method == "algorithm2" ? 2.0 : 1.0) * n * m, "Monte Carlo for mu");
  Rcpp::List out = interruptible([&] {
    const GdpLossDraws draws(kappa, d, Delta, s_run);
    const long N = static_cast<long>(n) * m;
    if (!(eps_max > 0.0) || above) eps_max = gdp_default_eps_max(kappa, d, Delta, s_run);
    Rcpp::NumericVector l(eval_eps.size()), se(eval_eps.size());
    gdp::SupResult s;
    double se_mu = NA_REAL;
    if (method == "monte_carlo") {
      const gdp::EmpiricalProfile P1(draws(N, rng, threads));
      auto f = [&](double e) { return gdp::mu_from_delta(e, P1(e), tol); };
      s = gdp::sup_refined(f, gdp_linear_grid(eps_max, n_eps, true), 60);
      const double dd = s.mu > 0.0 ? gdp::delta_dmu(s.eps, s.mu) : 0.0;
      if (dd > 0.0) se_mu = P1.se(s.eps) / dd;
      for (R_xlen_t i = 0; i < eval_eps.size(); ++i) {
        l[i] = P1(eval_eps[i]);
        se[i] = P1.se(eval_eps[i]);
      }
    } else {
      // Draws about eta2: their loss (d(eta2,y)^2 - d(eta1,y)^2)/(2 sigma^2)
      // is minus the geometric loss measured from eta2. Frequencies on the
      // grid and at eval_eps by bucket counts (GridSurvival), no sort. The
      // two count passes, and the inversions, split over the threads (each
      // value depends on its index only).
      std::vector<double> L1 = draws(N, rng, threads), L2 = draws(N, rng, threads);
      const std::vector<double> ev(eval_eps.begin(), eval_eps.end());
      std::unique_ptr<gdp::GridSurvival> PP[2];
      parallel_blocks(2, [&](int k) {
        if (k == 1) {
          InterruptPoller poll;
          for (double& v : L2) {
            poll();
            v = -v;
          }
        }
        PP[k] = std::make_unique<gdp::GridSurvival>(std::move(k == 0 ? L1 : L2), eps_max, n_eps, ev);
      }, threads);
      const gdp::GridSurvival &P1 = *PP[0], &P2 = *PP[1];
      auto lhat_of = [](double e, double f1, double f2) { return f1 - (f2 > 0.0 ? std::exp(e) * f2 : 0.0); };
      // Algorithm 2 as printed: mu_eps on the grid k, ..., n_eps k, maximum read off it.
      std::vector<double> mu_j(n_eps + 1, 0.0);
      const int tb = n_eps >= 200 ? 16 : 1;
      parallel_blocks(tb, [&](int t) {
        InterruptPoller poll;
        for (int j = 1 + static_cast<int>(static_cast<long>(n_eps) * t / tb);
             j <= static_cast<int>(static_cast<long>(n_eps) * (t + 1) / tb); ++j) {
          poll();
          const double e = P1.grid(j);
          mu_j[j] = gdp::mu_from_delta(e, lhat_of(e, P1.at(j), P2.at(j)), tol);
        }
      });
      s = gdp::SupResult{-1.0, 0.0};
      int jb = 1;
      for (int j = 1; j <= n_eps; ++j)
        if (mu_j[j] > s.mu) s = {mu_j[j], P1.grid(j)}, jb = j;
      // binomial standard error of l at the supremum, by the delta method
      const double f1 = P1.at(jb), f2 = P2.at(jb);
      const double v = (f1 * (1 - f1) + (f2 > 0.0 ? std::exp(2.0 * s.eps) * f2 * (1 - f2) : 0.0)) / N;
      const double dd = s.mu > 0.0 ? gdp::delta_dmu(s.eps, s.mu) : 0.0;
      if (dd > 0.0 && std::isfinite(v)) se_mu = std::sqrt(v) / dd;
      for (R_xlen_t i = 0; i < eval_eps.size(); ++i) {
        const double a = P1.eval_at(i), b = P2.eval_at(i);
        l[i] = lhat_of(eval_eps[i], a, b);
        const double vv = (a * (1 - a) + (b > 0.0 ? std::exp(2.0 * eval_eps[i]) * b * (1 - b) : 0.0)) / N;
        se[i] = std::isfinite(vv) ? std::sqrt(vv) : NA_REAL;
        if (!std::isfinite(l[i])) l[i] = NA_REAL;
      }
    }
    if (!std::isfinite(se_mu)) se_mu = NA_REAL;
    // an estimate of 0 (no draw showed a positive profile on the grid) is no estimate
    if (!(s.mu > 0.0)) s.mu = gdp::inf(), se_mu = NA_REAL;
    return Rcpp::List::create(Rcpp::Named("mu") = s.mu * scale, Rcpp::Named("epsilon_sup") = above ? NA_REAL : s.eps,
                              Rcpp::Named("epsilon_max") = above ? NA_REAL : eps_max,
                              Rcpp::Named("se") = se_mu * scale, Rcpp::Named("l") = l, Rcpp::Named("l_se") = se,
                              Rcpp::Named("regime") = above ? "large_sigma" : "profile",
                              Rcpp::Named("sigma_ref") = s_run);
  });
  bar.finish();
  return out;
}

// The privacy losses of n exact draws (tests: against full draws).
// [[Rcpp::export]]
Rcpp::NumericVector gdp_losses_cpp(std::string type, int d, double Delta, double sigma, int n, int threads = 0) {
  const int kappa = gdp_kappa(type);
  Xoshiro256pp rng = rng_from_r();
  return interruptible([&] {
    const std::vector<double> L = GdpLossDraws(kappa, d, Delta, sigma)(n, rng, threads);
    return Rcpp::NumericVector(L.begin(), L.end());
  });
}

// The quadrature profile l(eps) with explicit orders (tests: convergence).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector gdp_quadrature_profile_cpp(std::string type, int d, double Delta, double sigma,
                                               Rcpp::NumericVector eps, int nr, int nphi, int panels) {
  const int kappa = gdp_kappa(type);
  return interruptible([&] {
    const gdp::QuadratureProfile Q(kappa, d, Delta, sigma, nr, nphi, panels);
    Rcpp::NumericVector out(eps.size());
    for (R_xlen_t i = 0; i < eps.size(); ++i) out[i] = Q(eps[i]);
    return out;
  });
}

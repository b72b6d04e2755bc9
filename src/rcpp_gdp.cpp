// Rcpp exports for Gaussian-DP accounting (Jiang et al. 2023; riemdp/privacy/gdp.h).
#include "glue.h"
#include "progress.h"
#include "riemdp/parallel.h"
#include "riemdp/privacy/gdp.h"
#include "riemdp/sampling/radial.h"

using namespace glue;

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
  return riemdp::make_manifold(kappa > 0 ? "sphere" : kappa < 0 ? "hyperbolic" : "euclidean", d);
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

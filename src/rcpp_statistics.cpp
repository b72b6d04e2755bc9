// Rcpp exports for the estimators.
#include "glue.h"
#include "riemdp/statistics/frechet.h"
#include "riemdp/statistics/median.h"
#include "riemdp/statistics/regression.h"

using namespace glue;

namespace {

// Weights from R (checked there: length n, finite, >= 0, not all zero), or
// none (the unweighted fast path).
bool get_weights(const Rcpp::Nullable<Rcpp::NumericVector>& weights, int n, Vec& w) {
  if (weights.isNull()) return false;
  const Rcpp::NumericVector v(weights.get());
  if (v.size() != n) throw std::invalid_argument("weights and points differ in number");
  w = Eigen::Map<const Vec>(v.begin(), n);
  return true;
}

const Vec& estimate_of(const FrechetResult& r) { return r.mean; }
const Vec& estimate_of(const MedianResult& r) { return r.median; }

}  // namespace

// A location estimate (mean or median): the data, the start and the weights
// from R, the estimator run interruptibly, and the common fields of its list.
template <class Fit>
Rcpp::List location_fit(const Rcpp::List& M, const Rcpp::List& X, const Rcpp::List& init,
                        const Rcpp::Nullable<Rcpp::NumericVector>& weights, const char* name, Fit fit) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(X, D), I(init, D);
  Vec x0(D), w;
  I.get(0, x0);
  const bool weighted = get_weights(weights, S.n, w);
  const auto r = interruptible([&] { return fit(*m, S.points, x0, weighted ? &w : nullptr); });
  const Vec& est = estimate_of(r);
  Rcpp::List out = Rcpp::List::create(Rcpp::Named(name) = Rcpp::NumericVector(est.data(), est.data() + D),
                                      Rcpp::Named("iterations") = r.iterations, Rcpp::Named("grad_norm") = r.grad_norm,
                                      Rcpp::Named("cost") = r.cost, Rcpp::Named("converged") = r.converged);
  return out;
}

// weights (NULL: unweighted) comes last, with a default, so that existing
// callers (dp_frechet_mean) are unchanged.
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_frechet_mean(Rcpp::List M, Rcpp::List X, Rcpp::List init, int max_iter, double tol,
                             Rcpp::Nullable<Rcpp::NumericVector> weights = R_NilValue) {
  return location_fit(M, X, init, weights, "mean", [&](const Manifold& m, const PointSet& P, const Vec& x0, const Vec* w) {
    return frechet_mean(m, P, x0, max_iter, tol, w);
  });
}

// The geometric median (statistics/median.h); data_point is the 1-based
// index of a data point the median coincides with, 0 if none.
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_frechet_median(Rcpp::List M, Rcpp::List X, Rcpp::List init, int max_iter, double tol,
                               Rcpp::Nullable<Rcpp::NumericVector> weights = R_NilValue) {
  int data_point = -1;
  Rcpp::List out = location_fit(M, X, init, weights, "median",
                                [&](const Manifold& m, const PointSet& P, const Vec& x0, const Vec* w) {
                                  MedianResult r = frechet_median(m, P, x0, max_iter, tol, w);
                                  data_point = r.data_point;
                                  return r;
                                });
  out.push_back(data_point + 1, "data_point");
  return out;
}

namespace {

RegressionParameter regression_parameter(const Manifold& m, Rcpp::NumericVector p, Rcpp::NumericMatrix V) {
  const int D = m.ambient();
  if (p.size() != D || V.nrow() != D) throw std::invalid_argument("regression parameter of the wrong size");
  RegressionParameter z;
  z.p = Eigen::Map<const Vec>(p.begin(), D);
  z.V = Eigen::Map<const Mat>(V.begin(), D, V.ncol());
  return z;
}

Rcpp::NumericMatrix as_r(const Mat& A) {
  Rcpp::NumericMatrix out(A.rows(), A.cols());
  std::copy(A.data(), A.data() + A.size(), out.begin());
  return out;
}

Rcpp::NumericVector as_r(const Vec& a) { return Rcpp::NumericVector(a.data(), a.data() + a.size()); }

// A RegressionLoss from its name and cutoff (checked in R).
RegressionLoss regression_loss(const std::string& name, double c) {
  RegressionLoss L;
  L.c = c;
  if (name == "l2") L.type = LossType::l2;
  else if (name == "huber") L.type = LossType::huber;
  else if (name == "tukey") L.type = LossType::tukey;
  else if (name == "l1") L.type = LossType::l1;
  else throw std::invalid_argument("unknown regression loss");
  return L;
}

}  // namespace

// Geodesic regression (statistics/regression.h). x is n x m; Y a point set;
// mean_init the start of the Frechet mean (for Fletcher's R^2 and the
// tangent least-squares start); p, V the start (D x m) or NULL for the
// tangent least-squares start. Matrices of points come back as D x n
// (one point per column). loss: "l2", "huber", "tukey" or "l1" with
// tuning constant c; xi > 0: c in units of the concurrent MAD scale, whose
// divisor xi is (RegressionLoss, geodesic_regression()); xi = 0: c is the cutoff.
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_geodesic_regression(Rcpp::List M, Rcpp::List Y, Rcpp::NumericMatrix x, Rcpp::List mean_init,
                                    Rcpp::Nullable<Rcpp::NumericVector> p, Rcpp::Nullable<Rcpp::NumericMatrix> V,
                                    int max_iter, double tol, std::string loss, double c,
                                    double xi) {
  const RegressionLoss L = regression_loss(loss, c);
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(Y, D), I(mean_init, D);
  if (x.nrow() != S.n) throw std::invalid_argument("covariates and points differ in number");
  const Mat X = Eigen::Map<const Mat>(x.begin(), x.nrow(), x.ncol());
  const RegressionData data{S.points, X};
  Vec x0(D);
  I.get(0, x0);
  return interruptible([&] {
    const FrechetResult mean = frechet_mean(*m, S.points, x0, 1000, 1e-10);  // frechet_mean()'s default tol
    RegressionParameter start;
    if (p.isNotNull()) start = regression_parameter(*m, Rcpp::NumericVector(p.get()), Rcpp::NumericMatrix(V.get()));
    const RegressionResult r =
        geodesic_regression(*m, data, p.isNotNull() ? &start : nullptr, mean.mean, max_iter, tol, L, xi);
    return Rcpp::List::create(
        Rcpp::Named("footpoint") = as_r(r.z.p), Rcpp::Named("shooting") = as_r(r.z.V),
        Rcpp::Named("energy") = r.ev.energy, Rcpp::Named("grad_norm") = r.grad_norm,
        Rcpp::Named("iterations") = r.iterations, Rcpp::Named("converged") = r.converged,
        Rcpp::Named("fitted") = as_r(r.ev.fitted), Rcpp::Named("residuals") = as_r(r.ev.residual),
        Rcpp::Named("residual_norms") = as_r(r.ev.dist), Rcpp::Named("frechet_mean") = as_r(mean.mean),
        Rcpp::Named("frechet_energy") = mean.cost, Rcpp::Named("frechet_converged") = mean.converged,
        Rcpp::Named("cutoff") = r.cutoff, Rcpp::Named("scale") = r.scale,
        Rcpp::Named("scale_iterations") = r.scale_iterations, Rcpp::Named("scale_converged") = r.scale_converged);
  });
}

// E(p, V) and its Riemannian gradients, residuals clipped to norm tau (the
// Huber-type loss; least squares when tau = Inf), or another loss of cutoff
// tau (l1: tau the smoothing radius); tests and benchmarks.
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_regression_energy(Rcpp::List M, Rcpp::List Y, Rcpp::NumericMatrix x, Rcpp::NumericVector p,
                                  Rcpp::NumericMatrix V, double tau, std::string loss = "huber") {
  const RegressionLoss L = regression_loss(loss, tau);
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(Y, D);
  const Mat X = Eigen::Map<const Mat>(x.begin(), x.nrow(), x.ncol());
  const RegressionData data{S.points, X};
  const RegressionParameter z = regression_parameter(*m, p, V);
  const RegressionEvaluation ev = interruptible([&] { return regression_evaluate(*m, data, z, false, L); });
  return Rcpp::List::create(Rcpp::Named("energy") = ev.energy, Rcpp::Named("grad_p") = as_r(ev.grad_p),
                            Rcpp::Named("grad_V") = as_r(ev.grad_V));
}

// The raw clipped gradient sums of Manifold::regression_gradient over all
// points (sum_p, sum_V; no 1/n, no tangent cleaning): the manifold's own
// pass (fused = TRUE: the overrides of spd, sphere, ...) or the interface's
// default built on regression_residuals() (fused = FALSE); tests.
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_regression_gradient_sums(Rcpp::List M, Rcpp::List Y, Rcpp::NumericMatrix x, Rcpp::NumericVector p,
                                         Rcpp::NumericMatrix V, double tau, bool fused) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(Y, D);
  const Mat X = Eigen::Map<const Mat>(x.begin(), x.nrow(), x.ncol());
  const RegressionParameter z = regression_parameter(*m, p, V);
  Vec sum_p(D);
  Mat sum_V(D, z.V.cols());
  RegressionScratch scratch;
  interruptible([&] {
    if (fused) m->regression_gradient(z.p, z.V, S.points, X, 0, X.rows(), tau, sum_p, sum_V, scratch);
    else m->Manifold::regression_gradient(z.p, z.V, S.points, X, 0, X.rows(), tau, sum_p, sum_V, scratch);
    return 0;
  });
  return Rcpp::List::create(Rcpp::Named("sum_p") = as_r(sum_p), Rcpp::Named("sum_V") = as_r(sum_V));
}

// The geodesic x -> Exp_p(x v) re-based at x = s: list(footpoint, shooting).
// [[Rcpp::export(rng = false)]]
Rcpp::List stat_regression_rebase(Rcpp::List M, Rcpp::NumericVector p, Rcpp::NumericMatrix V, double s) {
  auto m = make_manifold(M);
  const RegressionParameter z = regression_parameter(*m, p, V);
  const RegressionParameter r = regression_rebase(*m, z, s);
  return Rcpp::List::create(Rcpp::Named("footpoint") = as_r(r.p), Rcpp::Named("shooting") = as_r(r.V));
}

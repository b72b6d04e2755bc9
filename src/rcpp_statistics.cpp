// Rcpp exports for the estimators.
#include "glue.h"

using namespace glue;

// [[Rcpp::export]]
Rcpp::List stat_frechet_mean(Rcpp::List M, Rcpp::List X, Rcpp::List init, int max_iter, double tol) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set S(X, D), I(init, D);
  Vec x0(D);
  I.get(0, x0);
  const FrechetResult r = interruptible([&] { return frechet_mean(*m, S.points, x0, max_iter, tol); });
  return Rcpp::List::create(Rcpp::Named("mean") = Rcpp::NumericVector(r.mean.data(), r.mean.data() + D),
                            Rcpp::Named("iterations") = r.iterations, Rcpp::Named("grad_norm") = r.grad_norm,
                            Rcpp::Named("cost") = r.cost, Rcpp::Named("converged") = r.converged);
}

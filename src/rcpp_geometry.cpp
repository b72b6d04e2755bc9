// Rcpp exports for the geometry verbs: convert, call the core, return.
#include "glue.h"

using namespace glue;

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_exp(Rcpp::List M, Rcpp::List p, Rcpp::List v, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->exp(a, b, o); }, Set(p, D), Set(v, D));
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_log(Rcpp::List M, Rcpp::List p, Rcpp::List q, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->log(a, b, o); }, Set(p, D), Set(q, D));
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_dist(Rcpp::List M, Rcpp::List p, Rcpp::List q) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D), Q(q, D);
  if (P.n == 1 || Q.n == 1) {  // one against many: the batch path
    const Set& one = P.n == 1 ? P : Q;
    const Set& many = P.n == 1 ? Q : P;
    Vec a(D);
    one.get(0, a);
    Rcpp::NumericVector out(many.n);
    Eigen::Map<Vec> o(out.begin(), many.n);
    m->dist_many(a, many.points, o);
    return out;
  }
  Rcpp::NumericVector out(P.n);
  Vec a(D), b(D);
  for (int i = 0; i < P.n; ++i) {
    P.get(i, a);
    Q.get(i, b);
    out[i] = m->dist(a, b);
  }
  return out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_inner(Rcpp::List M, Rcpp::List p, Rcpp::List u, Rcpp::List v) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D), U(u, D), V(v, D);
  const int n = std::max({P.n, U.n, V.n});
  Rcpp::NumericVector out(n);
  Vec a(D), b(D), c(D);
  for (int i = 0; i < n; ++i) {
    P.get(i, a);
    U.get(i, b);
    V.get(i, c);
    out[i] = m->inner(a, b, c);
  }
  return out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_transport(Rcpp::List M, Rcpp::List p, Rcpp::List q, Rcpp::List v, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return pointwise(D, by_row, [&](const Vec& a, const Vec& b, const Vec& c, Vec& o) { m->transport(a, b, c, o); },
                   Set(p, D), Set(q, D), Set(v, D));
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_geodesic(Rcpp::List M, Rcpp::List p, Rcpp::List v, Rcpp::NumericVector t, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D), V(v, D);
  const int nt = t.size();
  const int n = std::max({P.n, V.n, nt});
  Writer W(n, D, by_row);
  Vec a(D), b(D), o(D);
  for (int i = 0; i < n; ++i) {
    P.get(i, a);
    V.get(i, b);
    m->geodesic(a, b, t[nt == 1 ? 0 : i], o);
    W.put(i, o);
  }
  return W.out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_project(Rcpp::List M, Rcpp::List x, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return pointwise(D, by_row, [&](const Vec& a, Vec& o) { m->project(a, o); }, Set(x, D));
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_to_tangent(Rcpp::List M, Rcpp::List p, Rcpp::List x, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->to_tangent(a, b, o); }, Set(p, D), Set(x, D));
}

// First point that is off the manifold: list(index (1-based), message), or NULL.
// [[Rcpp::export(rng = false)]]
SEXP geom_point_problem(Rcpp::List M, Rcpp::List x, double tol) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set X(x, D);
  Vec a(D);
  for (int i = 0; i < X.n; ++i) {
    X.get(i, a);
    const std::string msg = a.allFinite() ? m->point_problem(a, tol) : "is not finite (it contains NA, NaN or Inf)";
    if (!msg.empty()) return Rcpp::List::create(Rcpp::Named("index") = i + 1, Rcpp::Named("message") = msg);
  }
  return R_NilValue;
}

// First vector that is not tangent at its base point, as above.
// [[Rcpp::export(rng = false)]]
SEXP geom_tangent_problem(Rcpp::List M, Rcpp::List p, Rcpp::List v, double tol) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D), V(v, D);
  const int n = std::max(P.n, V.n);
  Vec a(D), b(D);
  for (int i = 0; i < n; ++i) {
    P.get(i, a);
    V.get(i, b);
    const std::string msg = b.allFinite() ? m->tangent_problem(a, b, tol) : "is not finite (it contains NA, NaN or Inf)";
    if (!msg.empty()) return Rcpp::List::create(Rcpp::Named("index") = i + 1, Rcpp::Named("message") = msg);
  }
  return R_NilValue;
}

// Orthonormal basis of T_p as the columns of an ambient x dim matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix geom_tangent_basis(Rcpp::List M, Rcpp::List p) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D);
  Vec a(D);
  P.get(0, a);
  const Mat B = m->tangent_basis(a);
  Rcpp::NumericMatrix out(B.rows(), B.cols());
  std::copy(B.data(), B.data() + B.size(), out.begin());
  return out;
}

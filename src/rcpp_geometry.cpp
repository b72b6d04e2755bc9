// Rcpp exports for the geometry verbs: convert, call the core, return.
#include "glue.h"
#include "riemdp/geometry/sphere_kernels.h"
#include "riemdp/lanes.h"
#include "riemdp/parallel.h"

using namespace glue;

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_exp(Rcpp::List M, Rcpp::List p, Rcpp::List v, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->exp(a, b, o); }, Set(p, D), Set(v, D));
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_log(Rcpp::List M, Rcpp::List p, Rcpp::List q, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->log(a, b, o); }, Set(p, D), Set(q, D));
  });
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
    interruptible([&] { m->dist_many(a, many.points, o); });
    return out;
  }
  Rcpp::NumericVector out(P.n);
  Vec a(D), b(D);
  interruptible([&] {
    for (int i = 0; i < P.n; ++i) {
      check_interrupt();
      P.get(i, a);
      Q.get(i, b);
      out[i] = m->dist(a, b);
    }
  });
  return out;
}

namespace {

// dist_many_checked on fixed chunks of the columns (about 2^16 coordinates
// each), shared out among the threads (parallel_blocks). Every distance
// depends only on its point, so the result does not depend on the threads.
// True when every column is a point.
bool dist_many_checked_parallel(const Manifold& m, CVecRef p, const PointSet& X, double tol, double* out) {
  const Eigen::Index n = X.cols();
  const Eigen::Index chunk = std::max<Eigen::Index>(64, (Eigen::Index{1} << 16) / m.ambient());
  const Eigen::Index chunks = (n + chunk - 1) / chunk;
  std::atomic<bool> bad{false};
  parallel_blocks(static_cast<int>(chunks), [&](int t) {
    const Eigen::Index b = chunk * t, len = std::min(chunk, n - b);
    if (bad.load()) return;
    const PointSet sub(X.data() + b * X.outerStride(), X.rows(), len,
                       Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(X.outerStride(), X.innerStride()));
    Eigen::Map<Vec> o(out + b, len);
    if (m.dist_many_checked(p, sub, tol, o) >= 0) bad.store(true);
    check_interrupt(1);
  }, n >= 20000 ? -1 : 1);
  return !bad.load();
}

}  // namespace

// riem_dist's fast path for one point against many: the checks of
// geom_point_problem() fused with the distances in one pass on the threads.
// NULL when some point fails a check (R then runs the separate checks, which
// give the usual error) or when neither set is a single point.
// [[Rcpp::export(rng = false)]]
SEXP geom_dist_checked(Rcpp::List M, Rcpp::List p, Rcpp::List q, double tol) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set P(p, D), Q(q, D);
  if (P.n != 1 && Q.n != 1) return R_NilValue;
  const Set& one = P.n == 1 ? P : Q;
  const Set& many = P.n == 1 ? Q : P;
  Vec a(D);
  one.get(0, a);
  if (!a.allFinite() || !m->point_problem(a, tol).empty()) return R_NilValue;
  Rcpp::NumericVector out(Rcpp::no_init(many.n));
  const bool ok =
      interruptible([&] { return dist_many_checked_parallel(*m, a, many.points, tol, out.begin()); });
  if (!ok) return R_NilValue;
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
  interruptible([&] {
    for (int i = 0; i < n; ++i) {
      check_interrupt();
      P.get(i, a);
      U.get(i, b);
      V.get(i, c);
      out[i] = m->inner(a, b, c);
    }
  });
  return out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_transport(Rcpp::List M, Rcpp::List p, Rcpp::List q, Rcpp::List v, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return pointwise(D, by_row, [&](const Vec& a, const Vec& b, const Vec& c, Vec& o) { m->transport(a, b, c, o); },
                     Set(p, D), Set(q, D), Set(v, D));
  });
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
  interruptible([&] {
    for (int i = 0; i < n; ++i) {
      check_interrupt();
      P.get(i, a);
      V.get(i, b);
      m->geodesic(a, b, t[nt == 1 ? 0 : i], o);
      W.put(i, o);
    }
  });
  return W.out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_project(Rcpp::List M, Rcpp::List x, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] { return pointwise(D, by_row, [&](const Vec& a, Vec& o) { m->project(a, o); }, Set(x, D)); });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_to_tangent(Rcpp::List M, Rcpp::List p, Rcpp::List x, bool by_row) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return pointwise(D, by_row, [&](const Vec& a, const Vec& b, Vec& o) { m->to_tangent(a, b, o); }, Set(p, D),
                     Set(x, D));
  });
}

// First point that is off the manifold: list(index (1-based), message), or NULL.
// [[Rcpp::export(rng = false)]]
SEXP geom_point_problem(Rcpp::List M, Rcpp::List x, double tol) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  Set X(x, D);
  Vec a(D);
  int bad = -1;
  std::string msg;
  interruptible([&] {
    for (int i = 0; i < X.n && bad < 0; ++i) {
      check_interrupt();
      X.get(i, a);
      msg = a.allFinite() ? m->point_problem(a, tol) : "is not finite (it contains NA, NaN or Inf)";
      if (!msg.empty()) bad = i;
    }
  });
  if (bad >= 0) return Rcpp::List::create(Rcpp::Named("index") = bad + 1, Rcpp::Named("message") = msg);
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
  int bad = -1;
  std::string msg;
  interruptible([&] {
    for (int i = 0; i < n && bad < 0; ++i) {
      check_interrupt();
      P.get(i, a);
      V.get(i, b);
      msg = b.allFinite() ? m->tangent_problem(a, b, tol) : "is not finite (it contains NA, NaN or Inf)";
      if (!msg.empty()) bad = i;
    }
  });
  if (bad >= 0) return Rcpp::List::create(Rcpp::Named("index") = bad + 1, Rcpp::Named("message") = msg);
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

// log of the Jacobian of Exp_p at v (Manifold::log_exp_jacobian), for the
// tests of the KNG chain's densities.
// [[Rcpp::export(rng = false)]]
double geom_log_exp_jacobian(Rcpp::List M, Rcpp::NumericVector p, Rcpp::NumericVector v) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  return interruptible([&] {
    return m->log_exp_jacobian(Eigen::Map<const Vec>(p.begin(), D), Eigen::Map<const Vec>(v.begin(), D));
  });
}

// Isotropic tangent Gaussians at p from the columns of z (length
// tangent_gaussian_size() each): list(v = ambient x n matrix, norm = |v|_p
// as returned by the core, size); z with no columns only asks for the size.
// For tests.
// [[Rcpp::export(rng = false)]]
Rcpp::List geom_tangent_gaussian(Rcpp::List M, Rcpp::List p, Rcpp::NumericMatrix z) {
  auto m = make_manifold(M);
  const int D = m->ambient(), size = m->tangent_gaussian_size();
  if (z.ncol() > 0 && z.nrow() != size) throw std::invalid_argument("z must have tangent_gaussian_size() rows");
  Set P(p, D);
  Vec a(D), o(D);
  P.get(0, a);
  Rcpp::NumericMatrix v(D, z.ncol());
  Rcpp::NumericVector nrm(z.ncol());
  for (int i = 0; i < z.ncol(); ++i) {
    const Eigen::Map<const Vec> zi(&z(0, i), size);
    nrm[i] = m->tangent_gaussian(a, zi, o);
    std::copy(o.data(), o.data() + D, &v(0, i));
  }
  return Rcpp::List::create(Rcpp::Named("v") = v, Rcpp::Named("norm") = nrm, Rcpp::Named("size") = size);
}

// The adjoint Jacobi fields of geodesic regression for single vectors (tests):
// eps is tangent at Exp_p(w).
// [[Rcpp::export(rng = false)]]
Rcpp::List geom_jacobi_adjoint(Rcpp::List M, Rcpp::NumericVector p, Rcpp::NumericVector w, Rcpp::NumericVector eps) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  if (p.size() != D || w.size() != D || eps.size() != D) throw std::invalid_argument("vectors of the wrong length");
  const Eigen::Map<const Vec> P(p.begin(), D), W(w.begin(), D), E(eps.begin(), D);
  Vec yhat(D), ap(D), aw(D);
  m->exp(P, W, yhat);
  m->adjoint_jacobi(P, W, yhat, E, ap, aw);
  return Rcpp::List::create(Rcpp::Named("p") = Rcpp::NumericVector(ap.data(), ap.data() + D),
                            Rcpp::Named("w") = Rcpp::NumericVector(aw.data(), aw.data() + D));
}

namespace {

// Threads for the distance matrix: those of riemdp.threads (thread_limit),
// one for small jobs (pairs x coordinates below 2e4: starting threads costs
// more).
int dist_matrix_blocks(double pairs, int D) { return pairs * D < 2e4 ? 1 : thread_limit(); }

// Column j of a packed lower triangle (R's `dist` layout) starts at
// j n - j (j + 1) / 2 and holds d(x_j, x_{j+1}), ..., d(x_j, x_{n-1}).
R_xlen_t tri_start(R_xlen_t n, R_xlen_t j) { return j * n - j * (j + 1) / 2; }

}  // namespace

// riem_dist_matrix(): Y NULL gives the n(n-1)/2 distances d(x_i, x_j), i > j,
// in the layout of R's `dist` (packed lower triangle by columns), or with full
// the n x n matrix, symmetric by construction (the triangle mirrored) with a
// zero diagonal. Y given gives the n x m matrix d(x_i, y_j). Column j is one
// dist_many() from x_j (or y_j): riem_dist's one-to-many batch path. Columns
// are handed out to threads one at a time (the triangle's columns differ in
// length); each depends only on its own points, so the result does not depend
// on the number of threads. Points are checked in R.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector geom_dist_matrix(Rcpp::List M, Rcpp::List X, Rcpp::Nullable<Rcpp::List> Y, bool full) {
  auto m = make_manifold(M);
  const int D = m->ambient();
  const Set SX(X, D);
  const R_xlen_t n = SX.n;
  const bool cross = Y.isNotNull();
  std::unique_ptr<Set> SY;
  if (cross) SY = std::make_unique<Set>(Rcpp::List(Y.get()), D);
  const R_xlen_t cols = cross ? SY->n : n;
  const R_xlen_t size = cross || full ? n * cols : n * (n - 1) / 2;
  Rcpp::NumericVector out(Rcpp::no_init(size));
  double* o = out.begin();
  const PointSet& P = SX.points;
  const double pairs = cross ? static_cast<double>(n) * cols : 0.5 * static_cast<double>(n) * (n - 1);
  const int blocks = dist_matrix_blocks(pairs, D);
  std::atomic<R_xlen_t> next{0};
  interruptible([&] {
    parallel_blocks(blocks, [&](int) {
      InterruptPoller poll;
      Vec base(D);
      for (R_xlen_t j = next++; j < cols; j = next++) {
        poll();
        if (cross) {
          base = SY->points.col(j);
          Eigen::Map<Vec> oj(o + j * n, n);
          m->dist_many(base, P, oj);
          continue;
        }
        const R_xlen_t len = n - 1 - j;
        double* dst = full ? o + j * n + j + 1 : o + tri_start(n, j);
        if (full) o[j * n + j] = 0.0;
        if (len == 0) continue;
        base = P.col(j);
        const PointSet rest(P.data() + (j + 1) * P.outerStride(), D, len,
                            Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(P.outerStride(), P.innerStride()));
        Eigen::Map<Vec> oj(dst, len);
        m->dist_many(base, rest, oj);
      }
    });
    if (full && !cross) {
      // Mirror the lower triangle in 64 x 64 tiles (cache-friendly), tile
      // columns handed out to threads.
      constexpr R_xlen_t T = 64;
      const R_xlen_t tiles = (n + T - 1) / T;
      std::atomic<R_xlen_t> tile{0};
      parallel_blocks(blocks, [&](int) {
        InterruptPoller poll;
        for (R_xlen_t tj = tile++; tj < tiles; tj = tile++) {
          poll();
          const R_xlen_t j0 = tj * T, j1 = std::min(n, j0 + T);
          for (R_xlen_t i0 = j0; i0 < n; i0 += T) {
            const R_xlen_t i1 = std::min(n, i0 + T);
            for (R_xlen_t j = j0; j < j1; ++j)
              for (R_xlen_t i = std::max(i0, j + 1); i < i1; ++i) o[i * n + j] = o[j * n + i];
          }
        }
      });
    }
  });
  return out;
}

// sincos_batch() (the S^2 regression pass's sine and cosine) on 0 <= L <= 1e5,
// for the tests: a 2-column matrix (sin, cos); libm where the compiler has
// no vector extensions (the pass is not used there). Internal.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix num_sincos_batch(Rcpp::NumericVector L) {
  const R_xlen_t n = L.size();
  Rcpp::NumericMatrix out(n, 2);
#if defined(RIEMDP_LANES)
  using T = S2LanesDefault;
  constexpr int w = lanes::lane_count<T>::value;
  for (R_xlen_t i0 = 0; i0 < n; i0 += w) {
    T a = lanes::constant<T>(0.0), s, c;
    const int len = static_cast<int>(std::min<R_xlen_t>(w, n - i0));
    for (int k = 0; k < len; ++k) lanes::set_lane(a, k, L[i0 + k]);
    sincos_batch<T>(a, s, c);
    for (int k = 0; k < len; ++k) {
      out(i0 + k, 0) = lanes::lane(s, k);
      out(i0 + k, 1) = lanes::lane(c, k);
    }
  }
#else
  for (R_xlen_t i = 0; i < n; ++i) {
    out(i, 0) = std::sin(L[i]);
    out(i, 1) = std::cos(L[i]);
  }
#endif
  return out;
}

// The instruction set of the vectorised kernels (lanes.h): the best the CPU
// has (0 the compiler's default, 1 AVX2); with force >= 0, use at most that
// one from now on (-1: the best again). For the tests. Internal.
// [[Rcpp::export(rng = false)]]
Rcpp::List num_lanes_isa(int force = -2) {
  if (force >= -1) lanes::forced_isa() = force;
  return Rcpp::List::create(Rcpp::Named("best") = lanes::best_isa(), Rcpp::Named("used") = lanes::isa());
}

// The number of threads of the parallel passes, read and checked in R for
// each call (riemdp_threads(), option riemdp.threads).
// [[Rcpp::export(rng = false)]]
void set_thread_limit_cpp(int threads) { set_thread_limit(threads); }

// The number the core currently uses (tests).
// [[Rcpp::export(rng = false)]]
int thread_limit_cpp() { return thread_limit(); }

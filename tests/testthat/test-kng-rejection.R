# The exact K-norm gradient release of a Frechet mean by rejection from a
# Riemannian Laplace envelope (R/kng-rejection.R,
# src/riemdp/privacy/kng_rejection.h). The gradient norms here are computed
# in plain R from the formulas, independently of the package's C++; the
# bigger grid is bench/kng-rejection-envelope.R (output stored beside it).

# |G(z)| = |(1/n) sum_i Log_z(x_i)| for the rows z of Z (unit sphere).
rej_grad_norms <- function(Z, X) {
  Z <- matrix(Z, ncol = ncol(X))
  IP <- X %*% t(Z)
  W2 <- 0
  for (k in seq_len(ncol(X))) W2 <- W2 + (X[, k] - IP * rep(Z[, k], each = nrow(X)))^2
  W <- sqrt(W2)
  C <- ifelse(W > 0, atan2(W, IP) / W, 0)
  G <- (t(X) %*% C - t(Z) * rep(colSums(C * IP), each = ncol(X))) / nrow(X)
  sqrt(colSums(G^2))
}
rej_sexp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  x <- cos(nv) * p + sin(nv) * v / nv
  x / sqrt(sum(x^2))
}
rej_dist <- function(p, X) {
  X <- matrix(X, ncol = length(p))
  ip <- drop(X %*% p)
  atan2(sqrt(rowSums((X - outer(ip, p))^2)), ip)
}
rej_tangent <- function(p) {
  u <- rnorm(length(p))
  u <- u - sum(u * p) * p
  u / sqrt(sum(u^2))
}
# the release's fit: K unit steps from c, clipped to B_r(c)
rej_fit <- function(M, X, c0, r, K) {
  z <- c0
  for (k in seq_len(K)) {
    g <- colMeans(riem_log(M, z, X))
    z <- rej_sexp(z, g)
    if (rej_dist(c0, z) > r) {
      v <- riem_log(M, c0, z)
      z <- rej_sexp(c0, r * v / sqrt(sum(v^2)))
    }
  }
  z
}
rej_layout <- function(kind, n, c0, r) {
  u <- rej_tangent(c0)
  pts <- switch(kind,
    spread = lapply(seq_len(n), function(i) rej_sexp(c0, r * sqrt(runif(1)) * rej_tangent(c0))),
    boundary = lapply(seq_len(n), function(i) rej_sexp(c0, r * rej_tangent(c0))),
    opposite = lapply(seq_len(n), function(i) rej_sexp(c0, r * (if (i %% 2) u else -u))),
    edge = lapply(seq_len(n), function(i) rej_sexp(c0, r * (1 - 1e-3 * runif(1)) * u)))
  do.call(rbind, pts)
}
rej_layouts <- c("spread", "boundary", "opposite", "edge")

test_that("the rejection plan is a function of public quantities only", {
  expect_identical(names(formals(riemdp:::kng_rejection_plan)), c("M", "n", "epsilon", "radius", "delta_target"))
  S2 <- manifold_sphere(2)
  p <- riemdp:::kng_rejection_plan(S2, 1000, 1, pi / 8)
  expect_true(p$available)
  # mu = rho cot(rho), rho = 2r: the h of the sensitivity formula
  expect_equal(p$mu, (pi / 4) / tan(pi / 4), tolerance = 1e-14)
  expect_equal(p$sigma, 2 * sensitivity_frechet_gradient(S2, 1000, pi / 8) / 1, tolerance = 1e-14)
  expect_lte(p$delta_f, 1e-15)
  expect_equal(p$delta_f, (1 - p$a_min)^p$N, tolerance = 1e-10)
  expect_gt((1 - p$a_min)^(p$N - 1), 1e-15)  # N is the smallest that reaches the target
  expect_equal(p$fit_bound, pi / 8 * (1 - p$mu)^(p$fit_iter / 2), tolerance = 1e-12)
  expect_equal(p$a_min, exp(-p$fit_bound / p$sigma) * p$a0, tolerance = 1e-14)
  expect_identical(p$passes, p$fit_iter + 1 + p$N)
  expect_equal(p$epsilon_total, 1 - log1p(-p$delta_f))
  # rounded up: epsilon_total - 1 is exact (Sterbenz), and never below
  # ln(1/(1 - delta_f)); delta_f never below (1 - a_min)^N
  expect_gte(p$epsilon_total - 1, -log1p(-p$delta_f))
  expect_gte(p$delta_f, exp(p$N * log1p(-p$a_min)))
  # the same public numbers give the same plan; the plan never sees data
  expect_identical(riemdp:::kng_rejection_plan(S2, 1000, 1, pi / 8), p)
  # a tighter delta target costs proposals, not fit steps beyond a few
  p2 <- riemdp:::kng_rejection_plan(S2, 1000, 1, pi / 8, delta_target = 1e-30)
  expect_gt(p2$N, p$N)
  expect_lte(p2$delta_f, 1e-30)
})

test_that("a_min's quadrature is a lower bound of the acceptance integral", {
  acc <- riemdp:::kng_rejection_acceptance
  for (d in c(2L, 3L, 5L)) for (sigma in c(1e-4, 0.01, 0.1, 0.5)) {
    r <- pi / 8
    mu <- 2 * r / tan(2 * r)
    # reference: nested integrate() at tight tolerance, minimiser at distance r
    fr <- function(s) {
      t <- (cos(r) - cos(s) * cos(r)) / (sin(s) * sin(r))
      stats::pbeta((1 - pmin(1, pmax(-1, t))) / 2, (d - 1) / 2, (d - 1) / 2)
    }
    # split where the kernel has decayed, so that integrate() sees its peak
    piecewise <- function(f, top, scale) {
      cut <- min(top, 80 * scale)
      v <- stats::integrate(f, 0, cut, rel.tol = 1e-10, subdivisions = 2000L)$value
      if (cut < top) v <- v + stats::integrate(f, cut, top, rel.tol = 1e-10, subdivisions = 2000L)$value
      v
    }
    num <- piecewise(function(s) exp(-s / sigma) * sin(s)^(d - 1) * fr(s), 2 * r, sigma)
    den <- piecewise(function(s) exp(-mu * s / sigma) * sin(s)^(d - 1), pi, sigma / mu)
    ref <- num / den
    a0 <- acc(d, 1, sigma, mu, r, r)
    expect_lte(a0, ref * (1 + 1e-8))
    expect_gt(a0, 0.99 * ref)
  }
  # the flat circle: the minimiser on the boundary sees half the kernel
  expect_equal(acc(1L, 0, 0.01, 1, pi / 8, pi / 8), 0.5, tolerance = 1e-6)
})

test_that("the envelope holds over adversarial layouts: log(f / (M q)) <= 0 up to rounding", {
  skip_on_cran()
  set.seed(351)
  worst <- -Inf
  total <- 0
  for (d in c(2L, 3L, 5L)) for (n in c(50L, 500L)) for (eps in c(0.5, 20)) for (kind in rej_layouts) {
    M <- manifold_sphere(d)
    c0 <- c(rep(0, d), 1)
    r <- pi / 8
    pl <- riemdp:::kng_rejection_plan(M, n, eps, r)
    X <- rej_layout(kind, n, c0, r)
    zhat <- rej_fit(M, X, c0, r, pl$fit_iter)
    g0 <- rej_grad_norms(zhat, X)
    expect_lte(g0, pl$fit_bound)
    Z <- riem_rlaplace(M, 1500, zhat, pl$sigma / pl$mu)
    Z <- Z[rej_dist(c0, Z) <= r, , drop = FALSE]
    lr <- (pl$mu * rej_dist(zhat, Z) - g0 - rej_grad_norms(Z, X)) / pl$sigma
    # rounding of |G| (about eps * r) in units of sigma
    floor <- max(1e-12, 64 * .Machine$double.eps * r / pl$sigma)
    worst <- max(worst, max(lr) - floor)
    total <- total + nrow(Z)
  }
  expect_lte(worst, 0)
  expect_gt(total, 2e4)
})

test_that("the acceptance rate is at least a_min on every layout", {
  skip_on_cran()
  set.seed(352)
  for (d in c(2L, 5L)) for (kind in rej_layouts) {
    M <- manifold_sphere(d)
    c0 <- c(rep(0, d), 1)
    r <- pi / 8
    n <- 200L
    pl <- riemdp:::kng_rejection_plan(M, n, 2, r)
    X <- rej_layout(kind, n, c0, r)
    P <- 20000
    res <- riemdp:::samp_kng_rejection(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), r,
                                       pl$sigma, pl$mu, pl$fit_iter, P)
    expect_identical(res$gradient_passes, pl$fit_iter + 1 + P)
    # Clopper-Pearson at 99.9%: the upper bound below a_min would refute the
    # bound. The lower bound is above a_min wherever the bound is not tight
    # (the minimiser away from the boundary); on "edge" (minimiser within
    # 1e-3 of the boundary) the bound is within about 2% of the rate.
    upper <- stats::qbeta(0.999, res$accepted + 1, P - res$accepted)
    lower <- stats::qbeta(0.001, res$accepted, P - res$accepted + 1)
    expect_gte(upper, pl$a_min)
    if (kind != "edge") expect_gte(lower, pl$a_min)
  }
})

test_that("the work of a release is the same public number for every data set", {
  set.seed(353)
  M <- manifold_sphere(3)
  c0 <- c(0, 0, 0, 1)
  r <- pi / 8
  n <- 300L
  pl <- riemdp:::kng_rejection_plan(M, n, 1, r)
  passes <- vapply(c(rej_layouts, "centre"), function(kind) {
    X <- if (kind == "centre") matrix(c0, n, 4, byrow = TRUE) else rej_layout(kind, n, c0, r)
    riemdp:::samp_kng_rejection(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), r,
                                pl$sigma, pl$mu, pl$fit_iter, pl$N)$gradient_passes
  }, 0)
  expect_identical(unname(passes), rep(pl$passes, length(passes)))
})

test_that("releases on S^1 follow the K-norm gradient law (KS against quadrature)", {
  skip_on_cran()
  set.seed(354)
  M <- manifold_sphere(1)
  r <- pi / 8
  n <- 20L
  th <- c(runif(15, 0.2, r), runif(5, -r, -0.3))  # angles from the centre (1, 0)
  X <- cbind(cos(th), sin(th))
  c0 <- c(1, 0)
  pl <- riemdp:::kng_rejection_plan(M, n, 0.5, r)
  expect_gt(r / pl$sigma, 1)  # the ball truncates the law: a test of the shape, not only the mode
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  draws <- vapply(seq_len(20000), function(i) {
    res <- riemdp:::samp_kng_rejection(M, S, C, r, pl$sigma, pl$mu, pl$fit_iter, pl$N)
    atan2(res$draw[2], res$draw[1])
  }, 0)
  # on the circle the gradient in the chart is theta - mean(theta) exactly
  f <- function(t) exp(-abs(t - mean(th)) / pl$sigma)
  Z <- stats::integrate(f, -r, r, rel.tol = 1e-12)$value
  cdf <- function(q) vapply(q, function(qq) stats::integrate(f, -r, qq, rel.tol = 1e-12)$value / Z, 0)
  expect_gt(suppressWarnings(stats::ks.test(draws, cdf))$p.value, 0.001)
  # chi-square on ten bins of equal probability
  br <- vapply((1:9) / 10, function(p) stats::uniroot(function(q) cdf(q) - p, c(-r, r), tol = 1e-12)$root, 0)
  counts <- tabulate(findInterval(draws, br) + 1L, 10L)
  expect_gt(stats::chisq.test(counts)$p.value, 0.001)
})

test_that("releases on S^2 follow the K-norm gradient law (KS and chi-square against quadrature)", {
  skip_on_cran()
  set.seed(355)
  M <- manifold_sphere(2)
  c0 <- c(0, 0, 1)
  r <- pi / 8
  n <- 12L
  X <- rej_layout("spread", n, c0, r)
  pl <- riemdp:::kng_rejection_plan(M, n, 1, r)
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  draws <- t(vapply(seq_len(8000), function(i)
    riemdp:::samp_kng_rejection(M, S, C, r, pl$sigma, pl$mu, pl$fit_iter, pl$N)$draw, numeric(3)))
  # the law of (s, phi), polar coordinates about c, on a midpoint grid
  ns <- 300L
  nphi <- 300L
  s <- (seq_len(ns) - 0.5) * r / ns
  phi <- (seq_len(nphi) - 0.5) * 2 * pi / nphi
  grid <- expand.grid(s = s, phi = phi)
  Zg <- cbind(sin(grid$s) * cos(grid$phi), sin(grid$s) * sin(grid$phi), cos(grid$s))
  w <- exp(-rej_grad_norms(Zg, X) / pl$sigma) * sin(grid$s)
  w <- w / sum(w)
  ds <- rej_dist(c0, draws)
  ph <- atan2(draws[, 2], draws[, 1]) %% (2 * pi)
  expect_polar_grid_law(ds, ph, grid, w, s, r)
})

test_that("dp_frechet_mean on the sphere uses the rejection route and labels it", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(356)
  X <- rej_layout("spread", 100, north, pi / 8)
  set.seed(1)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng")
  expect_identical(rel$sampler, "exact-rejection")
  expect_identical(rel$guarantee_kind, "exact-rejection")
  expect_identical(rel$guarantee, "(epsilon, delta)-DP")
  pl <- riemdp:::kng_rejection_plan(S2, 100, 1, pi / 8)
  expect_equal(rel$delta, pl$delta_f)
  expect_equal(rel$epsilon_total, 1 - log1p(-pl$delta_f))
  expect_true(is.na(rel$mu))
  expect_lte(riem_dist(S2, north, rel$estimate), pi / 8)
  # reproducible, and the same draw as the core kernel with the same seed
  set.seed(1)
  expect_identical(dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng")$estimate,
                   rel$estimate)
  set.seed(1)
  core <- riemdp:::samp_kng_rejection(S2, riemdp:::as_set(S2, X, "X"), riemdp:::as_set(S2, north, "c"), pi / 8,
                                      pl$sigma, pl$mu, pl$fit_iter, pl$N)
  expect_equal(as.vector(rel$estimate), core$draw, tolerance = 1e-12)
  flat <- function(x) gsub("\\s+", " ", paste(capture.output(print(x)), collapse = " "))
  out <- flat(rel)
  expect_match(out, "(epsilon', delta)-DP", fixed = TRUE)
  expect_match(out, "exact by rejection", fixed = TRUE)
  expect_match(out, "Seeman, Reimherr & Slavkovic 2021", fixed = TRUE)
  expect_match(out, "Guarantee kind: exact-rejection", fixed = TRUE)
  expect_match(out, riemdp:::format_guarantee(pl$delta_f, 3), fixed = TRUE)
  expect_false(grepl("pure epsilon-DP", out, fixed = TRUE))
  # the chain on request, labelled as such
  ch <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng", method = "mh",
                        control = mcmc_control(n_iter = 50, burn_in = 50))
  expect_identical(ch$guarantee_kind, "empirical-chain")
  expect_identical(ch$delta, 0)
  expect_match(flat(ch), "Guarantee kind: empirical-chain", fixed = TRUE)
  # an exact Laplace draw
  la <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north)
  expect_identical(la$guarantee_kind, "exact")
  expect_match(flat(la), "Guarantee kind: exact", fixed = TRUE)
})

test_that("the route falls back to the chain, or refuses, with public reasons", {
  S5 <- manifold_sphere(5)
  c5 <- c(0, 0, 0, 0, 0, 1)
  # near r* = pi/4 in dimension 5, with a concentrated law, the proven
  # acceptance is about mu^5 / 2 = 7e-10
  pl <- riemdp:::kng_rejection_plan(S5, 5000, 1, 0.78)
  expect_false(pl$available)
  expect_match(pl$reason, "proposals")
  X <- matrix(c5, 5000, 6, byrow = TRUE)
  rel <- dp_frechet_mean(S5, X, epsilon = 1, radius = 0.78, center = c5, mechanism = "kng",
                         control = mcmc_control(n_iter = 20, burn_in = 20))
  expect_identical(rel$sampler, "kng-chain")
  expect_identical(rel$guarantee_kind, "empirical-chain")
  expect_error_mentions(dp_frechet_mean(S5, X, epsilon = 1, radius = 0.78, center = c5, mechanism = "kng",
                                        method = "exact"),
                        c("`method = \"exact\"`", "proposals", "radius = 0.78"))
  P2 <- manifold_spd(2)
  expect_error_mentions(dp_frechet_mean(P2, array(diag(2), c(2, 2, 5)), epsilon = 1, radius = 1, center = diag(2),
                                        mechanism = "kng", method = "exact"),
                        c("`method = \"exact\"`", "hyperbolic space"))
  S2 <- manifold_sphere(2)
  expect_error_mentions(dp_frechet_mean(S2, matrix(c(0, 0, 1), 5, 3, byrow = TRUE), epsilon = 1, radius = 0.3,
                                        center = c(0, 0, 1), mechanism = "kng", diagnostics = TRUE),
                        c("exact draw", "method = \"mh\""))
  expect_error_mentions(riemdp:::kng_rejection_plan(S2, 10, 1, 0.3, delta_target = 2), "`delta_target`")
  expect_error_mentions(riemdp:::kng_rejection_plan(S2, 10, -1, 0.3), "`epsilon`")
})

test_that("budgets account an exact-rejection release with its epsilon' and delta", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(357)
  X <- rej_layout("spread", 50, north, pi / 8)
  rel <- dp_frechet_mean(S2, X, epsilon = 0.5, radius = pi / 8, center = north, mechanism = "kng")
  b <- dp_spend(dp_budget(total = c(epsilon = 2)), rel)
  expect_identical(b$entries$kind, "(epsilon, delta)-DP")
  expect_identical(b$entries$epsilon, rel$epsilon_total)
  expect_identical(b$delta, rel$delta)
  b <- dp_spend(b, epsilon = 0.5)
  expect_identical(b$delta, rel$delta)
  expect_equal(b$spent, 0.5 + rel$epsilon_total)
  expect_match(gsub("\\s+", " ", paste(capture.output(print(b)), collapse = " ")), "delta = ", fixed = TRUE)
  expect_error_mentions(dp_spend(dp_budget(total = c(mu = 2)), rel), c("\\(epsilon, delta\\)-DP", "kept in mu"))
})

test_that("regression releases are labelled as chain draws (empirical-chain) in the object and the print", {
  set.seed(31)
  x <- stats::runif(40)
  y <- 1 + 2 * x + stats::rnorm(40, sd = 0.1)
  lin <- dp_linear_regression(y ~ x, data.frame(x = x, y = y), epsilon = 1, tau = 0.5,
                              x_range = c(0, 1), beta_max = 5)
  expect_identical(lin$guarantee_kind, "empirical-chain")
  expect_match(gsub("\\s+", " ", paste(capture.output(print(lin)), collapse = " ")), "Guarantee kind: empirical-chain", fixed = TRUE)
  S2 <- manifold_sphere(2)
  p0 <- c(0, 0, 1)
  Y <- riem_geodesic(S2, p0, c(0.3, 0, 0), x)
  geo <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                center = p0, radius = 0.5)
  expect_identical(geo$guarantee_kind, "empirical-chain")
  expect_match(gsub("\\s+", " ", paste(capture.output(print(geo)), collapse = " ")), "Guarantee kind: empirical-chain", fixed = TRUE)
})

test_that("hostile inputs: tiny radius, huge epsilon, subnormal delta_f, control, private bounds", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  # a radius whose acceptance integrals underflow: unavailable, with a reason
  pl <- riemdp:::kng_rejection_plan(S2, 300, 1, 1e-160)
  expect_false(pl$available)
  expect_match(pl$reason, "double precision")
  X <- matrix(north, 30, 3, byrow = TRUE)
  expect_error_mentions(dp_frechet_mean(S2, X, epsilon = 1, radius = 1e-160, center = north, mechanism = "kng",
                                        method = "exact"),
                        c("`method = \"exact\"`", "double precision"))
  # delta_f is rounded up at every magnitude: above the computed
  # (1 - a_min)^N by more than the exponent's rounding, and > 0 where that
  # underflows (delta_target 1e-320 is subnormal)
  for (dt in c(1e-15, 1e-300, 1e-320)) {
    p <- riemdp:::kng_rejection_plan(S2, 1000, 1, pi / 8, delta_target = dt)
    expect_true(p$available)
    L <- p$N * log1p(-p$a_min)
    expect_true(p$delta_f > exp(L) * (1 + 4 * abs(L) * .Machine$double.eps))
    expect_true(p$delta_f > 0)
    expect_true(p$epsilon_total > 1)
  }
  # the printed a_min is rounded down
  set.seed(3)
  Y <- riem_rlaplace(S2, 300, north, 0.05)
  rel <- dp_frechet_mean(S2, Y, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng", outside = "clip")
  txt <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  a_txt <- as.numeric(sub(".*a_min = ([0-9.e-]+),.*", "\\1", txt))
  expect_true(a_txt <= rel$rejection$a_min)
  # `control` sets a chain this release does not have
  expect_error_mentions(dp_frechet_mean(S2, Y, epsilon = 1, radius = pi / 8, center = north, mechanism = "kng",
                                        outside = "clip", control = mcmc_control(n_iter = 50)),
                        c("`control`", "exact draw", "method = \"mh\""))
  # private bounds: "exact" refused before the data are used; the composed
  # guarantee names its kind once, at the end
  expect_error_mentions(dp_frechet_mean(S2, Y, epsilon = 1, mechanism = "kng", method = "exact",
                                        bounds = dp_bounds(share = 0.2)),
                        c("`method = \"exact\"`", "private bounds"))
  rb <- dp_frechet_mean(S2, Y, epsilon = 1, mechanism = "kng", bounds = dp_bounds(share = 0.2),
                        control = mcmc_control(n_iter = 50, burn_in = 50))
  g <- riemdp:::guarantee_sentence(rb)
  expect_identical(lengths(regmatches(g, gregexpr("Guarantee kind", g))), 1L)
  expect_identical(lengths(regmatches(g, gregexpr("-GDP \\(gdp_from_dp", g))), 1L)
  expect_match(g, "Guarantee kind: empirical-chain \\([^)]*\\)\\.$")
})

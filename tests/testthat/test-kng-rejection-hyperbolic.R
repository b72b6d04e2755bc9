# The exact K-norm gradient release by rejection on hyperbolic space H^d
# (R/kng-rejection.R): mu = 1, Hess <= L = 2r coth(2r), fit steps 1/L^3.
# Geometry in plain R on the hyperboloid (time coordinate first), independent
# of the package's C++.

hyp_ip <- function(a, b) -a[1] * b[1] + sum(a[-1] * b[-1])
hyp_dist1 <- function(z, X) {
  X <- matrix(X, ncol = length(z))
  acosh(pmax(1, X[, 1] * z[1] - drop(X[, -1, drop = FALSE] %*% z[-1])))
}
# (1/n) sum_i Log_z(x_i) = -G(z); |G(z)| is its Minkowski norm
hyp_mean_log <- function(z, X) {
  d <- hyp_dist1(z, X)
  ch <- cosh(d)
  w <- ifelse(d > 0, d / sinh(d), 1)
  G <- colSums(w * (X - outer(ch, z))) / nrow(X)
  G
}
hyp_grad_norm <- function(z, X) {
  G <- hyp_mean_log(z, X)
  sqrt(max(0, hyp_ip(G, G)))
}
hyp_exp <- function(z, v) {
  nv <- sqrt(max(0, hyp_ip(v, v)))
  if (nv == 0) return(z)
  cosh(nv) * z + sinh(nv) * v / nv
}
hyp_log <- function(z, x) {
  d <- hyp_dist1(z, x)
  if (d == 0) return(0 * z)
  d / sinh(d) * (x - cosh(d) * z)
}
hyp_tangent <- function(z) {
  u <- rnorm(length(z))
  v <- u + hyp_ip(u, z) * z
  v / sqrt(hyp_ip(v, v))
}
hyp_origin <- function(d) c(1, rep(0, d))
hyp_layout <- function(kind, n, c0, r) {
  u <- hyp_tangent(c0)
  pts <- switch(kind,
    spread = lapply(seq_len(n), function(i) hyp_exp(c0, r * runif(1)^(1 / 2) * hyp_tangent(c0))),
    boundary = lapply(seq_len(n), function(i) hyp_exp(c0, r * hyp_tangent(c0))),
    opposite = lapply(seq_len(n), function(i) hyp_exp(c0, r * (if (i %% 2) u else -u))),
    edge = lapply(seq_len(n), function(i) hyp_exp(c0, r * (1 - 1e-3 * runif(1)) * u)))
  do.call(rbind, pts)
}
hyp_layouts <- c("spread", "boundary", "opposite", "edge")
# the release's fit: K steps of length 1/L^3 along the mean Log, clipped
hyp_fit <- function(X, c0, r, K, step) {
  z <- c0
  for (k in seq_len(K)) {
    z <- hyp_exp(z, step * hyp_mean_log(z, X))
    if (hyp_dist1(c0, z) > r) {
      v <- hyp_log(c0, z)
      z <- hyp_exp(c0, r * v / sqrt(hyp_ip(v, v)))
    }
  }
  z
}

test_that("the plan on H^d: mu = 1, L = 2r coth(2r), steps 1/L^3, public refusal where the Laplace law does not exist", {
  H2 <- manifold_hyperbolic(2)
  r <- 0.5
  p <- riemdp:::kng_rejection_plan(H2, 1000, 1, r)
  expect_true(p$available)
  expect_identical(p$mu, 1)
  expect_equal(p$L, 2 * r / tanh(2 * r), tolerance = 1e-15)
  expect_equal(p$fit_step, 1 / p$L^3, tolerance = 1e-15)
  expect_equal(p$fit_bound, p$L * r * (1 - 1 / p$L^3)^(p$fit_iter / 2), tolerance = 1e-12)
  expect_equal(p$a_min, exp(-p$fit_bound / p$sigma) * p$a0, tolerance = 1e-14)
  expect_lte(p$delta_f, 1e-15)
  expect_identical(p$passes, p$fit_iter + 1 + p$N)
  expect_equal(p$sigma, 2 * sensitivity_frechet_gradient(H2, 1000, r), tolerance = 1e-14)
  # sigma >= 1/(d - 1): no Laplace proposal, a public reason
  q <- riemdp:::kng_rejection_plan(manifold_hyperbolic(3), 5, 0.01, 1)
  expect_false(q$available)
  expect_match(q$reason, "1/(d - 1)", fixed = TRUE)
  X <- matrix(hyp_origin(3), 5, 4, byrow = TRUE)
  expect_error_mentions(dp_frechet_mean(manifold_hyperbolic(3), X, epsilon = 0.01, radius = 1, center = hyp_origin(3),
                                        mechanism = "kng", method = "exact"),
                        c("`method = \"exact\"`", "1/\\(d - 1\\)"))
  # H^1 is the flat line: no rejection route, and the message says so
  expect_false(riemdp:::kng_rejection_supported(manifold_hyperbolic(1)))
  expect_error_mentions(dp_frechet_mean(manifold_hyperbolic(1), matrix(c(1, 0), 5, 2, byrow = TRUE), epsilon = 1,
                                        radius = 0.5, center = c(1, 0), mechanism = "kng", method = "exact"),
                        "dimension 2 or more")
  # a sigma below what double precision resolves: no rejection route (the
  # sampler would stop accepting while a_min says otherwise)
  for (M in list(H2, manifold_sphere(2))) {
    z <- riemdp:::kng_rejection_plan(M, 100, 1e300, 0.5)
    expect_false(z$available)
    expect_match(z$reason, "double precision")
  }
  expect_true(riemdp:::kng_rejection_plan(H2, 100, 1e6, 0.5)$available)
})

test_that("a_0 on H^d is a lower bound of the acceptance integral (nested quadrature)", {
  acc <- riemdp:::kng_rejection_acceptance
  for (d in c(2L, 3L)) for (sigma in c(1e-3, 0.02, 0.2)) for (r in c(0.3, 1)) {
    L <- 2 * r / tanh(2 * r)
    a <- r
    fr <- function(s) {
      t <- (cosh(s) * cosh(a) - cosh(r)) / (sinh(s) * sinh(a))
      stats::pbeta((1 - pmin(1, pmax(-1, t))) / 2, (d - 1) / 2, (d - 1) / 2)
    }
    piecewise <- function(f, top, scale) {
      cut <- min(top, 80 * scale)
      v <- stats::integrate(f, 0, cut, rel.tol = 1e-10, subdivisions = 2000L)$value
      if (cut < top) v <- v + stats::integrate(f, cut, top, rel.tol = 1e-10, subdivisions = 2000L)$value
      v
    }
    num <- piecewise(function(s) exp(-L * s / sigma) * sinh(s)^(d - 1) * fr(s), 2 * r, sigma / L)
    den <- piecewise(function(s) exp(-s / sigma) * sinh(s)^(d - 1), if (d == 2L) 200 * sigma + 5 else 60, sigma)
    if (d == 3L) den <- den + stats::integrate(function(s) exp(-s / sigma) * sinh(s)^2, 60, Inf)$value
    ref <- num / den
    a0 <- acc(d, -1, sigma, 1, r, r, L = L)
    expect_lte(a0, ref * (1 + 1e-8))
    expect_gt(a0, 0.98 * ref)
  }
})

test_that("on H^d the fit bound and the envelope hold over adversarial layouts", {
  skip_on_cran()
  set.seed(361)
  worst <- -Inf
  total <- 0
  for (d in c(2L, 3L)) for (n in c(50L, 500L)) for (eps in c(0.5, 20)) for (r in c(0.3, 1)) for (kind in hyp_layouts) {
    M <- manifold_hyperbolic(d)
    c0 <- hyp_origin(d)
    pl <- riemdp:::kng_rejection_plan(M, n, eps, r)
    X <- hyp_layout(kind, n, c0, r)
    zhat <- hyp_fit(X, c0, r, pl$fit_iter, pl$fit_step)
    g0 <- hyp_grad_norm(zhat, X)
    expect_lte(g0, pl$fit_bound * (1 + 1e-9) + 1e-14)
    Z <- riem_rlaplace(M, 800, zhat, pl$sigma / pl$mu)
    Z <- Z[hyp_dist1(c0, Z) <= r, , drop = FALSE]
    lr <- vapply(seq_len(nrow(Z)), function(i)
      (hyp_dist1(zhat, Z[i, ]) - g0 - hyp_grad_norm(Z[i, ], X)) / pl$sigma, 0)
    # rounding: the Minkowski norm of a short tangent vector at a point
    # away from the origin cancels terms of size up to cosh(2r)^2 (about
    # eps cosh(2r)^4 / |G| in |G|, |G| of order sigma), in units of sigma
    floor <- max(1e-12, 64 * .Machine$double.eps * cosh(2 * r)^4 / pl$sigma^2)
    worst <- max(worst, max(lr) - floor)
    total <- total + nrow(Z)
  }
  expect_lte(worst, 0)
  expect_gt(total, 1e4)
})

test_that("on H^d the acceptance rate is at least a_min and the work is the same for every layout", {
  skip_on_cran()
  set.seed(362)
  for (d in c(2L, 3L)) for (r in c(0.3, 1)) {
    M <- manifold_hyperbolic(d)
    c0 <- hyp_origin(d)
    n <- 200L
    pl <- riemdp:::kng_rejection_plan(M, n, 2, r)
    passes <- c()
    for (kind in hyp_layouts) {
      X <- hyp_layout(kind, n, c0, r)
      P <- 20000
      res <- riemdp:::samp_kng_rejection(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), r,
                                         pl$sigma, pl$mu, pl$fit_iter, P, pl$fit_step)
      upper <- stats::qbeta(0.999, res$accepted + 1, P - res$accepted)
      lower <- stats::qbeta(0.001, res$accepted, P - res$accepted + 1)
      expect_gte(upper, pl$a_min)
      if (kind != "edge") expect_gte(lower, pl$a_min)
      res2 <- riemdp:::samp_kng_rejection(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), r,
                                          pl$sigma, pl$mu, pl$fit_iter, pl$N, pl$fit_step)
      passes <- c(passes, res2$gradient_passes)
    }
    expect_identical(passes, rep(pl$passes, length(hyp_layouts)))
  }
})

test_that("releases on H^2 follow the K-norm gradient law (KS and chi-square against quadrature)", {
  skip_on_cran()
  set.seed(363)
  M <- manifold_hyperbolic(2)
  c0 <- hyp_origin(2)
  r <- 0.5
  n <- 12L
  X <- hyp_layout("spread", n, c0, r)
  pl <- riemdp:::kng_rejection_plan(M, n, 1, r)
  expect_gt(r / pl$sigma, 1)
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  draws <- t(vapply(seq_len(8000), function(i)
    riemdp:::samp_kng_rejection(M, S, C, r, pl$sigma, pl$mu, pl$fit_iter, pl$N, pl$fit_step)$draw, numeric(3)))
  # polar coordinates (s, phi) about c: area element sinh(s) ds dphi
  ns <- 300L
  nphi <- 300L
  s <- (seq_len(ns) - 0.5) * r / ns
  phi <- (seq_len(nphi) - 0.5) * 2 * pi / nphi
  grid <- expand.grid(s = s, phi = phi)
  Zg <- cbind(cosh(grid$s), sinh(grid$s) * cos(grid$phi), sinh(grid$s) * sin(grid$phi))
  w <- exp(-vapply(seq_len(nrow(Zg)), function(i) hyp_grad_norm(Zg[i, ], X), 0) / pl$sigma) * sinh(grid$s)
  w <- w / sum(w)
  ds <- hyp_dist1(c0, draws)
  ph <- atan2(draws[, 3], draws[, 2]) %% (2 * pi)
  expect_polar_grid_law(ds, ph, grid, w, s, r)
})

test_that("dp_frechet_mean on H^d uses the rejection route, labels it and is reproducible", {
  H2 <- manifold_hyperbolic(2)
  c0 <- hyp_origin(2)
  set.seed(364)
  X <- hyp_layout("spread", 100, c0, 0.5)
  set.seed(1)
  rel <- dp_frechet_mean(H2, X, epsilon = 1, radius = 0.5, center = c0, mechanism = "kng")
  expect_identical(rel$sampler, "exact-rejection")
  expect_identical(rel$guarantee_kind, "exact-rejection")
  pl <- riemdp:::kng_rejection_plan(H2, 100, 1, 0.5)
  expect_equal(rel$delta, pl$delta_f)
  expect_lte(hyp_dist1(c0, as.vector(rel$estimate)), 0.5 + 1e-12)
  set.seed(1)
  core <- riemdp:::samp_kng_rejection(H2, riemdp:::as_set(H2, X, "X"), riemdp:::as_set(H2, c0, "c"), 0.5,
                                      pl$sigma, pl$mu, pl$fit_iter, pl$N, pl$fit_step)
  expect_equal(as.vector(rel$estimate), core$draw, tolerance = 1e-12)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "Guarantee kind: exact-rejection", fixed = TRUE)
  expect_match(out, "exact by rejection", fixed = TRUE)
})

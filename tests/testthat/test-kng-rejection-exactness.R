# Exactness of the K-norm gradient release by rejection on S^1 and S^2, at
# layouts and budgets test-kng-rejection.R does not use: the level
# L = |G(z)| / sigma against its law under f(z) propto exp(-|G(z)| / sigma)
# on B_r(c), from an independent plain-R quadrature. The grid at 1e5 draws
# per cell is bench/kng-rejection-exactness.R (not in the built package).

exa_sexp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  x <- cos(nv) * p + sin(nv) * v / nv
  x / sqrt(sum(x^2))
}
exa_tangent <- function(p) {
  u <- stats::rnorm(length(p))
  u <- u - sum(u * p) * p
  u / sqrt(sum(u^2))
}
exa_layout <- function(kind, n, c0, r) {
  u <- exa_tangent(c0)
  pts <- switch(kind,
    spread = lapply(seq_len(n), function(i) exa_sexp(c0, r * sqrt(stats::runif(1)) * exa_tangent(c0))),
    boundary = lapply(seq_len(n), function(i) exa_sexp(c0, r * exa_tangent(c0))),
    opposite = lapply(seq_len(n), function(i) exa_sexp(c0, r * (if (i %% 2) u else -u))),
    edge = lapply(seq_len(n), function(i) exa_sexp(c0, r * (1 - 1e-3 * stats::runif(1)) * u)),
    centre = rep(list(c0), n))
  do.call(rbind, pts)
}
# |G(z)| = |(1/n) sum_i Log_z(x_i)| for the rows z of Z
exa_grad_norms <- function(Z, X) {
  vapply(seq_len(nrow(Z)), function(i) {
    z <- Z[i, ]
    ip <- drop(X %*% z)
    W <- X - outer(ip, z)
    w <- sqrt(rowSums(W^2))
    sqrt(sum(colMeans(W * ifelse(w > 0, atan2(w, ip) / w, 0))^2))
  }, 0)
}
exa_draws <- function(M, X, c0, r, pl, K) {
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  t(vapply(seq_len(K), function(i)
    riemdp:::samp_kng_rejection(M, S, C, r, pl$sigma, pl$mu, pl$fit_iter, pl$N)$draw, numeric(ncol(X))))
}

test_that("the work of a release is plan$passes on S^1 and S^2 for every layout, n and epsilon", {
  set.seed(3581)
  r <- pi / 8
  for (d in 1:2) for (n in c(12L, 200L)) for (eps in c(0.5, 20)) {
    M <- manifold_sphere(d)
    c0 <- c(rep(0, d), 1)
    pl <- riemdp:::kng_rejection_plan(M, n, eps, r)
    expect_true(pl$available)
    passes <- vapply(c("spread", "boundary", "opposite", "edge", "centre"), function(kind) {
      X <- exa_layout(kind, n, c0, r)
      riemdp:::samp_kng_rejection(M, riemdp:::as_set(M, X, "X"), riemdp:::as_set(M, c0, "c"), r,
                                  pl$sigma, pl$mu, pl$fit_iter, pl$N)$gradient_passes
    }, 0)
    expect_identical(unname(passes), rep(pl$passes, 5L))
  }
})

test_that("S^1, minimiser at the boundary: the level |G|/sigma and the angle follow the closed-form law", {
  skip_on_cran()
  set.seed(3582)
  M <- manifold_sphere(1)
  c0 <- c(0, 1)
  r <- pi / 8
  n <- 12L
  X <- exa_layout("edge", n, c0, r)
  pl <- riemdp:::kng_rejection_plan(M, n, 2, r)
  sigma <- pl$sigma
  D <- exa_draws(M, X, c0, r, pl, 1e4)
  # angles from c0; on the circle |G(z)| = |theta_z - mean(theta_i)|
  th <- atan2(X[, 1], X[, 2])
  m <- mean(th)
  tz <- atan2(D[, 1], D[, 2])
  expect_equal(exa_grad_norms(D[1:50, ], X), abs(tz[1:50] - m), tolerance = 1e-10)
  expect_lt(r - abs(m), 1e-3 * r)  # the ball cuts the law at its mode: a test of the shape
  el <- exp(-(r + m) / sigma)
  er <- exp(-(r - m) / sigma)
  Z <- sigma * (2 - el - er)
  lev_cdf <- function(l) sigma * ((1 - exp(-pmin(l, (r + m) / sigma))) + (1 - exp(-pmin(l, (r - m) / sigma)))) / Z
  expect_gt(suppressWarnings(stats::ks.test(abs(tz - m) / sigma, lev_cdf, exact = FALSE))$p.value, 0.001)
  # chi-square on 20 angle bins of equal probability (closed-form quantiles)
  Fm <- sigma * (1 - el) / Z
  qf <- function(p) ifelse(p <= Fm, m + sigma * log(p * Z / sigma + el), m - sigma * log(1 - (p * Z / sigma - (1 - el))))
  counts <- tabulate(findInterval(tz, qf((1:19) / 20)) + 1L, 20L)
  expect_gt(stats::chisq.test(counts)$p.value, 0.001)
})

test_that("S^2, all data on the boundary, epsilon = 0.5: the level |G|/sigma follows the quadrature law", {
  skip_on_cran()
  set.seed(3583)
  M <- manifold_sphere(2)
  c0 <- c(0, 0, 1)
  r <- pi / 8
  n <- 12L
  X <- exa_layout("boundary", n, c0, r)
  pl <- riemdp:::kng_rejection_plan(M, n, 0.5, r)
  expect_gt(r / pl$sigma, 1)  # r / sigma about 1.2: the ball truncates the law
  K <- 1e4
  D <- exa_draws(M, X, c0, r, pl, K)
  L <- exa_grad_norms(D, X) / pl$sigma
  # polar grid about c: cells of (s, phi), the level at centres and corners;
  # each cell's mass spread evenly over the range of the level it covers
  ns <- 120L
  nphi <- 120L
  pt <- function(s, phi) cbind(sin(s) * cos(phi), sin(s) * sin(phi), cos(s))
  se <- (0:ns) * r / ns
  pe <- (0:nphi) * 2 * pi / nphi
  sc <- (se[-1] + se[-(ns + 1)]) / 2
  pc <- (pe[-1] + pe[-(nphi + 1)]) / 2
  gc <- expand.grid(s = sc, phi = pc)
  ge <- expand.grid(s = se, phi = pe)
  Lc <- exa_grad_norms(pt(gc$s, gc$phi), X) / pl$sigma
  Le <- matrix(exa_grad_norms(pt(ge$s, ge$phi), X) / pl$sigma, ns + 1L, nphi + 1L)
  lo <- pmin(Lc, as.vector(pmin(Le[-1, -1], Le[-(ns + 1), -1], Le[-1, -(nphi + 1)], Le[-(ns + 1), -(nphi + 1)])))
  hi <- pmax(Lc, as.vector(pmax(Le[-1, -1], Le[-(ns + 1), -1], Le[-1, -(nphi + 1)], Le[-(ns + 1), -(nphi + 1)])))
  w <- exp(-Lc) * sin(gc$s)
  w <- w / sum(w)
  f <- (1:8 - 0.5) / 8
  v <- as.vector(outer(lo, 1 - f) + outer(hi, f))
  o <- order(v)
  cw <- rep(w, 8)[o] / 8
  lev_cdf <- stats::approxfun(v[o], cumsum(cw) - cw / 2, yleft = 0, yright = 1, ties = mean)
  expect_gt(suppressWarnings(stats::ks.test(L, lev_cdf, exact = FALSE))$p.value, 0.001)
  # chi-square: 5 level bins of equal probability x 3 sectors about c
  br <- vapply((1:4) / 5, function(p) stats::uniroot(function(l) lev_cdf(l) - p, range(v), tol = 1e-10)$root, 0)
  sec <- function(Y) floor((atan2(Y[, 2], Y[, 1]) %% (2 * pi)) / (2 * pi / 3)) + 1L
  cell <- function(l, s) findInterval(l, br) * 3L + pmin(3L, s)
  cc <- cell(Lc, sec(pt(gc$s, gc$phi)))
  expected <- vapply(1:15, function(k) sum(w[cc == k]), 0)
  observed <- tabulate(cell(L, sec(D)), 15L)
  expect_gt(min(expected * K), 50)
  stat <- sum((observed - K * expected)^2 / (K * expected))
  expect_gt(stats::pchisq(stat, 14, lower.tail = FALSE), 0.001)
})

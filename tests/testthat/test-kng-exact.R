# The K-norm gradient release on R^d is drawn exactly: the law
# exp(-|x - xbar|/sigma) on the ball B_rho(c), xbar the clipped mean.

# Fraction of the sphere of radius r around a point at distance a from the
# centre of B_rho that lies in the ball (closed forms, d = 1, 2, 3).
sphere_fraction <- function(r, a, rho, d) {
  out <- numeric(length(r))
  out[r <= rho - a] <- 1
  mid <- r > rho - a & r < rho + a
  t0 <- (a^2 + r[mid]^2 - rho^2) / (2 * r[mid] * a)  # u . n >= t0, n towards the centre
  out[mid] <- switch(d, 0.5, acos(pmin(1, pmax(-1, t0))) / pi, (1 - t0) / 2)
  out
}

# CDF of |x - xbar| under the truncated law, by numerical integration (the
# trapezoid rule on a fine grid in each piece where the fraction is smooth).
truncated_radial_cdf <- function(a, rho, sigma, d) {
  g <- function(r) r^(d - 1) * exp(-r / sigma) * sphere_fraction(r, a, rho, d)
  brk <- sort(unique(c(0, rho - a, rho + a)))
  r <- unlist(lapply(seq_len(length(brk) - 1L), function(i) seq(brk[i], brk[i + 1L], length.out = 20001L)))
  lo <- g(r[-length(r)]); hi <- g(r[-1L])
  # left and right limits at the breaks (the fraction jumps there for d = 1)
  for (b in brk[-1L]) {
    j <- which(r[-1L] == b & r[-length(r)] < b)
    hi[j] <- g(b * (1 - 1e-12))
  }
  cum <- c(0, cumsum((lo + hi) / 2 * diff(r)))
  keep <- !duplicated(r)
  F <- stats::approxfun(r[keep], cum[keep] / cum[length(cum)], yleft = 0, yright = 1)
  F
}

# n = 2 points in B_rho(c) with mean xbar (xbar inside the ball).
two_points <- function(xbar, c, rho) {
  d <- length(xbar)
  a <- sqrt(sum((xbar - c)^2))
  u <- if (a > 0) (xbar - c) / a else c(1, numeric(d - 1))
  v <- if (d == 1) u else c(-u[2], u[1], numeric(d - 2))  # orthogonal to u (d >= 2)
  h <- if (d == 1) 0.9 * (rho - a) else 0.9 * sqrt(max(rho^2 - a^2, 0))
  rbind(xbar + h * v, xbar - h * v)
}

# epsilon giving the KNG rate sigma: sigma = 2 Delta_g / epsilon.
eps_for <- function(M, n, rho, sigma) 2 * sensitivity_frechet_gradient(M, n, rho) / sigma

kng_cases <- function() {
  out <- list()
  for (d in 1:3) for (pos in c("centre", "boundary")) for (s in c(0.1, 0.5, 3)) {
    c0 <- seq(0.5, by = -0.7, length.out = d)
    u <- c(1, numeric(d - 1))
    out[[length(out) + 1L]] <- list(d = d, c = c0, rho = 1.5, sigma = s * 1.5,
                                    xbar = if (pos == "centre") c0 else c0 + 0.97 * 1.5 * u,
                                    label = sprintf("d = %d, mean at the %s, sigma = %s radius", d, pos, s))
  }
  out
}

test_that("the exact KNG draw on R^d follows the truncated K-norm law (KS against the radial law)", {
  set.seed(20240611)
  pvals <- c()
  used <- character()
  for (cs in kng_cases()) {
    M <- manifold_euclidean(cs$d)
    X <- two_points(cs$xbar, cs$c, cs$rho)
    plan <- riemdp:::kng_euclid_plan(cs$d, cs$sigma, cs$rho)
    used <- c(used, plan$proposal)
    S <- riemdp:::as_set(M, X, "X")
    C <- riemdp:::as_set(M, cs$c, "c")
    # 400 draws by the release's sampler, and 40 public releases
    inner <- t(vapply(seq_len(400), function(i) {
      r <- riemdp:::samp_kng_euclid(S, C, cs$rho, cs$sigma, plan$proposal, plan$batch, plan$n_proposals)
      if (r$found) r$draw else rep(NA_real_, cs$d)
    }, numeric(cs$d)))
    expect_false(anyNA(inner))
    eps <- eps_for(M, 2, cs$rho, cs$sigma)
    rels <- lapply(seq_len(40), function(i) dp_frechet_mean(M, X, epsilon = eps, radius = cs$rho, center = cs$c, mechanism = "kng"))
    expect_true(all(vapply(rels, function(r) identical(r$sampler, "exact") && is.null(r$control), TRUE)))
    pub <- t(vapply(rels, function(r) as.vector(r$estimate), numeric(cs$d)))
    draws <- rbind(matrix(inner, ncol = cs$d), matrix(pub, ncol = cs$d))
    # every draw lies in the ball
    expect_true(all(sqrt(rowSums(sweep(draws, 2, cs$c)^2)) <= cs$rho * (1 + 1e-12)), label = cs$label)
    r <- sqrt(rowSums(sweep(draws, 2, cs$xbar)^2))
    a <- sqrt(sum((cs$xbar - cs$c)^2))
    p <- suppressWarnings(ks.test(r, truncated_radial_cdf(a, cs$rho, cs$sigma, cs$d))$p.value)
    pvals[cs$label] <- p
    expect_gt(p, 1e-3, label = sprintf("KS p-value [%s]", cs$label))
  }
  # both samplers are exercised
  expect_setequal(unique(used), c("knorm", "uniform"))
  # the p-values of the 18 tests are not all small (a biased sampler would fail most)
  expect_gt(median(pvals), 0.05)
})

test_that("the exact KNG draw is centred at the clipped mean, with scale sigma", {
  M <- manifold_euclidean(2)
  c0 <- c(1, -1)
  rho <- 1
  # two points far outside the ball (clipped to its boundary) and one inside
  X <- rbind(c0 + c(4, 0), c0 + c(0, 3), c0 + c(-0.2, 0.1))
  clipped <- rbind(c0 + c(1, 0), c0 + c(0, 1), c0 + c(-0.2, 0.1))
  xbar <- colMeans(clipped)
  xbar_raw <- colMeans(X)  # outside the ball
  sigma <- 0.15
  eps <- eps_for(M, 3, rho, sigma)
  set.seed(7)
  est <- t(vapply(seq_len(400), function(i)
    as.vector(dp_frechet_mean(M, X, epsilon = eps, radius = rho, center = c0, mechanism = "kng", outside = "clip")$estimate),
    numeric(2)))
  a <- sqrt(sum((xbar - c0)^2))
  dist_to <- function(p) sqrt(rowSums(sweep(est, 2, p)^2))
  p_ok <- suppressWarnings(ks.test(dist_to(xbar), truncated_radial_cdf(a, rho, sigma, 2))$p.value)
  expect_gt(p_ok, 1e-3)
  # the same test with the scale halved, or at the unclipped mean, rejects
  p_half <- suppressWarnings(ks.test(dist_to(xbar), truncated_radial_cdf(a, rho, sigma / 2, 2))$p.value)
  expect_lt(p_half, 1e-6)
  p_raw <- suppressWarnings(ks.test(dist_to(xbar_raw), truncated_radial_cdf(a, rho, sigma, 2))$p.value)
  expect_lt(p_raw, 1e-6)
  # and the mean of the draws is near the clipped mean (law nearly symmetric here)
  expect_lt(sqrt(sum((colMeans(est) - xbar)^2)), 4 * sigma * sqrt(2 * 3 / 400) + 0.02)
})

test_that("the acceptance bounds hold: numerically at a mean on the boundary and inside", {
  set.seed(11)
  for (d in c(1L, 2L, 3L, 6L)) for (s in c(0.05, 0.4, 1.5)) {
    rho <- 1
    b <- riemdp:::kng_euclid_bounds(d, s * rho, rho)
    # the documented simple bound, 0.5 * pbeta(3/4, (d-1)/2, 1/2) P(R <= rho)
    simple <- pgamma(1 / s, d) * (if (d == 1) 0.5 else 0.5 * pbeta(0.75, (d - 1) / 2, 0.5))
    expect_equal(b[["knorm_simple"]], simple)
    expect_gte(b[["knorm"]], simple)
    expect_equal(b[["uniform"]], exp(-2 / s))
    M <- manifold_euclidean(d)
    c0 <- numeric(d)
    C <- riemdp:::as_set(M, c0, "c")
    N <- 4e4
    for (a in c(0, 0.5, 1)) {
      S <- riemdp:::as_set(M, c(a * rho, numeric(d - 1)), "X")
      acc_k <- riemdp:::samp_kng_euclid(S, C, rho, s * rho, "knorm", N, N)$accepted / N
      acc_u <- riemdp:::samp_kng_euclid(S, C, rho, s * rho, "uniform", N, N)$accepted / N
      se_k <- sqrt(b[["knorm"]] * (1 - b[["knorm"]]) / N)
      lab <- sprintf("d = %d, sigma = %s, |xbar - c| = %s", d, s, a)
      expect_gte(acc_k, b[["knorm"]] - 5 * se_k - 1e-12, label = paste(lab, "knorm acceptance"))
      expect_gte(acc_u, b[["uniform"]] - 5 * sqrt(b[["uniform"]] / N) - 1e-12, label = paste(lab, "uniform acceptance"))
      # on the boundary the knorm bound is the exact acceptance
      if (a == 1) expect_lt(abs(acc_k - b[["knorm"]]), 5 * se_k + 1e-12, label = paste(lab, "boundary acceptance"))
    }
  }
})

test_that("the sampler is chosen from public arguments only, and set.seed() reproduces releases", {
  M <- manifold_euclidean(3)
  c0 <- c(0, 0, 0)
  rec <- list()
  suppressMessages(trace("samp_kng_euclid", where = asNamespace("riemdp"), print = FALSE,
        tracer = bquote(assign("rec", c(get("rec", .(environment())), list(list(proposal, batch, cap))),
                               envir = .(environment())))))
  on.exit(suppressMessages(untrace("samp_kng_euclid", where = asNamespace("riemdp"))), add = TRUE)
  for (eps in c(0.05, 50)) {
    got <- list()
    for (xb in list(c(0, 0, 0), c(0.99, 0, 0), c(0, -0.5, 0.5))) {
      X <- two_points(xb, c0, 1)
      rec <- list()
      rel <- dp_frechet_mean(M, X, epsilon = eps, radius = 1, center = c0, mechanism = "kng")
      expect_length(rec, 1L)
      got[[length(got) + 1L]] <- rec[[1]]
      plan <- riemdp:::kng_euclid_plan(3, rel$sigma, 1)
      expect_identical(rec[[1]], list(plan$proposal, plan$batch, plan$n_proposals))
    }
    expect_identical(length(unique(got)), 1L)
  }
  expect_identical(names(formals(riemdp:::kng_euclid_plan)), c("d", "sigma", "radius"))
  # the printed sampler names the rejection scheme
  X <- two_points(c(0.3, 0, 0), c0, 1)
  rel <- dp_frechet_mean(M, X, epsilon = 50, radius = 1, center = c0, mechanism = "kng")
  expect_match(paste(capture.output(print(rel)), collapse = " "), "exact draw \\(rejection from the K-norm law\\)")
  expect_match(paste(capture.output(print(summary(rel))), collapse = " "), "Sampler: exact draw \\(rejection from the K-norm law\\)")
  rel_u <- dp_frechet_mean(M, X, epsilon = 0.05, radius = 1, center = c0, mechanism = "kng")
  expect_match(paste(capture.output(print(rel_u)), collapse = " "), "rejection from the uniform law on the ball")
  # reproducible
  set.seed(3); r1 <- dp_frechet_mean(M, X, epsilon = 2, radius = 1, center = c0, mechanism = "kng")
  set.seed(3); r2 <- dp_frechet_mean(M, X, epsilon = 2, radius = 1, center = c0, mechanism = "kng")
  expect_identical(r1$estimate, r2$estimate)
  expect_true(all(is.finite(r1$estimate)))
})

test_that("method selects the chain or the exact draw, and the gap between the samplers is public", {
  M <- manifold_euclidean(20)
  c0 <- numeric(20)
  X <- two_points(c(0.2, numeric(19)), c0, 1)
  # sigma = radius / 10 in d = 20: both bounds are below 1e-3
  plan <- riemdp:::kng_euclid_plan(20, 0.1, 1)
  expect_null(plan$proposal)
  expect_lt(plan$bound, 1e-3)
  eps <- eps_for(M, 2, 1, 0.1)
  ctl <- mcmc_control(n_iter = 50, burn_in = 50)
  expect_identical(dp_frechet_mean(M, X, epsilon = eps, radius = 1, center = c0, mechanism = "kng", control = ctl)$sampler, "kng-chain")
  expect_error_mentions(dp_frechet_mean(M, X, epsilon = eps, radius = 1, center = c0, mechanism = "kng", method = "exact"),
                        c("`method = \"exact\"`", "0.001", "sigma = 0.1"))
  # method = "mh" keeps the chain where the exact draw is available
  eps2 <- eps_for(M, 2, 1, 0.01)
  expect_identical(dp_frechet_mean(M, X, epsilon = eps2, radius = 1, center = c0, mechanism = "kng", method = "mh",
                                   control = ctl)$sampler, "kng-chain")
  expect_identical(dp_frechet_mean(M, X, epsilon = eps2, radius = 1, center = c0, mechanism = "kng")$sampler, "exact")
  # proposals come in whole public batches, at most the public cap; no NaN when none is accepted
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  p2 <- riemdp:::kng_euclid_plan(20, 0.01, 1)
  r <- riemdp:::samp_kng_euclid(S, C, 1, 0.01, p2$proposal, p2$batch, p2$n_proposals)
  expect_true(r$found)
  expect_identical(r$proposals %% p2$batch, 0)
  expect_lte(r$proposals, p2$n_proposals)
  r0 <- riemdp:::samp_kng_euclid(S, C, 1, 1e10, "knorm", 7, 30)
  expect_false(r0$found)
  expect_identical(r0$proposals, 30)
  expect_length(r0$draw, 0L)
  # extreme rates: tiny sigma draws at the mean, huge sigma uniformly on the ball
  for (s in c(1e-300, 1e300)) {
    rel <- dp_frechet_mean(M, X, epsilon = eps_for(M, 2, 1, s), radius = 1, center = c0, mechanism = "kng")
    expect_identical(rel$sampler, "exact")
    expect_true(all(is.finite(rel$estimate)))
    expect_lte(sqrt(sum(rel$estimate^2)), 1 + 1e-12)
  }
})

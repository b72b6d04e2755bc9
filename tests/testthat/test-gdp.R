# Gaussian differential privacy accounting (issue 9; Jiang et al. 2023; methods article, "Gaussian DP accounting").
# References: delta_mu by integrate() of the Gaussian privacy loss and by the
# Mills ratio in log space; mu on R^d is Delta/sigma exactly; S^1 by the
# corrected closed form; Monte Carlo within 3 standard errors (fixed seeds).

# delta_mu(eps) = int_{z0}^inf phi(z) (1 - e^{eps - mu^2/2 - mu z}) dz, z0 = eps/mu - mu/2
delta_integrate <- function(eps, mu)
  integrate(function(z) dnorm(z) * -expm1(eps - mu^2 / 2 - mu * z), eps / mu - mu / 2, Inf, rel.tol = 1e-12)$value
# phi(z0) (R(z0) - R(z0 + mu)), R the Mills ratio from R's log-space pnorm
delta_mills <- function(eps, mu) {
  R <- function(x) exp(pnorm(-x, log.p = TRUE) - dnorm(x, log = TRUE))
  z0 <- eps / mu - mu / 2
  dnorm(z0) * (R(z0) - R(z0 + mu))
}

test_that("gdp_delta matches integrate() at moderate epsilon and the Mills form in the tail", {
  for (mu in c(0.05, 0.5, 1, 3, 8)) for (eps in c(0, 0.01, 0.3, 1, 3)) {
    ref <- delta_integrate(eps, mu)
    expect_equal(gdp_delta(eps, mu), ref, tolerance = 1e-9, info = sprintf("mu = %g, eps = %g", mu, eps))
  }
  expect_equal(gdp_delta(0, c(0.1, 1, 4)), 2 * pnorm(c(0.1, 1, 4) / 2) - 1, tolerance = 1e-14)
  # far tail: both terms of Def. 3.1 are tiny and nearly equal
  for (mu in c(0.5, 1, 3, 10, 20)) for (eps in c(5, 20, 60)) {
    ref <- delta_mills(eps, mu)
    if (ref > 1e-300 && eps / mu - mu / 2 > 2)
      expect_equal(gdp_delta(eps, mu), ref, tolerance = 1e-10, info = sprintf("mu = %g, eps = %g", mu, eps))
  }
})

test_that("gdp_delta has no overflow or cancellation up to epsilon = 500 and beyond", {
  eps <- c(seq(0, 500, by = 0.5), 800, 1e4, Inf)
  for (mu in c(0.5, 2, 10, 30, 100)) {
    d <- gdp_delta(eps, mu)
    expect_true(all(is.finite(d)) && all(d >= 0) && all(d <= 1))
    expect_true(all(diff(d) <= 0), info = sprintf("decreasing in eps, mu = %g", mu))
    # strictly positive and strictly decreasing while representable
    pos <- d > 1e-290 & d < 0.5
    expect_true(all(diff(d[pos]) < 0))
  }
  expect_gt(gdp_delta(500, 100), 0.5)
  expect_equal(gdp_delta(Inf, 1), 0)
  expect_equal(gdp_delta(3, Inf), 1)
  expect_true(all(diff(gdp_delta(1, c(0.1, 0.5, 1, 2, 5))) > 0))
  expect_length(gdp_delta(numeric(0), 1), 0)
})

test_that("gdp_delta recycles and rejects bad input naming the argument", {
  expect_length(gdp_delta(c(0, 1, 2), 1), 3)
  expect_length(gdp_delta(1, c(1, 2)), 2)
  expect_error(gdp_delta(c(1, 2), c(1, 2, 3)), "`epsilon` and `mu` must have the same length")
  expect_error(gdp_delta(-1, 1), "`epsilon`")
  expect_error(gdp_delta(1, 0), "`mu`")
  expect_error(gdp_delta(1, NaN), "`mu`")
  expect_error(gdp_delta(NA, 1), "`epsilon`")
  expect_error(gdp_delta("a", 1), "`epsilon`")
  expect_error(gdp_delta(Inf, Inf), "both be infinite")
})

test_that("conversions round trip and compose", {
  eps <- c(1e-6, 0.1, 1, 5, 30, 300, 800)
  mu <- gdp_from_dp(eps)
  expect_true(all(is.finite(mu)) && all(diff(mu) > 0))
  expect_equal(mu[1:6], -2 * qnorm(1 / (1 + exp(eps[1:6]))), tolerance = 1e-6)
  expect_equal(dp_from_gdp(mu), eps, tolerance = 1e-10)
  expect_equal(gdp_from_dp(dp_from_gdp(c(1e-7, 0.3, 2, 20))), c(1e-7, 0.3, 2, 20), tolerance = 1e-10)
  # mu(eps) solves Phi(-mu/2) = 1/(1 + e^eps)
  expect_equal(pnorm(-gdp_from_dp(2) / 2), 1 / (1 + exp(2)), tolerance = 1e-12)
  expect_equal(gdp_from_dp(0), 0)
  expect_equal(gdp_from_dp(Inf), Inf)
  expect_equal(dp_from_gdp(Inf), Inf)
  expect_error(gdp_from_dp(-1), "`epsilon`")
  expect_error(dp_from_gdp(-1), "`mu`")
  expect_equal(gdp_compose(3, 4), 5)
  expect_equal(gdp_compose(c(1, 1), 1, c(1)), 2)
  expect_equal(gdp_compose(1e200, 1e200), sqrt(2) * 1e200)
  expect_equal(gdp_compose(gdp_mu(manifold_euclidean(1), 1, 3), 4), 5)
  expect_error(gdp_compose(), "at least one")
  expect_error(gdp_compose(1, -1), "`..2`")
})

test_that("euclidean: closed_form, quadrature and monte_carlo give Delta/sigma; algorithm2 lies above", {
  for (d in c(1, 3)) for (s in c(0.3, 1, 2.5)) {
    M <- manifold_euclidean(d)
    expect_equal(gdp_mu(M, s, 0.7)$mu, 0.7 / s)
    q <- gdp_mu(M, s, 0.7, method = "quadrature")
    expect_equal(q$mu, 0.7 / s, tolerance = 2e-6)
    expect_gte(q$mu, 0.7 / s)                     # rounded up by its accuracy
    expect_lte(q$mu, 0.7 / s * (1 + 2e-6))
  }
  set.seed(13)
  mc <- gdp_mu(manifold_euclidean(2), 1, 1, method = "monte_carlo")
  expect_lt(abs(mc$mu - 1), 3 * mc$se)
  expect_true(mc$se > 0 && mc$se < 0.05)
  # hyperbolic(1) is a line: closed form
  expect_equal(gdp_mu(manifold_hyperbolic(1), 0.5, 1)$mu, 2)
  expect_equal(gdp_mu(manifold_hyperbolic(1), 0.5, 1)$method, "closed_form")
  # Algorithm 2 as published: on R at sigma = 1 (methods article, "Gaussian DP accounting": 20 replicates in
  # [1.096, 1.175]); band: at or above the truth minus 2%, at most 30% above.
  set.seed(12)
  a2 <- vapply(1:3, function(i) gdp_mu(manifold_euclidean(1), 1, 1, method = "algorithm2")$mu, 0)
  expect_true(all(a2 >= 0.98 & a2 <= 1.3))
  expect_gt(mean(a2), 1.02)
})

test_that("sphere(1): algorithm1, quadrature and monte_carlo agree over sigma = k/4", {
  S1 <- manifold_sphere(1)
  sig <- (1:16) / 4
  a1 <- vapply(sig, function(s) gdp_mu(S1, s, 1)$mu, 0)
  qu <- vapply(sig, function(s) gdp_mu(S1, s, 1, method = "quadrature")$mu, 0)
  expect_equal(qu, a1, tolerance = 1e-6)
  set.seed(21)
  ctl <- gdp_control(n = 1000, m = 50)
  for (k in c(1, 2, 4, 8, 16)) {
    mc <- gdp_mu(S1, sig[k], 1, method = "monte_carlo", control = ctl)
    expect_lt(abs(mc$mu - a1[k]), 3 * mc$se)
  }
  # mu -> Delta/sigma as sigma -> 0, below it for large sigma (004 Fig. 1)
  expect_equal(a1[1], 4, tolerance = 1e-6)
  expect_lt(abs(a1[2] - 2) / 2, 1e-5)
  expect_true(all(a1 <= 1 / sig * (1 + 1e-9)))
  expect_true(all((1 / sig - a1)[sig >= 1] > 0.01))
  expect_true(all(diff(a1) < 0))
  # the paper's formula and grid (Fig. 1): close to the corrected one, since
  # the supremum sits at eps -> 0
  pp <- vapply(sig[c(1, 4, 8, 16)], function(s) gdp_mu(S1, s, 1, control = gdp_control(profile = "paper"))$mu, 0)
  expect_equal(pp, a1[c(1, 4, 8, 16)], tolerance = 1e-3)
  # Algorithm 2 overestimates at small sigma (Jiang et al. 2023, Fig. 1; methods article: 4.22 vs 4.00)
  set.seed(22)
  a2 <- gdp_mu(S1, 0.25, 1, method = "algorithm2",
               control = gdp_control(epsilon_max = pi / (2 * 0.25^2)))
  expect_gt(a2$mu, a1[1] + 0.05)
  expect_lt(a2$mu, a1[1] + 0.6)
})

test_that("sphere(2), sphere(3), hyperbolic(2): quadrature within 3 standard errors of monte_carlo", {
  set.seed(31)
  ctl <- gdp_control(n = 1000, m = 400)
  cases <- list(list(manifold_sphere(2), 0.5, 1), list(manifold_sphere(2), 1.5, 2),
                list(manifold_sphere(3), 0.7, 1), list(manifold_hyperbolic(2), 0.6, 1),
                list(manifold_hyperbolic(2), 1.5, 0.5))
  for (cs in cases) {
    q <- gdp_mu(cs[[1]], cs[[2]], cs[[3]])
    expect_equal(q$method, "quadrature")
    mc <- gdp_mu(cs[[1]], cs[[2]], cs[[3]], method = "monte_carlo", control = ctl)
    expect_lt(abs(mc$mu - q$mu), 3 * mc$se)
    expect_lt(mc$se / mc$mu, 0.01)
  }
})

test_that("quadrature is converged: its orders against much higher orders", {
  q <- riemdp:::gdp_quadrature_profile_cpp
  for (cs in list(list("sphere", 2L, 1, 0.25), list("sphere", 3L, 2, 1), list("hyperbolic", 2L, 1, 0.5),
                  list("hyperbolic", 3L, 0.5, 1.5), list("sphere", 1L, 1, 0.5))) {
    e <- c(0, 0.05, 0.5, 2, 5)
    lo <- q(cs[[1]], cs[[2]], cs[[3]], cs[[4]], e, 0L, 0L, 0L)
    hi <- q(cs[[1]], cs[[2]], cs[[3]], cs[[4]], e, 40L, 40L, 30L)
    mlo <- riemdp:::gdp_mu_from_delta_cpp(e, lo, 1e-12)
    mhi <- riemdp:::gdp_mu_from_delta_cpp(e, hi, 1e-12)
    expect_lt(max(abs(mlo - mhi)) / max(mhi), 1e-6)
  }
})

test_that("the profile never turns up at large epsilon and stays below delta_mu", {
  for (M in list(manifold_sphere(2), manifold_hyperbolic(2), manifold_sphere(1))) {
    p <- privacy_profile(M, 0.25, 1, control = gdp_control(n_epsilon = 400))
    expect_true(all(diff(p$l) <= 1e-15))
    mu_eps <- riemdp:::gdp_mu_from_delta_cpp(p$epsilon, p$l, 1e-10)
    expect_true(all(mu_eps <= p$mu$mu * (1 + 1e-9)))
    expect_true(all(p$l <= p$delta * (1 + 1e-8) + 1e-300))
  }
})

test_that("mu increases with the distance of the pair on sphere(2) and hyperbolic(2) (Thm 4.1)", {
  D <- c(0.05, 0.2, 0.5, 1, 1.5, 2, 2.5, 3)
  for (M in list(manifold_sphere(2), manifold_hyperbolic(2))) for (s in c(0.3, 1, 2)) {
    mu <- vapply(D, function(x) gdp_mu(M, s, x)$mu, 0)
    expect_true(all(diff(mu) > 0), info = sprintf("%s, sigma = %g", manifold_label(M), s))
  }
})

test_that("gdp_sigma round trip: never above mu, within tolerance", {
  for (cs in list(list(manifold_sphere(2), 0.3), list(manifold_sphere(1), 1), list(manifold_hyperbolic(2), 0.5),
                  list(manifold_euclidean(3), 2), list(manifold_sphere(3), 1))) {
    for (mu in c(0.9, 1, 2.5)) {
      s <- gdp_sigma(cs[[1]], mu, cs[[2]])
      expect_true(is.numeric(s) && s > 0)
      got <- gdp_mu(cs[[1]], s, cs[[2]])$mu
      expect_lte(got, mu)
      expect_equal(got, mu, tolerance = 1e-5)
      expect_equal(attr(s, "mu"), got)
      # a slightly smaller sigma is above mu
      expect_gt(gdp_mu(cs[[1]], s * (1 - 1e-4), cs[[2]])$mu, mu)
    }
  }
  expect_equal(as.numeric(gdp_sigma(manifold_euclidean(1), 2, 1)), 0.5)
  expect_error(gdp_sigma(manifold_sphere(2), 1, 0.3, method = "monte_carlo"), "deterministic")
  expect_error(gdp_sigma(manifold_hyperbolic(2), 0.1, 1), "not attainable")
  expect_error(gdp_sigma(manifold_sphere(2), 0, 1), "`mu`")
})

test_that("bad input gives clear errors", {
  S2 <- manifold_sphere(2)
  expect_error(gdp_mu(S2, 0, 1), "`sigma`")
  expect_error(gdp_mu(S2, -1, 1), "`sigma`")
  expect_error(gdp_mu(S2, Inf, 1), "`sigma`")
  expect_error(gdp_mu(S2, NaN, 1), "`sigma`")
  expect_error(gdp_mu(S2, 1, 0), "`sensitivity`")
  expect_error(gdp_mu(S2, 1, 3.2), "diameter")
  expect_error(gdp_mu(manifold_spd(2), 1, 1), "constant curvature")
  expect_error(gdp_mu(manifold_kendall(4), 1, 1), "constant curvature.*euclidean")
  expect_error(gdp_mu(S2, 1, 1, method = "algorithm1"), "not available on manifold_sphere\\(2\\).*quadrature")
  expect_error(gdp_mu(manifold_euclidean(2), 1, 1, method = "algorithm1"), "not available")
  expect_error(gdp_mu(S2, 1, 1, method = "nope"), "`method`")
  expect_error(gdp_mu(S2, 1, 1, control = list()), "`control`")
  expect_error(gdp_mu(S2, 1, 1, control = gdp_control(profile = "paper")), "algorithm1")
  expect_error(gdp_mu(1, 1, 1), "`M`")
  expect_error(gdp_control(n = 0), "`n`")
  expect_error(gdp_control(tol = 0), "`tol`")
  expect_error(gdp_control(nn = 5), "unknown setting `nn`")
  expect_error(gdp_control(epsilon_max = -1), "`epsilon_max`")
  # nearly disjoint laws: the Euclidean asymptote, rounded up (issue 19)
  expect_gte(gdp_mu(S2, 0.05, 3)$mu, 60)
  expect_lte(gdp_mu(S2, 0.05, 3)$mu, 60 * (1 + 1e-9))
  expect_error(privacy_profile(S2, 1, 1, epsilon = -1), "`epsilon`")
})

test_that("print, format, as.numeric and privacy_profile", {
  f <- gdp_mu(manifold_sphere(2), 0.5, 0.3)
  expect_s3_class(f, "riemdp_gdp")
  expect_identical(as.numeric(f), f$mu)
  expect_identical(as.double(f), f$mu)
  expect_output(print(f), "mu = 0\\.57[0-9]* .*manifold_sphere\\(2\\)")
  expect_output(print(f), "quadrature.*relative accuracy 1e-06")
  expect_output(print(f), "supremum over epsilon at epsilon = ")
  set.seed(1)
  m <- gdp_mu(manifold_sphere(2), 0.5, 0.3, method = "monte_carlo", control = gdp_control(m = 10))
  expect_output(print(m), "Monte Carlo standard error")
  expect_true(is.na(f$se) && !is.na(m$se) && is.na(m$accuracy))
  expect_identical(c(m$n, m$m, m$n_epsilon), c(1000L, 10L, 1000L))
  expect_output(print(gdp_control()), "n = 1000, m = 100")
  p <- privacy_profile(manifold_sphere(2), 0.5, 0.3, epsilon = c(0, 0.5, 1))
  expect_s3_class(p, "riemdp_privacy_profile")
  expect_equal(p$l[1], riemdp:::gdp_quadrature_profile_cpp("sphere", 2L, 0.3, 0.5, 0, 0L, 0L, 0L))
  expect_output(print(p), "stays below delta_mu")
  pdf(NULL)
  expect_silent(plot(p))
  dev.off()
  set.seed(3)
  pm <- privacy_profile(manifold_hyperbolic(2), 0.5, 0.3, method = "monte_carlo", control = gdp_control(m = 5, n_epsilon = 50))
  expect_length(pm$l, 51)
  expect_true(all(pm$se >= 0))
})

test_that("Monte Carlo is reproducible; deterministic methods leave .Random.seed alone", {
  set.seed(5)
  a <- gdp_mu(manifold_sphere(3), 0.5, 1, method = "monte_carlo", control = gdp_control(m = 5))
  set.seed(5)
  b <- gdp_mu(manifold_sphere(3), 0.5, 1, method = "monte_carlo", control = gdp_control(m = 5))
  expect_identical(a$mu, b$mu)
  set.seed(6)
  seed <- .Random.seed
  gdp_mu(manifold_sphere(2), 0.5, 1)
  gdp_mu(manifold_sphere(1), 0.5, 1)
  gdp_mu(manifold_euclidean(1), 0.5, 1)
  gdp_sigma(manifold_hyperbolic(2), 1, 1)
  privacy_profile(manifold_sphere(2), 0.5, 1)
  gdp_delta(1, 1)
  expect_identical(.Random.seed, seed)
})

test_that("the (r, angle) loss draws have the law of losses of full exact draws", {
  set.seed(41)
  for (cs in list(list(manifold_sphere(2), c(0, 0, 1), c(sin(0.8), 0, cos(0.8)), "sphere"),
                  list(manifold_hyperbolic(2), c(1, 0, 0), c(cosh(0.8), sinh(0.8), 0), "hyperbolic"))) {
    M <- cs[[1]]
    s <- 0.6
    y <- riem_rgaussian(M, 4000, cs[[2]], s)
    full <- (riem_dist(M, cs[[3]], y)^2 - riem_dist(M, cs[[2]], y)^2) / (2 * s^2)
    fast <- riemdp:::gdp_losses_cpp(cs[[4]], 2L, 0.8, s, 4000L)
    expect_gt(suppressWarnings(ks.test(full, fast))$p.value, 0.001)
    # power: a wrong Delta is rejected
    wrong <- riemdp:::gdp_losses_cpp(cs[[4]], 2L, 1.0, s, 4000L)
    expect_lt(suppressWarnings(ks.test(full, wrong))$p.value, 0.001)
  }
})

test_that("Monte Carlo draws depend on the seed only, not on the number of threads", {
  for (cs in list(list("sphere", 2L), list("hyperbolic", 3L), list("euclidean", 1L))) {
    set.seed(51)
    one <- riemdp:::gdp_losses_cpp(cs[[1]], cs[[2]], 0.8, 0.6, 30000L, threads = 1L)
    set.seed(51)
    two <- riemdp:::gdp_losses_cpp(cs[[1]], cs[[2]], 0.8, 0.6, 30000L, threads = 2L)
    set.seed(51)
    four <- riemdp:::gdp_losses_cpp(cs[[1]], cs[[2]], 0.8, 0.6, 30000L, threads = 4L)
    expect_identical(one, two)
    expect_identical(one, four)
  }
  for (method in c("algorithm2", "monte_carlo")) {
    set.seed(52)
    a <- riemdp:::gdp_mc_cpp("sphere", 2L, 1, 0.5, method, 1000L, 30L, 1000L, 0, 1e-10, c(0.5, 1), threads = 1L)
    set.seed(52)
    b <- riemdp:::gdp_mc_cpp("sphere", 2L, 1, 0.5, method, 1000L, 30L, 1000L, 0, 1e-10, c(0.5, 1), threads = 2L)
    expect_identical(a, b)
  }
})

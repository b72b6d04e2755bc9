# Confidence sets from a private Frechet mean (R/confint.R): coverage
# measured by simulation, post-processing only, the RNG left alone.

test_that("the sampling-plus-noise CDF equals the non-central chi-square law", {
  f <- riemdp:::shifted_gaussian_norm_cdf
  for (d in c(1L, 2L, 3L, 6L)) for (rho in c(0, 0.5, 3, 40)) for (t in c(0.5, 2, 4, 42)) {
    expect_equal(f(t, rho, 1, d), stats::pchisq(t^2, d, ncp = rho^2), tolerance = 1e-6)
    expect_equal(f(0.7 * t, 0.7 * rho, 0.7, d), stats::pchisq(t^2, d, ncp = rho^2), tolerance = 1e-6)
  }
})

test_that("the estimate's ball is the exact noise quantile (R^d closed form; S^2 and H^2 against exact draws)", {
  E3 <- manifold_euclidean(3)
  X <- matrix(rnorm(300, 0, 0.1), 100, 3)
  rel <- dp_frechet_mean(E3, X, epsilon = 1, radius = 1, center = c(0, 0, 0), outside = "clip")
  ci <- confint(rel, level = 0.9)
  expect_identical(ci$target, "estimate")
  expect_equal(ci$radius, stats::qgamma(0.9, 3, scale = rel$sigma), tolerance = 1e-4)
  g <- dp_frechet_mean(E3, X, mu = 1, radius = 1, center = c(0, 0, 0), outside = "clip", mechanism = "gaussian")
  expect_equal(confint(g)$radius, g$sigma * sqrt(stats::qchisq(0.95, 3)), tolerance = 1e-4)
  for (M in list(manifold_sphere(2), manifold_hyperbolic(2))) {
    set.seed(71)
    o <- if (M$type == "sphere") c(0, 0, 1) else c(1, 0, 0)
    X <- riem_rgaussian(M, 20, o, 0.05)
    rel <- dp_frechet_mean(M, X, epsilon = 0.3, radius = 0.5, center = o, outside = "clip")
    expect_gt(rel$sigma, 0.15)  # a law wide enough for the curvature to matter
    ci <- confint(rel)
    # the law of d(release, mean) is the radial law at sigma: exact draws
    D <- riem_dist(M, o, riem_rlaplace(M, 40000, o, rel$sigma))
    expect_equal(ci$radius, unname(stats::quantile(D, 0.95)), tolerance = 0.02)
  }
})

test_that("population sets cover at 95% on model data (public and private dispersion), and are no wider than 1.3x the oracle", {
  skip_on_cran()
  set.seed(72)
  S2 <- manifold_sphere(2)
  m <- riem_exp(S2, c(0, 0, 1), c(0.1, 0, 0))
  # (bench/confint-coverage.R runs the matrix; here one configuration)
  # the K-norm gradient set with the local Hessian bound (kng_local_curvature())
  for (cfg in list(list(n = 200, eps = 1, mech = "laplace"), list(n = 200, eps = 1, mech = "kng"))) {
    n <- cfg$n
    eps <- cfg$eps
    s <- 0.08  # root mean square distance of the population from m (isotropic Gaussian)
    res <- t(vapply(seq_len(400), function(i) {
      X <- riem_rgaussian(S2, n, m, s / sqrt(2))
      rel <- dp_frechet_mean(S2, X, epsilon = 0.9 * eps, radius = 0.5, center = c(0, 0, 1), outside = "clip",
                             mechanism = cfg$mech)
      v <- dp_dispersion(S2, X, epsilon = 0.1 * eps, radius = 0.5, center = c(0, 0, 1), outside = "clip", about = rel)
      pub <- confint(rel, dispersion = s)
      prv <- confint(rel, dispersion = v)
      c(pub = dp_contains(pub, m), prv = dp_contains(prv, m), r_pub = pub$radius, r_prv = prv$radius,
        d = riem_dist(S2, m, rel$estimate))
    }, numeric(5)))
    cov_pub <- mean(res[, "pub"])
    cov_prv <- mean(res[, "prv"])
    # 400 trials: a standard error of 0.011 at 0.95
    expect_true(cov_pub >= 0.93 && cov_pub <= 0.98, info = sprintf("%s, n = %d: public %.3f", cfg$mech, n, cov_pub))
    expect_true(cov_prv >= 0.93, info = sprintf("%s, n = %d: private %.3f", cfg$mech, n, cov_prv))
    # the oracle: the 95% quantile of the release's distance to m over the trials
    oracle <- stats::quantile(res[, "d"], 0.95)
    expect_lte(stats::median(res[, "r_pub"]) / oracle, 1.3, label = paste(cfg$mech, "width / oracle"))
    # an interval that could fail: the set is not trivially large
    expect_gte(stats::median(res[, "r_pub"]) / oracle, 0.8)
  }
})

test_that("the set depends on the release and its public parameters only", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(73)
  A <- riem_rgaussian(S2, 100, north, 0.05)
  B <- riem_rgaussian(S2, 100, riem_exp(S2, north, c(0.2, 0, 0)), 0.1)
  ra <- dp_frechet_mean(S2, A, epsilon = 1, radius = 0.5, center = north, outside = "clip")
  rb <- dp_frechet_mean(S2, B, epsilon = 1, radius = 0.5, center = north, outside = "clip")
  rb$estimate <- ra$estimate  # the same private output from other data
  expect_identical(confint(ra, dispersion = 0.1), confint(rb, dispersion = 0.1))
  expect_identical(confint(ra), confint(rb))
  # deterministic, and the session's generator is left alone (SPD uses draws
  # under an internal seed)
  P2 <- manifold_spd(2)
  set.seed(74)
  Y <- riem_rgaussian(P2, 30, diag(2), 0.1)
  rp <- dp_frechet_mean(P2, Y, epsilon = 1, radius = 1, center = diag(2), outside = "clip")
  seed <- .Random.seed
  c1 <- confint(rp, dispersion = 0.2)
  expect_identical(.Random.seed, seed)
  expect_identical(confint(rp, dispersion = 0.2), c1)
  expect_gt(c1$radius, c1$noise_quantile)
})

test_that("dp_dispersion is an epsilon-DP Laplace release of the mean squared distance, accounted by budgets", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(75)
  X <- riem_rgaussian(S2, 200, north, 0.05)
  v <- dp_dispersion(S2, X, epsilon = 0.5, radius = 0.3, center = north)
  expect_s3_class(v, "riemdp_dispersion_release")
  expect_equal(v$scale, 0.3^2 / 200 / 0.5)
  expect_true(v$estimate >= 0 && v$estimate <= 0.09)
  # the noise is Laplace with that scale: many releases on one data set
  truth <- mean(riem_dist(S2, north, X)^2)
  raw <- vapply(seq_len(4000), function(i) dp_dispersion(S2, X, epsilon = 0.5, radius = 0.3, center = north)$raw, 0)
  z <- (raw - truth) / v$scale
  plap <- function(q) ifelse(q < 0, exp(q) / 2, 1 - exp(-q) / 2)
  expect_gt(suppressWarnings(stats::ks.test(z, plap))$p.value, 0.001)
  # about a private release: distances from its estimate, sensitivity (r + d(c, z))^2 / n
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north)
  va <- dp_dispersion(S2, X, epsilon = 0.5, radius = 0.3, center = north, about = rel)
  R <- 0.3 + riem_dist(S2, north, rel$estimate)
  expect_equal(va$reach, R)
  expect_equal(va$scale, R^2 / 200 / 0.5)
  expect_output(print(va), "private release's estimate", fixed = TRUE)
  expect_error_mentions(dp_dispersion(S2, X, epsilon = 0.5, radius = 0.3, center = north, about = north), "`about`")
  b <- dp_budget(v)
  expect_identical(b$entries$kind, "epsilon-DP")
  expect_identical(b$entries$guarantee_kind, "exact")
  expect_output(print(v), "Laplace mechanism", fixed = TRUE)
  # points outside: an error that names no point, or clipped
  far <- rbind(X, c(1, 0, 0))
  expect_error_mentions(dp_dispersion(S2, far, epsilon = 1, radius = 0.3, center = north), c("outside the ball", "clip"))
  expect_true(is.finite(dp_dispersion(S2, far, epsilon = 1, radius = 0.3, center = north, outside = "clip")$raw))
  expect_error_mentions(dp_dispersion(S2, X, epsilon = -1, radius = 0.3, center = north), "`epsilon`")
  expect_error_mentions(dp_dispersion(S2, X, epsilon = 1, center = north), c("`radius`", "`center`"))
})

test_that("confint() and dp_contains() check their arguments", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(76)
  X <- riem_rgaussian(S2, 50, north, 0.05)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north)
  expect_error_mentions(confint(rel, level = 1.5), "`level`")
  expect_error_mentions(confint(rel, "x"), "`parm`")
  expect_error_mentions(confint(rel, target = "population"), "`dispersion` is required")
  expect_error_mentions(confint(rel, dispersion = -1), "`dispersion`")
  expect_error_mentions(confint(rel, dispersion = dp_dispersion(S2, X[1:40, ], epsilon = 1, radius = 0.3, center = north)),
                        c("40", "50", "same data"))
  ci <- confint(rel, dispersion = 0.05)
  # any finite dispersion: the whole sphere at most, an error naming it where the radius overflows
  huge <- confint(rel, dispersion = 1e308)
  expect_identical(huge$radius, pi)
  expect_true(dp_contains(huge, -north))
  expect_lt(confint(rel, dispersion = 1e3)$radius, pi + 1e-12)
  E2 <- manifold_euclidean(2)
  set.seed(77)
  lin_rel <- dp_frechet_mean(E2, matrix(rnorm(100, sd = 0.5), 50), epsilon = 1, radius = 3, center = c(0, 0), outside = "clip")
  wide <- confint(lin_rel, dispersion = 1e300)
  expect_true(is.finite(wide$radius))
  expect_equal(wide$radius / (1e300 / sqrt(100)), sqrt(qchisq(0.95, 2)), tolerance = 1e-6)
  E1 <- manifold_euclidean(1)
  expect_error_mentions(dp_frechet_mean(E1, c(0.1, -0.2), epsilon = 1, radius = 3, center = 0),
                        c("1 column ", "cbind\\(X\\)"))
  two <- dp_frechet_mean(E1, cbind(c(0.1, -0.2)), epsilon = 1, radius = 3, center = 0)
  expect_error_mentions(confint(two, dispersion = .Machine$double.xmax), c("`dispersion`", "too large"))
  # tiny dispersions: the noise quantile (no quadrature overflow); a level the quadrature cannot resolve names `level`
  expect_equal(confint(rel, dispersion = 1e-160)$radius, confint(rel)$radius, tolerance = 1e-12)
  radii <- vapply(c(0, 1e-160, 1e-10, 1e-4, 1e-2, 0.1), function(s) confint(rel, dispersion = s)$radius, 0)
  expect_true(all(radii >= radii[1] - 1e-12))
  expect_error_mentions(confint(rel, level = 1 - 1e-9, dispersion = 0.1), c("`level`", "too close to 1"))
  # the circle (curvature 0): no local bound, any dispersion
  S1 <- manifold_sphere(1)
  k1 <- dp_frechet_mean(S1, riem_rgaussian(S1, 100, c(1, 0), 0.05), epsilon = 1, radius = 0.3, center = c(1, 0),
                        mechanism = "kng")
  expect_identical(confint(k1, dispersion = 1e155)$radius, pi)
  expect_error_mentions(dp_contains(list(), north), "`set`")
  expect_identical(dp_contains(ci, rbind(rel$estimate, -rel$estimate)), c(TRUE, FALSE))
  expect_output(print(ci), "population Fr\u00e9chet mean", fixed = TRUE)
  relk <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north, mechanism = "kng")
  k <- confint(relk)
  # with a dispersion, the estimate's ball uses the local Hessian bound too: never wider than without
  k_local <- confint(relk, target = "estimate", dispersion = 0.05)
  expect_lte(k_local$radius, k$radius)
  expect_lte(confint(relk, dispersion = 0.05)$radius, confint(relk, dispersion = 0.05, level = 0.99)$radius)
  expect_true(k$approximate)
  expect_lte(k$radius, 0.6)
  expect_output(print(k), "linearised K-norm law", fixed = TRUE)
  lin <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200)
  expect_error_mentions(confint(lin), c("`moments` is required", "dp_regression_moments\\(\\)"))
})

test_that("plot() of a release draws its confidence set", {
  S2 <- manifold_sphere(2)
  north <- c(0, 0, 1)
  set.seed(77)
  X <- riem_rgaussian(S2, 80, north, 0.05)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = 0.3, center = north)
  ci <- confint(rel, dispersion = 0.05)
  expect_plots_quietly(rel, set = ci)
  expect_plots_quietly(rel, set = ci, view = "lonlat")
  P2 <- manifold_spd(2)
  Y <- riem_rgaussian(P2, 30, diag(2), 0.1)
  rp <- dp_frechet_mean(P2, Y, epsilon = 1, radius = 1, center = diag(2), outside = "clip")
  expect_plots_quietly(rp, set = confint(rp))
  expect_error_mentions(plot(rel, set = confint(rp)), "`set`")
})

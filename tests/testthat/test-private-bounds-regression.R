# Private bounds for the regressions (dp_regression_bounds(),
# dp_geodesic_regression(bounds = ), dp_linear_regression(bounds = )): the
# privacy audit of each new stage, the composed guarantee and its
# accounting, bad input, reproducibility, and bounds = NULL unchanged.

# draw_freq() and audit_excess(): helper-privacy.R.

tonga_like <- function(n, seed) {
  # a cloud on S^2 drifting with a covariate in [40, 680]
  set.seed(seed)
  S2 <- manifold_sphere(2)
  x <- stats::runif(n, 40, 680)
  p <- c(cos(-0.35) * cos(3.2), cos(-0.35) * sin(3.2), sin(-0.35))
  v <- riem_project(S2, p)
  v <- c(-sin(3.2), cos(3.2), 0) * 0.15
  truth <- riem_geodesic(S2, p, v, (x - 40) / 640)
  Y <- riem_project(S2, truth + matrix(stats::rnorm(3 * n, sd = 0.04), n))
  list(S2 = S2, x = x, Y = Y)
}

test_that("dp_regression_bounds() refuses bad settings; a plain dp_bounds() is accepted", {
  for (s in list(0, 1, -0.1, 1.5, NA_real_))
    expect_error(dp_regression_bounds(share = s), "`share` must be a single number strictly between 0 and 1", fixed = TRUE)
  expect_error(dp_regression_bounds(x_fractions = c(0.8, 0.2)), "`x_fractions`")
  expect_error(dp_regression_bounds(weights = c(range = 1)), "`weights`")
  expect_error(dp_regression_bounds(tau_method = "oracle"), "tau_method")
  expect_error(dp_regression_bounds(y_limits = c(1, 0)), "y_limits")
  expect_error(dp_regression_bounds(fence = -1), "`fence`")
  spec <- dp_regression_bounds(x_limits = c(0, 700))
  expect_s3_class(spec, c("riemdp_regression_bounds_spec", "riemdp_bounds_spec"))
  expect_output(print(spec), "share of the total epsilon: 0.2")
  expect_output(print(spec), "covariate range in 0 700")
  up <- riemdp:::as_regression_bounds_spec(dp_bounds(share = 0.25), NULL)
  expect_equal(up$share, 0.25)
  expect_equal(up$fraction, 0.5)
  expect_identical(up$tau_method, "spread")
})

test_that("covariate range stage audit: within epsilon, and a 10x mechanism fails", {
  g <- c(0, 1, 2, 3, 4)
  # adjacent datasets: one value moved from the bottom to the top
  x1 <- c(0.5, 1.5, 1.5, 2.5, 2.5, 3.5)
  x2 <- c(3.5, 1.5, 1.5, 2.5, 2.5, 3.5)
  eps <- 0.5
  # each outcome (a pair of grid points, fences off) as one label
  lab <- function(r) as.integer(match(r[1], g) * 10L + match(r[2], g))
  draw <- function(x, f) lab(riemdp:::bounds_range_stage(x, g, c(0.25, 0.75), eps, 0, eps_factor = f))
  n_draws <- 20000
  set.seed(201)
  f1 <- tabulate(replicate(n_draws, draw(x1, 1)), 55)
  f2 <- tabulate(replicate(n_draws, draw(x2, 1)), 55)
  expect_lt(audit_excess(f1, f2)$lower, eps)
  f1b <- tabulate(replicate(n_draws, draw(x1, 10)), 55)
  f2b <- tabulate(replicate(n_draws, draw(x2, 10)), 55)
  expect_gt(audit_excess(f1b, f2b)$lower, eps)
  # the utility has sensitivity 1
  u1 <- riemdp:::bounds_quantile_utility(x1, g, 0.25)
  u2 <- riemdp:::bounds_quantile_utility(x2, g, 0.25)
  expect_lte(max(abs(u1 - u2)), 1)
  # fences: post-processing within the wide range
  set.seed(202)
  r <- riemdp:::bounds_range_stage(x1, g, c(0.25, 0.75), 100, 1.5)
  expect_true(r[1] >= 0 && r[2] <= 4 && r[1] < r[2])
})

test_that("soft-count location stage audit: within epsilon, and a 10x mechanism fails", {
  S2 <- manifold_sphere(2)
  A <- c(1, 0, 0); B <- c(0, 1, 0); C <- c(0, 0, 1)
  spec <- dp_regression_bounds(candidates = rbind(A, B, C), count_radius = 0.3)
  eps <- 0.2
  D1 <- rbind(A, B, B, B, B)
  D2 <- rbind(B, B, B, B, B)
  plan <- riemdp:::bounds_plan(S2, spec, 100, eps, NULL, 0.1, NULL)
  S1 <- riemdp:::as_points(S2, D1, "X"); S2s <- riemdp:::as_points(S2, D2, "X")
  u1 <- riemdp:::bounds_soft_counts(S2, S1, plan$candidates, 0.3)
  u2 <- riemdp:::bounds_soft_counts(S2, S2s, plan$candidates, 0.3)
  expect_equal(u1, c(1, 4, 0))
  expect_lte(max(abs(u1 - u2)), 1)
  # a point at half the count radius adds one half
  half <- riem_exp(S2, A, c(0, 0.15, 0))
  expect_equal(riemdp:::bounds_soft_counts(S2, riemdp:::as_points(S2, rbind(half), "X"), plan$candidates, 0.3)[1],
               0.5, tolerance = 1e-12)
  n_draws <- 20000
  set.seed(203)
  f1 <- draw_freq(function() riemdp:::regression_location_stage(S2, S1, plan), 3, n_draws)
  f2 <- draw_freq(function() riemdp:::regression_location_stage(S2, S2s, plan), 3, n_draws)
  expect_lt(audit_excess(f1, f2)$lower, eps)
  f1b <- draw_freq(function() riemdp:::regression_location_stage(S2, S1, plan, eps_factor = 10), 3, n_draws)
  f2b <- draw_freq(function() riemdp:::regression_location_stage(S2, S2s, plan, eps_factor = 10), 3, n_draws)
  expect_gt(audit_excess(f1b, f2b)$lower, eps)
})

test_that("residual quantile stage (tau_method = \"coarse\") audit: within epsilon, and a 10x mechanism fails", {
  radii <- c(0.1, 0.2, 0.4)
  r1 <- c(0.05, 0.15, 0.15, 0.3)
  r2 <- c(0.5, 0.15, 0.15, 0.3)
  eps <- 0.4
  lab <- function(v) match(v, radii)
  n_draws <- 20000
  set.seed(204)
  f1 <- draw_freq(function() lab(riemdp:::bounds_residual_stage(r1, radii, 0.5, eps)), 3, n_draws)
  f2 <- draw_freq(function() lab(riemdp:::bounds_residual_stage(r2, radii, 0.5, eps)), 3, n_draws)
  expect_lt(audit_excess(f1, f2)$lower, eps)
  f1b <- draw_freq(function() lab(riemdp:::bounds_residual_stage(r1, radii, 0.5, eps, 10)), 3, n_draws)
  f2b <- draw_freq(function() lab(riemdp:::bounds_residual_stage(r2, radii, 0.5, eps, 10)), 3, n_draws)
  expect_gt(audit_excess(f1b, f2b)$lower, eps)
})

test_that("geodesic regression: one composed guarantee, the sum, charged by dp_budget()", {
  d <- tonga_like(800, 205)
  set.seed(206)
  rel <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = dp_regression_bounds(x_limits = c(0, 700)))
  expect_s3_class(rel, "riemdp_regression_release")
  expect_equal(rel$epsilon, 1)
  expect_equal(rel$epsilon_release, 0.8)
  expect_equal(sum(rel$bounds_stages$epsilon) + rel$epsilon_release, 1)
  expect_identical(rel$bounds_stages$bound, c("x_range", "center", "radius"))
  expect_equal(rel$bounds_stages$epsilon, c(0.2 * 0.2 / 0.5, 0.2 * 0.3 / 0.5 * 0.5, 0.2 * 0.3 / 0.5 * 0.5))
  expect_equal(rel$sigma, 2 * sensitivity_geodesic_regression(d$S2, 800, rel$tau, rel$tau_m)[["joint"]] / 0.8)
  expect_equal(rel$tau_m, 2 * rel$radius / 1.5)
  expect_true(rel$x_range[1] >= 0 && rel$x_range[2] <= 700)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "1-DP (pure epsilon-DP) in total, the sum of its 4 stages", fixed = TRUE)
  expect_match(out, "[1] private covariate range, 0.08-DP", fixed = TRUE)
  expect_match(out, "[4] the regression, 0.8-DP", fixed = TRUE)
  expect_match(out, "soft counts", fixed = TRUE)
  expect_match(out, "clipped", fixed = TRUE)
  expect_equal(length(gregexpr("Guarantee:", out, fixed = TRUE)[[1]]), 1L)
  expect_equal(dp_budget(rel)$spent, 1)
  expect_output(print(summary(rel)), "found privately: x_range, center, radius, tau, tau_m", fixed = TRUE)
  b <- dp_spend(dp_budget(total = c(epsilon = 1)), rel)
  expect_error(dp_spend(b, epsilon = 0.01), "would exceed the budget")
  # the coarse route: six stages, still the sum
  set.seed(207)
  rc <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1,
                               bounds = dp_regression_bounds(x_limits = c(0, 700), tau_method = "coarse"))
  expect_identical(rc$bounds_stages$bound, c("x_range", "center", "radius", "coarse", "tau"))
  expect_equal(rc$epsilon, 1)
  expect_equal(sum(rc$bounds_stages$epsilon) + rc$epsilon_release, 1)
  # stated bounds are used as given; the rest found
  set.seed(208)
  rs <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, x_range = c(0, 700), tau = 0.1,
                               bounds = dp_regression_bounds())
  expect_identical(rs$x_range, c(0, 700))
  expect_identical(rs$tau, 0.1)
  expect_identical(rs$bounds_stages$bound, c("center", "radius"))
  expect_equal(rs$bounds_stages$epsilon, c(0.1, 0.1))
})

test_that("linear regression: composed guarantee, stated bounds kept, dp_budget() charges the total", {
  set.seed(209)
  n <- 800
  x <- stats::runif(n, 10, 90); z <- stats::runif(n, 0, 5)
  dat <- data.frame(y = 3 + 0.05 * x - 0.4 * z + stats::rnorm(n, sd = 0.3), x = x, z = z)
  spec <- dp_regression_bounds(share = 0.5, x_limits = list(x = c(0, 200), z = c(-10, 10)), y_limits = c(-20, 20))
  set.seed(210)
  rel <- dp_linear_regression(y ~ x + z, dat, epsilon = 1, bounds = spec)
  expect_s3_class(rel, "riemdp_linear_release")
  expect_equal(rel$epsilon, 1)
  expect_equal(sum(rel$bounds_stages$epsilon) + rel$epsilon_release, 1)
  expect_identical(rel$bounds_stages$bound, c("x_range", "x_range", "y_range"))
  expect_equal(rel$sigma, 2 * 2 * rel$tau * sqrt(3) / n / 0.5)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "1-DP (pure epsilon-DP) in total, the sum of its 4 stages", fixed = TRUE)
  expect_match(out, "beta_max = max(|lower|, |upper|) + (upper - lower)", fixed = TRUE)
  expect_equal(dp_budget(rel)$spent, 1)
  set.seed(211)
  rk <- dp_linear_regression(y ~ x + z, dat, epsilon = 1, tau = 1, beta_max = 20,
                             bounds = dp_regression_bounds(x_limits = list(x = c(0, 200), z = c(-10, 10))))
  expect_identical(rk$tau, 1)
  expect_identical(rk$beta_max, 20)
  expect_identical(rk$bounds_stages$bound, c("x_range", "x_range"))
  set.seed(212)
  rc <- dp_linear_regression(y ~ x + z, dat, epsilon = 1, x_range = list(x = c(0, 100), z = c(0, 5)),
                             bounds = dp_regression_bounds(share = 0.5, y_limits = c(-20, 20), tau_method = "coarse"))
  expect_identical(unname(rc$x_range[, "x"]), c(0, 100))
  expect_identical(rc$bounds_stages$bound, c("y_range", "coarse", "tau"))
  expect_equal(sum(rc$bounds_stages$epsilon) + rc$epsilon_release, 1)
})

test_that("bad input: public errors, before the data are used; covariates outside are clipped", {
  d <- tonga_like(60, 213)
  spec <- dp_regression_bounds(x_limits = c(0, 700))
  # n too small to localise: the same message whatever the data
  d2 <- tonga_like(60, 214)
  e1 <- tryCatch(dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = spec), error = conditionMessage)
  e2 <- tryCatch(dp_geodesic_regression(d$S2, rev(d2$x), d2$Y[, c(2, 1, 3)], epsilon = 1, bounds = spec),
                 error = conditionMessage)
  expect_match(e1, "n = 60 is too small", fixed = TRUE)
  expect_identical(e1, e2)
  d <- tonga_like(600, 215)
  expect_error(dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = dp_regression_bounds()), "x_limits")
  expect_error(dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = list(share = 0.2)), "specification")
  expect_error(dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, scheme = "paper", bounds = spec), "joint")
  expect_error(dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, tau = 0.1, tau_m = 0.2, x_range = c(0, 700),
                                      center = c(0, 0, 1), radius = 0.3, bounds = spec), "nothing to find")
  expect_error(dp_geodesic_regression(d$S2, d$x, d$Y, bounds = spec), "epsilon")
  expect_error(dp_linear_regression(mpg ~ wt, mtcars, epsilon = 1, bounds = dp_regression_bounds(x_limits = c(1, 6))),
               "y_limits")
  # covariates outside the wide range and the private range: clipped, no error, no warning
  x <- d$x
  x[1:5] <- c(-100, 900, 5000, 701, -1)
  set.seed(216)
  rel <- expect_silent(dp_geodesic_regression(d$S2, x, d$Y, epsilon = 1, bounds = spec))
  expect_true(all(is.finite(rel$footpoint)))
  # worst-case checks before the data: the same public error for any data
  # (a region 21 from the origin of H^2: no room for a resolved radius)
  H <- manifold_hyperbolic(2)
  far <- c(cosh(21), sinh(21), 0)
  hb <- dp_regression_bounds(x_limits = c(0, 700), region_center = far, region_radius = 3, count_radius = 0.5)
  Yh1 <- riem_exp(H, far, riem_transport(H, c(1, 0, 0), far, cbind(0, matrix(stats::rnorm(1200, sd = 0.1), 600))))
  Yh2 <- riem_exp(H, far, riem_transport(H, c(1, 0, 0), far, cbind(0, matrix(stats::rnorm(1200, sd = 1), 600))))
  h1 <- tryCatch(dp_geodesic_regression(H, d$x, Yh1, epsilon = 1, bounds = hb), error = conditionMessage)
  h2 <- tryCatch(dp_geodesic_regression(H, rev(d$x), Yh2, epsilon = 1, bounds = hb), error = conditionMessage)
  # (the public region itself reaches beyond what double precision resolves:
  # the region's check, naming `region_radius`, comes first)
  expect_match(h1, "`region_radius` = 3 is too large on manifold_hyperbolic(2)", fixed = TRUE)
  expect_identical(h1, h2)
  # near the origin the responses' radii stop where the worst geodesic is
  # resolved, and the route runs: cosh(d(o, c0) + R + 7 r) within 1e-6 / eps
  hb0 <- dp_regression_bounds(x_limits = c(0, 700), region_center = c(1, 0, 0), region_radius = 3, count_radius = 0.5)
  expect_equal(riemdp:::regression_radius_max(H, hb0, list(center = list(x = c(1, 0, 0)), radius = 3), NULL, NULL, NULL, NULL),
               (0.99 * acosh(1e-6 / .Machine$double.eps) - 3) / 7)
  set.seed(219)
  rh <- dp_geodesic_regression(H, d$x, Yh1 <- riem_exp(H, c(1, 0, 0), cbind(0, matrix(stats::rnorm(1200, sd = 0.1), 600))),
                               epsilon = 1, bounds = hb0)
  expect_identical(rh$bounds_stages$bound, c("x_range", "center", "radius"))
  expect_lt(riem_dist(H, c(1, 0, 0), rh$footpoint_range), 0.5)
  # a plain dp_bounds() specification works with the regression defaults
  set.seed(218)
  rp <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, x_range = c(0, 700), bounds = dp_bounds(share = 0.3))
  expect_equal(rp$epsilon, 1)
  expect_identical(rp$bounds_stages$bound, c("center", "radius"))
  # and on the sphere with a stated covariate range too
  set.seed(217)
  expect_silent(dp_geodesic_regression(d$S2, x, d$Y, epsilon = 1, x_range = c(100, 600), bounds = spec))
})

test_that("set.seed() reproduces; bounds = NULL leaves releases bit-identical", {
  d <- tonga_like(600, 218)
  spec <- dp_regression_bounds(x_limits = c(0, 700))
  set.seed(7); a <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = spec)
  set.seed(7); b <- dp_geodesic_regression(d$S2, d$x, d$Y, epsilon = 1, bounds = spec)
  expect_identical(a$footpoint, b$footpoint)
  expect_identical(a[c("tau", "tau_m", "x_range", "radius", "center")], b[c("tau", "tau_m", "x_range", "radius", "center")])
  # reference values from the package before the route existed (the chains
  # at the length the default had then: 350 + 350 steps for D = 4, 325 + 325 for D = 3)
  S2 <- manifold_sphere(2)
  set.seed(31); x <- stats::runif(60)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(stats::rnorm(180, sd = 0.02), 60))
  set.seed(32); g <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                            center = c(0, 0, 1), radius = 0.5, bounds = NULL,
                                            control = mcmc_control(burn_in = 350, n_iter = 350, verbose = FALSE))
  set.seed(33); l <- dp_linear_regression(mpg ~ wt + hp, mtcars, epsilon = 1, tau = 5,
                                          x_range = list(wt = c(1, 6), hp = c(50, 350)), beta_max = 50,
                                          control = mcmc_control(burn_in = 325, n_iter = 325, verbose = FALSE))
  expect_identical(unname(c(g$footpoint, g$shooting, coef(l))),
                   c(0.24051847706035565, -0.29388898489316129, 0.92508384849754799,
                     -0.17614037905918475, 0.79054818688864614, 0.29694434760711352,
                     -10.264938158772802, 9.6072975258194511, -0.034747462790247673))
  expect_null(g$bounds_stages)
  expect_null(l$bounds_stages)
  # and outside the route, covariates outside x_range are still an error
  expect_error(dp_linear_regression(mpg ~ wt, mtcars, epsilon = 1, tau = 5, x_range = c(2, 3), beta_max = 50),
               "outside its public range")
})

test_that("spd and kendall: the footpoint's centre from the spd net or a coarse private mean of the responses", {
  skip_on_cran()
  set.seed(301)
  d <- conf_geodesic_data("spd(2)", 2000, 0, 1.1, noise = 0.05)
  P <- d$M
  spec <- dp_regression_bounds(x_limits = d$x_range, region_center = diag(2), region_radius = 3)
  set.seed(302)
  rel <- dp_geodesic_regression(P, d$x, d$Y, epsilon = 5, bounds = spec)
  expect_identical(rel$bounds_stages$bound, c("x_range", "center", "radius"))
  expect_equal(sum(rel$bounds_stages$epsilon) + rel$epsilon_release, 5)
  out <- gsub("\\s+", " ", paste(capture.output(print(rel)), collapse = " "))
  expect_match(out, "multiples", fixed = TRUE)
  # the responses' radii stop where the worst geodesic is still resolved:
  # cond(c) exp(2 (1.5 x 2 r + 2 x 2 r)) = 0.99 (1e-6 / eps) at r = rmax
  # around a candidate exp(t) c0 (c0's conditioning), and for a coarse centre
  # anywhere in B_R(c0), exp(2 (R + 7 r))
  region <- list(center = list(x = as.double(diag(2))), radius = 3)
  rmax <- riemdp:::regression_radius_max(P, spec, region, NULL, NULL, NULL, NULL)
  expect_equal(rmax, (0.99 * log(1e-6 / .Machine$double.eps) / 2) / 7)
  expect_lte(rel$radius, 1.5 * 2 * rmax + 1e-12)
  spec_c <- dp_regression_bounds(x_limits = d$x_range, region_center = diag(2), region_radius = 3, location = "coarse")
  expect_equal(riemdp:::regression_radius_max(P, spec_c, region, NULL, NULL, NULL, NULL),
               (0.99 * log(1e-6 / .Machine$double.eps) / 2 - 3) / 7)
  set.seed(306)
  rc <- dp_geodesic_regression(P, d$x, d$Y, epsilon = 5, bounds = spec_c)
  expect_match(gsub("\\s+", " ", paste(capture.output(print(rc)), collapse = " ")), "coarse private Fr\u00e9chet mean",
               fixed = TRUE)
  expect_lt(riem_dist(P, d$p0, rc$footpoint_range), 0.3)
  # stated radius and tau_m leave less room; none left is a public error
  expect_equal(riemdp:::regression_radius_max(P, spec_c, region, NULL, 5, NULL, NULL),
               (0.99 * log(1e-6 / .Machine$double.eps) / 2 - 8) / 4)
  expect_null(riemdp:::regression_radius_max(P, spec_c, region, NULL, 1, 2, NULL))
  expect_error(riemdp:::regression_radius_max(P, spec_c, region, NULL, 9, NULL, NULL), "no room")
  # statistics: the private footpoint is near the fit's at this n and epsilon
  expect_lt(riem_dist(P, d$p0, rel$footpoint_range), 0.3)
  # a stated radius is kept while the centre is found
  set.seed(305)
  r1 <- dp_geodesic_regression(P, d$x, d$Y, epsilon = 5, radius = 1, bounds = spec)
  expect_identical(r1$radius, 1)
  expect_identical(r1$bounds_stages$bound, c("x_range", "center", "radius", "coarse", "tau"))
  # without a public region the route cannot find the centre: a public error
  expect_error(dp_geodesic_regression(P, d$x, d$Y, epsilon = 5, bounds = dp_regression_bounds(x_limits = d$x_range)),
               "needs a public region")
  # Kendall's shapes (rats-like): a template and a region below r* = pi/8
  set.seed(303)
  dk <- conf_geodesic_data("kendall(8)", 1000, 0, 1.1, noise = 0.005)
  set.seed(304)
  rk <- dp_geodesic_regression(dk$M, dk$x, dk$Y, epsilon = 5,
                               bounds = dp_regression_bounds(x_limits = dk$x_range, region_center = dk$p0,
                                                             region_radius = 0.3))
  expect_identical(rk$bounds_stages$bound, c("x_range", "center", "radius"))
  expect_lt(riem_dist(dk$M, dk$p0, rk$footpoint_range), 0.3)
})

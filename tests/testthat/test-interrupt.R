# Ctrl-C: every long loop of the core checks for interrupts (issue 6, item
# 10). A child R process loads the package from the library under test, runs
# a call that would take minutes, and gets SIGINT once it has started; it
# must exit within a few seconds (the target is 0.5 s; before the checks the
# chains ran to their end, ~60 s and more).

test_that("a long Metropolis-Hastings chain stops within seconds of SIGINT", {
  skip_on_cran()
  skip_on_os("windows")
  # ~2e9 MH steps: minutes of work
  res <- time_to_exit_after_sigint(
    "x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 0, thin = 2e9))")
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

test_that("a long chain with a progress bar stops within seconds of SIGINT and ends its bar", {
  skip_on_cran()
  skip_on_os("windows")
  # cli's "logger" handler writes each event of the bar to standard output:
  # the bar must have been added (it was up when SIGINT came) and terminated.
  res <- time_to_exit_after_sigint(c(
    "options(cli.progress_show_after = 0, cli.progress_handlers_only = 'logger')",
    "x <- riem_rlaplace(manifold_sphere(2), 1, c(0, 0, 1), 0.3, method = 'mh', control = mcmc_control(burn_in = 0, thin = 2e9, verbose = TRUE))"),
    delay = 1.5, output = TRUE)
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
  expect_true(any(grepl("added", res$output)))
  expect_true(any(grepl("terminated", res$output)))
})

test_that("a long K-norm gradient release stops within seconds of SIGINT", {
  skip_on_cran()
  skip_on_os("windows")
  res <- time_to_exit_after_sigint(c(
    "S2 <- manifold_sphere(2)",
    "X <- riem_rgaussian(S2, 200, c(0, 0, 1), 0.05)",
    "X <- X[riem_dist(S2, c(0, 0, 1), X) < pi / 8, ]",
    "r <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = c(0, 0, 1), mechanism = 'kng', method = 'mh', control = mcmc_control(n_iter = 2e9))"))
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

test_that("long exact draws stop within seconds of SIGINT, worker threads included", {
  skip_on_cran()
  skip_on_os("windows")
  # 2 x 10^7 draws on SPD(1) (the exact route, two threads): ~15 s, 160 MB
  res <- time_to_exit_after_sigint(
    "x <- riem_rgaussian(manifold_spd(1), 2e7, matrix(1), 0.5)")
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

test_that("a long geodesic regression stops within seconds of SIGINT", {
  skip_on_cran()
  skip_on_os("windows")
  # 3 x 10^5 matrices on SPD(3): ~1 s to draw, ~10 s to fit; SIGINT at 3 s
  res <- time_to_exit_after_sigint(c(
    "P3 <- manifold_spd(3)",
    "Y <- riem_rgaussian(P3, 3e5, diag(3), 0.3)",
    "fit <- geodesic_regression(P3, runif(3e5), Y, tol = 1e-300)"), delay = 3)
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

test_that("a long Frechet median stops within seconds of SIGINT, inside a pass over the data", {
  skip_on_cran()
  skip_on_os("windows")
  # 10^5 matrices on SPD(10) (2000 drawn, repeated): each pass over the data
  # ~1 s, the run tens of seconds; SIGINT at 2 s
  res <- time_to_exit_after_sigint(c(
    "P <- manifold_spd(10)",
    "Y <- riem_rgaussian(P, 2000, diag(10), 1)[, , rep(1:2000, 50)]",
    "fit <- frechet_median(P, Y, weights = rep(1:2, 5e4), max_iter = 1e6, tol = 1e-300)"), delay = 2)
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

test_that("a long distance matrix stops within seconds of SIGINT, worker threads included", {
  skip_on_cran()
  skip_on_os("windows")
  # 4.5 x 10^6 pairs on SPD(10): ~10 us each, tens of seconds; SIGINT at 2 s
  res <- time_to_exit_after_sigint(c(
    "P <- manifold_spd(10)",
    "D <- riem_dist_matrix(P, riem_rgaussian(P, 3000, diag(10), 1))"), delay = 2)
  expect_lt(res$elapsed, 5)
  expect_false(res$finished)
})

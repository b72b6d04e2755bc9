# The worked numbers of the "Choosing the public parameters" sections of
# ?dp_frechet_mean, ?dp_geodesic_regression and ?dp_linear_regression, and
# the claim of its "How large n must be" table, recomputed from the functions.

test_that("the help pages' worked sensitivities are what the functions give", {
  S2 <- manifold_sphere(2)
  deg <- pi / 180
  sigma <- function(r) 2 * sensitivity_frechet_mean(S2, 795, r)   # epsilon = 1
  expect_equal(signif(sensitivity_frechet_mean(S2, 795, 10 * deg), 2), 4.8e-4)
  expect_equal(signif(sigma(10 * deg), 2), 9.5e-4)
  expect_equal(round(6371 * sigma(10 * deg), 1), 6.1)
  expect_equal(round(6371 * sigma(20 * deg)), 16)
  expect_equal(round(sigma(20 * deg) / sigma(10 * deg), 1), 2.6)
  expect_equal(round(sigma(40 * deg) / sigma(10 * deg)), 26)
  # the Laplace draw's distance on S^2 is about Gamma(2, sigma): median 1.68 sigma
  expect_equal(round(qgamma(0.5, 2), 1), 1.7)

  P3 <- manifold_spd(3)
  expect_equal(round(range(riem_dist(P3, diag(3), eustock_cov)), 1), c(1.1, 3.9))
  expect_equal(round(2 * sensitivity_frechet_mean(P3, 92, 4), 2), 0.17)

  reg <- function(tau) sensitivity_geodesic_regression(S2, 795, tau)[["joint"]]
  expect_equal(signif(reg(0.1), 2), 3.6e-4)
  expect_equal(signif(2 * reg(0.1), 2), 7.1e-4)
  expect_equal(reg(0.2), 2 * reg(0.1))
  expect_equal(signif(sensitivity_geodesic_regression(P3, 92, 0.5, 1, bound = "poster")[["joint"]], 2), 0.051)
  expect_equal(signif(sensitivity_geodesic_regression(P3, 92, 0.5, 1)[["joint"]], 2), 0.018)  # the default, "jacobi"

  E1 <- manifold_euclidean(1)
  lin <- sensitivity_geodesic_regression(E1, 32, 5)[["joint"]]   # 2 tau sqrt(1 + m) / n, m = 1
  expect_equal(lin, 2 * 5 * sqrt(2) / 32)
  expect_equal(round(c(lin, 2 * lin), 2), c(0.44, 0.88))
})

test_that("dp_linear_regression is near lm() at n epsilon = 10000 and spread over its box at n = 32", {
  # the claim of ?dp_linear_regression's table (bench/linear-n-needed.R)
  set.seed(20)
  fit0 <- lm(mpg ~ wt, mtcars)
  wt <- runif(10000, 1.5, 5.5)
  big <- data.frame(wt = wt, mpg = coef(fit0)[[1]] + coef(fit0)[[2]] * wt + rnorm(10000, 0, sigma(fit0)))
  release_intercepts <- function(d, k) {
    replicate(k, coef(dp_linear_regression(mpg ~ wt, d, epsilon = 1, tau = 5, x_range = c(1, 6), beta_max = 50))[[1]])
  }
  err_big <- median(abs(release_intercepts(big, 10) - coef(lm(mpg ~ wt, big))[[1]]))
  err_small <- median(abs(release_intercepts(mtcars, 20) - coef(fit0)[[1]]))
  expect_lt(err_big, 0.5)     # the table: 0.054
  expect_gt(err_small, 5)     # the table: 23
})

test_that("the stored releases of vignette('choosing-bounds') are installed", {
  path <- system.file("extdata", "choosing-bounds.rds", package = "riemdp")
  expect_true(nzchar(path))
  cb <- readRDS(path)
  expect_setequal(unique(cb$linear$bound), c("tau", "beta_max", "x_range"))
  expect_setequal(unique(cb$linear$epsilon), c(1, 0.1))
  expect_true(all(is.finite(as.matrix(cb$linear[, -1]))))
})

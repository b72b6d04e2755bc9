# Releases and mu-GDP accounting (issue 9): the Gaussian mechanism calibrated
# to a target mu through gdp_sigma(), the mu a given sigma achieves, and the mu
# an epsilon-DP release implies.

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)
ball_data <- function(n, seed) {
  set.seed(seed)
  X <- riem_rgaussian(S2, 4 * n, north, 0.1)
  X[riem_dist(S2, north, X) < pi / 8, ][seq_len(n), ]
}

test_that("a Gaussian release with mu = 1 on sphere(2) uses gdp_sigma()'s sigma and names mu", {
  X <- ball_data(30, 1)
  rel <- dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", mu = 1)
  Delta <- sensitivity_frechet_mean(S2, n = 30, radius = pi / 8)
  s <- gdp_sigma(S2, 1, Delta)
  expect_identical(rel$sigma, as.double(s))
  expect_equal(rel$sensitivity, Delta)
  expect_true(rel$mu <= 1 && rel$mu > 1 - 1e-4)
  expect_equal(rel$guarantee, "mu-GDP")
  out <- paste(capture.output(print(rel)), collapse = " ")
  expect_match(out, "mu-GDP with mu = ")
  expect_match(out, sprintf("sigma = %s", format(rel$sigma, digits = 4)), fixed = TRUE)
  # sigma comes from public parameters only: another data set of the same size, the same sigma
  rel2 <- dp_frechet_mean(S2, ball_data(30, 2), radius = pi / 8, center = north, mechanism = "gaussian", mu = 1)
  expect_identical(rel2$sigma, rel$sigma)
  # a smaller mu needs more noise
  rel3 <- dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", mu = 0.5)
  expect_gt(rel3$sigma, rel$sigma)
})

test_that("a Gaussian release given sigma reports the mu gdp_mu() computes", {
  X <- ball_data(20, 3)
  Delta <- sensitivity_frechet_mean(S2, n = 20, radius = pi / 8)
  rel <- dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", sigma = 0.3)
  expect_equal(rel$mu, as.double(gdp_mu(S2, 0.3, Delta)))
  E3 <- manifold_euclidean(3)
  set.seed(4)
  Y <- matrix(runif(60, -1, 1), 20)
  relE <- dp_frechet_mean(E3, Y, radius = 2, center = c(0, 0, 0), mechanism = "gaussian", sigma = 0.5)
  expect_equal(relE$mu, relE$sensitivity / 0.5, tolerance = 1e-12)
  expect_match(paste(capture.output(print(relE)), collapse = " "), "Delta/sigma")
  H2 <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  set.seed(5)
  Z <- riem_rgaussian(H2, 40, o, 0.1)
  Z <- Z[riem_dist(H2, o, Z) < 0.5, ]
  relH <- dp_frechet_mean(H2, Z, radius = 0.5, center = o, mechanism = "gaussian", sigma = 0.2)
  expect_true(is.finite(relH$mu) && relH$mu > 0)
  expect_equal(relH$mu, as.double(gdp_mu(H2, 0.2, relH$sensitivity)))
})

test_that("mu is not computed on spd and kendall, and mu = is refused there", {
  P2 <- manifold_spd(2)
  set.seed(6)
  X <- riem_rgaussian(P2, 10, diag(2), 0.1)
  rel <- dp_frechet_mean(P2, X, radius = 1, center = diag(2), mechanism = "gaussian", sigma = 0.5)
  expect_true(is.na(rel$mu))
  expect_match(paste(capture.output(print(rel)), collapse = " "), "constant curvature")
  expect_error_mentions(dp_frechet_mean(P2, X, radius = 1, center = diag(2), mechanism = "gaussian", mu = 1),
                        "constant curvature")
})

test_that("mu and sigma are exclusive, and mu belongs to the Gaussian mechanism", {
  X <- ball_data(10, 7)
  rel <- function(...) dp_frechet_mean(S2, X, radius = pi / 8, center = north, ...)
  expect_error_mentions(rel(mechanism = "gaussian"), c("`mu`", "`sigma`"))
  expect_error_mentions(rel(mechanism = "gaussian", mu = 1, sigma = 0.2), c("exactly one", "`mu`", "`sigma`"))
  expect_error_mentions(rel(epsilon = 1, mu = 1), c("`mu`", "`epsilon`"))
  expect_error_mentions(rel(mechanism = "gaussian", mu = -1), "`mu`")
  expect_error_mentions(rel(mechanism = "gaussian", mu = NaN), "`mu`")
})

test_that("epsilon-DP releases record the mu-GDP they imply", {
  X <- ball_data(20, 8)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north)
  expect_equal(rel$mu, gdp_from_dp(1))
  expect_match(paste(capture.output(print(rel)), collapse = " "), "GDP (gdp_from_dp(epsilon))", fixed = TRUE)
  set.seed(9)
  d <- data.frame(x = runif(50), y = rnorm(50))
  lr <- dp_linear_regression(y ~ x, d, epsilon = 1, tau = 3, x_range = c(0, 1), beta_max = 5,
                             control = mcmc_control(n_iter = 200, burn_in = 200))
  expect_match(paste(capture.output(print(lr)), collapse = " "), "gdp_from_dp", fixed = TRUE)
})

test_that("a sphere release whose Delta exceeds the diameter reports mu at Delta = pi", {
  set.seed(10)
  X <- riem_rgaussian(S2, 3, north, 0.05)
  rel <- dp_frechet_mean(S2, X, radius = 0.78, center = north, mechanism = "gaussian", sigma = 0.3)
  expect_gt(rel$sensitivity, pi)
  expect_equal(rel$mu, as.double(gdp_mu(S2, 0.3, pi)))
  expect_match(paste(capture.output(print(rel)), collapse = " "), "capped at pi")
})

test_that("a Gaussian release at a sigma with no computable mu claims none", {
  X <- ball_data(20, 11)
  # a near-exact release: the Euclidean asymptote Delta/sigma, rounded up (issue 19)
  rel <- dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", sigma = 1e-300)
  expect_gte(rel$mu, rel$sensitivity / 1e-300)
  # where that overflows: Inf
  rel <- dp_frechet_mean(S2, X, radius = pi / 8, center = north, mechanism = "gaussian", sigma = 1e-310)
  expect_identical(rel$mu, Inf)
  expect_match(paste(capture.output(print(rel)), collapse = " "), "no privacy is claimed")
})

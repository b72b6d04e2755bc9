# A release depends on the data only through the mechanism (issue 6, items 1,
# 3, 4 and the release side of 11): MCMC chains start at public points, the
# footprint emits no data-dependent condition, errors hold no data.

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)

# The issue's reproducer: a chain that cannot move (every proposal has
# |v| >= inj and is rejected) used to release the sample mean bit for bit.
frozen <- mcmc_control(adapt = FALSE, step = 50, burn_in = 0, n_iter = 10)

test_that("Metropolis-Hastings releases start at the public centre, not at the footprint", {
  set.seed(1)
  X <- riem_rgaussian(S2, 20, north, 0.05)
  mean_hat <- as.vector(coef(frechet_mean(S2, X, max_iter = 1000, tol = 1e-12)))
  for (mech in c("laplace", "gaussian")) {
    args <- list(S2, X, radius = pi / 8, center = north, mechanism = mech, method = "mh", control = frozen)
    args <- c(args, if (mech == "gaussian") list(sigma = 0.1) else list(epsilon = 1))
    set.seed(2)
    r <- do.call(dp_frechet_mean, args)
    expect_identical(as.vector(coef(r)), north, info = mech)
    expect_false(isTRUE(all.equal(as.vector(coef(r)), mean_hat)), info = mech)
    expect_identical(r$sampler, "mh")
  }
  # a public control$init is where a frozen chain stays
  start <- riem_exp(S2, north, c(0.1, 0, 0))
  set.seed(3)
  r <- dp_frechet_mean(S2, X, epsilon = 1, radius = pi / 8, center = north, method = "mh",
                       control = mcmc_control(adapt = FALSE, step = 50, burn_in = 0, n_iter = 10, init = start))
  expect_equal(as.vector(coef(r)), start, tolerance = 1e-15)
})

test_that("a release far from the origin emits no condition and its footprint converges", {
  H2 <- manifold_hyperbolic(2)
  ctr <- riem_exp(H2, c(1, 0, 0), c(0, 12, 0))
  set.seed(1)  # with this seed the footprint used to miss tol = 1e-12 and warn
  X <- riem_rgaussian(H2, 20, ctr, 0.3)
  X2 <- X
  X2[20, ] <- ctr  # an adjacent dataset
  for (D in list(X, X2)) {
    set.seed(4)
    expect_silent(r <- dp_frechet_mean(H2, D, epsilon = 1, radius = 2, center = ctr))
    expect_on_manifold(H2, coef(r))
  }
})

test_that("errors of a release carry no data values and no data in their call", {
  set.seed(1)
  X <- riem_rgaussian(S2, 20, north, 0.05)
  Y <- rbind(X, c(1, 0, 0))  # point 21, at distance 1.5708 from the centre
  e <- tryCatch(do.call(dp_frechet_mean, list(S2, Y, epsilon = 1, radius = pi / 8, center = north)),
                error = function(e) e)
  expect_s3_class(e, "riemdp_error")
  msg <- conditionMessage(e)
  expect_match(msg, "`X` has points outside the ball", fixed = TRUE)
  expect_match(msg, "riem_dist", fixed = TRUE)
  expect_false(grepl("21|1\\.57", msg))
  # the call holds X by name only (it used to hold the 21 x 3 matrix)
  expect_identical(conditionCall(e)[["X"]], as.name("X"))
  held <- vapply(as.list(conditionCall(e))[-1], function(a) is.numeric(a) && length(a) >= nrow(Y), logical(1))
  expect_false(any(held))

  # a point off the manifold: no index, no norm
  Z <- X
  Z[7, ] <- Z[7, ] * 1.234567
  e <- tryCatch(do.call(dp_frechet_mean, list(S2, Z, epsilon = 1, radius = pi / 8, center = north)),
                error = function(e) e)
  msg <- conditionMessage(e)
  expect_match(msg, "riem_check", fixed = TRUE)
  expect_false(grepl("1\\.23|point 7", msg))
  expect_identical(conditionCall(e)[["X"]], as.name("X"))
  Z[7, 1] <- NaN
  e <- tryCatch(do.call(dp_frechet_mean, list(S2, Z, epsilon = 1, radius = pi / 8, center = north)),
                error = function(e) e)
  expect_false(grepl("point 7|NaN", conditionMessage(e)))
})

test_that("release arguments get messages that name what the user passed", {
  set.seed(1)
  X <- riem_rgaussian(S2, 20, north, 0.05)
  rel <- function(...) dp_frechet_mean(S2, X, radius = pi / 8, center = north, ...)
  expect_error_mentions(rel(epsilon = 1, mechanism = "lapl4ce"), c("`mechanism`", "\"laplace\", \"kng\", \"gaussian\"", "lapl4ce"))
  expect_error_mentions(rel(epsilon = 1, outside = "drop"), c("`outside`", "\"clip\""))
  expect_error_mentions(rel(epsilon = 1, normalizer = 2), c("`normalizer`", "\"footprint_free\""))
  expect_error_mentions(rel(epsilon = 1, method = "gibbs"), c("`method`", "\"mh\""))
  # epsilon is not silently ignored by the Gaussian mechanism
  expect_error_mentions(rel(epsilon = 1, mechanism = "gaussian", sigma = 0.1), c("`epsilon`", "Gaussian", "mu-GDP"))
  expect_error_mentions(rel(mechanism = "laplace"), c("`epsilon`"))
  # sigma = 2 Delta / epsilon overflows: the message names epsilon, not a sigma nobody gave
  e <- tryCatch(rel(epsilon = 5e-324), error = conditionMessage)
  expect_match(e, "`epsilon` = 4.9", fixed = TRUE)
  expect_false(grepl("`sigma` = Inf", e, fixed = TRUE))
  # a starting point outside the KNG support
  far <- riem_exp(S2, north, c(1, 0, 0))
  expect_error_mentions(rel(epsilon = 1, mechanism = "kng", control = mcmc_control(init = far)),
                        c("control\\$init", "ball"))
  # abbreviations still work, as with match.arg()
  set.seed(5)
  expect_identical(rel(epsilon = 1, mechanism = "lap", outside = "cl")$mechanism, "laplace")
})

test_that("the SPD log-eigenvalue chain of a release ignores control$init (it would be whitened by the footprint)", {
  P3 <- manifold_spd(5)
  C <- diag(c(4, 1, 0.25, 1, 2))
  set.seed(1)
  X <- riem_rgaussian(P3, 30, C, 0.1)
  Delta <- sensitivity_frechet_mean(P3, n = 30, radius = 1)
  init <- 2 * diag(5)
  fm <- coef(frechet_mean(P3, X, tol = 1e-14, max_iter = 1000))
  # the Gaussian law with sigma = 1 is beyond the exact sampler's release
  # range on spd(5) (proven acceptance below 1e-6): eigen-MH; a frozen chain
  # used to release a point exactly dist(fm, init) from the mean
  expect_false(riemdp:::spd_exact_preferred(5, "gaussian", 1, riemdp:::spd_exact_release_min_acceptance))
  d <- vapply(1:3, function(s) {
    set.seed(s)
    r <- dp_frechet_mean(P3, X, mechanism = "gaussian", sigma = 1, radius = 1, center = C,
                         control = mcmc_control(init = init, adapt = FALSE, step = 1e300, burn_in = 0, n_iter = 1))
    expect_identical(r$sampler, "eigen-mh")
    riem_dist(P3, fm, coef(r))
  }, numeric(1))
  expect_false(any(abs(d - riem_dist(P3, fm, init)) < 1e-6))
  expect_gt(diff(range(d)), 0.1)
})

test_that("the stored call names the function even under do.call", {
  set.seed(1)
  X <- riem_rgaussian(S2, 20, north, 0.05)
  r <- do.call(dp_frechet_mean, list(S2, X, epsilon = 1, radius = pi / 8, center = north))
  expect_identical(r$call[[1]], as.name("dp_frechet_mean"))
  expect_lt(as.numeric(object.size(r)), 20000)
})

test_that("a public ball where double precision cannot resolve the mean is refused from public parameters", {
  P3 <- manifold_spd(3)
  A <- diag(sqrt(1e14^c(-0.5, 0, 0.5)))
  C <- A %*% A
  set.seed(1)
  X <- riem_rgaussian(P3, 20, C, 0.1)
  expect_error_mentions(dp_frechet_mean(P3, X, epsilon = 1, radius = 1, center = C),
                        c("`center`", "condition number", "double precision"))
  # a moderately conditioned centre is fine
  set.seed(2)
  expect_silent(dp_frechet_mean(P3, riem_rgaussian(P3, 20, diag(c(1e3, 1, 1e-3)), 0.1), epsilon = 1,
                                radius = 1, center = diag(c(1e3, 1, 1e-3))))
  H2 <- manifold_hyperbolic(2)
  ctr <- riem_exp(H2, c(1, 0, 0), c(0, 30, 0))
  set.seed(3)
  X <- riem_rgaussian(H2, 20, ctr, 0.2)
  expect_error_mentions(dp_frechet_mean(H2, X, epsilon = 1, radius = 2, center = ctr),
                        c("`center`", "from the origin", "`radius`"))
})

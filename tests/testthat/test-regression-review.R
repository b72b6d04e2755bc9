# Review of geodesic_regression() (issue 7): each test pins a defect found by
# hostile testing (reproductions in the review report). Data are built in
# plain R; every test is fast.

# Noisy data near the great circle t -> (cos t, sin t, 0) of S^2 at t = x.
review_sphere_data <- function(n = 10, seed = 1) {
  set.seed(seed)
  x <- seq(0, 1, length.out = n)
  Y <- cbind(cos(x), sin(x), 0) + matrix(rnorm(3 * n, sd = 0.01), n)
  list(x = x, Y = Y / sqrt(rowSums(Y^2)))
}

# Noisy spd(3) data near a geodesic through the identity (plain R).
review_spd_data <- function(n = 12, seed = 5) {
  set.seed(seed)
  x <- seq(0, 1, length.out = n)
  W <- array(0, c(3, 3, n))
  for (i in seq_len(n)) {
    A <- matrix(rnorm(9, sd = 0.05), 3)
    e <- eigen(A + t(A) + diag(x[i] * c(1, 0, -1)), symmetric = TRUE)
    S <- e$vectors %*% diag(exp(e$values)) %*% t(e$vectors)
    W[, , i] <- (S + t(S)) / 2
  }
  list(x = x, W = W)
}

test_that("spd: an ill-conditioned congruent copy of the data is fitted as well as the data (affine invariance)", {
  # Y_i = G W_i G with G diagonal is exact in floating point, and the
  # affine-invariant fit of Y is G fit(W) G with the same energy. With
  # cond(G^2) = 1e12 the fit stopped at iteration 0 ("converged", gradient norm
  # 2e-3) with an energy 1.2e-4 (relative) above G fit(W) G, which the same code
  # evaluates at the whitened fit's energy (the rounding floor of the stopping
  # rule, 64 eps cond(p), stops a descent that still makes progress).
  M <- manifold_spd(3)
  d <- review_spd_data()
  fw <- geodesic_regression(M, d$x, d$W)
  g <- diag(sqrt(c(1, 1e6, 1e12)))
  Y <- array(apply(d$W, 3, function(w) g %*% w %*% g), dim(d$W))
  p0 <- g %*% fw$footpoint %*% g
  v0 <- g %*% fw$shooting %*% g
  e0 <- riemdp:::regression_energy(M, (p0 + t(p0)) / 2, (v0 + t(v0)) / 2, d$x, Y)$energy
  expect_close(e0, fw$energy, 1e-9, scale = fw$energy, label = "energy of the congruent whitened fit")
  fit <- suppressWarnings(geodesic_regression(M, d$x, Y))
  expect_close(fit$energy, fw$energy, 1e-8, scale = fw$energy, label = "energy of the fit of the ill-conditioned copy")
  expect_close(fit$r_squared, fw$r_squared, 1e-8, label = "R^2 of the ill-conditioned copy")
})

test_that("a covariate with a tiny spread is fitted (lm() fits it): no silent v = 0", {
  # With spread(x) < ~1e-15 the tangent least-squares start drops the
  # covariate (rank-revealing QR threshold relative to the intercept column),
  # the gradient in v scales with x and is below tol at once: v = 0,
  # "converged", R^2 = 0.
  set.seed(2)
  x <- seq(0, 1, length.out = 15)
  Y <- cbind(x, 2 * x) + matrix(rnorm(30), 15)
  s <- 1e-16
  fit <- geodesic_regression(manifold_euclidean(2), x * s, Y)
  B <- coef(lm(Y ~ I(x * s)))
  expect_close(fit$footpoint, unname(B[1, ]), 1e-8, label = "intercept")
  expect_close(fit$shooting * s, unname(B[2, ]) * s, 1e-8, label = "slope (per unit of x / s)")
  d <- review_sphere_data()
  f1 <- geodesic_regression(manifold_sphere(2), d$x, d$Y)
  f2 <- geodesic_regression(manifold_sphere(2), d$x * s, d$Y)
  expect_close(f2$energy, f1$energy, 1e-8, scale = f1$energy, label = "sphere energy, covariate x 1e-16")
  expect_close(f2$shooting * s, f1$shooting, 1e-6, label = "sphere shooting vector, covariate x 1e-16")
})

test_that("covariates of extreme magnitude are fitted or rejected with a clear error naming `x`", {
  # x * 1e-200: "NA/NaN/Inf in foreign function call (arg 1)" from scale() in
  # the collinearity check; x * 1e300: "the covariates are collinear", which
  # they are not (lm() fits both).
  set.seed(3)
  x <- seq(0, 1, length.out = 15)
  Y <- cbind(x, 2 * x) + matrix(rnorm(30), 15)
  for (s in c(1e-200, 1e300)) {
    res <- tryCatch(geodesic_regression(manifold_euclidean(2), x * s, Y), error = function(e) e)
    if (inherits(res, "error")) {
      msg <- conditionMessage(res)
      expect(grepl("`x`", msg, fixed = TRUE) && !grepl("collinear|foreign", msg),
             sprintf("x * %g: unclear error: %s", s, msg))
    } else {
      B <- coef(lm(Y ~ I(x * s)))
      expect_close(res$footpoint, unname(B[1, ]), 1e-8, label = sprintf("x * %g: intercept", s))
      expect_close(res$shooting * s, unname(B[2, ]) * s, 1e-8, label = sprintf("x * %g: slope", s))
    }
  }
})

test_that("predict() matches the columns of newx to the covariates by name", {
  # predict(fit, data.frame(b = , a = )) used the columns by position:
  # a silently different prediction.
  set.seed(6)
  n <- 20
  X <- cbind(a = runif(n), b = runif(n))
  M <- manifold_sphere(2)
  V <- X[, 1] %o% c(0.5, 0, 0) + X[, 2] %o% c(0, 0.3, 0)
  Y <- riem_exp(M, matrix(c(0, 0, 1), n, 3, byrow = TRUE), V)
  Y <- Y + matrix(rnorm(3 * n, sd = 0.02), n)
  Y <- Y / sqrt(rowSums(Y^2))
  fit <- geodesic_regression(M, X, Y)
  ref <- predict(fit, cbind(0.2, 0.7))
  expect_close(predict(fit, data.frame(a = 0.2, b = 0.7)), ref, 1e-14, label = "data frame a, b")
  expect_close(predict(fit, data.frame(b = 0.7, a = 0.2)), ref, 1e-14, label = "data frame b, a")
  expect_close(predict(fit, cbind(b = 0.7, a = 0.2)), ref, 1e-14, label = "matrix b, a")
  expect_close(predict(fit, c(b = 0.7, a = 0.2)), ref, 1e-14, label = "named vector b, a")
  expect_error_mentions(predict(fit, data.frame(a = 0.2, c = 0.7)), c("`newx`", "b"))
})

test_that("fitted values and energy do not lose accuracy when the covariate is far from 0", {
  # x + 1e10 (|v| ~ 1): the fit was re-based to x = 0 (a point 1e10 radians
  # along the geodesic) before the fitted values, residuals and energy were
  # computed from it: energy 2.8 times the minimum, fitted points 0.018 off,
  # "converged". The covariate itself is resolved to ulp(1e10) = 2e-6.
  d <- review_sphere_data()
  M <- manifold_sphere(2)
  f0 <- geodesic_regression(M, d$x, d$Y)
  expect_warning(f <- geodesic_regression(M, d$x + 1e10, d$Y), "centre `x`")
  expect_close(f$energy, f0$energy, 1e-3, scale = f0$energy, label = "energy with x + 1e10")
  dd <- riem_dist(M, fitted(f), fitted(f0))
  expect(max(dd) < 1e-4, sprintf("fitted points with x + 1e10 are %.3g from those with x", max(dd)))
  expect_close(f$r_squared, f0$r_squared, 1e-4, label = "R^2 with x + 1e10")
})

test_that("R^2 is finite for responses far from the origin (euclidean, lm's R^2)", {
  # Y * 1e160: the coefficients are lm's, but energy = frechet_energy = Inf and
  # r_squared = NaN (squared distances overflow). R^2 is a ratio: it can be
  # computed from scaled distances. Either a clear error naming `Y` or finite
  # numbers.
  set.seed(4)
  x <- seq(0, 1, length.out = 15)
  Y <- cbind(x, 2 * x) + matrix(rnorm(30), 15)
  ref <- geodesic_regression(manifold_euclidean(2), x, Y)
  res <- tryCatch(geodesic_regression(manifold_euclidean(2), x, Y * 1e160), error = function(e) e)
  if (inherits(res, "error")) {
    expect(grepl("`Y`", conditionMessage(res), fixed = TRUE), conditionMessage(res))
  } else {
    nums <- unlist(res[c("energy", "frechet_energy", "r_squared", "grad_norm", "residual_norms")])
    expect(all(is.finite(nums)), sprintf("non-finite numbers in the fit: %s",
                                         paste(names(nums)[!is.finite(nums)], collapse = ", ")))
    expect_close(res$r_squared, ref$r_squared, 1e-10, label = "R^2 of Y * 1e160")
  }
})

test_that("the Frechet mean behind R^2 does not depend on the regression's tol", {
  # The Frechet mean was computed with the regression's tol (its convergence
  # flag ignored): tol = 0.01 stops it at its start, and frechet_energy and
  # R^2 change (2e-4 in R^2 here).
  set.seed(1)
  x <- seq(0, 1, length.out = 10)
  Y <- cbind(cos(2 * x), sin(2 * x), 0) + matrix(rnorm(30, sd = 0.1), 10)
  Y <- Y / sqrt(rowSums(Y^2))
  M <- manifold_sphere(2)
  f1 <- geodesic_regression(M, x, Y)
  f2 <- suppressWarnings(geodesic_regression(M, x, Y, tol = 0.01))
  fm <- frechet_mean(M, Y)
  expect_close(f1$frechet_energy, fm$cost, 1e-10, scale = fm$cost, label = "frechet_energy (default tol)")
  expect_close(f2$frechet_energy, fm$cost, 1e-10, scale = fm$cost, label = "frechet_energy (tol = 0.01)")
  expect_close(f2$frechet_mean, fm$estimate, 1e-8, label = "frechet_mean (tol = 0.01)")
})

test_that("an init whose geodesic cannot be represented is an error naming `init`", {
  # The message named `Y` ("`Y`: the geodesic point at t = 0.5 cannot be
  # represented ..."), though Y is fine and init is at fault.
  set.seed(4)
  M <- manifold_hyperbolic(2)
  x <- seq(0, 1, length.out = 15)
  r <- 0.5 * x
  th <- 0.3 + 0.5 * x + rnorm(15, sd = 0.05)
  Y <- cbind(cosh(r), sinh(r) * cos(th), sinh(r) * sin(th))
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = c(1, 0, 0), shooting = c(0, 1000, 0))),
                        "`init")
})

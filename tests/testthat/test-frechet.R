# frechet_mean(): values, optimality, equivariance, the fit object, bad input.

# Points scattered in a ball of radius `radius` around a random centre (plain R).
cap_sample <- function(M, n, radius, centre = rand_point(M)) {
  stack_points(M, lapply(seq_len(n), function(i) {
    ref_exp(M, centre, rand_tangent(M, centre, norm = runif(1, 0, radius)))
  }))
}

# Norm of the Riemannian gradient of the Frechet cost at m: | mean log_m(x_i) |.
frechet_grad_norm <- function(M, m, X) {
  L <- riem_log(M, m, X)
  g <- if (is.null(M$point_shape)) colMeans(L) else apply(L, c(1, 2), mean)
  if (M$type == "kendall") m <- ref_preshape(m)
  ref_norm(M, m, g)
}

test_that("euclidean frechet_mean is colMeans", {
  M <- manifold_euclidean(3)
  set.seed(61)
  X <- matrix(rnorm(60, mean = 2), 20, 3)
  fit <- frechet_mean(M, X)
  expect_s3_class(fit, c("riemdp_frechet_mean", "riemdp_fit"), exact = TRUE)
  expect_equal(as.numeric(fit$estimate), colMeans(X), tolerance = 1e-10)
  expect_null(dim(fit$estimate))
  expect_true(fit$converged)
  expect_equal(fit$n, 20)
  expect_equal(fit$cost, sum(sweep(X, 2, colMeans(X))^2) / (2 * 20), tolerance = 1e-10)
  expect_true(all(c("manifold", "estimate", "iterations", "grad_norm", "converged", "cost", "n", "call") %in% names(fit)))
  expect_identical(fit$manifold$type, "euclidean")
  expect_true(is.call(fit$call))
  expect_identical(coef(fit), fit$estimate)
  # a single point is its own mean
  fit1 <- frechet_mean(M, X[1, , drop = FALSE])
  expect_equal(as.numeric(fit1$estimate), X[1, ], tolerance = 1e-14)
})

test_that("sphere(2) frechet_mean matches a brute-force minimiser and has zero gradient", {
  M <- manifold_sphere(2)
  set.seed(62)
  X <- cap_sample(M, 30, radius = 0.8)
  fit <- frechet_mean(M, X)
  m <- fit$estimate
  expect_length(m, 3)
  expect_null(dim(m))
  expect_true(fit$converged)
  expect_true(is.numeric(fit$iterations) && length(fit$iterations) == 1 && fit$iterations >= 1)
  expect_lt(fit$grad_norm, 1e-8)
  expect_equal(sqrt(sum(m^2)), 1, tolerance = 1e-12)
  expect_lt(frechet_grad_norm(M, m, X), 1e-8)
  expect_equal(fit$cost, sum(riem_dist(M, m, X)^2) / (2 * 30), tolerance = 1e-10)

  # brute force: minimise the cost over tangent coordinates at the normalised ambient mean
  m0 <- colMeans(X); m0 <- m0 / sqrt(sum(m0^2))
  B <- qr.Q(qr(cbind(m0, diag(3))))[, 2:3]
  pt <- function(ab) ref_exp(M, m0, as.numeric(B %*% ab))
  cost <- function(ab) {
    y <- pt(ab)
    mean(apply(X, 1, function(x) ref_dist(M, y, x)^2)) / 2
  }
  o <- optim(c(0, 0), cost, method = "Nelder-Mead", control = list(reltol = 1e-14))
  o <- optim(o$par, cost, method = "BFGS", control = list(reltol = 1e-16))
  mb <- pt(o$par)
  expect_lt(ref_dist(M, mb, m), 1e-6)
  expect_lte(fit$cost, o$value + 1e-12)
  # and the estimate is not just the normalised ambient mean
  expect_gt(ref_dist(M, m0, m), 1e-6)
})

test_that("spd frechet_mean: zero gradient and affine equivariance", {
  for (k in 2:3) {
    M <- manifold_spd(k)
    set.seed(63 + k)
    X <- cap_sample(M, 25, radius = 1.5)
    fit <- frechet_mean(M, X)
    m <- fit$estimate
    expect_equal(dim(m), c(k, k))
    expect_true(fit$converged)
    expect_lt(frechet_grad_norm(M, m, X), 1e-8)
    A <- matrix(rnorm(k * k), k, k)
    AX <- array(apply(X, 3, function(x) A %*% x %*% t(A)), dim(X))
    fitA <- frechet_mean(M, AX)
    expect_equal(fitA$estimate, A %*% m %*% t(A), tolerance = 1e-7)
    expect_equal(fitA$cost, fit$cost, tolerance = 1e-8)
    # the mean of commuting matrices is the geometric mean
    D <- array(0, c(k, k, 3))
    for (i in 1:3) D[, , i] <- diag(exp(i * (1:k)) , k)
    expect_equal(frechet_mean(M, D)$estimate, diag(exp(2 * (1:k)), k), tolerance = 1e-9)
  }
})

test_that("hyperbolic and kendall frechet_mean: zero gradient at the estimate", {
  set.seed(66)
  for (M in list(manifold_hyperbolic(2), manifold_hyperbolic(3))) {
    X <- cap_sample(M, 25, radius = 2)
    fit <- frechet_mean(M, X)
    expect_true(fit$converged)
    expect_length(fit$estimate, M$ambient)
    expect_true(riem_check(M, fit$estimate))
    expect_lt(frechet_grad_norm(M, fit$estimate, X), 1e-8)
    expect_equal(fit$cost, sum(riem_dist(M, fit$estimate, X)^2) / (2 * 25), tolerance = 1e-10)
  }
  for (k in c(3, 6)) {
    M <- manifold_kendall(k)
    X <- cap_sample(M, 25, radius = 0.5)
    # raw configurations: move, scale and rotate each one
    for (i in 1:25) X[, , i] <- runif(1, 0.5, 3) * rotate_config(X[, , i], runif(1, 0, 2 * pi)) + rnorm(1)
    fit <- frechet_mean(M, X)
    m <- fit$estimate
    expect_equal(dim(m), c(k, 2L))
    expect_equal(colSums(m), c(0, 0), tolerance = 1e-12)
    expect_equal(sum(m^2), 1, tolerance = 1e-12)
    expect_true(fit$converged)
    expect_lt(frechet_grad_norm(M, m, X), 1e-8)
  }
})

test_that("frechet_mean reports non-convergence and respects init", {
  M <- manifold_sphere(2)
  set.seed(67)
  X <- cap_sample(M, 30, radius = 1)
  fit <- frechet_mean(M, X)
  fit1 <- suppressWarnings(frechet_mean(M, X, max_iter = 1L, tol = 1e-15))
  expect_false(fit1$converged)
  expect_lte(fit1$iterations, 1)
  expect_gt(fit1$grad_norm, fit$grad_norm)
  fit2 <- frechet_mean(M, X, init = X[7, ])
  expect_lt(riem_dist(M, fit2$estimate, fit$estimate), 1e-8)
})

test_that("print and summary methods produce output; coef returns the estimate", {
  M <- manifold_sphere(2)
  set.seed(68)
  X <- cap_sample(M, 10, radius = 0.5)
  fit <- frechet_mean(M, X)
  expect_output(print(fit))
  expect_output(expect_invisible(print(fit)))
  s <- summary(fit)
  expect_s3_class(s, "summary.riemdp_fit")
  expect_output(print(s))
  expect_identical(coef(fit), fit$estimate)
  fitE <- frechet_mean(manifold_euclidean(2), rbind(c(0, 0), c(2, 0), c(1, 3)))
  expect_equal(coef(fitE), c(1, 1))
  expect_snapshot(print(fitE))
})

test_that("frechet_mean rejects bad input", {
  M <- manifold_sphere(2)
  X <- rbind(c(1, 0, 0), c(0, 1, 0), c(0, 0, 1))
  Xn <- X; Xn[2, 2] <- NaN
  expect_error_mentions(frechet_mean(M, Xn), c("`X`", "finite"))
  Xo <- X; Xo[3, ] <- c(0, 0, 1.1)
  expect_error_mentions(frechet_mean(M, Xo), c("`X`"))
  expect_error_mentions(frechet_mean(M, X[0, , drop = FALSE]), c("`X`"))
  expect_error_mentions(frechet_mean(M, cbind(X, 0)), c("`X`"))
  expect_error(frechet_mean(list(type = "sphere"), X))
  expect_error_mentions(frechet_mean(M, X, init = c(2, 0, 0)), c("`init`"))
  expect_error(frechet_mean(manifold_spd(2), array(c(diag(2), diag(c(1, -1))), c(2, 2, 2))))
})

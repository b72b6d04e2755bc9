# geodesic_regression() (issue 7; Fletcher 2011, Kulkarni & Soto 2025 eq. 3-8, methods article, "Fitting"):
# lm() on euclidean, noise-free recovery, gradients against finite
# differences, Kendall on shapes::rats, the fit object, bad input.
# Data are built in plain R (helper-manifolds.R), never with the package.

# ---- plain-R references ------------------------------------------------------

# Exp_p(sum_j x_j v_j): V a list of tangent vectors at p, xrow the covariates.
ref_regression_point <- function(M, p, V, xrow) ref_exp(M, p, Reduce(`+`, Map(`*`, V, as.numeric(xrow))))

# Responses around the geodesic Exp_p0(sum_j x_ij v_j); each point moved by a
# random tangent vector of norm at most `noise` at its geodesic point.
regression_data <- function(M, p0, V0, x, noise = 0) {
  x <- as.matrix(x)
  stack_points(M, lapply(seq_len(nrow(x)), function(i) {
    yhat <- ref_regression_point(M, p0, V0, x[i, ])
    if (noise == 0) yhat else ref_exp(M, yhat, rand_tangent(M, yhat, norm = noise * runif(1, 0.2, 1)))
  }))
}

# E(p, v) = 1/(2n) sum dist(Exp_p(sum_j x_ij v_j), y_i)^2 (eq. 3).
ref_energy <- function(M, p, V, x, Y) {
  x <- as.matrix(x)
  d <- vapply(seq_len(nrow(x)), function(i) {
    ref_dist(M, ref_regression_point(M, p, V, x[i, ]), point_i(M, Y, i))
  }, 0)
  sum(d^2) / (2 * nrow(x))
}

# Shooting vectors: a list of m tangent vectors <-> the layout of coef()
# (m = 1: one vector; m > 1: rows of an m x D matrix / a k x k x m array).
shooting_in_layout <- function(M, V) if (length(V) == 1L) V[[1]] else stack_points(M, V)
shooting_list <- function(M, S, m) if (m == 1L) list(S) else lapply(seq_len(m), function(j) point_i(M, S, j))

energy_at <- function(M, p, S, x, Y) riemdp:::regression_energy(M, p, S, x, Y)$energy

# Kendall: the footpoint's rotation is arbitrary; rotate the fitted pair
# (footpoint, shooting vectors) into optimal alignment with p0.
kendall_align_pair <- function(p0, p, V) {
  h <- sum(Conj(as_complex_shape(p0)) * as_complex_shape(p))
  rot <- function(z) {
    w <- as_complex_shape(z) * exp(-1i * Arg(h))
    cbind(Re(w), Im(w))
  }
  list(footpoint = rot(p), shooting = lapply(V, rot))
}

# A covariate layout with values > 1 and negative.
covariates <- function(n, m) {
  if (m == 1L) return(seq(-1.4, 2.3, length.out = n))
  cbind(seq(-1.4, 2.3, length.out = n), sin(3 * seq_len(n)) * 1.5 + 0.4, cos(2 * seq_len(n)))[, seq_len(m)]
}

# ---- euclidean: ordinary least squares ---------------------------------------

expect_equals_lm <- function(M, x, Y, label) {
  fit <- geodesic_regression(M, x, Y)
  ols <- lm(Y ~ x)
  B <- as.matrix(coef(ols))  # (m + 1) x d
  m <- NCOL(x)
  n <- nrow(Y)
  expect_s3_class(fit, c("riemdp_geodesic_regression", "riemdp_fit"), exact = TRUE)
  expect_true(fit$converged, label = paste(label, "converged"))
  expect_identical(fit$m, m)
  expect_equal(fit$n, n)
  expect_close(fit$footpoint, B[1, ], 1e-8, label = paste(label, "footpoint = intercept"))
  expect_null(dim(fit$footpoint))
  if (m == 1L) {
    expect_close(fit$shooting, B[2, ], 1e-8, label = paste(label, "shooting = slope"))
  } else {
    expect_close(fit$shooting, unname(B[-1, , drop = FALSE]), 1e-8, label = paste(label, "shooting rows = slopes"))
  }
  expect_identical(coef(fit), list(footpoint = fit$footpoint, shooting = fit$shooting))
  expect_close(unname(fitted(fit)), unname(as.matrix(fitted(ols))), 1e-8, label = paste(label, "fitted"))
  expect_close(unname(residuals(fit)), unname(as.matrix(residuals(ols))), 1e-8, label = paste(label, "residuals"))
  rn <- sqrt(rowSums(as.matrix(residuals(ols))^2))
  expect_close(residuals(fit, type = "distance"), rn, 1e-8, label = paste(label, "residual norms"))
  expect_close(fit$residual_norms, rn, 1e-8, label = paste(label, "fit$residual_norms"))
  expect_close(fit$energy, sum(rn^2) / (2 * n), 1e-10, label = paste(label, "energy"))
  sst <- sum(sweep(Y, 2, colMeans(Y))^2)
  expect_close(fit$frechet_energy, sst / (2 * n), 1e-10, label = paste(label, "frechet energy"))
  expect_close(fit$r_squared, 1 - sum(rn^2) / sst, 1e-10, label = paste(label, "R^2"))
  if (ncol(Y) == 1L) expect_close(fit$r_squared, summary(ols)$r.squared, 1e-10, label = paste(label, "R^2 = lm's"))
  # predict at new covariates, inside and outside the data range
  newx <- if (m == 1L) c(-3, 0, 0.5, 7) else matrix(c(-3, 0, 0.5, 7, 2, -1, 1, 4, 0, 1, -2, 3)[seq_len(4 * m)], 4, m)
  expect_close(unname(predict(fit, newx)), unname(cbind(1, newx) %*% B), 1e-8, label = paste(label, "predict"))
  expect_close(predict(fit, fit$x), fitted(fit), 1e-12, label = paste(label, "predict(fit, fit$x) = fitted"))
  fit
}

test_that("euclidean: geodesic regression is lm(Y ~ x), one covariate", {
  set.seed(701)
  for (d in c(1L, 3L)) {
    M <- manifold_euclidean(d)
    n <- 25
    x <- runif(n, -2, 3)
    Y <- outer(rep(1, n), rnorm(d, sd = 3)) + outer(x, rnorm(d)) + matrix(rnorm(n * d), n, d)
    fit <- expect_equals_lm(M, x, Y, sprintf("[euclidean(%d)]", d))
    expect_null(dim(fit$shooting))
    expect_length(fit$shooting, d)
    expect_identical(dim(fit$x), c(as.integer(n), 1L))
    expect_identical(colnames(fit$x), "x")
    expect_identical(fit$data, Y)
    expect_gte(fit$r_squared, 0)
    expect_lte(fit$r_squared, 1)
    # an n x 1 matrix covariate is the same fit
    fit1 <- geodesic_regression(M, matrix(x, n, 1), Y)
    expect_close(fit1$footpoint, fit$footpoint, 1e-12, label = "n x 1 matrix x: footpoint")
    expect_close(as.numeric(fit1$shooting), as.numeric(fit$shooting), 1e-12, label = "n x 1 matrix x: shooting")
    # an integer covariate is fine
    xi <- rep(1:5, 5)
    fiti <- geodesic_regression(M, xi, Y)
    expect_close(fiti$footpoint, as.matrix(coef(lm(Y ~ xi)))[1, ], 1e-8, label = "integer x")
  }
})

test_that("euclidean: several covariates are multiple regression lm(Y ~ x)", {
  set.seed(702)
  for (d in c(1L, 3L)) {
    for (m in 2:3) {
      M <- manifold_euclidean(d)
      n <- 30
      x <- matrix(runif(n * m, -2, 3), n, m, dimnames = list(NULL, c("age", "dose", "z")[seq_len(m)]))
      Y <- outer(rep(1, n), rnorm(d)) + x %*% matrix(rnorm(m * d), m, d) + matrix(rnorm(n * d, sd = 0.5), n, d)
      fit <- expect_equals_lm(M, x, Y, sprintf("[euclidean(%d), m = %d]", d, m))
      expect_identical(dim(fit$shooting), c(m, d))
      expect_identical(colnames(fit$x), colnames(x))
    }
  }
})

test_that("euclidean: lm holds for covariates far from 0 and responses far from the origin", {
  # calendar years as covariate: H = (1/n) sum [1, x][1, x]^T is badly conditioned
  set.seed(703)
  M <- manifold_euclidean(2)
  x <- 1990:2020
  Y <- cbind(1e3 + 0.5 * (x - 2000), -3 - 0.02 * (x - 2000)) + matrix(rnorm(62, sd = 0.3), 31, 2)
  fit <- geodesic_regression(M, x, Y)
  B <- coef(lm(Y ~ x))
  expect_close(fit$shooting, B[2, ], 1e-8, label = "years: slope")
  expect_close(fit$footpoint, B[1, ], 1e-8, label = "years: intercept")
  expect_close(unname(fitted(fit)), unname(fitted(lm(Y ~ x))), 1e-8, label = "years: fitted")
  # tiny covariate spread
  xs <- 1e-3 * rnorm(31)
  fit <- geodesic_regression(M, xs, Y)
  B <- coef(lm(Y ~ xs))
  expect_close(fit$shooting, B[2, ], 1e-8, scale = max(abs(B[2, ])), label = "tiny x: slope")
  expect_close(fit$footpoint, B[1, ], 1e-8, label = "tiny x: intercept")
})

test_that("euclidean: two points are joined exactly", {
  M <- manifold_euclidean(3)
  Y <- rbind(c(1, 2, 3), c(-1, 0, 5))
  fit <- geodesic_regression(M, c(2, 4), Y)
  expect_close(fit$shooting, (Y[2, ] - Y[1, ]) / 2, 1e-10, label = "slope through two points")
  expect_close(fit$footpoint, Y[1, ] - 2 * (Y[2, ] - Y[1, ]) / 2, 1e-10, label = "intercept through two points")
  expect_lt(fit$energy, 1e-20)
  expect_close(fit$r_squared, 1, 1e-12)
})

# ---- noise-free data are recovered -------------------------------------------

# Fit noise-free data on Exp_p0(sum_j x_j v_j) and compare footpoint, shooting
# vectors and the geodesic (predictions, also extrapolated).
expect_recovers <- function(M, p0, V0, x, label, tol = 1e-6) {
  m <- length(V0)
  Y <- regression_data(M, p0, V0, x)
  fit <- geodesic_regression(M, x, Y)
  expect_true(fit$converged, label = paste(label, "converged"))
  expect_lt(fit$energy, 1e-13)
  expect_close(fit$r_squared, 1, 1e-10, label = paste(label, "R^2 = 1"))
  expect_on_manifold(M, fit$footpoint, paste(label, "footpoint"))
  expect_lt(riem_dist(M, fit$footpoint, p0), tol)
  V <- shooting_list(M, fit$shooting, m)
  if (M$type == "kendall") {
    expect_close(colSums(fit$footpoint), c(0, 0), 1e-12, scale = 1, label = paste(label, "footpoint is centred"))
    expect_close(vec_norm(fit$footpoint), 1, 1e-12, scale = 1, label = paste(label, "footpoint has unit size"))
    al <- kendall_align_pair(p0, fit$footpoint, V)
    expect_close(al$footpoint, p0, tol, label = paste(label, "aligned footpoint"))
    for (j in seq_len(m)) {
      expect_tangent(M, fit$footpoint, V[[j]], label = paste(label, "shooting", j))
      expect_close(al$shooting[[j]], V0[[j]], tol, label = paste(label, "aligned shooting", j))
    }
  } else {
    for (j in seq_len(m)) {
      expect_tangent(M, fit$footpoint, V[[j]], tol = 1e-8, label = paste(label, "shooting", j))
      back <- riem_transport(M, fit$footpoint, p0, V[[j]])
      err <- ref_norm(M, p0, back - V0[[j]])
      expect(err <= tol * max(1, ref_norm(M, p0, V0[[j]])),
             sprintf("%s shooting %d: |transported fit - truth| = %.3g", label, j, err))
    }
  }
  newx <- if (m == 1L) c(-2, 0.3, 1, 3) else rbind(c(-2, 1, 0)[seq_len(m)], c(0.3, 0.3, 0.3)[seq_len(m)], c(2, -1, 1)[seq_len(m)])
  truth <- regression_data(M, p0, V0, newx)
  d <- riem_dist(M, predict(fit, newx), truth)
  expect(all(d < tol), sprintf("%s predictions: max distance to the true geodesic %.3g", label, max(d)))
  expect_close(predict(fit, fit$x), fitted(fit), 1e-12, label = paste(label, "predict(fit, fit$x) = fitted"))
  fit
}

test_that("sphere: noise-free geodesics are recovered", {
  set.seed(711)
  x <- seq(-1, 1.5, length.out = 12)
  for (d in c(2L, 4L)) {
    M <- manifold_sphere(d)
    p0 <- rand_point(M)
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 1)), x, sprintf("[sphere(%d)]", d))
    # covariates away from 0: the footpoint is an extrapolation
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 0.4)), x + 3, sprintf("[sphere(%d), x in [2, 4.5]]", d))
    # two covariates
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 0.5), rand_tangent(M, p0, norm = 0.3)), covariates(15, 2L),
                    sprintf("[sphere(%d), m = 2]", d))
  }
})

test_that("sphere: calendar years as covariate, three covariates", {
  set.seed(715)
  M <- manifold_sphere(2)
  p <- rand_point(M)
  v <- rand_tangent(M, p, norm = 0.02)  # per year: the footpoint (year 0) wraps round the sphere
  years <- 1990:2020
  Y <- regression_data(M, p, list(v), years - 2005)
  fit <- geodesic_regression(M, years, Y)
  expect_true(fit$converged)
  expect_lt(fit$energy, 1e-13)
  d <- riem_dist(M, predict(fit, c(1985, 1995, 2010, 2030)), regression_data(M, p, list(v), c(-20, -10, 5, 25)))
  expect(all(d < 1e-6), sprintf("years: predictions off the true geodesic by %.3g", max(d)))
  expect_close(riem_norm(M, fit$footpoint, fit$shooting), 0.02, 1e-8, label = "years: speed")
  M4 <- manifold_sphere(4)
  p4 <- rand_point(M4)
  expect_recovers(M4, p4, lapply(c(0.5, 0.3, 0.2), function(r) rand_tangent(M4, p4, norm = r)), covariates(20, 3L),
                  "[sphere(4), m = 3]")
})

test_that("hyperbolic: noise-free geodesics are recovered, also far from the origin", {
  set.seed(712)
  M <- manifold_hyperbolic(2)
  x <- seq(-1, 1.5, length.out = 12)
  p0 <- rand_point(M)
  expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 1.5)), x, "[hyperbolic(2)]")
  far <- c(cosh(5), sinh(5) * cos(0.7), sinh(5) * sin(0.7))  # at distance 5 from the origin
  expect_recovers(M, far, list(rand_tangent(M, far, norm = 1)), x, "[hyperbolic(2), footpoint at distance 5]")
  expect_recovers(M, far, list(rand_tangent(M, far, norm = 0.8), rand_tangent(M, far, norm = 0.5)), covariates(15, 2L),
                  "[hyperbolic(2), distance 5, m = 2]")
  M3 <- manifold_hyperbolic(3)
  p3 <- rand_point(M3)
  expect_recovers(M3, p3, list(rand_tangent(M3, p3, norm = 2)), x, "[hyperbolic(3), long geodesic]")
})

test_that("spd: noise-free geodesics are recovered", {
  set.seed(713)
  x <- seq(-1, 1.5, length.out = 12)
  for (k in 2:3) {
    M <- manifold_spd(k)
    p0 <- rand_point(M)
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 1)), x, sprintf("[spd(%d)]", k))
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 0.7), rand_tangent(M, p0, norm = 0.4)), covariates(15, 2L),
                    sprintf("[spd(%d), m = 2]", k))
  }
  # an ill-conditioned footpoint (eigenvalues 1e-3 .. 1e3)
  M <- manifold_spd(3)
  Q <- rand_rotation(3)
  p0 <- Q %*% diag(c(1e-3, 1, 1e3)) %*% t(Q)
  p0 <- (p0 + t(p0)) / 2
  expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 1)), x, "[spd(3), condition number 1e6]")
})

test_that("kendall: noise-free geodesics are recovered (up to the footpoint's rotation)", {
  set.seed(714)
  x <- seq(-1, 1.5, length.out = 12)
  M3 <- manifold_kendall(3)  # triangles: only the K = 4 block
  p3 <- rand_point(M3)
  expect_recovers(M3, p3, list(rand_tangent(M3, p3, norm = 0.5)), x, "[kendall(3)]")
  for (k in c(4L, 8L)) {
    M <- manifold_kendall(k)
    p0 <- rand_point(M)
    fit <- expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 0.5)), x, sprintf("[kendall(%d)]", k))
    expect_identical(dim(fit$footpoint), c(k, 2L))
    expect_identical(dim(fit$shooting), c(k, 2L))
    expect_recovers(M, p0, list(rand_tangent(M, p0, norm = 0.4), rand_tangent(M, p0, norm = 0.3)), covariates(15, 2L),
                    sprintf("[kendall(%d), m = 2]", k))
    # raw configurations (moved, scaled, rotated) give the same geodesic
    Y <- regression_data(M, p0, list(rand_tangent(M, p0, norm = 0.5)), x)
    Yraw <- Y
    for (i in seq_along(x)) Yraw[, , i] <- (1 + i) * rotate_config(Y[, , i], i) + matrix(c(i, -2 * i), k, 2, byrow = TRUE)
    f1 <- geodesic_regression(M, x, Y)
    f2 <- geodesic_regression(M, x, Yraw)
    d <- riem_dist(M, predict(f1, c(-1, 0, 2)), predict(f2, c(-1, 0, 2)))
    expect(all(d < 1e-8), sprintf("kendall(%d) raw configurations: predictions differ by %.3g", k, max(d)))
  }
})

# ---- gradients against finite differences ------------------------------------

# Central differences of order h^4 (five-point stencil) of a function of h:
# long hyperbolic geodesics have large third derivatives.
central_difference <- function(f, h) (8 * (f(h) - f(-h)) - (f(2 * h) - f(-2 * h))) / (12 * h)

# Riemannian gradients at (p, V) against central differences of E along an
# orthonormal basis of T_p M: footpoint direction u: E(Exp_p(h u), Gamma V);
# shooting vector j: E(p, V with v_j + h u).
expect_gradient_fd <- function(M, p, V, x, Y, label, h = 1e-4, tol = 1e-6) {
  m <- length(V)
  S <- shooting_in_layout(M, V)
  r <- riemdp:::regression_energy(M, p, S, x, Y)
  expect_close(r$energy, ref_energy(M, p, V, x, Y), 1e-9, scale = max(r$energy, 1e-3), label = paste(label, "energy"))
  gp <- r$grad_footpoint
  gV <- shooting_list(M, r$grad_shooting, m)
  if (!identical(dim(gp), dim(p)) || length(gp) != length(p)) {
    expect(FALSE, sprintf("%s: grad_footpoint has the wrong layout", label))
    return(invisible(NULL))
  }
  expect_tangent(M, p, gp, tol = 1e-9, label = paste(label, "grad_footpoint"))
  for (j in seq_len(m)) expect_tangent(M, p, gV[[j]], tol = 1e-9, label = paste(label, "grad_shooting", j))
  B <- ortho_basis(M, p)
  E <- function(q, Sq) energy_at(M, q, Sq, x, Y)
  moved <- function(u) function(s) {
    q <- riem_exp(M, p, s * u)
    E(q, riem_transport(M, p, q, S))
  }
  fd_p <- vapply(B, function(u) central_difference(moved(u), h), 0)
  an_p <- vapply(B, function(u) riem_inner(M, p, gp, u), 0)
  shoot <- function(j, u) function(s) {
    Vh <- V
    Vh[[j]] <- V[[j]] + s * u
    E(p, shooting_in_layout(M, Vh))
  }
  fd_v <- lapply(seq_len(m), function(j) vapply(B, function(u) central_difference(shoot(j, u), h), 0))
  an_v <- lapply(seq_len(m), function(j) vapply(B, function(u) riem_inner(M, p, gV[[j]], u), 0))
  # relative to the size of the whole gradient
  scale <- sqrt(sum(an_p^2) + sum(unlist(an_v)^2))
  expect(scale > 1e-6, sprintf("%s: the test point should not be a critical point (|grad| = %.3g)", label, scale))
  expect_close(an_p, fd_p, tol, scale = scale, label = paste(label, "footpoint gradient vs finite differences"))
  for (j in seq_len(m)) {
    expect_close(an_v[[j]], fd_v[[j]], tol, scale = scale, label = sprintf("%s shooting gradient %d vs finite differences", label, j))
  }
  invisible(r)
}

# A noisy regression problem on M and a point (p, V) near, not at, its minimum.
gradient_problem <- function(M, m, n = 10, v_norm = NULL, noise = 0.25) {
  curved_compact <- M$type %in% c("sphere", "kendall")
  if (is.null(v_norm)) v_norm <- if (curved_compact) 0.35 else 0.7
  p0 <- rand_point(M)
  V0 <- lapply(seq_len(m), function(j) rand_tangent(M, p0, norm = v_norm / j))
  x <- covariates(n, m)
  Y <- regression_data(M, p0, V0, x, noise = if (curved_compact) noise * 0.6 else noise)
  p <- ref_exp(M, p0, rand_tangent(M, p0, norm = 0.15))
  V <- lapply(V0, function(v) to_tangent(M, p, v) + rand_tangent(M, p, norm = 0.1))
  list(p = p, V = V, x = x, Y = Y)
}

test_that("gradients of the energy agree with finite differences on every manifold, m = 1 and m = 2", {
  set.seed(721)
  zoo <- zoo_manifolds()
  for (name in names(zoo)) {
    M <- zoo[[name]]
    for (m in 1:2) {
      pr <- gradient_problem(M, m)
      expect_gradient_fd(M, pr$p, pr$V, pr$x, pr$Y, sprintf("[%s, m = %d]", name, m))
    }
  }
})

test_that("spd: the fixed-size residual pass (k = 2, 3, 4) and the general one (k >= 5) agree with finite differences", {
  set.seed(722)
  for (k in 2:5) {
    M <- manifold_spd(k)
    pr <- gradient_problem(M, 2L, n = 70)   # more than one chunk of 64 points
    expect_gradient_fd(M, pr$p, pr$V, pr$x, pr$Y, sprintf("[spd(%d), m = 2]", k))
  }
})

test_that("gradients agree with finite differences in degenerate and extreme configurations", {
  set.seed(722)
  zoo <- zoo_manifolds()
  # shooting vector exactly 0 and tiny (v-hat undefined; sn_K(xL)/L -> x)
  for (name in names(zoo)) {
    M <- zoo[[name]]
    pr <- gradient_problem(M, 1L)
    expect_gradient_fd(M, pr$p, list(0 * pr$p), pr$x, pr$Y, sprintf("[%s, v = 0]", name))
    expect_gradient_fd(M, pr$p, list(rand_tangent(M, pr$p, norm = 1e-9)), pr$x, pr$Y, sprintf("[%s, |v| = 1e-9]", name))
  }
  # sphere: geodesic past the antipode (x |v| up to 3.8 > pi)
  M <- manifold_sphere(2)
  p0 <- rand_point(M)
  V0 <- list(rand_tangent(M, p0, norm = 1.5))
  x <- covariates(10, 1L)
  Y <- regression_data(M, p0, V0, x, noise = 0.2)
  expect_gradient_fd(M, p0, list(V0[[1]] + rand_tangent(M, p0, norm = 0.1)), x, Y, "[sphere(2), past the antipode]")
  # hyperbolic: long geodesic (x |v| up to 7) and a footpoint at distance 5
  M <- manifold_hyperbolic(2)
  p0 <- rand_point(M)
  V0 <- list(rand_tangent(M, p0, norm = 3))
  Y <- regression_data(M, p0, V0, x, noise = 0.3)
  expect_gradient_fd(M, p0, list(V0[[1]] + rand_tangent(M, p0, norm = 0.1)), x, Y, "[hyperbolic(2), x|v| up to 7]")
  far <- c(cosh(5), sinh(5) * cos(2), sinh(5) * sin(2))
  V0 <- list(rand_tangent(M, far, norm = 0.8))
  Y <- regression_data(M, far, V0, x, noise = 0.3)
  expect_gradient_fd(M, far, list(V0[[1]] + rand_tangent(M, far, norm = 0.1)), x, Y,
                     "[hyperbolic(2), footpoint at distance 5]", tol = 1e-5)
  # spd: whitened shooting vector with equal and nearly equal eigenvalues (the
  # scalings' limits cosh(0) = 1, sinh(x d/2)/(d/2) -> x)
  for (k in 2:3) {
    M <- manifold_spd(k)
    pr <- gradient_problem(M, 1L)
    h <- sym_sqrt(pr$p)
    Q <- rand_rotation(k)
    for (lam in list(rep(0.6, k), c(0.6, 0.6 + 1e-9, -0.4)[seq_len(k)], c(0.5, 0.5, -0.3)[seq_len(k)])) {
      v <- h %*% Q %*% diag(lam, k) %*% t(Q) %*% h
      v <- (v + t(v)) / 2
      expect_gradient_fd(M, pr$p, list(v), pr$x, pr$Y,
                         sprintf("[spd(%d), whitened eigenvalues %s]", k, paste(format(lam, digits = 10), collapse = ", ")))
    }
  }
  # kendall: a shooting vector along i * (residual direction) mixes the K = 4 block
  M <- manifold_kendall(5)
  pr <- gradient_problem(M, 1L)
  v <- to_tangent(M, pr$p, kendall_iz(riem_log(M, pr$p, point_i(M, pr$Y, 1))))
  v <- 0.5 * v / ref_norm(M, pr$p, v) + 0.1 * pr$V[[1]]
  expect_gradient_fd(M, pr$p, list(v), pr$x, pr$Y, "[kendall(5), v near i * residual]")
})

test_that("the energy's gradient vanishes at the fit", {
  set.seed(723)
  zoo <- zoo_manifolds()
  for (name in names(zoo)) {
    M <- zoo[[name]]
    pr <- gradient_problem(M, 1L, n = 15)
    fit <- geodesic_regression(M, pr$x, pr$Y)
    r <- riemdp:::regression_energy(M, fit$footpoint, fit$shooting, pr$x, pr$Y)
    expect_close(r$energy, fit$energy, 1e-12, scale = max(fit$energy, 1e-3), label = paste(name, "energy at the fit"))
    gn <- sqrt(ref_norm(M, fit$footpoint, r$grad_footpoint)^2 + ref_norm(M, fit$footpoint, r$grad_shooting)^2)
    expect(gn < 1e-8, sprintf("[%s] gradient norm at the fit %.3g", name, gn))
    expect_close(fit$grad_norm, gn, 1e-9, scale = 1, label = paste(name, "reported grad_norm"))
    expect_true(fit$converged)
  }
})

# ---- adjoint Jacobi fields -----------------------------------------------------

# riemdp:::geom_jacobi_adjoint(M, p, w, eps) (flat vectors; eps tangent at
# Exp_p(w)) returns list(p =, w =) in T_p with, for every u in T_p,
#   <adj_w, u>_p = <eps, d/dh Exp_p(w + h u)>_{Exp_p(w)}
#   <adj_p, u>_p = <eps, d/dh Exp_{q(h)}(Gamma_{p -> q(h)} w)>_{Exp_p(w)},  q(h) = Exp_p(h u).
# The derivatives are central differences of riem_exp in ambient coordinates
# (on kendall the vertical part of the derivative is orthogonal to eps).
expect_jacobi_adjoint_fd <- function(M, p, w, label, h = 1e-4, tol = 1e-6) {
  yhat <- riem_exp(M, p, w)
  eps <- rand_tangent(M, yhat, norm = 0.7)
  adj <- riemdp:::geom_jacobi_adjoint(M, as.numeric(p), as.numeric(w), as.numeric(eps))
  as_layout <- function(a) if (is.null(dim(p))) as.numeric(a) else array(a, dim(p))
  ap <- as_layout(adj$p)
  aw <- as_layout(adj$w)
  expect_tangent(M, p, ap, tol = 1e-9, label = paste(label, "adjoint (footpoint)"))
  expect_tangent(M, p, aw, tol = 1e-9, label = paste(label, "adjoint (shooting)"))
  B <- ortho_basis(M, p)
  along_w <- function(u) function(s) ref_inner(M, yhat, eps, riem_exp(M, p, w + s * u))
  along_p <- function(u) function(s) {
    q <- riem_exp(M, p, s * u)
    ref_inner(M, yhat, eps, riem_exp(M, q, riem_transport(M, p, q, w)))
  }
  fd_w <- vapply(B, function(u) central_difference(along_w(u), h), 0)
  fd_p <- vapply(B, function(u) central_difference(along_p(u), h), 0)
  an_w <- vapply(B, function(u) ref_inner(M, p, aw, u), 0)
  an_p <- vapply(B, function(u) ref_inner(M, p, ap, u), 0)
  scale <- max(1e-3, sqrt(sum(an_w^2) + sum(an_p^2)))
  expect_close(an_w, fd_w, tol, scale = scale, label = paste(label, "adjoint of d_w Exp"))
  expect_close(an_p, fd_p, tol, scale = scale, label = paste(label, "adjoint of d_p Exp"))
}

test_that("geom_jacobi_adjoint is the adjoint of dExp (finite differences of riem_exp), any |w|", {
  set.seed(725)
  zoo <- zoo_manifolds()
  for (name in names(zoo)) {
    M <- zoo[[name]]
    p <- rand_point(M)
    # beyond the injectivity radius too (sphere: past the antipode; kendall: past pi/2)
    long <- switch(M$type, sphere = 4, kendall = 2, hyperbolic = 4, spd = 3, euclidean = 5)
    for (r in c(0, 1e-9, 0.7, long)) {
      expect_jacobi_adjoint_fd(M, p, rand_tangent(M, p, norm = r), sprintf("[%s, |w| = %g]", name, r))
    }
  }
  # spd: whitened w with equal eigenvalues
  M <- manifold_spd(3)
  p <- rand_point(M)
  h <- sym_sqrt(p)
  expect_jacobi_adjoint_fd(M, p, 0.8 * p, "[spd(3), w = 0.8 p]")
  Q <- rand_rotation(3)
  w <- h %*% Q %*% diag(c(0.9, 0.9, -0.5)) %*% t(Q) %*% h
  expect_jacobi_adjoint_fd(M, p, (w + t(w)) / 2, "[spd(3), two equal whitened eigenvalues]")
  # hyperbolic far from the origin
  M <- manifold_hyperbolic(2)
  far <- c(cosh(5), sinh(5) * cos(1), sinh(5) * sin(1))
  expect_jacobi_adjoint_fd(M, far, rand_tangent(M, far, norm = 2), "[hyperbolic(2), p at distance 5]", tol = 1e-5)
})

# ---- Kendall on shapes::rats ---------------------------------------------------

rats_data <- function() {
  options(rgl.useNULL = TRUE)
  env <- new.env()
  utils::data("rats", package = "shapes", envir = env)
  env$rats
}

test_that("kendall on shapes::rats: no general-purpose optimiser improves the fit", {
  skip_if_not_installed("shapes")
  rats <- rats_data()
  M <- manifold_kendall(8)
  Y <- rats$x
  x <- (rats$time - min(rats$time)) / diff(range(rats$time))
  n <- length(x)
  fit <- geodesic_regression(M, x, Y)
  expect_true(fit$converged)
  expect_gt(fit$r_squared, 0)
  expect_lt(fit$r_squared, 1)
  expect_close(fit$energy, sum(riem_dist(M, fitted(fit), Y)^2) / (2 * n), 1e-10, scale = fit$energy, label = "rats energy")
  fm <- frechet_mean(M, Y)
  expect_close(fit$frechet_energy, fm$cost, 1e-10, scale = fm$cost, label = "rats Frechet energy")
  expect_lt(riem_dist(M, fit$frechet_mean, fm$estimate), 1e-8)

  # local parametrisation around the fit: p = Exp_phat(sum a_k e_k),
  # v = Gamma_{phat -> p}(vhat + sum b_k e_k), e_k an orthonormal basis of T_phat
  set.seed(731)
  phat <- fit$footpoint
  vhat <- fit$shooting
  B <- ortho_basis(M, phat)
  nb <- length(B)
  combine <- function(w) Reduce(`+`, Map(`*`, B, w))
  energy_local <- function(theta) {
    p <- riem_exp(M, phat, combine(theta[seq_len(nb)]))
    v <- riem_transport(M, phat, p, vhat + combine(theta[nb + seq_len(nb)]))
    Yhat <- riem_exp(M, p, array(outer(as.numeric(v), x), c(8, 2, n)))
    sum(riem_dist(M, Yhat, Y)^2) / (2 * n)
  }
  e0 <- energy_local(rep(0, 2 * nb))
  expect_close(e0, fit$energy, 1e-10, scale = fit$energy, label = "local parametrisation at 0")
  # stationary: central differences of the local energy vanish
  hstep <- 1e-5
  g <- vapply(seq_len(2 * nb), function(k) {
    e <- replace(rep(0, 2 * nb), k, hstep)
    (energy_local(e) - energy_local(-e)) / (2 * hstep)
  }, 0)
  expect_lt(sqrt(sum(g^2)), 1e-7 * max(1, sqrt(fit$energy)))
  o <- optim(rep(0, 2 * nb), energy_local, method = "BFGS",
             control = list(ndeps = rep(1e-6, 2 * nb), reltol = 1e-15, maxit = 50))
  expect_gte(o$value, fit$energy * (1 - 1e-9))
  o2 <- optim(rep(0, 2 * nb), energy_local, method = "Nelder-Mead", control = list(reltol = 1e-15, maxit = 400))
  expect_gte(o2$value, fit$energy * (1 - 1e-9))
})

test_that("kendall on shapes::rats: the fitted geodesic is invariant to moving, scaling and rotating each configuration", {
  skip_if_not_installed("shapes")
  rats <- rats_data()
  M <- manifold_kendall(8)
  Y <- rats$x
  x <- (rats$time - min(rats$time)) / diff(range(rats$time))
  fit <- geodesic_regression(M, x, Y)
  set.seed(732)
  Y2 <- Y
  for (i in seq_len(dim(Y)[3])) {
    Y2[, , i] <- runif(1, 0.01, 100) * rotate_config(Y[, , i], runif(1, -pi, pi)) +
      matrix(rnorm(2, sd = 500), 8, 2, byrow = TRUE)
  }
  fit2 <- geodesic_regression(M, x, Y2)
  xs <- c(-0.2, 0, 0.3, 0.7, 1, 1.5)
  d <- riem_dist(M, predict(fit, xs), predict(fit2, xs))
  expect(all(d < 1e-7), sprintf("rats: predictions differ by %.3g after similarity transforms", max(d)))
  expect_close(fit2$energy, fit$energy, 1e-9, scale = fit$energy, label = "rats energy invariance")
  expect_close(fit2$r_squared, fit$r_squared, 1e-9, label = "rats R^2 invariance")
  expect_close(fit2$residual_norms, fit$residual_norms, 1e-7, label = "rats residual norms invariance")
  # an affine change of the covariate (age in days) reparametrises the same geodesic
  fit_days <- geodesic_regression(M, rats$time, Y)
  days <- min(rats$time) + xs * diff(range(rats$time))
  d <- riem_dist(M, predict(fit, xs), predict(fit_days, days))
  expect(all(d < 1e-7), sprintf("rats: age in days vs scaled age, predictions differ by %.3g", max(d)))
  expect_close(riem_norm(M, fit_days$footpoint, fit_days$shooting) * diff(range(rats$time)),
               riem_norm(M, fit$footpoint, fit$shooting), 1e-7, label = "rats |v| scales with the covariate")
})

# ---- the fit object -------------------------------------------------------------

test_that("fit object: R^2, fitted, residuals, predict, print and summary on every manifold", {
  set.seed(741)
  zoo <- zoo_manifolds()
  for (name in names(zoo)) {
    M <- zoo[[name]]
    for (m in 1:2) {
      pr <- gradient_problem(M, m, n = 14)
      fit <- geodesic_regression(M, pr$x, pr$Y)
      lab <- sprintf("[%s, m = %d]", name, m)
      expect_s3_class(fit, c("riemdp_geodesic_regression", "riemdp_fit"), exact = TRUE)
      expect_true(all(c("manifold", "call", "n", "m", "footpoint", "shooting", "x", "data", "fitted.values",
                        "residuals", "residual_norms", "energy", "frechet_mean", "frechet_energy", "r_squared",
                        "iterations", "grad_norm", "converged") %in% names(fit)))
      expect_true(fit$converged, label = paste(lab, "converged"))
      expect_true(is.call(fit$call))
      expect_identical(fit$m, m)
      expect_equal(fit$n, 14)
      expect_identical(dim(fit$x), c(14L, m))
      expect_identical(fit$data, pr$Y)
      expect_on_manifold(M, fit$footpoint, paste(lab, "footpoint"))
      # layouts
      if (is.null(M$point_shape)) {
        if (m == 1L) expect_length(fit$shooting, M$ambient) else expect_identical(dim(fit$shooting), c(m, M$ambient))
      } else {
        expect_identical(dim(fit$shooting), if (m == 1L) M$point_shape else c(M$point_shape, m))
      }
      V <- shooting_list(M, fit$shooting, m)
      # R^2 (Fletcher) and the energies
      expect_gte(fit$r_squared, 0)
      expect_lte(fit$r_squared, 1)
      expect_close(fit$r_squared, 1 - fit$energy / fit$frechet_energy, 1e-12, label = paste(lab, "R^2"))
      fm <- frechet_mean(M, pr$Y)
      expect_close(fit$frechet_energy, fm$cost, 1e-9, scale = fm$cost, label = paste(lab, "Frechet energy"))
      expect_lt(riem_dist(M, fit$frechet_mean, fm$estimate), 1e-7)
      expect_close(fit$energy, ref_energy(M, fit$footpoint, V, pr$x, pr$Y), 1e-9, scale = fit$energy,
                   label = paste(lab, "energy vs plain R"))
      # fitted values are Exp_p(sum_j x_ij v_j); residuals Log_{yhat_i}(y_i)
      yhat <- fitted(fit)
      expect_identical(n_points(M, yhat), 14L)
      truth <- regression_data(M, fit$footpoint, V, pr$x)
      expect(max(riem_dist(M, yhat, truth)) < 1e-9, paste(lab, "fitted values are not on the fitted geodesic"))
      # the same coordinates (kendall: the horizontal representatives Exp_p(x_i v), aligned with each other)
      expect_close(unname(yhat), truth, 1e-9, label = paste(lab, "fitted coordinates vs plain R"))
      expect_close(predict(fit, fit$x), yhat, 1e-12, label = paste(lab, "predict(fit, fit$x) = fitted"))
      res <- residuals(fit)
      expect_close(res, riem_log(M, yhat, pr$Y), 1e-10, label = paste(lab, "residuals = Log_yhat(y)"))
      dist <- riem_dist(M, yhat, pr$Y)
      expect_close(residuals(fit, type = "distance"), dist, 1e-10, label = paste(lab, "distance residuals"))
      expect_close(fit$residual_norms, dist, 1e-10, label = paste(lab, "residual_norms"))
      expect_close(riem_norm(M, yhat, res), dist, 1e-10, label = paste(lab, "|residual| = distance"))
      expect_close(fit$energy, sum(dist^2) / 28, 1e-10, scale = fit$energy, label = paste(lab, "energy = sum d^2 / 2n"))
      # printing
      expect_output(expect_identical(print(fit), fit))
      s <- summary(fit)
      expect_output(print(s), "R\\^2")
    }
  }
})

test_that("predict takes new covariates in the documented layouts", {
  set.seed(742)
  M <- manifold_sphere(2)
  pr <- gradient_problem(M, 1L, n = 12)
  fit <- geodesic_regression(M, pr$x, pr$Y)
  V <- list(fit$shooting)
  newx <- c(-3, 0, 0.25, 4)
  P <- predict(fit, newx)
  expect_identical(dim(P), c(4L, 3L))
  expect_close(P, regression_data(M, fit$footpoint, V, newx), 1e-10, label = "predict at new x")
  expect_close(predict(fit, matrix(newx, 4, 1)), P, 1e-14, label = "predict with a 1-column matrix")
  expect_lt(riem_dist(M, predict(fit, 0), fit$footpoint), 1e-14)
  fit2 <- geodesic_regression(M, covariates(12, 2L), regression_data(M, fit$footpoint, list(fit$shooting, -fit$shooting / 2),
                                                                       covariates(12, 2L), noise = 0.1))
  expect_error(predict(fit2, c(1, 2, 3)))
  P2 <- predict(fit2, cbind(c(1, 2, 3), c(0, 0, 1)))
  expect_identical(dim(P2), c(3L, 3L))
  expect_close(predict(fit2, data.frame(a = c(1, 2, 3), b = c(0, 0, 1))), P2, 1e-14, label = "predict with a data frame")
  expect_lt(riem_dist(M, predict(fit2, c(2, 0)), P2[2, ]), 1e-14)
  expect_error_mentions(predict(fit2, cbind(1, NA)), "`newx`")
  expect_error_mentions(predict(fit2, cbind(1, 2, 3)), "`newx`")
  expect_error(residuals(fit, type = "angle"))
  # a data frame of covariates is the matrix
  X <- covariates(12, 2L)
  Yd <- regression_data(M, fit$footpoint, list(fit$shooting, -fit$shooting / 2), X, noise = 0.1)
  fm <- geodesic_regression(M, X, Yd)
  fd <- geodesic_regression(M, data.frame(age = X[, 1], dose = X[, 2]), Yd)
  expect_identical(colnames(fd$x), c("age", "dose"))
  expect_close(fd$footpoint, fm$footpoint, 1e-14, label = "data frame x: footpoint")
  expect_close(unname(fd$shooting), unname(fm$shooting), 1e-14, label = "data frame x: shooting")
})

test_that("fits are unchanged by permuting the data, and equivariant under isometries and covariate changes", {
  set.seed(743)
  M <- manifold_sphere(2)
  pr <- gradient_problem(M, 1L, n = 20)
  fit <- geodesic_regression(M, pr$x, pr$Y)
  o <- sample(20)
  fitp <- geodesic_regression(M, pr$x[o], pr$Y[o, ])
  expect_close(fitp$footpoint, fit$footpoint, 1e-9, label = "permuted: footpoint")
  expect_close(fitp$shooting, fit$shooting, 1e-9, label = "permuted: shooting")
  # a rotation of the sphere moves the fit with it
  Q <- rand_rotation(3)
  fitq <- geodesic_regression(M, pr$x, pr$Y %*% t(Q))
  expect_close(fitq$footpoint, as.numeric(Q %*% fit$footpoint), 1e-8, label = "rotated: footpoint")
  expect_close(fitq$shooting, as.numeric(Q %*% fit$shooting), 1e-8, label = "rotated: shooting")
  # x -> -2 x + 1: same geodesic, v -> -v/2
  fita <- geodesic_regression(M, -2 * pr$x + 1, pr$Y)
  expect_close(predict(fita, -2 * c(-1, 0, 2) + 1), predict(fit, c(-1, 0, 2)), 1e-8, label = "affine x: predictions")
  expect_close(riem_transport(M, fita$footpoint, fit$footpoint, fita$shooting), -fit$shooting / 2, 1e-8,
               label = "affine x: shooting")
  # spd: congruence y -> A y A^T moves the fit with it (affine invariance)
  Ms <- manifold_spd(3)
  prs <- gradient_problem(Ms, 1L, n = 15)
  fits <- geodesic_regression(Ms, prs$x, prs$Y)
  A <- matrix(rnorm(9), 3, 3)
  YA <- prs$Y
  for (i in 1:15) YA[, , i] <- A %*% prs$Y[, , i] %*% t(A)
  YA <- (YA + aperm(YA, c(2, 1, 3))) / 2
  fitA <- geodesic_regression(Ms, prs$x, YA)
  pA <- A %*% fits$footpoint %*% t(A)
  expect_lt(riem_dist(Ms, fitA$footpoint, (pA + t(pA)) / 2), 1e-7)
  expect_close(fitA$energy, fits$energy, 1e-8, scale = fits$energy, label = "spd congruence: energy")
  expect_close(fitA$shooting, A %*% fits$shooting %*% t(A), 1e-7, label = "spd congruence: shooting")
})

test_that("init: starting from the fit or from elsewhere reaches the same minimum", {
  set.seed(744)
  M <- manifold_sphere(2)
  pr <- gradient_problem(M, 1L, n = 15)
  fit <- geodesic_regression(M, pr$x, pr$Y)
  again <- geodesic_regression(M, pr$x, pr$Y, init = coef(fit))
  expect_lte(again$iterations, 1)
  expect_close(again$footpoint, fit$footpoint, 1e-10, label = "init at the fit: footpoint")
  p1 <- ref_exp(M, fit$footpoint, rand_tangent(M, fit$footpoint, norm = 0.3))
  other <- geodesic_regression(M, pr$x, pr$Y, init = list(footpoint = p1, shooting = 0 * p1))
  expect_true(other$converged)
  expect_close(other$footpoint, fit$footpoint, 1e-8, label = "init elsewhere: footpoint")
  expect_close(other$shooting, fit$shooting, 1e-8, label = "init elsewhere: shooting")
  # m = 2 on spd
  Ms <- manifold_spd(2)
  prs <- gradient_problem(Ms, 2L, n = 15)
  fits <- geodesic_regression(Ms, prs$x, prs$Y)
  p1 <- ref_exp(Ms, fits$footpoint, rand_tangent(Ms, fits$footpoint, norm = 0.2))
  others <- geodesic_regression(Ms, prs$x, prs$Y, init = list(footpoint = p1, shooting = array(0, c(2, 2, 2))))
  expect_lt(riem_dist(Ms, others$footpoint, fits$footpoint), 1e-8)
  expect_close(others$energy, fits$energy, 1e-10, scale = fits$energy, label = "spd init elsewhere: energy")
})

test_that("two points are joined exactly on curved manifolds", {
  set.seed(745)
  for (M in list(manifold_sphere(2), manifold_hyperbolic(2), manifold_spd(2), manifold_kendall(4))) {
    Y <- rand_points(M, 2)
    fit <- geodesic_regression(M, c(0.5, 2), Y)
    expect_lt(fit$energy, 1e-20)
    expect_close(fit$r_squared, 1, 1e-10, label = paste(M$type, "two points: R^2"))
    expect(max(riem_dist(M, fitted(fit), Y)) < 1e-9, paste(M$type, "two points are not interpolated"))
  }
})

test_that("identical responses give the constant geodesic (v = 0 at the minimum)", {
  set.seed(748)
  for (M in list(manifold_euclidean(2), manifold_sphere(2), manifold_hyperbolic(2), manifold_spd(3), manifold_kendall(5))) {
    y <- rand_point(M)
    fit <- geodesic_regression(M, c(-1, 0.5, 2, 3, 7), stack_points(M, rep(list(y), 5)))
    expect_true(fit$converged)
    expect_lt(riem_dist(M, fit$footpoint, y), 1e-10)
    expect_lt(max(abs(fit$shooting)), 1e-10)
    expect_lt(fit$energy, 1e-20)
    expect_true(is.na(fit$r_squared) || (fit$r_squared >= 0 && fit$r_squared <= 1))
  }
})

test_that("noisy fits converge on every manifold; a fit that stops early warns", {
  # 15 moderately noisy problems per manifold (n = 25, x in [-0.5, 1.5],
  # |v| = 2 or 0.6 on sphere/kendall): the descent must reach the gradient
  # tolerance (or its rounding floor) within the default max_iter, and must
  # never return converged = FALSE without a warning.
  zoo <- zoo_manifolds()
  for (name in names(zoo)) {
    M <- zoo[[name]]
    compact <- M$type %in% c("sphere", "kendall")
    silent <- not_converged <- integer(0)
    for (s in 1:15) {
      set.seed(760 + s)
      p0 <- rand_point(M)
      x <- runif(25, -0.5, 1.5)
      Y <- regression_data(M, p0, list(rand_tangent(M, p0, norm = if (compact) 0.6 else 2)), x,
                           noise = if (compact) 0.4 else 0.8)
      warned <- FALSE
      fit <- withCallingHandlers(geodesic_regression(M, x, Y),
                                 warning = function(w) {
                                   warned <<- TRUE
                                   invokeRestart("muffleWarning")
                                 })
      if (!fit$converged) {
        not_converged <- c(not_converged, s)
        if (!warned) silent <- c(silent, s)
      } else {
        r <- riemdp:::regression_energy(M, fit$footpoint, fit$shooting, x, Y)
        gn <- sqrt(ref_norm(M, fit$footpoint, r$grad_footpoint)^2 + ref_norm(M, fit$footpoint, r$grad_shooting)^2)
        expect(gn < 1e-8, sprintf("[%s, problem %d] converged with gradient norm %.3g", name, s, gn))
      }
    }
    expect(length(silent) == 0L,
           sprintf("[%s] problems %s: converged = FALSE without a warning", name, paste(silent, collapse = ", ")))
    expect(length(not_converged) == 0L,
           sprintf("[%s] problems %s did not converge", name, paste(not_converged, collapse = ", ")))
  }
})

test_that("max_iter reached without convergence is a warning, and the fit says so", {
  set.seed(746)
  M <- manifold_sphere(2)
  pr <- gradient_problem(M, 1L, n = 15)
  expect_warning(fit <- geodesic_regression(M, pr$x, pr$Y, max_iter = 1), "max_iter|converge")
  expect_false(fit$converged)
  expect_identical(as.integer(fit$iterations), 1L)
  expect_gt(fit$grad_norm, 1e-10)
  expect_output(print(fit))
  # a tolerance that cannot be met is not an infinite loop either
  expect_warning(geodesic_regression(manifold_kendall(5), pr$x, gradient_problem(manifold_kendall(5), 1L, n = 15)$Y,
                                     max_iter = 2), "max_iter|converge")
})

test_that("geodesic_regression does not touch the RNG and is deterministic", {
  set.seed(747)
  for (M in list(manifold_sphere(2), manifold_kendall(5), manifold_spd(3))) {
    pr <- gradient_problem(M, 1L, n = 12)
    fit1 <- NULL
    expect_rng_untouched(fit1 <- geodesic_regression(M, pr$x, pr$Y))
    fit2 <- geodesic_regression(M, pr$x, pr$Y)
    expect_identical(fit1$footpoint, fit2$footpoint)
    expect_identical(fit1$shooting, fit2$shooting)
  }
})

# ---- bad input -------------------------------------------------------------------

test_that("geodesic_regression rejects bad input, naming the argument", {
  set.seed(751)
  M <- manifold_sphere(2)
  pr <- gradient_problem(M, 1L, n = 8)
  x <- pr$x
  Y <- pr$Y
  # x
  expect_error_mentions(geodesic_regression(M, x[-1], Y), "`x`")
  expect_error_mentions(geodesic_regression(M, c(x, 1), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, replace(x, 3, NA), Y), c("`x`", "finite"))
  expect_error_mentions(geodesic_regression(M, replace(x, 3, Inf), Y), c("`x`", "finite"))
  expect_error_mentions(geodesic_regression(M, replace(x, 3, NaN), Y), c("`x`", "finite"))
  expect_error_mentions(geodesic_regression(M, rep(2, 8), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, as.character(x), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, NULL, Y), "`x`")
  X2 <- cbind(x, 2 * x - 1)  # collinear with the intercept
  expect_error_mentions(geodesic_regression(M, X2, Y), "`x`")
  expect_error_mentions(geodesic_regression(M, cbind(x, 3 * x), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, cbind(x, 1), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, cbind(x, x^2)[-1, ], Y), "`x`")
  expect_error_mentions(geodesic_regression(M, array(x, c(8, 1, 1)), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, matrix(0, 8, 0), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, data.frame(a = x, b = letters[1:8]), Y), "`x`")
  expect_error_mentions(geodesic_regression(M, cbind(x, replace(x, 2, NA)), Y), c("`x`", "finite"))
  # Y
  Yo <- Y
  Yo[3, ] <- Yo[3, ] * 1.1
  expect_error_mentions(geodesic_regression(M, x, Yo), "`Y`")
  Yn <- Y
  Yn[2, 2] <- NA
  expect_error_mentions(geodesic_regression(M, x, Yn), c("`Y`", "finite"))
  expect_error_mentions(geodesic_regression(M, x[1], Y[1, , drop = FALSE]), "`Y`")
  expect_error_mentions(geodesic_regression(M, x[1], Y[1, ]), "`Y`")
  expect_error_mentions(geodesic_regression(M, numeric(0), Y[0, , drop = FALSE]), "`Y`")
  expect_error_mentions(geodesic_regression(M, x, Y[, 1:2]), "`Y`")
  expect_error_mentions(geodesic_regression(manifold_euclidean(1), 1:5, c(2, 4, 1, 5, 3)), "`Y`")
  expect_error(geodesic_regression(list(type = "sphere"), x, Y))
  Ms <- manifold_spd(2)
  Ys <- array(c(diag(2), diag(c(2, 1)), diag(c(1, -1))), c(2, 2, 3))
  expect_error_mentions(geodesic_regression(Ms, 1:3, Ys), "`Y`")
  Mk <- manifold_kendall(4)
  Yk <- array(rnorm(4 * 2 * 5), c(4, 2, 5))
  Yk[, , 2] <- 1  # all landmarks at one place: no shape
  expect_error_mentions(geodesic_regression(Mk, 1:5, Yk), "`Y`")
  expect_error_mentions(geodesic_regression(Mk, 1:5, array(rnorm(50), c(5, 2, 5))), "`Y`")
  # init
  fit <- geodesic_regression(M, x, Y)
  cf <- coef(fit)
  # the messages name `init`, `init$footpoint` or `init$shooting`
  expect_error_mentions(geodesic_regression(M, x, Y, init = cf$footpoint), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = cf$footpoint)), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = 2 * cf$footpoint, shooting = cf$shooting)), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = cf$footpoint, shooting = cf$footpoint)), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = cf$footpoint, shooting = c(1, 0))), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = cf$footpoint, shooting = c(NA, 0, 0))), "`init")
  expect_error_mentions(geodesic_regression(M, x, Y, init = list(footpoint = Y, shooting = cf$shooting)), "`init")
  expect_error_mentions(geodesic_regression(M, cbind(x, x^2), Y, init = cf), "`init")  # m = 2 needs two vectors
  # max_iter and tol
  for (bad in list(-1, NA, 1.5, "a", c(10, 20), Inf)) {
    expect_error_mentions(geodesic_regression(M, x, Y, max_iter = bad), "`max_iter`")
  }
  for (bad in list(0, -1e-8, NA, "a", c(1e-8, 1e-6), NaN)) {
    expect_error_mentions(geodesic_regression(M, x, Y, tol = bad), "`tol`")
  }
})

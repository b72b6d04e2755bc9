# Location (issue 11): weighted Frechet mean, Frechet median, distance matrices.

# Points in a ball of radius `radius` around `centre` (plain R geometry).
ball_sample <- function(M, n, radius, centre = rand_point(M)) {
  stack_points(M, lapply(seq_len(n), function(i) {
    ref_exp(M, centre, rand_tangent(M, centre, norm = runif(1, 0, radius)))
  }))
}

# Points i of X, in the many-point layout (repeats allowed).
take_points <- function(M, X, i) {
  if (is.null(M$point_shape)) X[i, , drop = FALSE] else X[, , i, drop = FALSE]
}

# Minimal subgradient norm of F(m) = sum w_i d(m, x_i) / sum w_i, from
# riem_log and the plain-R norm: max(0, |sum_{i off m} w_i u_i| - W_on) / W.
median_subgradient <- function(M, m, X, w = rep(1, n_points(M, X))) {
  L <- riem_log(M, m, X)
  base <- if (M$type == "kendall") ref_preshape(m) else m
  R <- 0 * base
  on <- 0
  for (i in seq_along(w)) {
    if (w[i] == 0) next
    l <- point_i(M, L, i)
    d <- ref_norm(M, base, l)
    if (d < 1e-12) on <- on + w[i] else R <- R + w[i] * l / d
  }
  max(0, ref_norm(M, base, R) - on) / sum(w)
}

# ---- weighted Frechet mean ------------------------------------------------------

test_that("integer weights equal the unweighted mean of repeated rows, on every manifold", {
  set.seed(1101)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- ball_sample(M, 7, radius = 0.5)
    w <- c(1, 3, 0, 2, 1, 4, 2)
    fw <- frechet_mean(M, X, weights = w)
    fr <- frechet_mean(M, take_points(M, X, rep(seq_along(w), w)))
    expect_true(fw$converged, label = nm)
    expect_lt(riem_dist(M, coef(fw), coef(fr)), 1e-9)
    expect_equal(fw$cost, fr$cost, tolerance = 1e-9, label = nm)
    # zero weights drop points
    fd <- frechet_mean(M, take_points(M, X, which(w > 0)), weights = w[w > 0])
    expect_lt(riem_dist(M, coef(fw), coef(fd)), 1e-9)
  }
})

test_that("weights are scale-free; equal weights give the unweighted fit bit for bit", {
  M <- manifold_sphere(2)
  set.seed(1102)
  X <- ball_sample(M, 40, radius = 0.7)
  w <- runif(40)
  expect_lt(riem_dist(M, coef(frechet_mean(M, X, weights = w)), coef(frechet_mean(M, X, weights = 1e6 * w))), 1e-10)
  expect_identical(coef(frechet_mean(M, X, weights = rep(2.5, 40))), coef(frechet_mean(M, X)))
  # the weighted mean moves toward the heavy points, and is not the unweighted one
  heavy <- frechet_mean(M, X, weights = ifelse(seq_len(40) == 1, 1000, 1))
  expect_lt(riem_dist(M, coef(heavy), X[1, ]), 0.01)
  # zero weight on an antipodal point: it plays no part (no Log is taken)
  Xa <- rbind(X, -coef(frechet_mean(M, X)))
  expect_equal(coef(frechet_mean(M, Xa, weights = c(rep(1, 40), 0))), coef(frechet_mean(M, X)), tolerance = 1e-12)
  # euclidean: the weighted average
  E <- manifold_euclidean(3)
  Y <- matrix(rnorm(30), 10)
  v <- 1:10
  expect_equal(as.numeric(coef(frechet_mean(E, Y, weights = v))), colSums(Y * v) / sum(v), tolerance = 1e-12)
  expect_output(print(frechet_mean(E, Y, weights = v)), "Weighted Fr\u00e9chet mean")
})

# Plain-R references on the unit sphere: Log_p of the rows of Q (atan2 form),
# and the Weiszfeld iteration of the geometric median from m.
s2_log_ref <- function(p, Q) {
  c0 <- pmin(1, pmax(-1, drop(Q %*% p)))
  W <- Q - outer(c0, p)
  nw <- sqrt(rowSums(W^2))
  W * ifelse(nw > 0, atan2(nw, c0) / nw, 0)
}
weiszfeld_ref <- function(M, X, m) {
  for (it in 1:2000) {
    L <- s2_log_ref(m, X)
    d <- sqrt(rowSums(L^2))
    step <- colSums(L / d) / sum(1 / d)
    m <- riem_exp(M, m, step)
    if (sqrt(sum(step^2)) < 1e-14) break
  }
  m
}

test_that("the weighted S^2 mean on vector lanes equals a plain-R weighted Frechet mean", {
  # n not a multiple of the lane width; zero weights among them
  M <- manifold_sphere(2)
  set.seed(1105)
  X <- ball_sample(M, 1003, radius = 1)
  w <- runif(1003)
  w[sample(1003, 50)] <- 0
  m <- X[1, ]
  for (it in 1:100) {
    g <- colSums(w * s2_log_ref(m, X)) / sum(w)
    if (sqrt(sum(g^2)) < 1e-15) break
    m <- riem_exp(M, m, g)
  }
  fit <- frechet_mean(M, X, weights = w, tol = 1e-13)
  expect_true(fit$converged)
  expect_lt(riem_dist(M, coef(fit), m), 1e-11)
  expect_equal(fit$cost, sum(w * rowSums(s2_log_ref(coef(fit), X)^2)) / (2 * sum(w)), tolerance = 1e-12)
  # zero weights drop their points (no Log is taken of them)
  keep <- w > 0
  expect_lt(riem_dist(M, coef(fit), coef(frechet_mean(M, X[keep, ], weights = w[keep], tol = 1e-13))), 1e-12)
})

test_that("the S^2 median's fused log pass equals a plain-R Weiszfeld iteration", {
  M <- manifold_sphere(2)
  set.seed(1106)
  X <- ball_sample(M, 1003, radius = 1)
  m <- weiszfeld_ref(M, X, coef(frechet_mean(M, X)))
  fit <- frechet_median(M, X, tol = 1e-12)
  expect_lt(riem_dist(M, coef(fit), m), 1e-9)
  expect_equal(fit$cost, mean(sqrt(rowSums(s2_log_ref(coef(fit), X)^2))), tolerance = 1e-12)
  # on S^3 (the dynamic-size pass) too
  M3 <- manifold_sphere(3)
  X3 <- ball_sample(M3, 301, radius = 0.8)
  m3 <- weiszfeld_ref(M3, X3, coef(frechet_mean(M3, X3)))
  expect_lt(riem_dist(M3, coef(frechet_median(M3, X3, tol = 1e-12)), m3), 1e-9)
})

test_that("bad weights are errors that name `weights`", {
  M <- manifold_sphere(2)
  set.seed(1103)
  X <- ball_sample(M, 5, radius = 0.5)
  for (f in list(frechet_mean, frechet_median)) {
    expect_error(f(M, X, weights = 1:4), "`weights`.*one weight per point.*5.*length 4.*never recycled")
    expect_error(f(M, X, weights = 1), "`weights`.*never recycled")
    expect_error(f(M, X, weights = c(1, 1, -1, 1, 1)), "`weights` must be non-negative")
    expect_error(f(M, X, weights = c(1, 1, NA, 1, 1)), "`weights` must be finite")
    expect_error(f(M, X, weights = c(1, 1, Inf, 1, 1)), "`weights` must be finite")
    expect_error(f(M, X, weights = rep(0, 5)), "`weights` must not be all zero")
    expect_error(f(M, X, weights = letters[1:5]), "`weights` must be a numeric vector")
    expect_error(f(M, X, weights = matrix(1, 5, 2)), "`weights`")
  }
})

# ---- Frechet median ---------------------------------------------------------------

# Careful general-purpose minimiser of sum_i w_i |x - x_i| on R^d: Nelder-Mead
# from several starts, each polished by BFGS with the analytic gradient.
optim_median <- function(X, w) {
  f <- function(x) sum(w * sqrt(colSums((t(X) - x)^2)))
  g <- function(x) {
    D <- x - t(X)
    d <- sqrt(colSums(D^2))
    drop(D %*% (w / d))
  }
  starts <- rbind(colMeans(X), apply(X, 2, median), X[1, ] + 1, X[2, ] - 1)
  best <- NULL
  for (i in seq_len(nrow(starts))) {
    nm <- optim(starts[i, ], f, control = list(reltol = 1e-14, maxit = 20000))
    bf <- optim(nm$par, f, g, method = "BFGS", control = list(reltol = 1e-16, maxit = 10000))
    if (is.null(best) || bf$value < best$value) best <- bf
  }
  best
}

test_that("euclidean median equals a general-purpose minimiser of sum w |x - x_i| to 1e-6", {
  E <- manifold_euclidean(3)
  set.seed(1104)
  for (rep in 1:3) {
    X <- matrix(rnorm(60, sd = 2), 20, 3)
    w <- if (rep == 1) rep(1, 20) else runif(20, 0.2, 2)
    fit <- frechet_median(E, X, weights = if (rep == 1) NULL else w)
    ref <- optim_median(X, w)
    expect_s3_class(fit, c("riemdp_frechet_median", "riemdp_fit"), exact = TRUE)
    expect_true(fit$converged)
    expect_lt(max(abs(coef(fit) - ref$par)), 1e-6)
    expect_lte(fit$cost * sum(w), ref$value + 1e-12)
    expect_equal(fit$cost, sum(w * sqrt(colSums((t(X) - coef(fit))^2))) / sum(w), tolerance = 1e-12)
    expect_lt(fit$grad_norm, 1e-9)
    expect_lt(median_subgradient(E, coef(fit), X, w), 1e-9)
  }
  # a starting point on a data point that is not the median: it steps off
  fit0 <- frechet_median(E, X, weights = w, init = X[1, ])
  expect_lt(max(abs(coef(fit0) - ref$par)), 1e-6)
  expect_true(is.na(fit0$data_point))
  # with scale: the same answer for data scaled by 1e6 and shifted by 1e6
  fit_s <- frechet_median(E, 1e6 * X + 1e6, weights = w)
  expect_lt(max(abs((coef(fit_s) - 1e6) / 1e6 - ref$par)), 1e-6)
  expect_true(fit_s$converged)
})

test_that("a median at a data point is found, whether or not an iterate lands on it", {
  E <- manifold_euclidean(2)
  # symmetric configuration: the centre is a data point and the start (the mean)
  X <- rbind(c(0, 0), c(1, 0), c(-1, 0), c(0, 1), c(0, -1))
  fit <- frechet_median(E, X)
  expect_true(fit$converged)
  expect_identical(fit$data_point, 1L)
  expect_equal(as.numeric(coef(fit)), c(0, 0))
  expect_equal(fit$grad_norm, 0)
  # started elsewhere, Weiszfeld approaches the centre; the test takes it
  fit2 <- frechet_median(E, X, init = c(0.3, -0.7))
  expect_true(fit2$converged)
  expect_identical(fit2$data_point, 1L)
  expect_lt(max(abs(coef(fit2))), 1e-12)
  expect_lt(fit2$iterations, 20)
  # an asymmetric case: a heavy point (more than half the weight) is the median
  set.seed(1105)
  Y <- matrix(rnorm(20), 10, 2)
  w <- c(rep(1, 9), 9.5)
  fit3 <- frechet_median(E, Y, weights = w)
  expect_identical(fit3$data_point, 10L)
  expect_equal(as.numeric(coef(fit3)), Y[10, ], tolerance = 1e-14)
  # the Vardi-Zhang condition is sharp: just below it the median leaves the point
  u <- t(Y[-10, ]) - Y[10, ]
  r <- sqrt(sum(rowSums(sweep(u, 2, sqrt(colSums(u^2)), "/"))^2))
  fit4 <- frechet_median(E, Y, weights = c(rep(1, 9), 0.9 * r))
  expect_true(is.na(fit4$data_point))
  expect_gt(sqrt(sum((coef(fit4) - Y[10, ])^2)), 1e-6)
  expect_lt(max(abs(coef(fit4) - optim_median(Y, c(rep(1, 9), 0.9 * r))$par)), 1e-6)
  # the same on the sphere: the north pole among four symmetric points
  S2 <- manifold_sphere(2)
  Z <- rbind(c(0, 0, 1), riem_exp(S2, c(0, 0, 1), 0.4 * rbind(c(1, 0, 0), c(-1, 0, 0), c(0, 1, 0), c(0, -1, 0))))
  fz <- frechet_median(S2, Z, init = riem_exp(S2, c(0, 0, 1), c(0.1, 0.05, 0)))
  expect_true(fz$converged)
  expect_identical(fz$data_point, 1L)
  expect_lt(riem_dist(S2, coef(fz), c(0, 0, 1)), 1e-12)
  # a single point is its own median
  expect_equal(as.numeric(coef(frechet_median(S2, Z[2, , drop = FALSE]))), Z[2, ], tolerance = 1e-14)
})

test_that("every manifold of the zoo: a point on the manifold with a small subgradient", {
  set.seed(1106)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- ball_sample(M, 25, radius = 0.6)
    w <- runif(25, 0.5, 2)
    for (weights in list(NULL, w)) {
      fit <- frechet_median(M, X, weights = weights)
      expect_true(fit$converged, label = nm)
      expect_true(riem_check(M, coef(fit)))
      expect_lt(fit$grad_norm, 1e-8)
      expect_lt(median_subgradient(M, coef(fit), X, if (is.null(weights)) rep(1, 25) else weights), 1e-7)
      # F really is the weighted mean distance, and nearby points do worse
      ww <- if (is.null(weights)) rep(1, 25) else weights
      expect_equal(fit$cost, sum(ww * riem_dist(M, coef(fit), X)) / sum(ww), tolerance = 1e-10)
      base <- if (M$type == "kendall") ref_preshape(coef(fit)) else coef(fit)
      for (k in 1:3) {
        y <- riem_exp(M, coef(fit), rand_tangent(M, base, norm = 1e-3))
        expect_gt(sum(ww * riem_dist(M, y, X)) / sum(ww), fit$cost - 1e-12)
      }
    }
  }
})

test_that("the median resists gross outliers (rat skulls with corrupted landmarks)", {
  skip_if_not_installed("shapes")
  rats <- NULL
  utils::data("rats", package = "shapes", envir = environment())
  K <- manifold_kendall(8)
  X <- rats$x[, , rats$time == 150]
  n <- dim(X)[3]
  # as in GeodRegr's calvaria data: one landmark entered as (9999, 9999)
  Xc <- X
  for (i in c(3, 9, 14)) Xc[(i %% 8) + 1, , i] <- c(9999, 9999)
  med <- frechet_median(K, X)
  med_c <- frechet_median(K, Xc)
  mn <- frechet_mean(K, X)
  mn_c <- frechet_mean(K, Xc)
  expect_true(med$converged && med_c$converged)
  moved_median <- riem_dist(K, coef(med), coef(med_c))
  moved_mean <- riem_dist(K, coef(mn), coef(mn_c))
  expect_lt(moved_median, moved_mean / 4)
  # and it stays among the clean shapes: closer to their median than any of them is on average
  expect_lt(moved_median, med$cost)
})

test_that("the median fit object: print, summary, plot, coef, residuals", {
  S2 <- manifold_sphere(2)
  fit <- frechet_median(S2, fiji_quakes[1:200, ])
  expect_output(print(fit), "Fr\u00e9chet median on manifold_sphere\\(2\\) of n = 200 points")
  expect_output(print(fit), "Converged")
  s <- summary(fit)
  expect_output(print(s), "Mean distance to the median F")
  expect_output(print(s), "Weiszfeld iterations: converged")
  expect_equal(unname(s$dist_quantiles[3]), stats::median(riem_dist(S2, coef(fit), fiji_quakes[1:200, ])))
  expect_identical(coef(fit), fit$estimate)
  expect_equal(residuals(fit), riem_log(S2, coef(fit), fiji_quakes[1:200, ]))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit))
  # the iteration cap is honoured and reported
  f1 <- frechet_median(S2, fiji_quakes[1:200, ], max_iter = 1, tol = 1e-15)
  expect_equal(f1$iterations, 1)
  expect_false(f1$converged)
  expect_error(frechet_median(S2, fiji_quakes, max_iter = -1), "`max_iter`")
  expect_error(frechet_median(S2, fiji_quakes, tol = 0), "`tol`")
  expect_error(frechet_median(S2, fiji_quakes, init = fiji_quakes[1:2, ]), "`init` must be a single point")
  expect_error(frechet_median(S2, c(1, 1, 1)), "`X`")
  # deterministic: the random seed is untouched
  seed <- ensure_seed()
  frechet_median(S2, fiji_quakes[1:50, ])
  expect_identical(get(".Random.seed", envir = globalenv()), seed)
})

# ---- distance matrices ------------------------------------------------------------

test_that("riem_dist_matrix equals riem_dist pairwise on every manifold", {
  set.seed(1107)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- ball_sample(M, 9, radius = 1)
    Y <- ball_sample(M, 4, radius = 1)
    D <- riem_dist_matrix(M, X, output = "matrix")
    ref <- sapply(1:9, function(j) riem_dist(M, point_i(M, X, j), X))
    expect_identical(dim(D), c(9L, 9L))
    expect_equal(D, ref, tolerance = 1e-13, label = nm)
    expect_identical(D, t(D))
    expect_identical(diag(D), rep(0, 9))
    d <- riem_dist_matrix(M, X)
    expect_s3_class(d, "dist")
    expect_identical(unname(as.matrix(d)), D)
    # plain-R reference distances
    for (i in 2:3) expect_equal(D[i, 1], ref_dist(M, point_i(M, X, i), point_i(M, X, 1)), tolerance = 1e-10)
    C <- riem_dist_matrix(M, X, Y)
    expect_identical(dim(C), c(9L, 4L))
    expect_equal(C, sapply(1:4, function(j) riem_dist(M, point_i(M, Y, j), X)), tolerance = 1e-13, label = nm)
  }
})

test_that("large matrices (several threads) match riem_dist exactly", {
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:600, ]
  D <- riem_dist_matrix(S2, X, output = "matrix")
  n <- 600
  for (j in c(1, 17, 300, 599)) {
    below <- (j + 1):n
    expect_identical(D[below, j], riem_dist(S2, X[j, ], X[below, , drop = FALSE]))
    expect_identical(D[j, below], D[below, j])
  }
  expect_identical(diag(D), rep(0, n))
  expect_equal(D[, 300], riem_dist(S2, X[300, ], X), tolerance = 1e-14)
  # the packed triangle holds column j's distances from x_j, as riem_dist gives them
  d <- riem_dist_matrix(S2, X)
  expect_identical(as.numeric(d)[1:599], riem_dist(S2, X[1, ], X[-1, ]))
  expect_identical(unname(as.matrix(d)), D)
  P <- manifold_spd(3)
  C <- riem_dist_matrix(P, eustock_cov, eustock_cov[, , 1:3])
  expect_identical(C[, 2], riem_dist(P, eustock_cov[, , 2], eustock_cov))
})

test_that("dist objects carry Size, Labels, Diag, Upper, method and work with hclust and cmdscale", {
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:30, ]
  rownames(X) <- paste0("q", 1:30)
  d <- riem_dist_matrix(S2, X)
  expect_identical(attr(d, "Size"), 30L)
  expect_identical(attr(d, "Labels"), rownames(X))
  expect_false(attr(d, "Diag"))
  expect_false(attr(d, "Upper"))
  expect_identical(attr(d, "method"), "manifold_sphere(2)")
  expect_length(d, 30 * 29 / 2)
  hc <- stats::hclust(d, method = "average")
  expect_identical(hc$labels, rownames(X))
  expect_identical(hc$dist.method, "manifold_sphere(2)")
  expect_identical(dim(stats::cmdscale(d, k = 2)), c(30L, 2L))
  expect_identical(dimnames(riem_dist_matrix(S2, X, output = "matrix")), list(rownames(X), rownames(X)))
  expect_identical(rownames(riem_dist_matrix(S2, X, X[1:2, ])), rownames(X))
  # arrays: labels from the third dimension
  K <- manifold_kendall(8)
  R <- array(rnorm(8 * 2 * 4), c(8, 2, 4), dimnames = list(NULL, NULL, c("a", "b", "c", "d")))
  expect_identical(attr(riem_dist_matrix(K, R), "Labels"), c("a", "b", "c", "d"))
  # a single point: an empty dist; a matrix 1 x 1
  expect_length(riem_dist_matrix(S2, X[1, , drop = FALSE]), 0)
  expect_identical(riem_dist_matrix(S2, X[1, ], output = "matrix"), matrix(0, 1, 1))
})

test_that("riem_dist_matrix input errors name the argument", {
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:5, ]
  expect_error(riem_dist_matrix(S2, X, output = "list"), "`output` must be one of \"dist\", \"matrix\"")
  expect_error(riem_dist_matrix(S2, X, X, output = "dist"), "`output` = \"dist\" needs `Y` = NULL")
  expect_error(riem_dist_matrix(S2, X * 2), "`X`: point 1 is not on the sphere")
  expect_error(riem_dist_matrix(S2, X, cbind(X, 1)), "`Y`")
  expect_error(riem_dist_matrix(list(), X), "`M` must be a riemdp manifold")
  E <- manifold_euclidean(1)
  expect_error(riem_dist_matrix(E, matrix(c(-1e308, 1e308))), "exceeds the largest double")
  seed <- ensure_seed()
  riem_dist_matrix(S2, fiji_quakes[1:100, ])
  expect_identical(get(".Random.seed", envir = globalenv()), seed)
})

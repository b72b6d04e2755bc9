# Hostile review of issue 11's location functions: frechet_mean(weights =),
# frechet_median(), riem_dist_matrix(). Each block names the defect it pins.

# Points in a ball of radius `radius` around a random centre (plain R geometry).
review_ball <- function(M, n, radius) {
  centre <- rand_point(M)
  stack_points(M, lapply(seq_len(n), function(i) ref_exp(M, centre, rand_tangent(M, centre, norm = runif(1, 0, radius)))))
}
review_take <- function(M, X, i) if (is.null(M$point_shape)) X[i, , drop = FALSE] else X[, , i, drop = FALSE]
review_cost <- function(M, m, X, w) sum(w * riem_dist(M, m, X)) / sum(w)

# ---- weights ------------------------------------------------------------------

test_that("weights whose sum overflows, or that are subnormal, give the fit of the rescaled weights", {
  # before: an R error 'missing value where TRUE/FALSE needed' (sum = Inf), and
  # a mean that stopped after one step, not converged (weights 1e-320)
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:20, ]
  w <- c(rep(1, 19), 1.7)
  for (f in list(frechet_mean, frechet_median)) {
    ref <- f(S2, X, weights = w)
    big <- f(S2, X, weights = w * 1e308)
    tiny <- f(S2, X, weights = c(rep(1e-320, 19), 1.7e-320))
    expect_true(big$converged && tiny$converged)
    expect_lt(riem_dist(S2, coef(big), coef(ref)), 1e-12)
    expect_lt(riem_dist(S2, coef(tiny), coef(ref)), 1e-3)  # 1.7e-320 is stored to 3 digits
    expect_identical(big$weights, w * 1e308)  # the user's weights are kept
  }
  expect_error(frechet_mean(S2, X, weights = c(rep(1e308, 19), Inf)), "`weights` must be finite")
})

test_that("weight types: integer and 1-d arrays work, logical/NA/NaN/list are errors naming `weights`", {
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:6, ]
  expect_identical(coef(frechet_median(S2, X, weights = 1:6)), coef(frechet_median(S2, X, weights = as.double(1:6))))
  expect_identical(coef(frechet_mean(S2, X, weights = array(1:6))), coef(frechet_mean(S2, X, weights = 1:6)))
  for (bad in list(rep(TRUE, 6), c(1:5, NA), c(1, 1, NaN, 1, 1, 1), as.list(1:6), factor(1:6), 1:6 + 0i, -(1:6)))
    expect_error(frechet_median(S2, X, weights = bad), "`weights`")
  expect_error(frechet_mean(S2, X, weights = NA), "`weights`")
})

test_that("weights are scale-free and integer weights are repeated rows, for mean and median on every manifold", {
  set.seed(2101)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- review_ball(M, 6, radius = 0.5)
    w <- c(2, 1, 3, 0, 1, 2)
    rep_rows <- review_take(M, X, rep(seq_along(w), w))
    for (f in list(frechet_mean, frechet_median)) {
      a <- f(M, X, weights = w)
      expect_true(a$converged, label = nm)
      expect_lt(riem_dist(M, coef(a), coef(f(M, X, weights = 10 * w))), 1e-12)
      expect_lt(riem_dist(M, coef(a), coef(f(M, X, weights = w / 7))), 1e-12)
      r <- f(M, rep_rows)
      expect_lt(riem_dist(M, coef(a), coef(r)), 1e-7)
      expect_equal(a$cost, r$cost, tolerance = 1e-9, label = nm)
    }
  }
})

# ---- Euclidean data at extreme scales ---------------------------------------------

test_that("euclidean median, mean and distances are scale-equivariant from 1e-300 to 1e300", {
  # before: at 1e-150 and 1e-200 the median was the mean (every point 'coincided'
  # with it) reported as converged; at 1e200 the median was the start, F = Inf;
  # the mean's cost and gradient came back Inf; riem_dist_matrix gave zeros at
  # 1e-200 and an error at 1e200
  E <- manifold_euclidean(3)
  set.seed(2102)
  Y <- matrix(rnorm(60), 20, 3)
  w <- runif(20, 0.5, 2)
  med <- frechet_median(E, Y, weights = w)
  mn <- frechet_mean(E, Y, weights = w)
  D <- riem_dist_matrix(E, Y)
  for (s in c(1e300, 1e200, 1e150, 1e-150, 1e-200, 1e-300)) {
    ms <- frechet_median(E, Y * s, weights = w)
    expect_true(ms$converged, label = format(s))
    expect_lt(max(abs(coef(ms) / s - coef(med))), 1e-8)
    expect_equal(ms$cost / s, med$cost, tolerance = 1e-10)
    if (s < 1e150 && s >= 1e-150) {  # below, F underflows to 0  # F = sum w d^2 / 2W: beyond the largest double at 1e200
      ns <- frechet_mean(E, Y * s, weights = w)
      expect_equal(coef(ns) / s, coef(mn), tolerance = 1e-12)
      expect_equal(ns$cost / s^2, mn$cost, tolerance = 1e-10)
      expect_true(ns$converged)
    } else if (s > 1e160) {
      expect_error(frechet_mean(E, Y * s, weights = w), "`X`: the Fr\u00e9chet function F .* exceeds the largest double")
    }
    expect_equal(as.numeric(riem_dist_matrix(E, Y * s)) / s, as.numeric(D), tolerance = 1e-13)
    expect_equal(riem_dist_matrix(E, Y * s, Y[1:2, ] * s) / s, riem_dist_matrix(E, Y, Y[1:2, ]), tolerance = 1e-13)
  }
  # subnormal data
  z <- frechet_median(E, Y * 1e-310)
  expect_lt(max(abs(coef(z) / 1e-310 - coef(frechet_median(E, Y)))), 1e-6)
  # distances that do exceed the largest double are errors, never Inf
  far <- rbind(c(1e308, 0, 0), c(-1e308, 0, 0), c(-1e308, 1, 0))
  expect_error(riem_dist_matrix(E, far), "exceeds the largest double")
  expect_equal(coef(frechet_median(E, far, weights = c(3, 1, 1))), far[1, ])
  expect_equal(frechet_median(E, far, weights = c(3, 1, 1))$cost, 0.8e308)  # distances of 2e308 are not doubles
})

# ---- median: honest convergence ----------------------------------------------------

test_that("a start a hair's breadth from a data point that is not the median is not 'converged' there", {
  # before: from 1e-13 off x_1 the subgradient floor (dominated by x_1) stopped
  # the run after one step, reported converged, 0.2 away from the median
  E <- manifold_euclidean(2)
  set.seed(2103)
  Y <- matrix(rnorm(20), 10, 2) + 1
  u <- t(Y[-1, ]) - Y[1, ]
  R <- rowSums(sweep(u, 2, sqrt(colSums(u^2)), "/"))
  w <- c(0.9 * sqrt(sum(R^2)), rep(1, 9))  # just below the Vardi-Zhang condition
  ref <- frechet_median(E, Y, weights = w)
  expect_true(is.na(ref$data_point))
  for (d in c(1e-8, 1e-13, 3e-14)) {
    f <- frechet_median(E, Y, weights = w, init = Y[1, ] - d * R / sqrt(sum(R^2)))
    expect_true(f$converged, label = format(d))
    expect_lt(sqrt(sum((coef(f) - coef(ref))^2)), 1e-8)
    expect_lt(f$grad_norm, 1e-9)
  }
  # if max_iter stops it near x_1, it says so
  f <- frechet_median(E, Y, weights = w, init = Y[1, ] - 1e-13 * R / sqrt(sum(R^2)), max_iter = 3)
  expect_false(f$converged)
})

test_that("duplicated points: a median on a duplicated point is found and reported with subgradient 0", {
  # before: duplicates split the 'dominance' of the point, the run crept to it
  # (38 steps) and stopped on the floor with grad_norm 0.33, data_point NA
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[c(1, 1, 2), ]
  f <- frechet_median(S2, X)
  expect_true(f$converged)
  expect_identical(f$data_point, 1L)
  expect_identical(f$grad_norm, 0)
  expect_equal(unname(coef(f)), unname(fiji_quakes[1, ]), tolerance = 1e-15)
  expect_lt(f$iterations, 5)
  # all points equal: the point itself, F = 0, at once
  g <- frechet_median(S2, fiji_quakes[rep(5, 4), ])
  expect_identical(c(g$iterations, g$grad_norm), c(0, 0))
  expect_lt(g$cost, 1e-15)
  expect_identical(g$data_point, 1L)
  # n = 2: every point of the geodesic is a median; the midpoint start is kept
  h <- frechet_median(S2, fiji_quakes[1:2, ])
  expect_true(h$converged)
  expect_equal(h$cost, riem_dist(S2, fiji_quakes[1, ], fiji_quakes[2, ]) / 2, tolerance = 1e-12)
})

test_that("max_iter is honoured and reported on every manifold; converged fits have a small subgradient", {
  set.seed(2104)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- review_ball(M, 15, radius = 0.6)
    w <- runif(15, 0.5, 2)
    f2 <- frechet_median(M, X, weights = w, max_iter = 2, tol = 1e-15)
    expect_lte(f2$iterations, 2)
    if (f2$grad_norm > 1e-12) expect_false(f2$converged, label = nm)
    m1 <- frechet_mean(M, X, weights = w, max_iter = 1, tol = 1e-15)
    expect_lte(m1$iterations, 1)
    if (m1$grad_norm > 1e-12) expect_false(m1$converged, label = nm)
    f <- frechet_median(M, X, weights = w)
    expect_true(f$converged, label = nm)
    expect_lt(f$grad_norm, 1e-9)
  }
})

test_that("widely spread SPD data: the median converges (steps that overshoot are halved, not a stall)", {
  # before: a step whose F rose within the rounding band ended the run (a
  # 'stall') after 4-6 steps, not converged, subgradient 1e-5
  P <- manifold_spd(10)
  set.seed(1)
  X <- riem_rgaussian(P, 2000, diag(10), 1)[, , 1:200]  # condition numbers up to 1e6
  f <- frechet_median(P, X)
  expect_true(f$converged)
  expect_lt(f$grad_norm, 1e-8)
  for (k in 1:4) {
    y <- riem_exp(P, coef(f), rand_tangent(P, coef(f), norm = 1e-3 * k))
    expect_gt(review_cost(P, y, X, rep(1, 200)), f$cost)
  }
})

# ---- median: the minimiser, on every manifold ------------------------------------------------

test_that("the median minimises sum w d(x, x_i): no perturbation does better, on every manifold", {
  set.seed(2105)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- review_ball(M, 12, radius = 0.7)
    w <- runif(12, 0.2, 3)
    f <- frechet_median(M, X, weights = w)
    m <- coef(f)
    expect_equal(f$cost, review_cost(M, m, X, w), tolerance = 1e-12, label = nm)
    base <- if (M$type == "kendall") ref_preshape(m) else m
    for (eps in c(1e-2, 1e-4)) for (k in 1:6) {
      y <- riem_exp(M, m, rand_tangent(M, base, norm = eps))
      # F is minimal, and grows at least linearly off a data point only; the
      # quadratic growth in between is >= 0
      expect_gte(review_cost(M, y, X, w) - f$cost, -1e-13, label = nm)
    }
    # the mean is worse for this objective (unless they coincide)
    expect_gte(review_cost(M, coef(frechet_mean(M, X, weights = w)), X, w), f$cost - 1e-13)
  }
})

test_that("a data point carrying more than half the weight is the median, on every manifold", {
  set.seed(2106)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- review_ball(M, 9, radius = 0.6)
    w <- c(rep(1, 8), 8.5)
    f <- frechet_median(M, X, weights = w)
    expect_true(f$converged, label = nm)
    expect_identical(f$data_point, 9L, label = nm)
    expect_lt(riem_dist(M, coef(f), review_take(M, X, 9)), 1e-12)
    expect_identical(f$grad_norm, 0)
  }
})

# ---- inputs ---------------------------------------------------------------------------

test_that("empty, antipodal and off-manifold inputs are clear errors naming the argument", {
  S2 <- manifold_sphere(2)
  X <- fiji_quakes[1:5, ]
  for (f in list(frechet_mean, frechet_median, riem_dist_matrix))
    expect_error(f(S2, X[0, , drop = FALSE]), "`X` must hold at least one point")
  expect_error(riem_dist_matrix(S2, X, X[0, , drop = FALSE]), "`Y` must hold at least one point")
  anti <- rbind(c(0, 0, 1), c(0, 0, -1))
  expect_error(frechet_median(S2, anti), "`X`: antipodal points")
  expect_error(frechet_mean(S2, anti), "`X`: .*antipodal")
  expect_error(frechet_median(S2, X * 1.1), "`X`: point 1 is not on the sphere")
  expect_error(frechet_median(S2, X, init = c(0, 0, 2)), "`init`")
  expect_error(riem_dist_matrix(S2, X, array(1, c(3, 1, 2))), "`Y` must be")
  expect_error(riem_dist_matrix(manifold_kendall(3), array(rnorm(12), c(3, 2, 2)), fiji_quakes[1:2, ]), "`Y`")
  # names: coordinates on the estimate, labels on the matrices
  Xn <- X
  rownames(Xn) <- paste0("p", 1:5)
  colnames(Xn) <- c("a", "b", "c")
  expect_named(coef(frechet_median(S2, Xn, weights = 1:5)), c("a", "b", "c"))
  expect_identical(dimnames(riem_dist_matrix(S2, Xn, Xn[2:3, ])), list(rownames(Xn), c("p2", "p3")))
})

test_that("a distance matrix too large for memory is a clear error, before any allocation", {
  expect_error(check_pair_count(5e9, "`X`", NULL, available = 16e9),
               "`X`: 5000000000 distances need 40.0 GB, more than the 16.0 GB of memory available")
  expect_silent(check_pair_count(5e9, "`X`", NULL, available = NA))
  avail <- available_memory()
  skip_if(is.na(avail) || avail > 3.9e10, "needs a machine with less than 40 GB available")
  S2 <- manifold_sphere(2)
  X <- matrix(c(0, 0, 1), 1e5, 3, byrow = TRUE)
  expect_error(riem_dist_matrix(S2, X), "`X`: 4999950000 distances need 40.0 GB")
  expect_error(riem_dist_matrix(S2, X, X), "`X` and `Y`: 1e\\+10|10000000000 distances")
})

# ---- methods on every manifold ---------------------------------------------------------

test_that("print, summary and plot work for weighted means and medians on every manifold", {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  set.seed(2107)
  for (nm in names(zoo_manifolds())) {
    M <- zoo_manifolds()[[nm]]
    X <- review_ball(M, 8, radius = 0.5)
    for (fit in list(frechet_mean(M, X, weights = 1:8), frechet_median(M, X), frechet_median(M, X, weights = 1:8))) {
      expect_output(print(fit), "Weighted Fr\u00e9chet|Fr\u00e9chet median")
      expect_output(print(summary(fit)), "Quantiles of the geodesic distances")
      expect_invisible(plot(fit))
      expect_identical(dim(as.array(residuals(fit))), dim(as.array(X)))
    }
  }
  seed <- ensure_seed()
  frechet_mean(manifold_sphere(2), fiji_quakes, weights = seq_len(nrow(fiji_quakes)))
  riem_dist_matrix(manifold_spd(3), eustock_cov, eustock_cov[, , 1:2])
  expect_identical(get(".Random.seed", envir = globalenv()), seed)
})

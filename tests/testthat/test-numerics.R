# Numerics anywhere on the manifold (issue 6, items 3, 5, 6 and 9): far points
# on the hyperboloid, results that double precision cannot hold, estimates
# that stay on the manifold, a scale-aware stopping rule, shapes at any scale.

H2 <- manifold_hyperbolic(2)
origin <- c(1, 0, 0)

# The geodesic gamma(t) = cosh(t) p + sinh(t) u through p = (cosh R, 0, sinh R)
# with unit tangent u = (0, 1, 0), and its velocity, in plain R.
far_geodesic <- function(R, t) c(cosh(t) * cosh(R), sinh(t), cosh(t) * sinh(R))
far_velocity <- function(R, t) c(sinh(t) * cosh(R), cosh(t), sinh(t) * sinh(R))

# Norm at p of the difference e of two tangent vectors, from spatial parts
# (a difference of nearly equal vectors is not tangent to rounding, so
# riem_norm() rightly refuses it): |e_perp|^2 + (e.p_s)^2/(|p_s|^2 p0^2).
chart_norm <- function(p, e) {
  ps <- p[-1]
  es <- e[-1]
  a <- sum(ps * es) / sum(ps^2)
  sqrt(sum((es - a * ps)^2) + a^2 / p[1]^2 * sum(ps^2))
}

test_that("hyperbolic distance and log are accurate for points far apart and far from the origin", {
  # from the origin along an axis, up to ~350 (where x0^2 is still finite)
  for (r in c(37, 38, 40, 100, 300, 350)) {
    expect_equal(riem_dist(H2, origin, c(cosh(r), sinh(r), 0)), r, tolerance = 1e-14)
    expect_equal(riem_dist(H2, c(cosh(5), sinh(5), 0), c(cosh(r + 5), sinh(r + 5), 0)), r, tolerance = 1e-14)
  }
  # two points of one geodesic through a point 10 from the origin: dist = |t - s|
  # to the rounding of their coordinates (about eps * x0 in the metric)
  R <- 10
  ts <- c(-20, -5, -0.5, 0, 1e-3, 3, 20)
  for (s in ts) for (t in ts) {
    p <- far_geodesic(R, s)
    q <- far_geodesic(R, t)
    floor <- 8 * .Machine$double.eps * (p[1] + q[1]) * (1 + abs(t - s))
    expect_lt(abs(riem_dist(H2, p, q) - abs(t - s)), floor)
    # Log_p(q) = (t - s) gamma'(s): its norm and its direction
    v <- riem_log(H2, p, q)
    expect_lt(abs(riem_norm(H2, p, v) - abs(t - s)), floor)
    w <- (t - s) * far_velocity(R, s)
    expect_lt(chart_norm(p, v - w), floor)
    # parallel transport of the velocity is the velocity
    moved <- riem_transport(H2, p, q, far_velocity(R, s))
    expect_lt(chart_norm(q, moved - far_velocity(R, t)), floor)
  }
})

test_that("hyperbolic validity checks are scale-aware", {
  expect_error_mentions(riem_check(H2, c(1e200, 0, 0)), c("`x`", "too far from the origin"))
  expect_error_mentions(riem_check(H2, c(1e200, 1e200, 0)), c("`x`", "too far from the origin"))
  expect_true(riem_check(H2, c(cosh(300), sinh(300), 0)))
  # relative to x0^2: x0 off by a relative 1e-6 is off the hyperboloid anywhere
  expect_error_mentions(riem_check(H2, c(cosh(20) * (1 + 1e-6), sinh(20), 0)), c("`x`", "hyperboloid"))
  # a point 12 from the origin is not a tangent vector there (it was accepted)
  p <- c(cosh(12), sinh(12), 0)
  expect_error_mentions(riem_exp(H2, p, p), c("`v`", "tangent"))
  expect_error_mentions(riem_exp(H2, p, p + c(sinh(12), cosh(12), 0)), c("`v`", "tangent"))
  # while true tangent vectors there pass: radial, angular, and a log
  expect_equal(riem_exp(H2, p, c(sinh(12), cosh(12), 0)), c(cosh(13), sinh(13), 0), tolerance = 1e-13)
  expect_equal(riem_exp(H2, p, c(0, 0, 1)), far_geodesic(12, 1)[c(1, 3, 2)], tolerance = 1e-13)
  q <- far_geodesic(12, 2)[c(1, 3, 2)]
  expect_equal(riem_exp(H2, p, riem_log(H2, p, q)), q, tolerance = 1e-12)
})

test_that("results that double precision cannot hold are errors, never NaN or Inf", {
  expect_error_mentions(riem_exp(H2, origin, c(0, 800, 0)), c("`v`", "double precision"))
  expect_error_mentions(riem_exp(H2, origin, c(0, 400, 0)), c("`v`", "double precision"))  # x0^2 overflows
  expect_error_mentions(riem_geodesic(H2, origin, c(0, 1, 0), c(1, 1000)), c("`v` and `t`", "double precision"))
  expect_error_mentions(riem_project(H2, c(0, 1e200, 0)), c("`x`", "too far from the origin"))
  P2 <- manifold_spd(2)
  expect_error_mentions(riem_exp(P2, diag(2), diag(c(800, 1))), c("`v`", "double precision"))
  expect_error_mentions(riem_exp(P2, diag(2), diag(c(-800, 1))), c("`v`", "double precision"))
  expect_error_mentions(riem_geodesic(P2, diag(2), diag(c(1, -1)), 1e4), c("`v` and `t`", "double precision"))
  E2 <- manifold_euclidean(2)
  expect_error_mentions(riem_exp(E2, c(1e308, 0), c(1e308, 0)), c("`v`", "double precision"))
  S2 <- manifold_sphere(2)
  expect_error_mentions(riem_geodesic(S2, c(0, 0, 1), c(1, 0, 0), 1e20), c("`v` and `t`", "double precision"))
  expect_equal(riem_geodesic(S2, c(0, 0, 1), c(1, 0, 0), 2 * pi * 1e6), rbind(c(0, 0, 1)), tolerance = 1e-8,
               ignore_attr = TRUE)
  # huge and tiny arrays project without overflow or underflow
  expect_equal(riem_project(S2, c(1e300, 1e300, 0)), c(1, 1, 0) / sqrt(2))
  expect_equal(riem_project(S2, c(1e-300, 1e-300, 0)), c(1, 1, 0) / sqrt(2))
  expect_error_mentions(riem_project(S2, c(0, 0, 0)), "`x`")
})

test_that("MH draws on H^2 far from the origin follow the exact law and do not escape", {
  eta <- riem_exp(H2, origin, c(0, 30 * cos(0.3), 30 * sin(0.3)))
  set.seed(11)
  exact <- riem_rlaplace(H2, 1000, eta, 0.5, method = "exact")
  set.seed(12)
  mh <- riem_rlaplace(H2, 1000, eta, 0.5, method = "mh",
                      control = mcmc_control(n_iter = 1000, burn_in = 2000, thin = 20))
  # the chain used to drift to x0 = 1e154 (355 from the origin) where every
  # distance read 0; acosh(x0) is the distance from the origin, exactly
  expect_lt(max(acosh(mh[, 1])), 45)
  p <- suppressWarnings(stats::ks.test(riem_dist(H2, eta, exact), riem_dist(H2, eta, mh))$p.value)
  expect_gt(p, 0.001)
})

test_that("a KNG release on H^2 stays in its public ball", {
  set.seed(13)
  X <- riem_rgaussian(H2, 20, origin, 0.5)
  d <- vapply(1:8, function(i) {
    set.seed(200 + i)
    r <- dp_frechet_mean(H2, X, epsilon = 0.1, radius = 20, center = origin, mechanism = "kng",
                         control = mcmc_control(burn_in = 1000, n_iter = 1000))
    acosh(coef(r)[1])  # the exact distance from the centre (the origin)
  }, 1)
  expect_true(all(d <= 20))
  # radius 100 (releases used to land ~355 from the centre) is now refused:
  # off the axes, points there are located only to eps sinh(100)
  expect_error_mentions(dp_frechet_mean(H2, X, epsilon = 0.1, radius = 100, center = origin, mechanism = "kng"),
                        c("`radius`", "double precision"))
})

# ---- item 6: estimates stay on the manifold ----------------------------------

on_manifold <- function(M, x) isTRUE(tryCatch(riem_check(M, x), error = function(e) FALSE))

test_that("frechet_mean stays on the manifold on spread data (all five manifolds)", {
  S2 <- manifold_sphere(2)
  for (k in 1:10) {
    set.seed(k)
    X <- riem_project(S2, matrix(rnorm(60), 20))  # uniform on the sphere
    fit <- suppressWarnings(frechet_mean(S2, X, max_iter = 30))
    expect_lte(fit$iterations, 30)
    expect_equal(sum(coef(fit)^2), 1, tolerance = 1e-14)  # was 3.36 and more
    expect_true(on_manifold(S2, coef(fit)))
  }
  for (k in 1:15) {
    set.seed(k)
    X <- riem_rgaussian(H2, 20, origin, 3)  # points up to ~15 from the origin
    fit <- frechet_mean(H2, X, max_iter = 200)
    expect_true(on_manifold(H2, coef(fit)))  # 17 of 30 failed
    expect_true(fit$converged)
    expect_lte(fit$iterations, 200)
  }
  P3 <- manifold_spd(3)
  for (k in 1:4) {
    set.seed(k)
    X <- riem_rgaussian(P3, 20, diag(3), 3)
    fit <- frechet_mean(P3, X, max_iter = 200)
    expect_true(on_manifold(P3, coef(fit)))
    expect_true(fit$converged)  # stopped unconverged before
  }
  K5 <- manifold_kendall(5)
  for (k in 1:10) {
    set.seed(k)
    X <- array(rnorm(5 * 2 * 20), c(5, 2, 20))  # random shapes
    fit <- suppressWarnings(frechet_mean(K5, X, max_iter = 200))
    m <- coef(fit)
    expect_lte(fit$iterations, 200)
    expect_equal(sum(m^2), 1, tolerance = 1e-14)  # drifted by 1e-3
    expect_equal(colSums(m), c(0, 0), tolerance = 1e-14)
  }
  E3 <- manifold_euclidean(3)
  set.seed(1)
  X <- matrix(rnorm(60, sd = 1e3), 20) + 1e8
  fit <- frechet_mean(E3, X, tol = 1e-12)
  expect_true(fit$converged)
  expect_equal(coef(fit), colMeans(X), tolerance = 1e-15)
})

# ---- item 3: the stopping rule ---------------------------------------------------

test_that("frechet_mean converges on H^2 data 12 from the origin (rounding floor of the gradient)", {
  ctr <- riem_exp(H2, origin, c(0, 12, 0))
  set.seed(2)
  X <- riem_rgaussian(H2, 20, ctr, 0.3)
  Y <- X
  Y[20, ] <- riem_exp(H2, origin, c(0, 12.1, 0.05))  # a neighbouring data set
  for (D in list(X, Y)) {
    fit <- frechet_mean(H2, D, max_iter = 1000, tol = 1e-12)
    expect_true(fit$converged)  # Y: 1000 iterations and no convergence before
    expect_lt(fit$iterations, 100)
    expect_lt(fit$grad_norm, 1e-8)
    expect_true(on_manifold(H2, coef(fit)))
  }
  for (k in 1:10) {
    set.seed(k)
    fit <- frechet_mean(H2, riem_rgaussian(H2, 20, ctr, 0.3), max_iter = 1000, tol = 1e-12)
    expect_true(fit$converged)
    expect_lt(fit$iterations, 100)
  }
})

# ---- item 9: Kendall at any scale ------------------------------------------------

test_that("Kendall configurations are valid at any scale; only coincident landmarks are not", {
  K4 <- manifold_kendall(4)
  x <- cbind(c(0, 1, 1.2, -0.3), c(0, 0, 1, 0.8))
  for (s in c(1e-9, 1e-200, 1e200)) {
    expect_true(riem_check(K4, s * x))
    expect_lt(riem_dist(K4, x, s * x), 1e-12)
    expect_equal(riem_project(K4, s * x), riem_project(K4, x), tolerance = 1e-15)
  }
  expect_lt(riem_dist(K4, x, 1e-9 * x + 3), 1e-6)  # location 3e9 times the size: 7 digits left
  for (s in c(1e-300, 1, 1e300)) {
    expect_error_mentions(riem_check(K4, matrix(s, 4, 2)), c("`x`", "same place"))
    expect_error_mentions(riem_project(K4, matrix(s, 4, 2)), c("`x`", "coincide"))
  }
  expect_error_mentions(riem_check(K4, cbind(rep(0.1, 4), rep(-7, 4))), c("`x`", "same place"))
})

test_that("hyperbolic distances far from the origin are exact along rays and agree with the model's resolution elsewhere", {
  H2 <- manifold_hyperbolic(2)
  ray <- function(a, u = c(1, 0)) c(cosh(a), sinh(a) * u / sqrt(sum(u^2)))
  for (a in c(20, 40, 60, 100, 300)) {
    expect_equal(riem_dist(H2, ray(a), ray(a + 1)), 1, tolerance = 1e-12, info = a)
    expect_equal(riem_dist(H2, c(1, 0, 0), ray(a)), a, tolerance = 1e-14, info = a)
  }
  # off the axes the coordinates fix a point only to about eps sinh(a): 5e-8 at a = 20
  expect_equal(riem_dist(H2, ray(20, c(3, 4)), ray(20.5, c(3, 4))), 0.5, tolerance = 1e-6)
  # off a ray: the law of cosines in plain R, where it is well conditioned
  a <- 25; b <- 26; th <- 1e-3
  p <- ray(a, c(1, 0)); q <- ray(b, c(cos(th), sin(th)))
  d_ref <- 2 * asinh(sqrt(sinh((a - b) / 2)^2 + sinh(a) * sinh(b) * sin(th / 2)^2))
  expect_equal(riem_dist(H2, p, q), d_ref, tolerance = 1e-9)
})

test_that("distances beyond the largest double are an error, not Inf", {
  expect_error_mentions(riem_dist(manifold_euclidean(2), c(1e308, 0), c(-1e308, 0)), c("`p` and `q`", "largest double"))
  expect_error_mentions(riem_dist(manifold_euclidean(2), c(1e308, 0), rbind(c(0, 0), c(-1e308, 0))), c("largest double"))
})

test_that("frechet_mean descends below its rounding bound on ill-conditioned spd data", {
  P <- manifold_spd(3)
  set.seed(17)
  X0 <- riem_rgaussian(P, 40, diag(3), 0.5)
  m0 <- coef(frechet_mean(P, X0, max_iter = 1000, tol = 1e-14))
  for (cn in c(1e6, 1e10)) {
    A <- diag(sqrt(cn^c(-0.5, 0, 0.5)))
    X <- array(apply(X0, 3, function(x) A %*% x %*% A), dim(X0))
    f <- frechet_mean(P, X, max_iter = 1000, tol = 1e-12)
    # the mean is equivariant: it used to stop at the start (4.9 away at 1e14, 2.7e-4 at 1e10)
    expect_lt(riem_dist(P, coef(f), A %*% m0 %*% A), 1e-8)
    expect_gt(f$iterations, 0)
  }
})

test_that("a public ball beyond what double precision resolves is refused, at the edge resolved_reach() states", {
  # on spd: condition numbers up to cond(center) e^(2 r) <= 1e-6 / eps; on
  # the hyperboloid: distances from the origin up to acosh(1e-6 / eps)
  P <- manifold_spd(2)
  X <- array(diag(2), c(2, 2, 5))
  edge_spd <- log(1e-6 / .Machine$double.eps) / 2
  expect_equal(riemdp:::resolved_reach(P, c(diag(2))), edge_spd)
  expect_equal(riemdp:::resolved_reach(P, c(diag(c(1, 1e4)))), edge_spd - log(1e4) / 2)
  expect_error_mentions(dp_frechet_mean(P, X, epsilon = 1, radius = 1.01 * edge_spd, center = diag(2)),
                        c("`radius`", "condition number"))
  expect_error_mentions(dp_frechet_mean(P, X, epsilon = 1, radius = 1.01 * (edge_spd - log(1e4) / 2),
                                        center = diag(c(1, 1e4))),
                        c("`radius`", "better-conditioned `center`"))
  expect_s3_class(dp_frechet_mean(P, X, epsilon = 1, radius = 0.99 * edge_spd, center = diag(2), mechanism = "kng"),
                  "riemdp_release")
  edge_h <- acosh(1e-6 / .Machine$double.eps)
  expect_equal(riemdp:::resolved_reach(H2, origin), edge_h)
  Y <- matrix(origin, 5, 3, byrow = TRUE)
  expect_error_mentions(dp_frechet_mean(H2, Y, epsilon = 1, radius = 1.01 * edge_h, center = origin),
                        c("`radius`", "distance", "from the origin"))
  expect_s3_class(dp_frechet_mean(H2, Y, epsilon = 1, radius = 0.9 * edge_h, center = origin, mechanism = "kng"),
                  "riemdp_release")
  expect_equal(riemdp:::resolved_reach(manifold_sphere(2), c(0, 0, 1)), Inf)
})

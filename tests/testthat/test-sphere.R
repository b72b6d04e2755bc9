# Closed forms on manifold_sphere(d).

test_that("sphere: distances and maps along a great circle", {
  M <- manifold_sphere(2)
  e1 <- c(1, 0, 0); e2 <- c(0, 1, 0); e3 <- c(0, 0, 1)
  expect_equal(riem_dist(M, e1, e2), pi / 2, tolerance = 1e-14)
  expect_equal(riem_dist(M, e1, -e2), pi / 2, tolerance = 1e-14)
  expect_equal(riem_dist(M, e1, c(1, 1, 0) / sqrt(2)), pi / 4, tolerance = 1e-14)
  for (t in c(0.3, 2, 3)) {
    expect_equal(riem_exp(M, e1, t * e2), c(cos(t), sin(t), 0), tolerance = 1e-14)
    expect_equal(riem_log(M, e1, c(cos(t), sin(t), 0)), c(0, t, 0), tolerance = 1e-13)
  }
  # exp of a non-axis vector, checked against cos|v| p + sin|v| v/|v|
  v <- c(0, 0.6, -0.8) * 1.7
  expect_equal(riem_exp(M, e1, v), cos(1.7) * e1 + sin(1.7) * v / 1.7, tolerance = 1e-14)
  # a full turn: exp(p, 2 pi u) = p
  expect_equal(riem_exp(M, e1, 2 * pi * e3), e1, tolerance = 1e-13)
  expect_equal(riem_inner(M, e1, c(0, 1, 2), c(0, 3, 4)), 11)
  expect_equal(riem_norm(M, e1, c(0, 3, 4)), 5)
})

test_that("sphere: distance is accurate near 0 (no acos) and near the antipode", {
  M <- manifold_sphere(2)
  e1 <- c(1, 0, 0)
  for (eps in c(1e-9, 1e-12)) {
    q <- c(cos(eps), sin(eps), 0)
    d <- riem_dist(M, e1, q)
    expect_lt(abs(d - eps) / eps, 1e-6)
    lg <- riem_log(M, e1, q)
    expect_lt(max(abs(lg - c(0, eps, 0))) / eps, 1e-6)
  }
  # same on S^4, off the axes
  M4 <- manifold_sphere(4)
  set.seed(21)
  p <- rand_point(M4)
  u <- rand_tangent(M4, p, norm = 1)
  q <- cos(1e-9) * p + sin(1e-9) * u
  expect_lt(abs(riem_dist(M4, p, q) - 1e-9) / 1e-9, 1e-6)
  # near the antipode
  for (eps in c(1e-6, 1e-4)) {
    a <- pi - eps
    q <- c(cos(a), sin(a), 0)
    expect_lt(abs(riem_dist(M, e1, q) - a), 1e-12)
    expect_equal(riem_log(M, e1, q), c(0, a, 0), tolerance = 1e-12)
  }
})

test_that("sphere: log at antipodal points is an error", {
  M <- manifold_sphere(2)
  expect_error(riem_log(M, c(1, 0, 0), c(-1, 0, 0)))
  expect_error(riem_log(M, c(0, 0.6, 0.8), c(0, -0.6, -0.8)))
  expect_error(riem_transport(M, c(1, 0, 0), c(-1, 0, 0), c(0, 1, 0)))
  expect_error(riem_log(manifold_sphere(1), c(0, 1), c(0, -1)))
  # but the distance is defined there
  expect_equal(riem_dist(M, c(1, 0, 0), c(-1, 0, 0)), pi, tolerance = 1e-14)
})

test_that("sphere: parallel transport along a great circle (closed form)", {
  M <- manifold_sphere(2)
  e1 <- c(1, 0, 0); e2 <- c(0, 1, 0); e3 <- c(0, 0, 1)
  t <- 1.1
  q <- c(cos(t), sin(t), 0)
  # the velocity turns with the curve, the normal stays
  expect_equal(riem_transport(M, e1, q, e2), c(-sin(t), cos(t), 0), tolerance = 1e-14)
  expect_equal(riem_transport(M, e1, q, e3), e3, tolerance = 1e-14)
  expect_equal(riem_transport(M, e1, q, 2 * e2 - 3 * e3), 2 * c(-sin(t), cos(t), 0) - 3 * e3, tolerance = 1e-14)
  # transporting from e1 to e2 takes e2 to -e1
  expect_equal(riem_transport(M, e1, e2, e2), -e1, tolerance = 1e-14)
})

test_that("sphere: transport stays accurate near the antipode", {
  # The geodesic is unique and log is accurate here (see above); the transport
  # of the direction must be too.  u - <q,u>/(1+<p,q>) (p+q) loses digits as
  # 1+<p,q> = 2 cos^2(d/2) -> 0: at d = pi - 1e-6 the error is ~1e-4.
  M <- manifold_sphere(2)
  e1 <- c(1, 0, 0); e2 <- c(0, 1, 0); e3 <- c(0, 0, 1)
  for (eps in c(1e-3, 1e-5, 1e-6)) {
    a <- pi - eps
    q <- c(cos(a), sin(a), 0)
    expect_close(riem_transport(M, e1, q, e2), c(-sin(a), cos(a), 0), 1e-8,
                 label = sprintf("transport of the direction at d = pi - %g", eps))
    expect_close(riem_transport(M, e1, q, e3), e3, 1e-8,
                 label = sprintf("transport of the normal at d = pi - %g", eps))
  }
  M4 <- manifold_sphere(4)
  set.seed(23)
  p <- rand_point(M4)
  t1 <- rand_tangent(M4, p, norm = 1)
  a <- pi - 1e-6
  q <- cos(a) * p + sin(a) * t1
  expect_close(riem_transport(M4, p, q, t1), -sin(a) * p + cos(a) * t1, 1e-8,
               label = "S^4 transport of the direction at d = pi - 1e-6")
})

test_that("sphere(1): the circle", {
  M <- manifold_sphere(1)
  ang <- function(a) c(cos(a), sin(a))
  expect_equal(riem_dist(M, ang(0.2), ang(1.5)), 1.3, tolerance = 1e-13)
  # distance takes the short way round
  expect_equal(riem_dist(M, ang(0.1), ang(2 * pi - 0.2)), 0.3, tolerance = 1e-13)
  expect_equal(riem_log(M, ang(0.1), ang(-0.2)), 0.3 * c(sin(0.1), -cos(0.1)), tolerance = 1e-13)
  expect_equal(riem_exp(M, ang(0.1), 2 * ang(0.1 + pi / 2)), ang(2.1), tolerance = 1e-14)
})

test_that("sphere: riem_project normalises and riem_check rejects off-sphere points", {
  M <- manifold_sphere(2)
  expect_equal(riem_project(M, c(3, 0, 4)), c(0.6, 0, 0.8), tolerance = 1e-15)
  P <- riem_project(M, rbind(c(3, 0, 4), c(0, 2, 0)))
  expect_equal(unname(P), rbind(c(0.6, 0, 0.8), c(0, 1, 0)), tolerance = 1e-15)
  expect_true(riem_check(M, c(0.6, 0, 0.8)))
  expect_true(riem_check(M, P))
  expect_error_mentions(riem_check(M, c(1.2, 0, 0)), c("`x`"))
  expect_error_mentions(riem_check(M, rbind(c(1, 0, 0), c(0, 1, 0), c(0, 0, 1.2))), c("`x`", "3"))
  # within the tolerance is accepted
  expect_true(riem_check(M, c(1 + 1e-12, 0, 0)))
})

test_that("sphere: broadcasting one against many, and results equal loops", {
  M <- manifold_sphere(2)
  set.seed(22)
  p <- rand_point(M)
  Q <- rand_points(M, 6)
  P <- rand_points(M, 6)
  V <- stack_points(M, lapply(1:6, function(i) rand_tangent(M, point_i(M, P, i), norm = runif(1, 0, 3))))
  d <- riem_dist(M, p, Q)
  expect_length(d, 6)
  expect_equal(d, vapply(1:6, function(i) riem_dist(M, p, Q[i, ]), 1), tolerance = 1e-15)
  L <- riem_log(M, p, Q)
  expect_equal(dim(L), c(6L, 3L))
  for (i in 1:6) expect_equal(L[i, ], riem_log(M, p, Q[i, ]), tolerance = 1e-15)
  E <- riem_exp(M, P, V)
  for (i in 1:6) expect_equal(E[i, ], riem_exp(M, P[i, ], V[i, ]), tolerance = 1e-15)
  TQ <- riem_transport(M, P, Q, V)
  for (i in 1:6) expect_equal(TQ[i, ], riem_transport(M, P[i, ], Q[i, ], V[i, ]), tolerance = 1e-15)
  # one base point against many vectors
  W <- stack_points(M, lapply(1:6, function(i) rand_tangent(M, p)))
  E2 <- riem_exp(M, p, W)
  for (i in 1:6) expect_equal(E2[i, ], riem_exp(M, p, W[i, ]), tolerance = 1e-15)
  expect_equal(riem_inner(M, p, W, W[1, ]), as.numeric(W %*% W[1, ]), tolerance = 1e-14)
  expect_equal(riem_dist(M, P, Q), vapply(1:6, function(i) riem_dist(M, P[i, ], Q[i, ]), 1), tolerance = 1e-15)
  # mismatched counts
  expect_error_mentions(riem_dist(M, P, Q[1:4, ]), c("`p`", "`q`"))
  expect_error_mentions(riem_transport(M, P, Q, V[1:2, ]), c("`v`"))
})

test_that("sphere: geometry calls do not change .Random.seed", {
  M <- manifold_sphere(2)
  p <- c(1, 0, 0)
  Q <- rbind(c(0, 1, 0), c(0, 0, 1))
  expect_rng_untouched({
    riem_exp(M, p, c(0, 1, 0))
    riem_log(M, p, Q)
    riem_dist(M, p, Q)
    riem_transport(M, p, c(0, 1, 0), c(0, 0, 1))
    riem_geodesic(M, p, c(0, 1, 0), seq(0, 1, by = 0.25))
    riem_project(M, c(2, 0, 0))
    riem_check(M, p)
  })
})

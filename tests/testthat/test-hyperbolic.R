# Closed forms on manifold_hyperbolic(d) (hyperboloid model, x0 first).

test_that("hyperbolic: distance from the origin along an axis is r, for tiny to large r", {
  M <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  for (r in c(1e-9, 1e-5, 1, 20)) {
    q <- c(cosh(r), sinh(r), 0)
    d <- riem_dist(M, o, q)
    expect_lt(abs(d - r) / r, if (r < 1e-3) 1e-6 else 1e-12)
    expect_lt(abs(riem_dist(M, q, o) - r) / r, if (r < 1e-3) 1e-6 else 1e-12)
  }
  # also off the origin: dist between two axis points is the difference of rapidities
  a <- 0.7; b <- 2.9
  expect_equal(riem_dist(M, c(cosh(a), 0, sinh(a)), c(cosh(b), 0, sinh(b))), b - a, tolerance = 1e-12)
})

test_that("hyperbolic: exp, log and inner product in closed form", {
  M <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  for (r in c(0.5, 3)) {
    expect_equal(riem_exp(M, o, c(0, r, 0)), c(cosh(r), sinh(r), 0), tolerance = 1e-13)
    expect_equal(riem_log(M, o, c(cosh(r), 0, sinh(r))), c(0, 0, r), tolerance = 1e-12)
  }
  expect_equal(riem_inner(M, o, c(0, 1, 2), c(0, 3, 4)), 11)
  # at a point off the origin the Minkowski product is used
  p <- c(cosh(1), sinh(1), 0)
  u <- c(sinh(1), cosh(1), 0)   # unit tangent along the axis
  w <- c(0, 0, 2)
  expect_equal(riem_inner(M, p, u, u), 1, tolerance = 1e-13)
  expect_equal(riem_norm(M, p, u), 1, tolerance = 1e-13)
  expect_equal(riem_inner(M, p, u, w), 0, tolerance = 1e-13)
  expect_equal(riem_norm(M, p, 3 * u + w), sqrt(13), tolerance = 1e-13)
})

test_that("hyperbolic: dist agrees with acosh(-<p,q>_L) for random points", {
  M <- manifold_hyperbolic(3)
  set.seed(31)
  for (i in 1:10) {
    p <- rand_point(M)
    q <- rand_point(M)
    expect_equal(riem_dist(M, p, q), acosh(-minkowski(p, q)), tolerance = 1e-10)
  }
})

test_that("hyperbolic: parallel transport along an axis (closed form)", {
  M <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  r <- 1.3
  q <- c(cosh(r), sinh(r), 0)
  expect_equal(riem_transport(M, o, q, c(0, 1, 0)), c(sinh(r), cosh(r), 0), tolerance = 1e-13)
  expect_equal(riem_transport(M, o, q, c(0, 0, 1)), c(0, 0, 1), tolerance = 1e-13)
  expect_equal(riem_transport(M, q, o, c(sinh(r), cosh(r), 0)), c(0, 1, 0), tolerance = 1e-13)
})

test_that("hyperbolic: riem_project keeps spatial coordinates; riem_check tolerance is relative", {
  M <- manifold_hyperbolic(2)
  expect_equal(riem_project(M, c(0, 3, 4)), c(sqrt(26), 3, 4), tolerance = 1e-15)
  expect_equal(riem_project(M, c(5, 0, 0)), c(1, 0, 0))
  X <- riem_project(M, rbind(c(0, 1, 0), c(-2, 0, 2)))
  expect_equal(unname(X), rbind(c(sqrt(2), 1, 0), c(sqrt(5), 0, 2)), tolerance = 1e-15)
  expect_true(riem_check(M, X))
  # a far point, with its rounding errors, is still on the manifold
  r <- 20
  expect_true(riem_check(M, c(cosh(r), sinh(r), 0)))
  expect_error_mentions(riem_check(M, c(1.1, 0, 0)), "`x`")
  # the lower sheet is not the manifold
  expect_error_mentions(riem_check(M, c(-1, 0, 0)), "`x`")
})

test_that("hyperbolic: broadcasting and loops agree", {
  M <- manifold_hyperbolic(3)
  set.seed(32)
  p <- rand_point(M)
  Q <- rand_points(M, 5)
  L <- riem_log(M, p, Q)
  expect_equal(dim(L), c(5L, 4L))
  for (i in 1:5) expect_equal(L[i, ], riem_log(M, p, Q[i, ]), tolerance = 1e-15)
  expect_equal(riem_dist(M, Q, p), vapply(1:5, function(i) riem_dist(M, Q[i, ], p), 1), tolerance = 1e-15)
  V <- stack_points(M, lapply(1:5, function(i) rand_tangent(M, Q[i, ])))
  E <- riem_exp(M, Q, V)
  for (i in 1:5) expect_equal(E[i, ], riem_exp(M, Q[i, ], V[i, ]), tolerance = 1e-15)
  TT <- riem_transport(M, Q, p, V)
  for (i in 1:5) expect_equal(TT[i, ], riem_transport(M, Q[i, ], p, V[i, ]), tolerance = 1e-15)
  expect_error_mentions(riem_exp(M, Q, V[1:3, ]), c("`p`", "`v`"))
})

test_that("hyperbolic: geometry calls do not change .Random.seed", {
  M <- manifold_hyperbolic(2)
  o <- c(1, 0, 0)
  expect_rng_untouched({
    riem_exp(M, o, c(0, 1, 0))
    riem_dist(M, o, c(cosh(1), sinh(1), 0))
    riem_geodesic(M, o, c(0, 1, 0), c(0, 0.5, 1))
    riem_transport(M, o, c(cosh(1), sinh(1), 0), c(0, 0, 1))
  })
})

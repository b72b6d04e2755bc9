# Closed forms on manifold_kendall(k): planar shapes of k landmarks.

rand_config <- function(k) matrix(rnorm(2 * k), k, 2)

expect_preshape <- function(x, label = "result") {
  expect_close(colSums(x), c(0, 0), 1e-12, scale = 1, label = paste(label, "is centred"))
  expect_close(sqrt(sum(x^2)), 1, 1e-12, scale = 1, label = paste(label, "has unit size"))
}

test_that("kendall: dist is invariant to translation, scaling and rotation of each configuration", {
  set.seed(51)
  for (k in c(3, 5, 8)) {
    M <- manifold_kendall(k)
    for (i in 1:3) {
      x <- rand_config(k)
      y <- rand_config(k)
      d <- riem_dist(M, x, y)
      expect_gt(d, 0)
      expect_lte(d, pi / 2)
      xx <- 3.7 * rotate_config(x, 2.1) + matrix(c(5, -2), k, 2, byrow = TRUE)
      yy <- 0.2 * rotate_config(y, -0.4) + matrix(c(-1, 10), k, 2, byrow = TRUE)
      expect_equal(riem_dist(M, xx, yy), d, tolerance = 1e-12)
      expect_equal(riem_dist(M, xx, y), d, tolerance = 1e-12)
      expect_equal(riem_dist(M, y, x), d, tolerance = 1e-12)
      expect_equal(d, ref_dist(M, x, y), tolerance = 1e-10)
      # a shape is at distance 0 from any similar copy of itself
      expect_lt(riem_dist(M, x, xx), 1e-12)
    }
  }
})

test_that("kendall: dist equals shapes::riemdist", {
  skip_if_not_installed("shapes")
  op <- options(rgl.useNULL = TRUE)
  on.exit(options(op))
  suppressWarnings(suppressMessages(requireNamespace("shapes", quietly = TRUE)))
  set.seed(52)
  for (k in c(3, 4, 6, 10)) {
    M <- manifold_kendall(k)
    for (i in 1:4) {
      x <- rand_config(k)
      y <- rand_config(k)
      expect_equal(riem_dist(M, x, y), shapes::riemdist(x, y), tolerance = 1e-10)
    }
  }
})

test_that("kendall: dist is accurate for nearly equal shapes", {
  M <- manifold_kendall(5)
  set.seed(53)
  z <- ref_preshape(rand_config(5))
  t1 <- rand_tangent(M, z, norm = 1)
  for (eps in c(1e-9, 1e-6)) {
    w <- cos(eps) * z + sin(eps) * t1
    expect_lt(abs(riem_dist(M, z, w) - eps) / eps, 1e-6)
    # rotating and scaling w does not change that
    expect_lt(abs(riem_dist(M, z, 2 * rotate_config(w, 1)) - eps) / eps, 1e-6)
  }
})

test_that("kendall: orthogonal shapes are at distance pi/2 and log there is an error", {
  M <- manifold_kendall(5)
  set.seed(54)
  z <- ref_preshape(rand_config(5))
  w <- rand_tangent(M, z, norm = 1)  # a preshape with <z, w> = 0 (Hermitian)
  expect_equal(riem_dist(M, z, w), pi / 2, tolerance = 1e-12)
  expect_error(riem_log(M, z, w))
  expect_error(riem_log(M, z, 3 * rotate_config(w, 0.7)))
  expect_error(riem_transport(M, z, w, rand_tangent(M, z)))
  # an equilateral triangle and its mirror image are orthogonal shapes
  M3 <- manifold_kendall(3)
  eq <- cbind(cos(2 * pi * (0:2) / 3), sin(2 * pi * (0:2) / 3))
  mirror <- eq %*% diag(c(1, -1))
  expect_equal(riem_dist(M3, eq, mirror), pi / 2, tolerance = 1e-12)
  expect_error(riem_log(M3, eq, mirror))
})

test_that("kendall: outputs are preshapes (centred, unit size) in k x 2 layout", {
  M <- manifold_kendall(4)
  set.seed(55)
  x <- 10 * rand_config(4) + 3
  y <- rand_config(4) - 7
  z <- ref_preshape(x)
  v <- rand_tangent(M, z, norm = 0.8)
  e <- riem_exp(M, x, v)
  expect_equal(dim(e), c(4L, 2L))
  expect_preshape(e, "riem_exp")
  pr <- riem_project(M, x)
  expect_equal(dim(pr), c(4L, 2L))
  expect_preshape(pr, "riem_project")
  expect_equal(pr, z, tolerance = 1e-14)
  G <- riem_geodesic(M, x, v, c(0, 0.5, 1))
  expect_equal(dim(G), c(4L, 2L, 3L))
  for (i in 1:3) expect_preshape(G[, , i], paste("geodesic point", i))
  expect_equal(G[, , 1], z, tolerance = 1e-14)
  # exp on a raw configuration is exp at its preshape
  expect_equal(e, riem_exp(M, z, v), tolerance = 1e-14)
  # log: at the preshape of p, tangent (horizontal), norm = dist
  l <- riem_log(M, x, y)
  expect_equal(dim(l), c(4L, 2L))
  expect_tangent(M, z, l, label = "log(p, q)")
  expect_equal(sqrt(sum(l^2)), riem_dist(M, x, y), tolerance = 1e-12)
  expect_equal(riem_log(M, x, y), riem_log(M, z, ref_preshape(y)), tolerance = 1e-13)
  # log does not depend on the representative of q (rotation, scale, location)
  expect_equal(riem_log(M, x, 5 * rotate_config(y, 2.5) - 1), l, tolerance = 1e-12)
  # exp(p, log(p, q)) is the preshape of q rotated into alignment with p
  expect_equal(riem_exp(M, x, l), ref_align(z, ref_preshape(y)), tolerance = 1e-12)
  # and riem_check accepts the outputs
  expect_true(riem_check(M, e))
  expect_true(riem_check(M, G))
})

test_that("kendall: transport turns the i*direction with the curve (closed form)", {
  M <- manifold_kendall(5)
  set.seed(56)
  z <- ref_preshape(rand_config(5))
  t1 <- rand_tangent(M, z, norm = 1)
  it <- kendall_iz(t1)
  w <- rand_tangent(M, z)
  w <- w - sum(w * t1) * t1 - sum(w * it) * it
  L <- 0.9
  q <- riem_exp(M, z, L * t1)
  gdot <- -sin(L) * z + cos(L) * t1
  expect_equal(riem_transport(M, z, q, t1), gdot, tolerance = 1e-12)
  expect_equal(riem_transport(M, z, q, it), kendall_iz(gdot), tolerance = 1e-12)
  expect_equal(riem_transport(M, z, q, w), w, tolerance = 1e-12)
  expect_equal(riem_transport(M, z, q, 2 * t1 - 3 * it + w), 2 * gdot - 3 * kendall_iz(gdot) + w, tolerance = 1e-12)
  # a rotated, scaled representative of q gives the same (horizontal, aligned) result
  expect_equal(riem_transport(M, z, 4 * rotate_config(q, -1.2), it), kendall_iz(gdot), tolerance = 1e-12)
})

test_that("kendall: broadcasting over k x 2 x n arrays and agreement with loops", {
  M <- manifold_kendall(4)
  set.seed(57)
  p <- rand_config(4)
  Q <- array(rnorm(4 * 2 * 5), c(4, 2, 5))
  d <- riem_dist(M, p, Q)
  expect_length(d, 5)
  expect_equal(d, vapply(1:5, function(i) riem_dist(M, p, Q[, , i]), 1), tolerance = 1e-14)
  L <- riem_log(M, p, Q)
  expect_equal(dim(L), c(4L, 2L, 5L))
  for (i in 1:5) expect_equal(L[, , i], riem_log(M, p, Q[, , i]), tolerance = 1e-14)
  E <- riem_exp(M, p, L)
  expect_equal(dim(E), c(4L, 2L, 5L))
  for (i in 1:5) expect_equal(E[, , i], riem_exp(M, p, L[, , i]), tolerance = 1e-14)
  expect_equal(riem_dist(M, Q, E), rep(0, 5), tolerance = 1e-10)
  TT <- riem_transport(M, p, Q, L)
  for (i in 1:5) expect_equal(TT[, , i], riem_transport(M, p, Q[, , i], L[, , i]), tolerance = 1e-14)
  expect_error_mentions(riem_dist(M, Q[, , 1:2], Q), c("`p`", "`q`"))
  # n = 1 given as an array keeps the array layout; single inputs give a k x 2 matrix
  E1 <- riem_exp(M, p, L[, , 1, drop = FALSE])
  expect_equal(dim(E1), c(4L, 2L, 1L))
  expect_equal(E1[, , 1], E[, , 1], tolerance = 1e-14)
  expect_equal(dim(riem_project(M, Q[, , 2, drop = FALSE])), c(4L, 2L, 1L))
  expect_equal(dim(riem_project(M, Q[, , 2])), c(4L, 2L))
})

test_that("kendall: geometry calls do not change .Random.seed", {
  M <- manifold_kendall(4)
  p <- cbind(c(0, 1, 1, 0), c(0, 0, 1, 1))
  q <- cbind(c(0, 2, 1, 0), c(0, 0, 1, 1))
  expect_rng_untouched({
    riem_dist(M, p, q)
    l <- riem_log(M, p, q)
    riem_exp(M, p, l)
    riem_transport(M, p, q, l)
    riem_project(M, q)
  })
})

# Closed forms on manifold_spd(k) with the affine-invariant metric.

rand_spd <- function(k) {
  A <- matrix(rnorm(k * k), k, k)
  S <- crossprod(A) / k + 0.3 * diag(k)
  (S + t(S)) / 2
}

test_that("spd: dist(I, diag(exp(a))) = |a|, exp and log at the identity", {
  M <- manifold_spd(3)
  I3 <- diag(3)
  for (a in list(c(1, -2, 0.5), c(1e-9, 0, -1e-9), c(5, -5, 0))) {
    D <- diag(exp(a))
    # exp(1e-9) is stored to 1e-16, so log() of it is only good to ~1e-7 relative
    tol <- if (max(abs(a)) < 1e-6) 1e-6 else 1e-9
    expect_lt(abs(riem_dist(M, I3, D) - sqrt(sum(a^2))) / sqrt(sum(a^2)), tol)
    expect_equal(riem_exp(M, I3, diag(a)), D, tolerance = 1e-12)
    expect_lt(max(abs(riem_log(M, I3, D) - diag(a))) / max(abs(a)), tol)
  }
  # log(p, q) for commuting p, q: p^(1/2) log(p^-1 q) p^(1/2)
  p <- diag(c(2, 3, 5)); q <- diag(c(1, 7, 4))
  expect_equal(riem_log(M, p, q), diag(c(2, 3, 5) * log(c(1, 7, 4) / c(2, 3, 5))), tolerance = 1e-13)
  expect_equal(riem_dist(M, p, q), sqrt(sum(log(c(1, 7, 4) / c(2, 3, 5))^2)), tolerance = 1e-13)
})

test_that("spd: inner product is tr(p^-1 u p^-1 v) and exp/log match the closed forms", {
  M <- manifold_spd(3)
  set.seed(41)
  p <- rand_spd(3)
  q <- rand_spd(3)
  u <- to_tangent(M, p, matrix(rnorm(9), 3))
  v <- to_tangent(M, p, matrix(rnorm(9), 3))
  pinv <- solve(p)
  expect_equal(riem_inner(M, p, u, v), sum(diag(pinv %*% u %*% pinv %*% v)), tolerance = 1e-12)
  expect_equal(riem_norm(M, p, u), sqrt(sum(diag(pinv %*% u %*% pinv %*% u))), tolerance = 1e-12)
  h <- sym_sqrt(p); hi <- sym_isqrt(p)
  expect_equal(riem_exp(M, p, v), h %*% sym_exp(hi %*% v %*% hi) %*% h, tolerance = 1e-12)
  expect_equal(riem_log(M, p, q), h %*% sym_log(hi %*% q %*% hi) %*% h, tolerance = 1e-12)
  expect_equal(riem_dist(M, p, q), ref_dist(M, p, q), tolerance = 1e-12)
  # transport: E u E', E = p^(1/2) (p^-1/2 q p^-1/2)^(1/2) p^-1/2
  E <- h %*% sym_sqrt(hi %*% q %*% hi) %*% hi
  expect_equal(riem_transport(M, p, q, u), E %*% u %*% t(E), tolerance = 1e-12)
  # from the identity to a diagonal matrix: q^(1/2) u q^(1/2)
  D <- diag(c(4, 1, 9))
  expect_equal(riem_transport(M, diag(3), D, u), sqrt(D) %*% u %*% sqrt(D), tolerance = 1e-12)
})

test_that("spd: outputs are exactly symmetric", {
  M <- manifold_spd(3)
  set.seed(42)
  p <- rand_spd(3)
  q <- rand_spd(3)
  v <- to_tangent(M, p, matrix(rnorm(9), 3))
  for (x in list(riem_exp(M, p, v), riem_log(M, p, q), riem_transport(M, p, q, v))) {
    expect_true(isSymmetric(unname(x), tol = 1e-14))
  }
})

test_that("spd: affine invariance of dist and equivariance of exp/log", {
  M <- manifold_spd(3)
  set.seed(43)
  for (i in 1:5) {
    p <- rand_spd(3)
    q <- rand_spd(3)
    A <- matrix(rnorm(9), 3, 3)
    expect_equal(riem_dist(M, A %*% p %*% t(A), A %*% q %*% t(A)), riem_dist(M, p, q), tolerance = 1e-9)
    expect_equal(riem_log(M, A %*% p %*% t(A), A %*% q %*% t(A)), A %*% riem_log(M, p, q) %*% t(A), tolerance = 1e-8)
  }
  # invariance under inversion
  expect_equal(riem_dist(M, solve(p), solve(q)), riem_dist(M, p, q), tolerance = 1e-10)
})

test_that("spd: dist equals shapes::distcov(method = 'Riemannian')", {
  skip_if_not_installed("shapes")
  op <- options(rgl.useNULL = TRUE)
  on.exit(options(op))
  suppressWarnings(suppressMessages(requireNamespace("shapes", quietly = TRUE)))
  set.seed(44)
  for (k in 2:3) {
    M <- manifold_spd(k)
    for (i in 1:5) {
      p <- rand_spd(k)
      q <- rand_spd(k)
      expect_equal(riem_dist(M, p, q), shapes::distcov(p, q, method = "Riemannian"), tolerance = 1e-10)
    }
  }
})

test_that("spd: riem_project symmetrises and floors eigenvalues; riem_check rejects bad matrices", {
  M <- manifold_spd(2)
  P <- riem_project(M, matrix(c(2, 1, 0, 3), 2))
  expect_equal(P, matrix(c(2, 0.5, 0.5, 3), 2), tolerance = 1e-14)
  N <- riem_project(M, matrix(c(1, 0, 0, -1), 2))
  expect_true(isSymmetric(N))
  expect_gt(min(eigen(N, symmetric = TRUE)$values), 0)
  expect_true(riem_check(M, N))
  expect_true(riem_check(M, diag(2)))
  expect_error_mentions(riem_check(M, matrix(c(1, 0.5, 0, 1), 2)), c("`x`", "symmetric"))
  expect_error_mentions(riem_check(M, diag(c(1, -1))), c("`x`", "positive"))
  expect_error_mentions(riem_check(M, array(c(diag(2), diag(c(1, 0))), c(2, 2, 2))), c("`x`", "2"))
})

test_that("spd: broadcasting over k x k x n arrays and agreement with loops", {
  M <- manifold_spd(2)
  set.seed(45)
  p <- rand_spd(2)
  Q <- array(unlist(replicate(4, rand_spd(2), simplify = FALSE)), c(2, 2, 4))
  d <- riem_dist(M, p, Q)
  expect_length(d, 4)
  expect_equal(d, vapply(1:4, function(i) riem_dist(M, p, Q[, , i]), 1), tolerance = 1e-14)
  L <- riem_log(M, p, Q)
  expect_equal(dim(L), c(2L, 2L, 4L))
  for (i in 1:4) expect_equal(L[, , i], riem_log(M, p, Q[, , i]), tolerance = 1e-14)
  E <- riem_exp(M, Q, L)
  for (i in 1:4) expect_equal(E[, , i], riem_exp(M, Q[, , i], L[, , i]), tolerance = 1e-14)
  TT <- riem_transport(M, p, Q, L)
  for (i in 1:4) expect_equal(TT[, , i], riem_transport(M, p, Q[, , i], L[, , i]), tolerance = 1e-14)
  G <- riem_geodesic(M, p, L[, , 1], c(0, 0.5, 1))
  expect_equal(dim(G), c(2L, 2L, 3L))
  expect_equal(G[, , 3], Q[, , 1], tolerance = 1e-12)
  # n = 1 as an array keeps the array layout
  E1 <- riem_exp(M, Q[, , 1, drop = FALSE], L[, , 1, drop = FALSE])
  expect_equal(dim(E1), c(2L, 2L, 1L))
  expect_error_mentions(riem_dist(M, Q[, , 1:3], Q), c("`p`", "`q`"))
})

test_that("spd: geometry calls do not change .Random.seed", {
  M <- manifold_spd(2)
  p <- diag(2); q <- matrix(c(2, 0.3, 0.3, 1), 2)
  expect_rng_untouched({
    riem_log(M, p, q)
    riem_exp(M, p, diag(c(1, -1)))
    riem_dist(M, p, q)
    riem_transport(M, p, q, diag(2))
    riem_project(M, diag(c(1, -1)))
  })
})

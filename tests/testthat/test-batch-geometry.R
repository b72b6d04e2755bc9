# riem_dist of one point against many (issue 6, item 13): the point checks
# are fused with the distances in one C++ pass on two threads. The result and
# the errors must be those of the separate checks, and the sphere's cheaper
# chord angle must keep the accuracy of 2 atan2(|q-p|, |q+p|).

test_that("one-against-many riem_dist agrees with the pairwise path on every manifold, both ways round", {
  zoo <- zoo_manifolds()
  for (nm in names(zoo)) {
    M <- zoo[[nm]]
    set.seed(5)
    n <- 30000L  # above the two-thread threshold
    X0 <- rand_points(M, 200L)
    X <- if (is.null(M$point_shape)) X0[rep(1:200, length.out = n), ] else X0[, , rep(1:200, length.out = n)]
    p <- rand_point(M)
    d1 <- riem_dist(M, p, X)
    d2 <- riem_dist(M, X, p)
    # reference: the pairwise path (n points against n copies of p) and plain R
    ref <- riem_dist(M, stack_points(M, rep(list(p), 200L)), X0)[rep(1:200, length.out = n)]
    expect_equal(ref[1:200], vapply(1:200, function(i) ref_dist(M, p, point_i(M, X0, i)), 0), tolerance = 1e-8,
                 label = paste(nm, "pairwise vs plain R"))
    expect_equal(d1, d2, tolerance = 1e-14, label = nm)
    expect_equal(d1, ref, tolerance = 1e-12, label = nm)
  }
})

test_that("one-against-many riem_dist reports bad points exactly as the separate checks do", {
  S2 <- manifold_sphere(2)
  set.seed(2)
  Q <- rand_points(S2, 50000L)
  p <- c(0, 0, 1)
  bad <- Q
  bad[40001, ] <- bad[40001, ] * 1.1  # in the second thread's half
  expect_error(riem_dist(S2, p, bad), "`q`: point 40001 is not on the sphere: its norm is 1.1 (tolerance 1e-08)", fixed = TRUE)
  expect_error(riem_dist(S2, bad, p), "`p`: point 40001 is not on the sphere", fixed = TRUE)
  bad[17, 2] <- NaN  # the first bad point is reported
  expect_error(riem_dist(S2, p, bad), "`q` must be finite: point 17 contains NA, NaN or Inf", fixed = TRUE)
  bad[17, 2] <- Inf
  expect_error(riem_dist(S2, p, bad), "`q` must be finite: point 17 contains NA, NaN or Inf", fixed = TRUE)
  expect_error(riem_dist(S2, c(0, 0, 2), Q), "`p` is not on the sphere: its norm is 2", fixed = TRUE)
  # both arguments bad: p is reported first, as before
  expect_error(riem_dist(S2, c(0, 0, 2), bad), "`p` is not on the sphere", fixed = TRUE)
  # layout errors keep their wording
  expect_error(riem_dist(S2, p, Q[, 1:2]), "`q` must be a vector of length 3 or a matrix with 3 columns", fixed = TRUE)
  H2 <- manifold_hyperbolic(2)
  Xh <- rand_points(H2, 30000L)
  Xh[20000, 1] <- -Xh[20000, 1]
  expect_error(riem_dist(H2, c(1, 0, 0), Xh), "`q`: point 20000 is not on the upper sheet", fixed = TRUE)
  P2 <- manifold_spd(2)
  Xs <- rand_points(P2, 100L)
  Xs[, , 60] <- diag(c(1, -1))
  expect_error(riem_dist(P2, diag(2), Xs), "`q`: point 60 is not positive definite", fixed = TRUE)
  E2 <- manifold_euclidean(2)
  expect_error(riem_dist(E2, c(0, 0), rbind(c(1, 1), c(NA, 1))), "`q` must be finite: point 2", fixed = TRUE)
})

test_that("the sphere's batch chord angle is as accurate as 2 atan2 at every distance", {
  S2 <- manifold_sphere(2)
  t <- c(1e-300, 1e-12, 1e-6, 0.5, pi / 3, pi / 2, 2 * pi / 3, 3, pi - 1e-6, pi - 1e-12)
  # q at distance t from the north pole: (sin t, 0, cos t) is the rounded point
  Q <- cbind(sin(t), 0, cos(t))
  p <- c(0, 0, 1)
  # reference from the rounded coordinates (the angle of the stored point)
  ref <- 2 * atan2(sqrt(Q[, 1]^2 + (Q[, 3] - 1)^2), sqrt(Q[, 1]^2 + (Q[, 3] + 1)^2))
  d <- riem_dist(S2, p, Q)
  ok <- t > 1e-200  # 1e-300: the squared chord underflows in both forms
  expect_lt(max(abs(d[ok] - ref[ok]) / ref[ok]), 4e-16)
  expect_lt(max(abs(d[ok] - t[ok]) / t[ok]), 4e-16)
  # many random pairs, single (scalar path) and batch agree with 2 atan2
  set.seed(9)
  X <- rand_points(S2, 20000L)
  ref <- 2 * atan2(sqrt(rowSums(sweep(X, 2, p)^2)), sqrt(rowSums(sweep(X, 2, -p)^2)))
  expect_lt(max(abs(riem_dist(S2, p, X) - ref) / ref), 1e-15)
  expect_lt(max(abs(vapply(1:200, function(i) riem_dist(S2, p, X[i, ]), 0) - ref[1:200]) / ref[1:200]), 1e-15)
})

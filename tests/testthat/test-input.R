# Bad input is an error that names the argument; nothing is silently repaired.

S2 <- manifold_sphere(2)
e1 <- c(1, 0, 0); e2 <- c(0, 1, 0)

test_that("non-finite values are rejected, naming the argument", {
  expect_error_mentions(riem_exp(S2, c(NaN, 0, 0), e2), c("`p`", "finite"))
  expect_error_mentions(riem_exp(S2, e1, c(0, Inf, 0)), c("`v`", "finite"))
  expect_error_mentions(riem_dist(S2, e1, c(NA, 1, 0)), c("`q`", "finite"))
  expect_error_mentions(riem_log(S2, rbind(e1, c(0, -Inf, 0)), e2), c("`p`", "finite"))
  expect_error_mentions(riem_inner(S2, e1, c(0, NaN, 0), e2 * 0), c("`u`", "finite"))
  expect_error_mentions(riem_transport(S2, e1, e2, c(0, 0, NaN)), c("`v`", "finite"))
  expect_error_mentions(riem_check(S2, c(NaN, 0, 0)), c("`x`"))
  expect_error_mentions(riem_geodesic(S2, e1, e2, c(0, NaN)), c("`t`"))
  H <- manifold_hyperbolic(2)
  expect_error_mentions(riem_dist(H, c(1, 0, 0), c(Inf, Inf, 0)), c("`q`", "finite"))
  P <- manifold_spd(2)
  expect_error_mentions(riem_dist(P, diag(2), matrix(c(1, NaN, NaN, 1), 2)), c("`q`", "finite"))
  K <- manifold_kendall(3)
  expect_error_mentions(riem_dist(K, cbind(c(0, 1, NA), c(0, 0, 1)), cbind(c(0, 1, 0), c(0, 0, 1))), c("`p`", "finite"))
  E <- manifold_euclidean(2)
  expect_error_mentions(riem_exp(E, c(0, 0), c(Inf, 0)), c("`v`", "finite"))
})

test_that("wrong dimensions are rejected, naming the argument", {
  expect_error_mentions(riem_dist(S2, c(1, 0, 0, 0), e1), "`p`")
  expect_error_mentions(riem_dist(S2, e1, c(1, 0)), "`q`")
  expect_error_mentions(riem_log(S2, e1, matrix(c(1, 0, 0, 0), 1, 4)), "`q`")
  expect_error_mentions(riem_exp(S2, e1, c(0, 1)), "`v`")
  expect_error_mentions(riem_exp(manifold_euclidean(3), c(0, 0), c(0, 0, 1)), "`p`")
  P <- manifold_spd(2)
  expect_error_mentions(riem_dist(P, diag(3), diag(2)), "`p`")
  expect_error_mentions(riem_dist(P, diag(2), array(diag(3), c(3, 3, 1))), "`q`")
  expect_error_mentions(riem_exp(P, diag(2), matrix(0, 2, 3)), "`v`")
  K <- manifold_kendall(4)
  x <- cbind(c(0, 1, 1, 0), c(0, 0, 1, 1))
  expect_error_mentions(riem_dist(K, x, rbind(x, c(2, 2))), "`q`")
  expect_error_mentions(riem_dist(K, cbind(x, 0), x), "`p`")
  expect_error_mentions(riem_dist(K, array(0, c(5, 2, 3)), x), "`p`")
  expect_error_mentions(riem_dist(S2, "a", e1), "`p`")
})

test_that("points off the manifold beyond tolerance are errors, not silently projected", {
  expect_error_mentions(riem_exp(S2, c(1.01, 0, 0), e2), "`p`")
  expect_error_mentions(riem_dist(S2, e1, c(0, 0, 1.01)), "`q`")
  expect_error_mentions(riem_dist(S2, e1, rbind(e2, c(0, 0.5, 0.5))), "`q`")
  expect_error_mentions(riem_log(S2, c(0, 0, 0), e1), "`p`")
  H <- manifold_hyperbolic(2)
  expect_error_mentions(riem_dist(H, c(1.5, 0, 0), c(1, 0, 0)), "`p`")          # <x,x>_L = -2.25
  expect_error_mentions(riem_dist(H, c(1, 0, 0), c(2, 1, 0)), "`q`")            # <x,x>_L = -3
  expect_error_mentions(riem_dist(H, c(1, 0, 0), c(-sqrt(2), 1, 0)), "`q`")     # lower sheet
  P <- manifold_spd(2)
  expect_error_mentions(riem_dist(P, matrix(c(2, 1, 0, 2), 2), diag(2)), c("`p`", "symmetric"))
  expect_error_mentions(riem_dist(P, diag(2), diag(c(1, -2))), c("`q`", "positive"))
  expect_error_mentions(riem_dist(P, diag(2), diag(c(1, 0))), c("`q`", "positive"))
  expect_error_mentions(riem_exp(P, matrix(c(1, 2, 2, 1), 2), diag(2)), c("`p`", "positive"))
  K <- manifold_kendall(4)
  x <- cbind(c(0, 1, 1, 0), c(0, 0, 1, 1))
  expect_error_mentions(riem_dist(K, matrix(3, 4, 2), x), "`p`")
  expect_error_mentions(riem_dist(K, x, cbind(rep(1, 4), rep(-2, 4))), "`q`")
  # the position of the bad point is reported
  expect_error_mentions(riem_check(S2, rbind(e1, e2, c(0, 0, 2))), c("`x`", "3"))
})

test_that("within the tolerance points are accepted, and riemdp.tol controls it", {
  expect_equal(riem_dist(S2, c(1 + 1e-11, 0, 0), e2), pi / 2, tolerance = 1e-9)
  expect_error(riem_dist(S2, c(1.001, 0, 0), e2))
  op <- options(riemdp.tol = 1e-2)
  on.exit(options(op))
  expect_silent(riem_dist(S2, c(1.001, 0, 0), e2))
  expect_true(riem_check(S2, c(1.001, 0, 0)))
  options(op)
  expect_error(riem_check(S2, c(1.001, 0, 0)))
})

test_that("integer storage is accepted like double", {
  expect_equal(riem_dist(S2, c(1L, 0L, 0L), c(0L, 1L, 0L)), pi / 2, tolerance = 1e-14)
  expect_equal(riem_exp(manifold_euclidean(2), c(1L, 2L), c(3L, 4L)), c(4, 6))
  P <- manifold_spd(2)
  expect_equal(riem_dist(P, matrix(c(2L, 0L, 0L, 2L), 2), diag(2)), sqrt(2) * log(2), tolerance = 1e-14)
})

test_that("kendall accepts any location and scale (documented), but not degenerate configurations", {
  K <- manifold_kendall(3)
  x <- cbind(c(0, 1, 0), c(0, 0, 1))
  expect_lt(riem_dist(K, x, 1000 * x + 7), 1e-12)
  expect_lt(riem_dist(K, x, 1e-3 * x - 7), 1e-12)
  expect_error_mentions(riem_log(K, x, matrix(c(1, 1, 1, 2, 2, 2), 3)), "`q`")
})

test_that("tangent vectors that are not tangent are rejected, naming the argument", {
  expect_error_mentions(riem_exp(S2, e1, c(0.5, 1, 0)), "`v`")
  expect_error_mentions(riem_norm(S2, e1, c(1, 0, 0)), "`v`")
  expect_error_mentions(riem_inner(S2, e1, c(1, 1, 0), c(0, 1, 0)), "`u`")
  expect_error_mentions(riem_transport(S2, e1, e2, c(0.1, 0, 1)), "`v`")
  expect_error_mentions(riem_geodesic(S2, e1, c(1, 1, 0), c(0, 1)), "`v`")
  # a tiny violation within the tolerance is fine
  expect_equal(riem_norm(S2, e1, c(1e-12, 3, 4)), 5, tolerance = 1e-10)
  H <- manifold_hyperbolic(2)
  expect_error_mentions(riem_exp(H, c(1, 0, 0), c(1, 0, 0)), "`v`")
  p <- c(cosh(1), sinh(1), 0)
  expect_error_mentions(riem_exp(H, p, c(0, 1, 0)), "`v`")   # <v, p>_L = sinh(1), not tangent
  P <- manifold_spd(2)
  expect_error_mentions(riem_exp(P, diag(2), matrix(c(0, 1, 0, 0), 2)), "`v`")
  K <- manifold_kendall(3)
  z <- ref_preshape(cbind(c(0, 1, 0), c(0, 0, 1)))
  expect_error_mentions(riem_exp(K, z, z), "`v`")                         # radial, not horizontal
  expect_error_mentions(riem_exp(K, z, kendall_iz(z)), "`v`")             # rotation, not horizontal
  expect_error_mentions(riem_exp(K, z, matrix(1, 3, 2)), "`v`")           # translation
})

test_that("mismatched counts name both arguments", {
  P3 <- rbind(e1, e2, c(0, 0, 1))
  Q2 <- rbind(e2, e1)
  expect_error_mentions(riem_dist(S2, P3, Q2), c("`p`", "`q`"))
  expect_error_mentions(riem_log(S2, P3, Q2), c("`p`", "`q`"))
  V2 <- rbind(c(0, 1, 0), c(0, 0, 1))
  expect_error_mentions(riem_exp(S2, P3, V2), c("`p`", "`v`"))
  expect_error_mentions(riem_inner(S2, P3, V2, V2), c("`p`", "`u`"))
})

test_that("the first argument must be a manifold", {
  expect_error_mentions(riem_dist(list(type = "sphere"), e1, e2), "`M`")
  expect_error_mentions(riem_exp("sphere", e1, e2), "`M`")
  expect_error_mentions(riem_log(NULL, e1, e2), "`M`")
  expect_error_mentions(riem_check(3, e1), "`M`")
})

test_that("constructors validate their arguments", {
  expect_error_mentions(manifold_sphere(0), "`d`")
  expect_error_mentions(manifold_sphere(-1), "`d`")
  expect_error_mentions(manifold_sphere(1.5), "`d`")
  expect_error_mentions(manifold_sphere(c(2, 3)), "`d`")
  expect_error_mentions(manifold_sphere("2"), "`d`")
  expect_error_mentions(manifold_euclidean(0), "`d`")
  expect_error_mentions(manifold_hyperbolic(NA), "`d`")
  expect_error_mentions(manifold_hyperbolic(0), "`d`")
  expect_error_mentions(manifold_spd(1.5), "`k`")
  expect_error_mentions(manifold_spd(0), "`k`")
  expect_error_mentions(manifold_kendall(2), "`k`")
  expect_error_mentions(manifold_kendall(Inf), "`k`")
  # whole numbers stored as double are fine
  expect_equal(manifold_sphere(2)$dim, 2)
  expect_equal(manifold_kendall(3L)$dim, 2)
})

test_that("a data frame of numeric columns and a list of SPD matrices are read as points; other inputs say what to do", {
  S2 <- manifold_sphere(2)
  set.seed(71)
  X <- riem_project(S2, cbind(rnorm(20, sd = 0.1), rnorm(20, sd = 0.1), 1))
  df <- as.data.frame(X)
  expect_equal(unname(coef(frechet_mean(S2, df))), coef(frechet_mean(S2, X)))
  df$label <- letters[1:20]
  expect_error(frechet_mean(S2, df), "non-numeric columns \\(label\\).*as.matrix")
  P2 <- manifold_spd(2)
  covs <- lapply(split(as.data.frame(matrix(rnorm(200), 100)), rep(1:5, 20)), cov)
  arr <- simplify2array(unname(covs))
  expect_equal(unname(coef(frechet_mean(P2, covs))), unname(coef(frechet_mean(P2, arr))))
  expect_error(frechet_mean(P2, list(diag(2), diag(3))), "simplify2array")
  expect_error(frechet_mean(S2, "a"), "must be numeric: a point is a vector of length 3.*class character")
})

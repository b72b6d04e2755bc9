# Isotropic tangent Gaussians without a basis (Manifold::tangent_gaussian,
# used by the Metropolis-Hastings proposals and the exact samplers' uniform
# directions): for z ~ N(0, I), the result must be tangent at p and N(0, I)
# in an orthonormal basis of T_p for the metric at p, and the returned norm
# must be its Riemannian norm.

# An orthonormal basis of T_p (metric at p) built in plain R: Gram-Schmidt
# with ref_inner() on the tangent projections of the ambient unit vectors.
ref_tangent_basis <- function(M, p) {
  basis <- list()
  for (j in seq_len(M$ambient)) {
    e <- numeric(M$ambient)
    e[j] <- 1
    if (!is.null(M$point_shape)) e <- matrix(e, M$point_shape[1], M$point_shape[2])
    v <- to_tangent(M, p, e)
    for (b in basis) v <- v - ref_inner(M, p, b, v) * b
    nv <- ref_norm(M, p, v)
    if (nv > 1e-6) basis[[length(basis) + 1L]] <- v / nv
    if (length(basis) == M$dim) break
  }
  basis
}

tg_ks_p <- function(x, cdf) suppressWarnings(stats::ks.test(x, cdf)$p.value)

# A base point away from the origin / identity, where a wrong metric shows.
tg_point <- function(M) {
  switch(M$type,
    hyperbolic = { xs <- c(1.5, -0.8, 0.4)[seq_len(M$ambient - 1)]; c(sqrt(1 + sum(xs^2)), xs) },
    spd = { A <- matrix(c(2, 0.7, 0.1, 0.7, 1, -0.3, 0.1, -0.3, 0.4), 3, 3)[seq_len(M$k), seq_len(M$k)]; A },
    rand_point(M))
}

test_that("tangent_gaussian is tangent, returns its Riemannian norm, and is N(0, I) in an orthonormal basis", {
  zoo <- zoo_manifolds()
  n <- 10000L
  for (nm in names(zoo)) {
    M <- zoo[[nm]]
    set.seed(7)
    p <- tg_point(M)
    P <- riemdp:::as_set(M, p, "p")
    size0 <- riemdp:::geom_tangent_gaussian(M, P, matrix(0, 0, 0))
    z <- matrix(rnorm(size0$size * n), size0$size, n)
    g <- riemdp:::geom_tangent_gaussian(M, P, z)
    expect_identical(dim(g$v), c(as.integer(M$ambient), n), label = nm)
    vs <- lapply(seq_len(n), function(i) {
      v <- g$v[, i]
      if (is.null(M$point_shape)) v else matrix(v, M$point_shape[1], M$point_shape[2])
    })
    # tangent at p (plain-R defect relative to the vector's size)
    defect <- max(vapply(vs[1:500], function(v) tangent_defect(M, p, v) / max(1, sqrt(sum(v^2))), 0))
    expect_lt(defect, 1e-10, label = paste(nm, "tangent defect"))
    # the returned norm is |v|_p
    ref_n <- vapply(vs[1:500], function(v) ref_norm(M, p, v), 0)
    expect_close(g$norm[1:500], ref_n, 1e-10, label = paste(nm, "norm"))
    # coordinates in a plain-R orthonormal basis: mean 0, covariance I
    B <- ref_tangent_basis(M, p)
    expect_length(B, M$dim)
    C <- vapply(B, function(b) vapply(vs, function(v) ref_inner(M, p, b, v), 0), numeric(n))
    C <- matrix(C, n, M$dim)
    expect_lt(max(abs(colMeans(C))), 5 / sqrt(n), label = paste(nm, "mean"))
    expect_lt(max(abs(stats::cov(C) - diag(M$dim))), 6 * sqrt(2 / n), label = paste(nm, "covariance - I"))
    # one coordinate and one oblique projection are N(0, 1) (KS)
    w <- rnorm(M$dim)
    w <- w / sqrt(sum(w^2))
    expect_gt(tg_ks_p(C[, 1], stats::pnorm), 0.001, label = paste(nm, "KS first coordinate"))
    expect_gt(tg_ks_p(drop(C %*% w), stats::pnorm), 0.001, label = paste(nm, "KS oblique projection"))
  }
})

test_that("the KS and covariance checks above have power: a non-isotropic vector fails them", {
  set.seed(7)
  n <- 10000L
  coords <- function(M, p, vs) {
    B <- ref_tangent_basis(M, p)
    matrix(vapply(B, function(b) vapply(vs, function(v) ref_inner(M, p, b, v), 0), numeric(n)), n, M$dim)
  }
  # spd: the Frobenius-isotropic S (the law at the identity) is not isotropic
  # for the metric at p != I
  M <- manifold_spd(2)
  p <- tg_point(M)
  C <- coords(M, p, lapply(seq_len(n), function(i) { S <- matrix(rnorm(4), 2, 2); (S + t(S)) / 2 }))
  expect_gt(max(abs(stats::cov(C) - diag(M$dim))), 6 * sqrt(2 / n))
  # sphere: the projected ambient Gaussian with a 10% scale error
  M <- manifold_sphere(4)
  p <- tg_point(M)
  C <- coords(M, p, lapply(seq_len(n), function(i) 1.1 * to_tangent(M, p, rnorm(5))))
  expect_lt(tg_ks_p(C[, 1], stats::pnorm), 0.001)
  expect_gt(max(abs(stats::cov(C) - diag(M$dim))), 6 * sqrt(2 / n))
})

test_that("on the sphere, the hyperboloid and Euclidean space tangent_gaussian is the basis product, in O(d)", {
  cases <- list(list(manifold_sphere(2), c(0.6, 0.8, 0)), list(manifold_sphere(2), c(-0.6, 0, 0.8)),
                list(manifold_sphere(4), c(1e-9, 0.6, 0, 0, -0.8)),
                list(manifold_hyperbolic(3), tg_point(manifold_hyperbolic(3))),
                list(manifold_euclidean(3), c(1, -2, 0.5)))
  for (cs in cases) {
    M <- cs[[1]]
    p <- cs[[2]]
    set.seed(3)
    P <- riemdp:::as_set(M, p, "p")
    z <- matrix(rnorm(M$dim * 50), M$dim, 50)
    g <- riemdp:::geom_tangent_gaussian(M, P, z)
    expect_close(g$v, riemdp:::geom_tangent_basis(M, P) %*% z, 1e-12, label = M$type)
    expect_close(g$norm, sqrt(colSums(z^2)), 1e-12, label = paste(M$type, "norm"))
  }
})

test_that("exact draws and chains on a high-dimensional sphere need no d x d basis", {
  # One exact draw on S^30000 built a 30001 x 30000 basis (6.9 GB) before.
  set.seed(11)
  d <- 30000L
  S <- manifold_sphere(d)
  eta <- c(1, numeric(d))
  t_exact <- system.time(x <- riem_rgaussian(S, 2, eta, 0.1))[["elapsed"]]
  expect_true(riem_check(S, x))
  expect_lt(t_exact, 20)
  # direction uniform: r and the tangent direction of the draws on S^300
  S300 <- manifold_sphere(300)
  eta <- c(1, numeric(300))
  x <- riem_rgaussian(S300, 4000, eta, 0.2)
  r <- riem_dist(S300, eta, x)
  expect_gt(tg_ks_p(r, radial_cdf(S300, "gaussian", 0.2)), 0.001)
  # the first tangent coordinate of a uniform unit vector in R^300 has
  # (u_1 + 1)/2 ~ Beta(149.5, 149.5)
  u1 <- x[, 2] / sin(r)
  expect_gt(tg_ks_p((u1 + 1) / 2, function(q) stats::pbeta(q, 149.5, 149.5)), 0.001)
})

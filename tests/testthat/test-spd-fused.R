# SPD's fused regression pass (SPD::regression_gradient with one covariate:
# whitened once per call, one Jacobi eigendecomposition per point) against the
# interface's default (Manifold::regression_gradient through
# SPD::regression_residuals, two Eigen eigendecompositions per point): the raw
# clipped gradient sums (riemdp:::stat_regression_gradient_sums, fused = TRUE
# vs FALSE) must agree to rounding (issue 32, item 4).

spd_grad_sums <- function(M, Y, x, p, V, tau, fused) {
  r <- riemdp:::stat_regression_gradient_sums(M, riemdp:::as_points(M, Y, "Y"), as.matrix(x), as.vector(p),
                                              matrix(V, ncol = NCOL(x)), tau, fused)
  c(r$sum_p, r$sum_V)
}
spd_rel <- function(a, b) max(abs(a - b)) / max(abs(b))
rand_spd <- function(k, cond) {
  Q <- qr.Q(qr(matrix(stats::rnorm(k * k), k)))
  Q %*% diag(exp(seq(0, log(cond), length.out = k)), k) %*% t(Q)
}
# n points scattered by sd around the geodesic of (p, v) at covariates x,
# the first `far` of them far from it (clipped at tau = 0.05)
spd_case <- function(k, n, p, v, x, sd, far = 3) {
  M <- manifold_spd(k)
  fit <- riem_geodesic(M, p, v, x)
  Y <- fit
  for (i in seq_len(n)) Y[, , i] <- riem_rgaussian(M, 1L, fit[, , i], sd)[, , 1]
  if (far > 0) Y[, , seq_len(far)] <- riem_rgaussian(M, far, p, 1)
  Y
}

test_that("the fused SPD pass gives the default pass's gradient sums (k = 2..5)", {
  set.seed(3201)
  for (k in 2:5) {
    M <- manifold_spd(k)
    n <- 70  # odd number of points: the last one is paired with itself
    for (case in c("random", "near-identity", "ill-conditioned", "far", "v = 0", "long v", "x = 0")) {
      p <- switch(case, "ill-conditioned" = rand_spd(k, 1e6), far = 40 * rand_spd(k, 100), rand_spd(k, 3))
      v <- riem_log(M, p, p %*% rand_spd(k, 4) %*% p / max(p))
      v <- (v + t(v)) / 2
      v <- switch(case, "v = 0" = 0 * v, "long v" = 8 * v / riem_norm(M, p, v), 0.7 * v / riem_norm(M, p, v))
      x <- stats::runif(n, -1, 1)
      if (case == "x = 0") x[1:10] <- 0
      sd <- if (case == "near-identity") 1e-5 else 0.1
      Y <- spd_case(k, n, p, v, x, sd, far = if (case == "near-identity") 0 else 3)
      for (tau in c(0.05, Inf)) {
        a <- spd_grad_sums(M, Y, x, p, v, tau, TRUE)
        b <- spd_grad_sums(M, Y, x, p, v, tau, FALSE)
        # the residuals of the near-identity case are 1e-5: its sums are
        # known to 1e-16 / 1e-5 relative; the ill-conditioned p to eps cond(p)
        tol <- switch(case, "near-identity" = 1e-9, "ill-conditioned" = 1e-8, "long v" = 1e-10, 1e-12)
        expect_lt(spd_rel(a, b), tol, label = sprintf("k = %d, %s, tau = %g", k, case, tau))
        expect_true(all(is.finite(a)))
      }
    }
  }
})

test_that("the SPD comparison can fail: the clip, the covariate's sign and the data all count", {
  set.seed(3202)
  for (k in 2:3) {
    M <- manifold_spd(k)
    p <- rand_spd(k, 3)
    v <- riem_log(M, p, rand_spd(k, 4))
    x <- stats::runif(41, -1, 1)
    Y <- spd_case(k, 41, p, v, x, 0.1)
    b <- spd_grad_sums(M, Y, x, p, v, 0.05, FALSE)
    expect_gt(spd_rel(spd_grad_sums(M, Y, x, p, v, Inf, TRUE), b), 1e-3)
    expect_gt(spd_rel(spd_grad_sums(M, Y, -x, p, -v, 0.05, TRUE), b), 1e-3)  # same fits, other covariates
    expect_gt(spd_rel(spd_grad_sums(M, Y[, , -41, drop = FALSE], x[-41], p, v, 0.05, TRUE), b), 1e-4)  # a point fewer
  }
})

test_that("two covariates keep the default pass (the same bits)", {
  set.seed(3203)
  M <- manifold_spd(3)
  p <- rand_spd(3, 3)
  v1 <- riem_log(M, p, rand_spd(3, 4)); v2 <- 0.3 * riem_log(M, p, rand_spd(3, 4))
  x <- cbind(stats::runif(30), stats::runif(30))
  Y <- spd_case(3, 30, p, v1, x[, 1], 0.1)
  V <- cbind(as.vector(v1), as.vector(v2))
  expect_identical(spd_grad_sums(M, Y, x, p, V, 0.05, TRUE), spd_grad_sums(M, Y, x, p, V, 0.05, FALSE))
})

test_that("the fused SPD pass keeps the default pass's errors", {
  M <- manifold_spd(2)
  p <- diag(2)
  v <- diag(c(800, 0))
  Y <- array(diag(2), c(2, 2, 3))
  expect_error(spd_grad_sums(M, Y, c(0.1, 0.5, 1), p, v, Inf, TRUE), "cannot be represented")
})

test_that("the SPD(3) pass gives the same bits on every instruction set (Jacobi rotations on 2- or 4-lane vectors)", {
  isa <- riemdp:::num_lanes_isa()
  on.exit(riemdp:::num_lanes_isa(-1L))
  set.seed(3204)
  M <- manifold_spd(3)
  p <- rand_spd(3, 3)
  v <- riem_log(M, p, rand_spd(3, 4))
  for (scale in c(0.01, 1, 6)) {  # sinh(s)/s from its series (s < 1/4) and from the ratios
    x <- stats::runif(37, -1, 1)
    Y <- spd_case(3, 37, p, scale * v, x, 0.1)
    sums <- lapply(0:isa$best, function(k) {
      riemdp:::num_lanes_isa(k)
      spd_grad_sums(M, Y, x, p, scale * v, 0.05, TRUE)
    })
    riemdp:::num_lanes_isa(-1L)
    for (s in sums) expect_identical(s, sums[[1]])
    # a long v: both passes lose about eps |x lam| (as the "long v" case above)
    expect_lt(spd_rel(sums[[1]], spd_grad_sums(M, Y, x, p, scale * v, 0.05, FALSE)), if (scale > 1) 1e-10 else 1e-12)
  }
})

# The KNG chain's fused gradient pass (Manifold::regression_gradient: fused
# overrides on the sphere and euclidean, the default built on
# regression_residuals elsewhere) against the general path
# riemdp:::regression_energy(..., tau) (regression_evaluate): the log density
# -|grad E_tau(p, V)| / sigma must be the same to rounding (issue 8, "Speed").
#
# The fused value is read off the chain itself: one MH step with a step of
# 1e-300 (every proposal is the current state to rounding) and sigma = 1
# reports -|grad| at its kept state.

fused_grad_norm <- function(M, Y, x, p, V, tau, block = "joint", tau_m = 100) {
  x <- as.matrix(x)
  set.seed(1)
  r <- riemdp:::samp_mh_regression(M, riemdp:::as_points(M, Y, "Y"), x, 1, tau, p, 1, tau_m, block,
                                   riemdp:::proposal_mixing(ncol(x)), p, as.matrix(V), NULL, NULL, 1L,
                                   list(burn_in = 0L, thin = 1L, step = 1e-300, adapt = FALSE, target_accept = 0.3))
  -r$trace
}
general_grad_norm <- function(M, Y, x, p, V, tau, block = "joint", inner) {
  # the R layout: shooting vectors as rows
  g <- riemdp:::regression_energy(M, p, t(as.matrix(V)), x, Y, tau)
  G <- g$grad_shooting
  if (is.null(dim(G))) G <- matrix(G, 1L)
  s <- if (block == "joint") inner(p, g$grad_footpoint, g$grad_footpoint) else 0
  for (j in seq_len(nrow(G))) s <- s + inner(p, G[j, ], G[j, ])
  sqrt(s)
}
rel_err <- function(a, b) abs(a - b) / abs(b)

# Plain-R sphere: Exp_p(w) for the fitted values, random tangent vectors.
sph_exp <- function(p, w) {
  L <- vec_norm(w)
  if (L == 0) p else cos(L) * p + sin(L) / L * w
}
sph_tangent <- function(p, sd) {
  g <- stats::rnorm(length(p), sd = sd)
  g - sum(g * p) * p
}

# n points near the geodesic of (p, V), some far off it (clipped at tau =
# 0.05), point 1 at the antipode of its fitted value (the cut locus), the
# norms of half the points off 1 by up to 1e-9 (within the point tolerance).
sphere_case <- function(D, n, m) {
  p <- stats::rnorm(D); p <- p / vec_norm(p)
  V <- vapply(seq_len(m), function(j) sph_tangent(p, 0.6), numeric(D))
  V <- matrix(V, D, m)
  x <- matrix(stats::runif(n * m), n, m)
  Fit <- t(vapply(seq_len(n), function(i) sph_exp(p, drop(V %*% x[i, ])), numeric(D)))
  Y <- Fit + matrix(stats::rnorm(n * D, sd = 0.03), n, D)
  far <- 2:4
  Y[far, ] <- Y[far, ] + matrix(stats::rnorm(length(far) * D, sd = 0.5), length(far), D)
  Y <- Y / sqrt(rowSums(Y^2))
  Y[1, ] <- -Fit[1, ] / vec_norm(Fit[1, ])
  half <- seq(2, n, by = 2)
  Y[half, ] <- Y[half, ] * (1 + stats::runif(length(half), -1e-9, 1e-9))
  # the evaluation point: (p, V) moved a little, so that the gradient is not
  # the fit's
  p2 <- sph_exp(p, sph_tangent(p, 0.05))
  V2 <- apply(V, 2, function(v) v - sum(v * p2) * p2)
  list(p = p2, V = matrix(V2, D, m), x = x, Y = Y, Fit = Fit)
}
euclid_inner <- function(p, u, v) sum(u * v)

test_that("the fused sphere pass gives the general path's KNG log density (S^2, S^4; one and two covariates)", {
  set.seed(801)
  for (cfg in list(c(3, 30, 1), c(3, 25, 2), c(5, 30, 1), c(5, 25, 2))) {
    D <- cfg[1]; n <- cfg[2]; m <- cfg[3]
    M <- manifold_sphere(D - 1)
    for (k in 1:3) {
      cs <- sphere_case(D, n, m)
      # the cut-locus point is at the antipode of its fitted value; tau = 0.05
      # clips it and the far points but not all the others
      d <- acos(pmin(1, pmax(-1, rowSums(cs$Y * cs$Fit) / sqrt(rowSums(cs$Y^2)))))
      expect_gt(d[1], pi - 1e-6)
      for (tau in c(0.05, Inf)) {
        for (block in c("joint", "shooting")) {
          a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau, block)
          b <- general_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau, block, euclid_inner)
          expect_lt(rel_err(a, b), 1e-12)
        }
      }
    }
  }
})

test_that("a residual exactly at the cut locus (Log's exact-antipode branch) agrees", {
  # footpoint e_1, x_1 = 0 (fitted value e_1 exactly), y_1 = -e_1: the
  # tangent part of y_1 - yhat_1 is exactly zero, and cut_locus_safe_log's
  # direction (tangent_basis(yhat).col(0)) times pi is the residual.
  set.seed(806)
  for (D in c(3, 5)) {
    M <- manifold_sphere(D - 1)
    cs <- sphere_case(D, 20, 1)
    p <- c(1, rep(0, D - 1))
    V <- matrix(sph_tangent(p, 0.6), D, 1)
    cs$x[1, ] <- 0
    cs$Y[1, ] <- -p
    for (tau in c(0.05, Inf)) {
      a <- fused_grad_norm(M, cs$Y, cs$x, p, V, tau)
      b <- general_grad_norm(M, cs$Y, cs$x, p, V, tau, "joint", euclid_inner)
      expect_lt(rel_err(a, b), 1e-12)
    }
    # the residual counts: without it the value differs
    a_without <- fused_grad_norm(M, cs$Y[-1, ], cs$x[-1, , drop = FALSE], p, V, Inf)
    expect_gt(rel_err(a_without, b), 1e-3)
  }
})

test_that("the clip changes the sphere's log density (the comparison can fail)", {
  set.seed(802)
  cs <- sphere_case(3, 30, 1)
  M <- manifold_sphere(2)
  a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, 0.05)
  b <- general_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, Inf, "joint", euclid_inner)
  expect_gt(rel_err(a, b), 1e-3)
})

test_that("the fused pass on two blocks of the data (n D >= 2e4) gives the general path's value", {
  set.seed(803)
  cs <- sphere_case(3, 7000, 1)
  M <- manifold_sphere(2)
  for (tau in c(0.05, Inf)) {
    a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau)
    b <- general_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau, "joint", euclid_inner)
    expect_lt(rel_err(a, b), 1e-12)
  }
})

test_that("the fused euclidean pass gives the general path's KNG log density", {
  set.seed(804)
  M <- manifold_euclidean(3)
  for (m in 1:2) {
    n <- 30
    p <- stats::rnorm(3)
    V <- matrix(stats::rnorm(3 * m), 3, m)
    x <- matrix(stats::runif(n * m), n, m)
    Y <- matrix(p, n, 3, byrow = TRUE) + x %*% t(V) + matrix(stats::rnorm(3 * n, sd = 0.1), n)
    Y[1:3, ] <- Y[1:3, ] + 5
    p2 <- p + stats::rnorm(3, sd = 0.1)
    for (tau in c(0.2, Inf)) {
      a <- fused_grad_norm(M, Y, x, p2, V, tau)
      b <- general_grad_norm(M, Y, x, p2, V, tau, "joint", euclid_inner)
      expect_lt(rel_err(a, b), 1e-12)
    }
  }
})

test_that("the default pass (hyperbolic(2)) gives the general path's KNG log density", {
  set.seed(805)
  M <- manifold_hyperbolic(2)
  lift <- function(u) c(sqrt(1 + sum(u^2)), u)  # a point of the hyperboloid, x0 first
  n <- 30
  p <- lift(stats::rnorm(2, sd = 0.3))
  g <- c(0, stats::rnorm(2, sd = 0.5))
  v <- g + minkowski(p, g) * p                 # tangent: <p, v>_M = 0
  x <- stats::runif(n)
  Y <- t(vapply(seq_len(n), function(i) lift(p[-1] + x[i] * v[-1] + stats::rnorm(2, sd = 0.1)), numeric(3)))
  Y[1:3, ] <- t(vapply(1:3, function(i) lift(stats::rnorm(2, sd = 2)), numeric(3)))
  mink_inner <- function(p, u, v) minkowski(u, v)
  for (tau in c(0.1, Inf)) {
    a <- fused_grad_norm(M, Y, x, p, v, tau)
    b <- general_grad_norm(M, Y, x, p, v, tau, "joint", mink_inner)
    expect_lt(rel_err(a, b), 1e-12)
  }
})

test_that("the batched S^d passes agree at |x_i v| = 0 and below 1e-4 (Taylor branch), with padded batches", {
  # n = 20 (batches of 8) and n = 70 (batches of 32): the last batch is padded;
  # S^2 (its own frame) and S^3, S^6 (the frame pass)
  set.seed(807)
  for (D in c(3, 4, 7)) for (n in c(20, 70)) {
    M <- manifold_sphere(D - 1)
    for (len in c(1e-6, 0.7)) {
      cs <- sphere_case(D, n, 1)
      V <- cs$V / vec_norm(cs$V) * len
      cs$x[1:5, ] <- 0
      for (tau in c(0.05, Inf)) {
        a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, V, tau)
        b <- general_grad_norm(M, cs$Y, cs$x, cs$p, V, tau, "joint", euclid_inner)
        expect_lt(rel_err(a, b), 1e-12)
      }
    }
  }
})

test_that("sincos_batch agrees with libm to a few 1e-16 on [0, 1e5], quadrant boundaries included", {
  # random, near multiples of pi/2 (where the reduced argument is tiny), small
  set.seed(809)
  k <- sample(0:63000, 2000, replace = TRUE)
  L <- c(0, 1e-300, 1e-9, 0.1, pi / 4, runif(3000, 0, 10), runif(3000, 0, 1e5),
         k * (pi / 2), k * (pi / 2) * (1 + 1e-15), k * (pi / 2) + 1e-7, 1e5)
  sc <- riemdp:::num_sincos_batch(L)
  expect_lt(max(abs(sc[, 1] - sin(L))), 1e-15)
  expect_lt(max(abs(sc[, 2] - cos(L))), 1e-15)
  # the quadrant logic: a wrong sign anywhere is an error of order 1
  expect_equal(sign(round(sc[, 1], 12)), sign(round(sin(L), 12)))
  # relative accuracy where sin is tiny (reduced argument near 0)
  small <- abs(sin(L)) > 0 & abs(sin(L)) < 1e-6
  expect_true(any(small))
  expect_lt(max(abs(sc[small, 1] / sin(L[small]) - 1)), 1e-6)
})

test_that("the batched S^d passes agree at long shooting vectors (sincos_batch's reduction, and libm beyond 1e5)", {
  # |x_i v| over many periods, at and next to multiples of pi/2 and beyond the
  # reduction's range (libm). At long |v| the gradient itself is ill
  # conditioned (|x_i| |v| and |x_i v| differ by an ulp of L, the sine by
  # L eps): the tolerance grows with |v|, and the old libm pass differs from
  # the general path by as much (1.2e-9 at |v| = 9e4).
  set.seed(808)
  for (D in c(3, 5)) for (len in c(3, 50, 1234.5, 9e4, 3e5)) {
    M <- manifold_sphere(D - 1)
    cs <- sphere_case(D, 40, 1)
    V <- cs$V / vec_norm(cs$V) * len
    k <- sample(0:(floor(2 * len / pi) - 1), 10, replace = TRUE)
    cs$x[11:20, ] <- k * (pi / 2) / len
    cs$x[21:30, ] <- pmin(1, (k + 0.5) * (pi / 2) / len + 1e-9)
    Fit <- t(vapply(seq_len(40), function(i) sph_exp(cs$p, V * cs$x[i, 1]), numeric(D)))
    Y <- Fit + matrix(stats::rnorm(40 * D, sd = 0.03), 40, D)
    Y <- Y / sqrt(rowSums(Y^2))
    for (tau in c(0.05, Inf)) {
      a <- fused_grad_norm(M, Y, cs$x, cs$p, V, tau, tau_m = 2 * len)
      b <- general_grad_norm(M, Y, cs$x, cs$p, V, tau, "joint", euclid_inner)
      expect_lt(rel_err(a, b), 1e-12 + 3e-14 * len)
    }
  }
})

test_that("the S^d passes give the same bits on every instruction set the CPU has (lanes.h)", {
  # best = 1 where the CPU has AVX2 (this machine: the comparison runs); the
  # compiler's default (2-lane vectors) is always there
  isa <- riemdp:::num_lanes_isa()
  on.exit(riemdp:::num_lanes_isa(-1L))
  expect_true(isa$best %in% c(0L, 1L))
  expect_identical(isa$used, isa$best)
  set.seed(811)
  for (D in c(3, 4, 6)) {
  M <- manifold_sphere(D - 1)
  cases <- list()
  for (n in c(5, 7, 20, 70)) cases[[length(cases) + 1]] <- sphere_case(D, n, 1)
  # the cut locus (exact antipode at x = 0), negative covariates, v = 0
  cs <- sphere_case(D, 20, 1)
  cs$p <- c(1, rep(0, D - 1)); cs$V <- matrix(sph_tangent(cs$p, 0.6), D, 1)
  cs$x[1, ] <- 0; cs$Y[1, ] <- -cs$p
  cases[[length(cases) + 1]] <- cs
  cs <- sphere_case(D, 30, 1); cs$x[, 1] <- 2 * cs$x[, 1] - 1
  cases[[length(cases) + 1]] <- cs
  cs <- sphere_case(D, 30, 1); cs$V[] <- 0
  cases[[length(cases) + 1]] <- cs
  for (cs in cases) {
    for (tau in c(0.05, pi / 6, 0.6, Inf)) {
      vals <- vapply(0:isa$best, function(k) {
        riemdp:::num_lanes_isa(k)
        fused_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau)
      }, 0)
      riemdp:::num_lanes_isa(-1L)
      expect_true(all(is.finite(vals)))
      expect_identical(vals, rep(vals[1], length(vals)))
      b <- general_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau, "joint", euclid_inner)
      expect_lt(rel_err(vals[1], b), 1e-12)
    }
  }
}
})

test_that("the S^d passes agree with the general path at the clip's two formulas and at tiny v", {
  # tau <= pi/6: the clip from s = sin(theta) (asin's rational); above, the
  # chord angle; residuals on both sides of tau, negative covariates; v = 0
  # and |v| = 1e-200 (1/|v| overflows: the sinc branch)
  set.seed(812)
  for (D in c(3, 4, 9)) for (k in 1:3) {
    M <- manifold_sphere(D - 1)
    cs <- sphere_case(D, 40, 1)
    cs$x[, 1] <- 3 * cs$x[, 1] - 1
    for (tau in c(1e-3, 0.02, 0.3, pi / 6 - 1e-9, pi / 6 + 1e-9, 1, 3)) {
      a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau)
      b <- general_grad_norm(M, cs$Y, cs$x, cs$p, cs$V, tau, "joint", euclid_inner)
      expect_lt(rel_err(a, b), 1e-12)
    }
    for (len in c(0, 1e-200, 1e-120)) {
      V <- if (len == 0) 0 * cs$V else cs$V / vec_norm(cs$V) * len
      for (tau in c(0.05, 1)) {
        a <- fused_grad_norm(M, cs$Y, cs$x, cs$p, V, tau)
        b <- general_grad_norm(M, cs$Y, cs$x, cs$p, V, tau, "joint", euclid_inner)
        expect_lt(rel_err(a, b), 1e-12)
      }
    }
  }
})

test_that("the S^d passes measure the angle to each point's direction (data off the unit norm)", {
  # points at their fitted values with norms 1 +- 1e-9 (within the point
  # tolerance): the general path's chord angle of the raw y is about
  # |1 - |y||, not 0; the pass (y/|y|, cached once per data set) agrees with
  # the general path on the normalised points, and with itself on them
  set.seed(813)
  for (D in c(3, 5)) {
  M <- manifold_sphere(D - 1)
  cs <- sphere_case(D, 30, 1)
  Fit <- t(vapply(seq_len(30), function(i) sph_exp(cs$p, cs$V[, 1] * cs$x[i, 1]), numeric(D)))
  Y <- cs$Y
  Y[1:5, ] <- Fit[1:5, ] * (1 + c(1e-9, -1e-9, 5e-10, 1e-9, -1e-9))
  Yn <- Y / sqrt(rowSums(Y^2))
  for (tau in c(0.05, Inf)) {
    a <- fused_grad_norm(M, Y, cs$x, cs$p, cs$V, tau)
    # S^2 normalises as R does (the same bits); elsewhere to the last bits
    an <- fused_grad_norm(M, Yn, cs$x, cs$p, cs$V, tau)
    if (D == 3) expect_identical(a, an) else expect_lt(rel_err(a, an), 1e-14)
    b <- general_grad_norm(M, Yn, cs$x, cs$p, cs$V, tau, "joint", euclid_inner)
    expect_lt(rel_err(a, b), 1e-12)
  }
}
})

test_that("the S^2 mean of logs on lanes matches plain R, on every instruction set and over two blocks", {
  # frechet_mean(max_iter = 0) reports |mean_i Log_p(x_i)| and the cost
  # sum_i d(p, x_i)^2 / (2n) at its start p
  isa <- riemdp:::num_lanes_isa()
  on.exit(riemdp:::num_lanes_isa(-1L))
  M <- manifold_sphere(2)
  set.seed(812)
  p <- c(0.1, 0.2, 0.97); p <- p / sqrt(sum(p^2))
  for (n in c(1, 7, 3001, 7001)) {  # padded batches; 7001 points run in two blocks
    th <- runif(n, 0, 3); ph <- runif(n, 0, 2 * pi)
    Y <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
    if (n > 1) Y[2, ] <- p  # a point at the estimate: no direction, no cost
    ang <- apply(Y, 1, function(x) atan2(sqrt(sum((x - sum(x * p) * p)^2)), sum(x * p)))
    lg <- t(apply(Y, 1, function(x) { w <- x - sum(x * p) * p; nw <- sqrt(sum(w^2)); if (nw == 0) w else w / nw }))
    ref <- colMeans(lg * ang)
    fits <- lapply(0:isa$best, function(k) {
      riemdp:::num_lanes_isa(k)
      frechet_mean(M, Y, init = p, max_iter = 0)
    })
    riemdp:::num_lanes_isa(-1L)
    g <- vapply(fits, `[[`, 0, "grad_norm")
    cost <- vapply(fits, `[[`, 0, "cost")
    expect_identical(g, rep(g[1], length(g)))
    expect_identical(cost, rep(cost[1], length(cost)))
    expect_lt(abs(g[1] - sqrt(sum(ref^2))) / sqrt(sum(ref^2)), 1e-12)
    expect_lt(abs(cost[1] - mean(ang^2) / 2) / (mean(ang^2) / 2), 1e-12)
  }
  # an exactly antipodal point has no log: the same error as before
  e3 <- c(0, 0, 1)
  expect_error(frechet_mean(M, rbind(-e3, e3, e3), init = e3, max_iter = 0), "antipodal")
})

test_that("the Kendall frame pass (one covariate) gives the general path's KNG log density", {
  # Kendall(5) and (8): data near a geodesic, three far shapes (clipped at
  # tau = 0.05), negative covariates, the clip's two formulas (tau <= pi/6:
  # from sin(theta); above: the chord angle) on both sides of each residual,
  # v = 0 and |v| = 1e-200 (1/|v| overflows: the sinc branch), long v, and
  # n = 70 over the pass's chunks (30 and 25: padded batches of the lanes
  # kernel); two covariates keep the per-point pass
  isa <- riemdp:::num_lanes_isa()
  on.exit(riemdp:::num_lanes_isa(-1L))
  set.seed(814)
  for (k in c(5, 8)) {
    M <- manifold_kendall(k)
    p0 <- riem_project(M, cbind(cos(2 * pi * (1:k) / k), sin(2 * pi * (1:k) / k)) +
                         matrix(stats::rnorm(2 * k, sd = 0.1), k))
    for (rep in 1:3) {
      n <- c(30, 70, 25)[rep]
      q <- riem_rgaussian(M, 1L, p0, 0.3)
      v0 <- riem_log(M, p0, q)
      v0 <- 0.5 * v0 / riem_norm(M, p0, v0)
      x <- 3 * stats::runif(n) - 1
      Fit <- riem_geodesic(M, p0, v0, x)
      Y <- riem_project(M, Fit + array(stats::rnorm(length(Fit), sd = 0.02), dim(Fit)))
      Y[, , 1:3] <- riem_rgaussian(M, 3L, p0, 1)
      p <- riem_exp(M, p0, 0.05 * riem_log(M, p0, riem_rgaussian(M, 1L, p0, 1)))
      V <- riem_transport(M, p0, p, v0)
      vec <- function(z) as.vector(z)
      general <- function(V, tau) {  # the shooting vector as a k x 2 matrix
        g <- riemdp:::regression_energy(M, p, V, x, Y, tau)
        sqrt(sum(g$grad_footpoint^2) + sum(g$grad_shooting^2))
      }
      for (len in c(1, 0, 1e-200, 40)) {
        Vl <- if (len == 0) 0 * V else V * len
        for (tau in c(1e-3, 0.05, pi / 6 - 1e-9, pi / 6 + 1e-9, 0.6, Inf)) {
          # tau <= pi/6 runs on vector lanes: the same bits on every instruction set
          vals <- vapply(0:isa$best, function(k) {
            riemdp:::num_lanes_isa(k)
            fused_grad_norm(M, Y, x, p, vec(Vl), tau, tau_m = 100)
          }, 0)
          riemdp:::num_lanes_isa(-1L)
          expect_identical(vals, rep(vals[1], length(vals)))
          expect_lt(rel_err(vals[1], general(Vl, tau)), 1e-11)
        }
      }
      # the clip counts (the comparison can fail)
      a <- fused_grad_norm(M, Y, x, p, vec(V), 0.05)
      expect_gt(rel_err(a, general(V, Inf)), 1e-3)
    }
  }
})

test_that("a Kendall residual at the alignment's cut locus (<fit, y> = 0) reruns the per-point pass and agrees", {
  set.seed(815)
  M <- manifold_kendall(5)
  p <- riem_project(M, cbind(cos(2 * pi * (1:5) / 5), sin(2 * pi * (1:5) / 5)))
  n <- 20
  v <- riem_log(M, p, riem_rgaussian(M, 1L, p, 0.3))
  x <- stats::runif(n)
  x[1] <- 0
  Y <- riem_project(M, riem_geodesic(M, p, v, x) + array(stats::rnorm(10 * n, sd = 0.02), c(5, 2, n)))
  u <- riem_log(M, p, riem_rgaussian(M, 1L, p, 0.5))
  Y[, , 1] <- u / sqrt(sum(u^2))  # horizontal at p = the fit of x = 0: <fit, y> = 0
  expect_lt(abs(sum(Y[, , 1] * p)), 1e-15)
  for (tau in c(0.05, Inf)) {
    a <- fused_grad_norm(M, Y, x, p, as.vector(v), tau, tau_m = 100)
    g <- riemdp:::regression_energy(M, p, v, x, Y, tau)
    expect_lt(rel_err(a, sqrt(sum(g$grad_footpoint^2) + sum(g$grad_shooting^2))), 1e-12)
  }
})

test_that("the hyperbolic frame pass (one covariate) gives the general path's KNG log density", {
  # H^2, H^3, H^5: data near a geodesic, three far points (clipped), a point
  # on its fit, covariates in [-1, 1], the clip on both sides of residuals
  # (tau = 1e-3 ... Inf), |v| = 0.6, 0 and 1e-200 (the sinhc branch). The
  # test chain's public ball has radius 1 about the footpoint: with tau_m =
  # 0.65 and footpoints within 0.3 of the origin every fit lies within 2 of
  # it (the frame pass); farther footpoints, long v (tau_m = 100) and
  # covariates beyond [-1, 1] take the chart pass. n = 43: a padded batch
  # of the lanes kernel (8 points per batch).
  isa <- riemdp:::num_lanes_isa()
  on.exit(riemdp:::num_lanes_isa(-1L))
  set.seed(816)
  lift <- function(u) c(sqrt(1 + sum(u^2)), u)
  mink_inner <- function(p, u, v) minkowski(u, v)
  for (d in c(2, 3, 5)) {
    M <- manifold_hyperbolic(d)
    for (r0 in c(0, 0.3, 1.9)) {
      u0 <- stats::rnorm(d)
      p <- lift(sinh(r0) * u0 / sqrt(sum(u0^2)))
      g <- c(0, stats::rnorm(d, sd = 0.5))
      v <- g + minkowski(p, g) * p
      v <- v / sqrt(minkowski(v, v))
      n <- 43
      x <- 2 * stats::runif(n) - 1
      Fit <- riem_geodesic(M, p, 0.6 * v, x)
      Y <- t(vapply(seq_len(n), function(i) lift(Fit[i, -1] + stats::rnorm(d, sd = 0.05)), numeric(d + 1)))
      Y[1:3, ] <- t(vapply(1:3, function(i) lift(stats::rnorm(d, sd = 2)), numeric(d + 1)))
      Y[4, ] <- Fit[4, ]  # a point on its fit (no residual)
      cases <- list(list(0.6, 0.65, x), list(0, 0.65, x), list(1e-200, 0.65, x), list(12, 100, x),
                    list(0.6, 0.65, 1.5 * x))
      for (cs in cases) {
        vl <- cs[[1]] * v
        for (tau in c(1e-3, 0.1, 0.6, Inf)) {
          # every instruction set of the lanes kernel (tau <= asinh(sqrt(0.1))
          # and |v| <= 2) gives the same bits
          vals <- vapply(0:isa$best, function(k) {
            riemdp:::num_lanes_isa(k)
            fused_grad_norm(M, Y, cs[[3]], p, vl, tau, tau_m = cs[[2]])
          }, 0)
          riemdp:::num_lanes_isa(-1L)
          expect_identical(vals, rep(vals[1], length(vals)))
          b <- general_grad_norm(M, Y, cs[[3]], p, vl, tau, "joint", mink_inner)
          expect_lt(rel_err(vals[1], b), 1e-12)
        }
      }
      a <- fused_grad_norm(M, Y, x, p, 0.6 * v, 0.1, tau_m = 0.65)
      b <- general_grad_norm(M, Y, x, p, 0.6 * v, Inf, "joint", mink_inner)
      expect_gt(rel_err(a, b), 1e-3)  # the clip counts
    }
  }
})

# The chain of the K-norm gradient releases (src/riemdp/sampling/kng_chain.h,
# R/kng-chain.R): its volume factors, its draws against exact laws, and what
# a release built on it promises.

# Jacobian of Exp_p at v by central differences in an orthonormal basis: the
# columns dExp(b_k), projected on T_q, have Gram determinant J^2.
fd_exp_jacobian <- function(M, p, v, h = 1e-6) {
  P <- list(x = p, n = 1L, by_row = TRUE)
  B <- riemdp:::geom_tangent_basis(M, P)
  q <- as.double(riemdp:::geom_exp(M, P, list(x = v, n = 1L, by_row = TRUE), TRUE))
  Q <- list(x = q, n = 1L, by_row = TRUE)
  at <- function(w) as.double(riemdp:::geom_exp(M, P, list(x = w, n = 1L, by_row = TRUE), TRUE))
  C <- sapply(seq_len(ncol(B)), function(k) {
    col <- (at(v + h * B[, k]) - at(v - h * B[, k])) / (2 * h)
    as.double(riemdp:::geom_to_tangent(M, Q, list(x = col, n = 1L, by_row = TRUE), TRUE))
  })
  G <- outer(seq_len(ncol(C)), seq_len(ncol(C)), Vectorize(function(k, l)
    riemdp:::geom_inner(M, Q, list(x = C[, k], n = 1L, by_row = TRUE), list(x = C[, l], n = 1L, by_row = TRUE))))
  0.5 * log(det(G))
}

test_that("the Jacobian of Exp matches finite differences on every manifold", {
  set.seed(11)
  for (nm in c("sphere(2)", "sphere(4)", "hyperbolic(2)", "hyperbolic(3)", "spd(2)", "spd(3)", "kendall(3)", "kendall(5)",
               "euclidean(3)")) {
    M <- zoo_manifolds()[[nm]]
    for (len in c(1e-3, 0.4, 1.2)) {
      if (M$type == "kendall" && len > 1.2) next
      p <- rand_point(M)
      P <- riemdp:::as_points(M, p, "p")
      v <- rand_tangent(M, p, norm = len)
      V <- riemdp:::as_set(M, v, "v")
      got <- riemdp:::geom_log_exp_jacobian(M, P$x, V$x)
      expect_equal(got, fd_exp_jacobian(M, P$x, V$x), tolerance = 1e-5, label = sprintf("%s at |v| = %g", nm, len))
    }
  }
  # a known value: on S^2, J = sin(r)/r
  S2 <- manifold_sphere(2)
  expect_equal(riemdp:::geom_log_exp_jacobian(S2, c(0, 0, 1), c(1, 0, 0)), log(sin(1)))
  expect_identical(riemdp:::geom_log_exp_jacobian(S2, c(0, 0, 1), c(0, 0, 0)), 0)
})

# The Euclidean KNG of a mean drawn by the chain (method = "mh") against its
# exact law: |x - xbar| has density ∝ r^(d-1) e^(-r/sigma) times the share of
# the sphere of radius r around xbar inside the ball (d = 2: closed form).
kng_radius_cdf_2d <- function(xbar_dist, radius, sigma) {
  share <- function(r) {
    a <- xbar_dist
    out <- rep(1, length(r))
    cross <- r > radius - a
    # x = xbar + r e lies inside when cos(angle(e, xbar)) <= c
    cosang <- (radius^2 - a^2 - r[cross]^2) / (2 * r[cross] * a)
    out[cross] <- 1 - acos(pmin(1, pmax(-1, cosang))) / pi
    out[r > radius + a] <- 0
    out
  }
  g <- seq(0, radius + xbar_dist, length.out = 20001)
  dens <- g * exp(-g / sigma) * share(g)
  cdf <- cumsum(c(0, (dens[-1] + dens[-length(dens)]) / 2 * diff(g)))
  stats::approxfun(g, cdf / cdf[length(cdf)], yleft = 0, yright = 1)
}

test_that("the KNG chain draws the exact Euclidean law: centred, near the boundary and concentrated", {
  skip_on_cran()
  E2 <- manifold_euclidean(2)
  cases <- list(list(at = 0, n = 50, eps = 1), list(at = 0.9, n = 50, eps = 1), list(at = 0.9, n = 2000, eps = 20))
  for (cs in cases) {
    set.seed(21)
    X <- cbind(rnorm(cs$n, sd = 0.02), rnorm(cs$n, sd = 0.02))
    X <- sweep(X, 2, colMeans(X)) + matrix(c(cs$at, 0), cs$n, 2, byrow = TRUE)
    xbar <- colMeans(X)
    rels <- t(replicate(300, coef(dp_frechet_mean(E2, X, epsilon = cs$eps, radius = 1, center = c(0, 0),
                                                  mechanism = "kng", method = "mh"))))
    sigma <- dp_frechet_mean(E2, X, epsilon = cs$eps, radius = 1, center = c(0, 0), mechanism = "kng",
                             method = "mh")$sigma
    r <- sqrt(rowSums(sweep(rels, 2, xbar)^2))
    ks <- suppressWarnings(stats::ks.test(r, kng_radius_cdf_2d(cs$at, 1, sigma)))
    expect_gt(ks$p.value, 1e-3, label = sprintf("KS p at %g of the radius, n eps = %g", cs$at, cs$n * cs$eps))
    # the wrong scale is detected at the same sample size
    ks_wrong <- suppressWarnings(stats::ks.test(r, kng_radius_cdf_2d(cs$at, 1, sigma / 2)))
    expect_lt(ks_wrong$p.value, 1e-3)
  }
})

test_that("KNG regression releases reproduce under set.seed(), with or without a progress bar", {
  S2 <- manifold_sphere(2)
  set.seed(3)
  x <- runif(40)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(120, sd = 0.02), 40))
  rel <- function(verbose) {
    set.seed(9)
    ctl <- mcmc_control(burn_in = 300, n_iter = 300, verbose = verbose)
    dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                           radius = 0.5, control = ctl)
  }
  a <- rel(FALSE)
  b <- rel(TRUE)
  expect_identical(a$footpoint, b$footpoint)
  expect_identical(a$shooting, b$shooting)
  expect_identical(a$sampler, "kng-chain")
  expect_identical(unname(unlist(a$control[c("burn_in", "n_iter")])), c(300L, 300L))
  # the default length is public: (250 + 25 D) k, k = min(20, ceiling(200 / n)); D = 4, n = 40: k = 5
  d <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                              radius = 0.5)
  expect_identical(c(d$control$burn_in, d$control$n_iter), c(1750L, 1750L))
  expect_match(paste(format(d$guarantee), riemdp:::regression_guarantee_sentence(d)), "3500 steps")
  # other data of the same size: the same length
  d2 <- dp_geodesic_regression(S2, x, Y[40:1, ], epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                               center = c(0, 0, 1), radius = 0.5)
  expect_identical(d2$control, d$control)
})

test_that("the default chain length grows as the public n shrinks below 200, at most 20x", {
  len <- function(D, n) unlist(riemdp:::kng_chain_length(D, n))
  expect_identical(len(4L, 5000L), c(burn_in = 350L, n_iter = 350L))
  expect_identical(len(4L, 200L), c(burn_in = 350L, n_iter = 350L))
  expect_identical(len(4L, 199L), c(burn_in = 700L, n_iter = 700L))
  expect_identical(len(24L, 144L), c(burn_in = 1700L, n_iter = 1700L))   # the rats: k = 2
  expect_identical(len(48L, 20L), c(burn_in = 14500L, n_iter = 14500L))  # kendall(8) at n = 20: k = 10
  expect_identical(len(3L, 12L), c(burn_in = 5525L, n_iter = 5525L))     # k = 17
  expect_identical(len(2L, 10L), len(2L, 1L))                             # k = 20 from n = 10 down
  expect_identical(len(2L, 1L), c(burn_in = 6000L, n_iter = 6000L))
  expect_identical(riemdp:::kng_chain_factor(.Machine$integer.max), 1L)
  # every release takes it: linear (D = m + 1) and the Frechet KNG (D = dim)
  set.seed(1)
  cars12 <- cars[1:12, ]
  lin <- dp_linear_regression(dist ~ speed, cars12, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200)
  expect_identical(lin$control$burn_in, len(2L, 12L)[["burn_in"]])
  fr <- dp_frechet_mean(S2 <- manifold_sphere(2), rbind(c(0, 0, 1), c(0, 0.1, sqrt(0.99))), epsilon = 1, radius = 0.3,
                        center = c(0, 0, 1), mechanism = "kng", method = "mh")
  expect_identical(fr$control$n_iter, len(2L, 2L)[["n_iter"]])
})

test_that("a release's chain refuses a start from mcmc_control(init =)", {
  expect_error(dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                    control = mcmc_control(init = 0)), "control\\$init")
  S2 <- manifold_sphere(2)
  expect_error(dp_geodesic_regression(S2, c(0, 1), rbind(c(0, 0, 1), c(0, 0.1, sqrt(1 - 0.01))), epsilon = 1,
                                      tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1), radius = 0.5,
                                      control = mcmc_control(init = c(0, 0, 1))), "control\\$init")
})

test_that("diagnostics report split R-hat, the effective sample size and the release's level", {
  skip_on_cran()
  set.seed(5)
  rel <- dp_linear_regression(mag ~ stations + depth, quakes, epsilon = 1, tau = 0.5,
                              x_range = list(stations = c(0, 150), depth = c(0, 700)), beta_max = 6,
                              diagnostics = TRUE)
  d <- rel$diagnostics
  expect_identical(d$chains, 4L)
  expect_lt(d$rhat, 1.1)
  expect_gt(d$ess, 100)
  expect_identical(d$dimension, 3L)
  expect_gt(d$level_upper_tail, 1e-4)
  # the trace: every kept step of each chain; the release is the first chain's last
  expect_identical(dim(d$trace), c(d$iterations, 4L))
  expect_equal(d$trace[d$iterations, 1L], d$level)
  expect_equal(d$ess, sum(apply(d$trace, 2L, riemdp:::effective_size)))
  expect_output(print(rel), "split R-hat")
  # split R-hat flags chains that disagree
  tr <- cbind(rnorm(200), rnorm(200, 5))
  expect_gt(riemdp:::split_rhat(tr), 2)
  expect_lt(riemdp:::split_rhat(matrix(rnorm(800), 200)), 1.05)
})

test_that("the Frechet KNG release reports its chain's diagnostics on request, and only for a chain", {
  skip_on_cran()
  S2 <- manifold_sphere(2)
  set.seed(3)
  X <- riem_rlaplace(S2, 200, c(0, 0, 1), 0.05)
  X <- X[riem_dist(S2, c(0, 0, 1), X) < 0.5, ]
  set.seed(4)
  rel <- dp_frechet_mean(S2, X, epsilon = 2, radius = 0.5, center = c(0, 0, 1), mechanism = "kng", method = "mh",
                         diagnostics = TRUE)
  d <- rel$diagnostics
  expect_identical(d$chains, 4L)
  expect_identical(d$dimension, 2L)
  expect_identical(dim(d$trace), c(d$iterations, 4L))
  expect_lt(d$rhat, 1.1)
  # the trace's last level of the first chain is the release's |grad E| / sigma
  g <- -colMeans(riem_log(S2, rel$estimate, X))
  expect_equal(d$level, sqrt(sum(g^2)) / rel$sigma, tolerance = 1e-8)
  expect_output(print(rel), "split R-hat")
  expect_output(print(rel), "This object also holds chain")
  expect_error(dp_spend(dp_budget(epsilon = 5), rel), "diagnostics")
  # the same draw without diagnostics: the first chain is the release's
  set.seed(4)
  rel0 <- dp_frechet_mean(S2, X, epsilon = 2, radius = 0.5, center = c(0, 0, 1), mechanism = "kng", method = "mh")
  expect_null(rel0$diagnostics)
  expect_equal(rel0$estimate, rel$estimate)
  # no chain, no diagnostics: errors from public settings
  expect_error(dp_frechet_mean(S2, X, epsilon = 2, radius = 0.5, center = c(0, 0, 1), diagnostics = TRUE),
               "drawn by the laplace mechanism")
  expect_error(dp_frechet_mean(manifold_euclidean(2), matrix(0, 5, 2), epsilon = 2, radius = 1, center = c(0, 0),
                               mechanism = "kng", diagnostics = TRUE), "exact draw.*method = \"mh\"")
  expect_error(dp_frechet_mean(S2, X, epsilon = 2, mechanism = "kng", bounds = dp_bounds(), diagnostics = TRUE),
               "not offered with `bounds`")
  expect_error(dp_frechet_mean(S2, X, epsilon = 2, radius = 0.5, center = c(0, 0, 1), mechanism = "kng",
                               diagnostics = NA), "diagnostics")
})

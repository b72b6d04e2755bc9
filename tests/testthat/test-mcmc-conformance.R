# Chain-drawn KNG releases must be at their law (methods article, "Chain-drawn releases", "level test"):
# a release that is not is not private. Fast subset of bench/mcmc-conformance.R
# (full matrix there); helpers in helper-conformance.R. Fixed seeds.

chain_settings_conf <- function(burn_in, thin) {
  list(burn_in = as.integer(burn_in), thin = as.integer(thin), step = 0.05, adapt = TRUE, target_accept = 0.3)
}

# Block 0 -- the harness itself: the level computed from a parameter equals
# -log f reported by the release's own chain (same target, same clip), on
# the sphere (through stat_regression_energy + geom_inner) and on R^1 (plain R).
test_that("the level L is the chain's -log f at its state", {
  S2 <- manifold_sphere(2)
  set.seed(101)
  d <- conf_geodesic_data("sphere(2)", 60L, 0.5, 4)
  S <- riemdp:::as_points(S2, d$Y, "Y")
  sigma <- 0.01
  res <- riemdp:::samp_mh_regression(S2, S, matrix(d$u, ncol = 1L), sigma, d$tau, as.double(d$center), d$radius,
                                     d$tau_m, "joint", riemdp:::proposal_mixing(1L), as.double(d$center),
                                     matrix(0, 3L, 1L), NULL, NULL, 3L, chain_settings_conf(200L, 50L))
  P <- matrix(res$footpoints, 3L)
  V <- t(matrix(res$shooting, 3L, 3L))
  for (k in 1:3) {
    rel <- list(manifold = S2, footpoint_range = P[k, ], shooting_range = V[k, ], x_range = d$x_range,
                tau = d$tau, sigma = sigma)
    expect_equal(conf_level_geodesic(rel, d$x, d$Y), -res$trace[k], tolerance = 1e-8)
  }
  E1 <- manifold_euclidean(1)
  set.seed(102)
  u <- runif(40)
  y <- 0.3 + 0.5 * u + rnorm(40, sd = 0.2)
  res <- riemdp:::samp_mh_regression(E1, list(x = y, n = 40L, by_row = TRUE), matrix(u, ncol = 1L), 0.02, 0.3, 0, 2,
                                     2, "joint", riemdp:::proposal_mixing(1L), 0, matrix(0, 1L, 1L), NULL, NULL, 3L,
                                     chain_settings_conf(200L, 50L))
  for (k in 1:3)
    expect_equal(conf_level_linear_theta(c(res$footpoints[k], res$shooting[k]), matrix(u, ncol = 1L), y, 0.3, 0.02),
                 -res$trace[k], tolerance = 1e-8)
})

# Block 1 -- R (dp_linear_regression, 2 predictors, n = 500, epsilon = 2,
# default control) against the EXACT law theta = thetahat + H^-1 w (no residual
# clipped, box not binding: both checked on the exact draws). Checks: KS of
# the level L and of the first slope change (two-sample against 20000 exact
# draws), and at most 1 of 100 releases above the exact 99.9% quantile of L.
test_that("dp_linear_regression releases follow the exact KNG law (2 predictors, n = 500, epsilon = 2)", {
  skip_on_cran()
  set.seed(201)
  d <- conf_linear_data(500L, 2L, 0.5, 4)
  tau <- 1
  rels <- dp_replicate(function(i) {
    rel <- dp_linear_regression(d$formula, d$data, epsilon = 2, tau = tau, x_range = d$x_range, beta_max = d$beta_max)
    c(conf_level_linear(rel, d$U, d$y), conf_theta_u(rel)[[2L]], rel$sigma)
  }, times = 100L, seed = 202L, use_future = FALSE, verbose = FALSE, simplify = TRUE)
  L <- rels[1L, ]
  th <- rels[2L, ]
  sigma <- rels[3L, 1L]
  set.seed(203)
  ex <- conf_exact_linear(d$U, d$y, tau, sigma, d$beta_max, K = 20000L)
  expect_gt(ex$accept, 0.999)       # the box does not bind
  expect_lte(ex$clipped, 0.001)     # the exact law is the target
  cmp <- conf_compare(L, ex$L)
  expect_lte(cmp[["above_999"]], 1 / 100)
  expect_gt(cmp[["ks_p"]], 0.01)
  expect_gt(suppressWarnings(ks.test(th, ex$theta[, 2L]))$p.value, 0.01)
})

# Block 2 -- S^2 (dp_geodesic_regression, n = 500, epsilon = 20, the fit at
# 0.9 of the public radius from the centre, tau_m 1.1 |v|): the concentrated
# regime, where L ~ Gamma(D = 4, 1). Checks: KS of L against Gamma(4, 1) and at
# most 1 of 60 releases above its 99.9% quantile (a stuck chain sits far above).
test_that("dp_geodesic_regression on the sphere reaches its level law far from the start (concentrated)", {
  skip_on_cran()
  set.seed(301)
  d <- conf_geodesic_data("sphere(2)", 500L, 0.9, 1.1)
  L <- dp_replicate(function(i) {
    rel <- dp_geodesic_regression(d$M, d$x, d$Y, epsilon = 20, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
                                  center = d$center, radius = d$radius)
    conf_level_geodesic(rel, d$x, d$Y)
  }, times = 60L, seed = 302L, use_future = FALSE, verbose = FALSE, simplify = TRUE)
  cmp <- conf_compare(L, conf_gamma_ref(4))
  expect_lte(cmp[["above_999"]], 1 / 60)
  expect_gt(cmp[["ks_p"]], 0.01)
})

# The two blocks of Kulkarni & Soto's App. A scheme (scheme = "paper"), each
# drawn by the KNG chain on its own coordinates: the footpoint's level
# |grad_p E(p, Gamma_{phat -> p} vhat)| / sigma_p (vhat the least-squares fit
# carried along) and the shooting vector's |grad_v E(p, v)| / sigma_v at the
# drawn footpoint, each against Gamma(2, 1) (concentrated), fit far from the
# centre.
test_that("scheme = \"paper\": each block reaches its level law far from the start", {
  skip_on_cran()
  set.seed(311)
  d <- conf_geodesic_data("sphere(2)", 500L, 0.9, 1.1)
  M <- d$M
  S <- riemdp:::as_points(M, d$Y, "Y")
  U <- matrix(d$u, ncol = 1L)
  fit <- riemdp:::stat_geodesic_regression(M, S, U, riemdp:::initial_mean(M, S), NULL, NULL, 1000L, 1e-10, "l2",
                                           Inf, 0)
  levels <- dp_replicate(function(i) {
    rel <- dp_geodesic_regression(M, d$x, d$Y, epsilon = 20, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
                                  center = d$center, radius = d$radius, scheme = "paper")
    p <- as.double(rel$footpoint_range)
    v <- matrix(as.double(rel$shooting_range), 3L, 1L)
    carried <- riem_transport(M, fit$footpoint, p, as.double(fit$shooting))
    g1 <- riemdp:::stat_regression_energy(M, S, U, p, matrix(carried, 3L, 1L), rel$tau, "huber")
    g2 <- riemdp:::stat_regression_energy(M, S, U, p, v, rel$tau, "huber")
    c(footpoint = conf_norm_at(M, p, g1$grad_p) / rel$sigma[["footpoint"]],
      shooting = conf_norm_at(M, p, g2$grad_V[, 1L]) / rel$sigma[["shooting"]])
  }, times = 60L, seed = 312L, use_future = FALSE, verbose = FALSE, simplify = TRUE)
  for (b in c("footpoint", "shooting")) {
    cmp <- conf_compare(levels[b, ], conf_gamma_ref(2))
    expect_lte(cmp[["above_999"]], 1 / 60)
    expect_gt(cmp[["ks_p"]], 0.01)
  }
})

# The shooting block starts at v = 0; its chart used to return that start as
# a rounding-size vector with a normal part, whose frame gave a false mode:
# at n = 50, 45 of 200 releases stayed at v = 0 for the whole chain.
test_that("scheme = \"paper\": the shooting block leaves its start v = 0", {
  S2 <- manifold_sphere(2)
  set.seed(2025)
  q0 <- rnorm(3); q0 <- q0 / sqrt(sum(q0^2))
  w <- rnorm(3); w <- w - sum(w * q0) * q0; zeta <- w / sqrt(sum(w^2))
  x <- runif(50)
  Y <- riem_geodesic(S2, q0, zeta, x) + matrix(rnorm(150, sd = sqrt(0.001)), 50)
  Y <- Y / sqrt(rowSums(Y^2))
  speed <- dp_replicate(function(i) {
    r <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 2, x_range = c(0, 1), center = q0,
                                radius = 0.25, scheme = "paper")
    sqrt(sum(r$shooting^2))
  }, times = 100L, seed = 5L, use_future = FALSE, verbose = FALSE, simplify = TRUE)
  expect_identical(sum(speed < 1e-6), 0L)
  # the law's speeds centre on the design's |zeta| = 1, with a thin tail
  # towards 0 (about 0.5% below 0.5 in 300 releases of chains 1x to 20x long)
  expect_gt(median(speed), 0.9)
  expect_lte(sum(speed < 0.5), 3L)
})

test_that("the level test flags stuck releases against a small empirical reference", {
  set.seed(7)
  ref <- stats::rgamma(200, 4)
  at_law <- stats::rgamma(400, 4)
  stuck <- c(stats::rgamma(396, 4), rep(60, 4))
  cmp_law <- conf_compare(at_law, ref)
  cmp_stuck <- conf_compare(stuck, ref)
  expect_lte(cmp_law[["above_999"]], 1 / 400)
  expect_gt(cmp_stuck[["above_999"]], 1 / 400)
  # the empirical 99.9% quantile of 200 draws is about their maximum: 3 of
  # 400 draws from the law beyond it would "fail"; the Gamma tail does not
  near_max <- c(stats::rgamma(397, 4), max(ref) * c(1.01, 1.02, 1.03))
  expect_lte(conf_compare(near_max, ref)[["above_999"]], 1 / 400)
})

# Block 5 -- the Frechet KNG on S^2 where the law is diffuse (n = 20,
# epsilon = 2, the data's mean halfway to the ball's edge): no Gamma law to
# compare with, so the reference is chains 20x longer than the default, pooled
# over their kept steps (conf_pooled_levels()). 400 releases.
test_that("the Frechet KNG on the sphere reaches its diffuse law (against pooled 20x longer chains)", {
  skip_on_cran()
  set.seed(501)
  d <- conf_frechet_data("sphere(2)", 20L, 0.5)
  rel_of <- function(control = NULL, diagnostics = FALSE)
    dp_frechet_mean(d$M, d$X, epsilon = 2, radius = d$radius, center = d$center, mechanism = "kng", method = "mh",
                    control = control, diagnostics = diagnostics)
  L <- dp_replicate(function(i) conf_level_frechet(rel_of(), d$X), times = 400L, seed = 502L,
                    use_future = FALSE, verbose = FALSE, simplify = TRUE)
  len <- riemdp:::kng_chain_length(2L, 20L)
  long <- mcmc_control(burn_in = 20L * len$burn_in, n_iter = 20L * len$n_iter, verbose = FALSE)
  set.seed(503)
  diags <- lapply(1:2, function(j) rel_of(long, TRUE)$diagnostics)
  expect_lt(max(vapply(diags, function(g) g$rhat, 0)), 1.05)
  ref <- conf_pooled_levels(diags)
  expect_gt(length(ref), 2000L)
  cmp <- conf_compare(L, ref)
  expect_lte(cmp[["above_999"]], 1 / 400)
  expect_gt(cmp[["ks_p"]], 0.01)
  # the check has power: releases after a single step from the start fail it
  short <- mcmc_control(burn_in = 0L, n_iter = 1L, verbose = FALSE)
  Ls <- dp_replicate(function(i) conf_level_frechet(rel_of(short), d$X), times = 400L, seed = 504L,
                     use_future = FALSE, verbose = FALSE, simplify = TRUE)
  expect_lt(conf_compare(Ls, ref)[["ks_p"]], 0.01)
})

# Block 6 -- the coordinate check for near-flat laws (issue 33): releases
# whose levels match the reference's can still put too little mass in the
# mode, or spread over the plateau of fully clipped states in the wrong way;
# the coordinate check (|v|, d(centre, p), mode share) sees both.
test_that("the coordinate check flags a mode deficit and a plateau shift that the level test misses", {
  set.seed(601)
  draw <- function(k, mode_share, dc_plateau = function(k) 0.5 * sqrt(stats::runif(k))) {
    in_mode <- stats::runif(k) < mode_share
    cbind(L = ifelse(in_mode, stats::rgamma(k, 6), 9.5 + 0.5 * stats::runif(k)),
          v_norm = ifelse(in_mode, stats::rnorm(k, 0.3, 0.03), 0.33 * stats::runif(k)),
          d_center = ifelse(in_mode, abs(stats::rnorm(k, 0, 0.05)), dc_plateau(k)),
          unclipped = ifelse(in_mode, 40, 0))
  }
  ref <- draw(4000L, 0.45)
  at_law <- conf_coordinate_check(draw(2000L, 0.45), ref)
  expect_gt(at_law[["prop_p"]], 0.01)
  expect_gt(min(at_law[["ks_v"]], at_law[["ks_dc"]]), 0.01)
  # 5 points fewer in the mode: z about -3.7
  deficit <- conf_coordinate_check(draw(2000L, 0.40), ref)
  expect_lt(deficit[["prop_p"]], 0.01)
  expect_lt(deficit[["z"]], -2)
  # the plateau states crowd the ball's edge: the same levels, other footpoints
  edge <- draw(2000L, 0.45, function(k) 0.5 * stats::runif(k)^0.2)
  shifted <- conf_coordinate_check(edge, ref)
  expect_gt(suppressWarnings(stats::ks.test(edge[, "L"], ref[, "L"])$p.value), 0.01)
  expect_lt(shifted[["ks_dc"]], 0.01)
  # the level share from traces: its standard error grows with the autocorrelation
  iid <- list(matrix(stats::runif(8000), 2000L, 4L))
  sticky <- list(matrix(rep(stats::runif(400), each = 20L), 2000L, 4L))
  a <- conf_level_share(iid, 0.3)
  b <- conf_level_share(sticky, 0.3)
  expect_lt(abs(a[["share"]] - 0.3), 4 * a[["se"]])
  expect_gt(b[["se"]], 3 * a[["se"]])
})

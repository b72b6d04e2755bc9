# Private geodesic and linear regression (issue 8, "Must hold" except the
# empirical sensitivities, which test-regression-sensitivity.R covers):
#  1. the Metropolis-Hastings chain on the tangent bundle targets the stated
#     KNG density exp(-|grad E_tau(p, v)| / sigma) on the public domain;
#  2. its proposal is symmetric for vol(M) x Lebesgue (flat targets are
#     uniform on the domain);
#  3. releases concentrate on the (Huber) fit, are reproducible, and fail
#     clearly without leaking data;
#  4. an empirical privacy audit on a 1-parameter euclidean case;
#  5. dp_linear_regression in lm() form.
# The chain is called directly (riemdp:::samp_mh_regression, exactly as
# R/dp-regression.R calls it) where a test needs long chains or a sigma the
# release would not use; the references (Huber gradients, grids, cap laws)
# are plain R.

E1 <- manifold_euclidean(1)
S2 <- manifold_sphere(2)
north <- c(0, 0, 1)

# Settings of the chain as mcmc_settings() passes them to the core.
chain_settings <- function(burn_in, thin, step, adapt = TRUE, target_accept = 0.3) {
  list(burn_in = as.integer(burn_in), thin = as.integer(thin), step = step, adapt = adapt,
       target_accept = target_accept)
}

# One chain of the release's sampler (block "joint"), n kept states.
# Returns footpoints (n x ambient) and shooting vectors (n x ambient, m = 1).
bundle_chain <- function(M, Y, u, sigma, tau, center, radius, tau_m, n, settings, p0 = center, V0 = NULL,
                         A = riemdp:::proposal_mixing(NCOL(u))) {
  u <- as.matrix(u)
  storage.mode(u) <- "double"
  S <- riemdp:::as_points(M, Y, "Y")
  if (is.null(V0)) V0 <- matrix(0, M$ambient, ncol(u))
  res <- riemdp:::samp_mh_regression(M, S, u, sigma, tau, as.double(center), radius, tau_m, "joint", A,
                                     as.double(p0), as.matrix(V0), NULL, NULL, as.integer(n), settings)
  list(p = matrix(res$footpoints, n), v = t(matrix(res$shooting, M$ambient * ncol(u), n)),
       trace = res$trace, acceptance = res$acceptance, step = res$step)
}

# ---- plain-R references --------------------------------------------------------

# Huber-clipped regression gradient on the real line (E_tau = mean of
# rho_tau(y_i - p - u_i v); methods article, "The joint release of a geodesic regression"), at many parameters (P[k], V[k]):
# grad_p = -mean psi(r_i), grad_v = -mean u_i psi(r_i), psi = clip to [-tau, tau].
huber_gradient_1d <- function(P, V, u, y, tau) {
  R <- matrix(y, length(P), length(y), byrow = TRUE) - P - outer(V, u)
  psi <- pmax(pmin(R, tau), -tau)
  cbind(p = -rowMeans(psi), v = -as.vector(psi %*% u) / length(y))
}

# log of the KNG density (unnormalised) on the domain |p - c| <= radius, |v| <= tau_m.
kng_log_density_1d <- function(P, V, u, y, tau, sigma, center, radius, tau_m) {
  g <- huber_gradient_1d(P, V, u, y, tau)
  ifelse(abs(P - center) <= radius & abs(V) <= tau_m, -sqrt(rowSums(g^2)) / sigma, -Inf)
}

# The density on a fine midpoint grid of the (p, v) box: cell masses.
kng_grid_1d <- function(u, y, tau, sigma, center, radius, tau_m, n_grid = 601) {
  h_p <- 2 * radius / n_grid
  h_v <- 2 * tau_m / n_grid
  pg <- center - radius + h_p * (seq_len(n_grid) - 0.5)
  vg <- -tau_m + h_v * (seq_len(n_grid) - 0.5)
  G <- expand.grid(p = pg, v = vg)
  lf <- kng_log_density_1d(G$p, G$v, u, y, tau, sigma, center, radius, tau_m)
  w <- exp(lf - max(lf))
  list(p = G$p, v = G$v, log_f = lf, w = w / sum(w), h_p = h_p, h_v = h_v)
}

# CDF of a statistic under grid weights (a step function at the cell values;
# the grid is fine enough for a KS test at the sample sizes used here).
weighted_cdf <- function(values, w) {
  o <- order(values)
  x <- values[o]
  cw <- cumsum(w[o]) / sum(w)
  keep <- !duplicated(x, fromLast = TRUE)
  stats::stepfun(x[keep], c(0, cw[keep]))
}

# Marginal CDF along one axis of the grid, linear within cells.
grid_marginal_cdf <- function(values, w, h) {
  m <- tapply(w, values, sum)
  x <- as.numeric(names(m))
  stats::approxfun(c(x[1] - h / 2, x + h / 2), c(0, cumsum(m)) / sum(m), yleft = 0, yright = 1)
}

# Sphere S^2 (rows are points / tangent vectors).
rdot <- function(a, b) rowSums(a * b)
rnorm2 <- function(a) sqrt(pmax(rowSums(a^2), 0))
sphere_exp_rows <- function(P, V) {
  r <- rnorm2(V)
  dir <- V / ifelse(r > 0, r, 1)
  cos(r) * P + sin(r) * dir
}
sphere_log_rows <- function(P, Q) {
  c0 <- rdot(P, Q)
  W <- Q - c0 * P
  s <- rnorm2(W)
  d <- atan2(s, c0)
  W * ifelse(s > 0, d / s, 0)
}
# Gamma_{P -> Q}(U) = U - <Q, U>/(1 + <P, Q>) (P + Q)   (methods article, "Manifolds and their formulas")
sphere_transport_rows <- function(P, Q, U) U - rdot(Q, U) / (1 + rdot(P, Q)) * (P + Q)

# Clipped regression gradient on S^2 (methods article, "Fitting" with K = 1; residuals
# clipped to norm tau), at K parameters (rows of P, V), data Y (n x 3) at
# covariates u in [0, 1]. Returns K x 3 matrices gp, gv.
sphere_huber_gradient <- function(P, V, u, Y, tau) {
  K <- nrow(P)
  n <- length(u)
  L <- rnorm2(V)
  vhat <- V / ifelse(L > 0, L, 1)
  gp <- gv <- matrix(0, K, 3)
  for (i in seq_len(n)) {
    Yhat <- sphere_exp_rows(P, u[i] * V)
    eps <- sphere_log_rows(Yhat, matrix(Y[i, ], K, 3, byrow = TRUE))
    ne <- rnorm2(eps)
    eps <- eps * pmin(1, tau / ifelse(ne > 0, ne, 1))
    eb <- sphere_transport_rows(Yhat, P, eps)
    par <- rdot(eb, vhat) * vhat
    perp <- eb - par
    c_K <- cos(u[i] * L)
    s_K <- ifelse(L > 0, sin(u[i] * L) / ifelse(L > 0, L, 1), u[i])
    gp <- gp + par + c_K * perp
    gv <- gv + u[i] * par + s_K * perp
  }
  list(gp = -gp / n, gv = -gv / n)
}

# Uniform draws on the cap B_rho(north) x {|v| <= tau_m} of the tangent
# bundle of S^2 (uniform for vol x Lebesgue): dist r has CDF
# (1 - cos r)/(1 - cos rho), the tangent vector is uniform on the disc.
uniform_sphere_bundle <- function(K, rho, tau_m) {
  r <- acos(1 - runif(K) * (1 - cos(rho)))
  phi <- runif(K, 0, 2 * pi)
  P <- cbind(sin(r) * cos(phi), sin(r) * sin(phi), cos(r))
  e1 <- cbind(cos(r) * cos(phi), cos(r) * sin(phi), -sin(r))
  e2 <- cbind(-sin(phi), cos(phi), 0)
  a <- tau_m * sqrt(runif(K))
  b <- runif(K, 0, 2 * pi)
  list(P = P, V = a * cos(b) * e1 + a * sin(b) * e2)
}

# KS p-value for independent draws (releases); ties are silenced.
ks_p <- function(...) suppressWarnings(ks.test(...)$p.value)

# Effective sample size of a chain's draws (Geyer's initial positive
# sequence on the sample autocorrelations), at most the number of draws.
chain_ess <- function(x) {
  n <- length(x)
  if (stats::var(x) == 0) return(1)
  rho <- stats::acf(x, lag.max = min(n - 1L, 1000L), plot = FALSE)$acf[, 1, 1]
  k <- floor(length(rho) / 2)
  gam <- rho[2 * seq_len(k) - 1] + rho[2 * seq_len(k)]
  stop_at <- which(gam <= 0)[1]
  if (!is.na(stop_at)) gam <- gam[seq_len(stop_at - 1L)]
  min(n, n / (-1 + 2 * sum(gam)))
}

# KS statistic of chain draws x against a CDF (a function or "punif" with
# its arguments) or against a second chain's draws, scaled by the effective
# sample sizes so that it follows the Kolmogorov law under the null
# (P(> 2.2) ~ 1e-4) although the draws are autocorrelated. Chains can
# repeat a state (stuck in a corner of the domain for a whole thinning
# interval): ties are expected and silenced.
ks_chain <- function(x, y, ...) {
  D <- unname(suppressWarnings(ks.test(x, y, ...))$statistic)
  ex <- chain_ess(x)
  if (is.numeric(y)) {
    ey <- chain_ess(y)
    return(sqrt(ex * ey / (ex + ey)) * D)
  }
  sqrt(ex) * D
}
ks_null_max <- 2.2
ks_reject <- 2.7  # P(> 2.7) ~ 1e-6 under the null: a clear rejection, for the power checks

# Two-sample KS statistic of chain draws x against a weighted sample
# (values, w), scaled by the effective sizes: sqrt(n m / (n + m)) D with n
# the chain's effective size and m = (sum w)^2 / sum w^2 (Kish). Under the
# null it follows the Kolmogorov law (P(> 2.2) ~ 1e-4).
weighted_ks <- function(x, values, w) {
  Fw <- weighted_cdf(values, w)
  Fx <- stats::ecdf(x)
  grid <- sort(c(x, values))
  D <- max(abs(Fx(grid) - Fw(grid)))
  m <- sum(w)^2 / sum(w^2)
  n <- chain_ess(x)
  sqrt(n * m / (n + m)) * D
}

# ---- 1. the chain targets the stated density ---------------------------------------

test_that("the plain-R Huber gradients agree with regression_energy (euclidean and sphere)", {
  set.seed(11)
  n <- 10
  u <- runif(n)
  y <- 1 + 2 * u + rnorm(n, sd = 0.3)
  for (k in 1:5) {
    p <- runif(1, 0, 2)
    v <- runif(1, -3, 3)
    for (tau in c(0.2, Inf)) {
      ref <- huber_gradient_1d(p, v, u, y, tau)
      got <- riemdp:::regression_energy(E1, p, v, u, matrix(y), tau = tau)
      expect_equal(c(got$grad_footpoint, got$grad_shooting), as.vector(ref), tolerance = 1e-12)
    }
  }
  truth <- riem_geodesic(S2, north, c(0.3, 0.2, 0), u)
  Y <- riem_project(S2, truth + matrix(rnorm(3 * n, sd = 0.1), n))
  for (k in 1:5) {
    b <- uniform_sphere_bundle(1, 0.8, 1.5)
    for (tau in c(0.05, Inf)) {
      ref <- sphere_huber_gradient(b$P, b$V, u, Y, tau)
      got <- riemdp:::regression_energy(S2, as.vector(b$P), as.vector(b$V), u, Y, tau = tau)
      expect_equal(as.vector(got$grad_footpoint), as.vector(ref$gp), tolerance = 1e-10)
      expect_equal(as.vector(got$grad_shooting), as.vector(ref$gv), tolerance = 1e-10)
    }
  }
})

test_that("on R^1 the chain's draws follow the KNG density computed on a fine grid (2 parameters)", {
  set.seed(1)
  n <- 10
  u <- runif(n)
  y <- 1 + 2 * u + rnorm(n, sd = 0.3)
  # tau below most residuals over the domain (the clip is active), sigma wide
  # enough for the box |p - 1| <= 1, |v| <= 3 to truncate the law.
  tau <- 0.3
  sigma <- 0.05
  ctr <- 1
  rad <- 1
  tm <- 3
  G <- kng_grid_1d(u, y, tau, sigma, ctr, rad, tm)
  Fp <- grid_marginal_cdf(G$p, G$w, G$h_p)
  Fv <- grid_marginal_cdf(G$v, G$w, G$h_v)
  expect_gt(sum(G$w[G$v > tm - 0.3]), 0.005)  # the domain's edge matters
  starts <- list(list(p0 = ctr, V0 = matrix(0)), list(p0 = ctr + 0.9, V0 = matrix(-2.8)))
  draws <- NULL
  for (k in 1:2) {
    set.seed(100 + k)
    ch <- bundle_chain(E1, matrix(y), u, sigma, tau, ctr, rad, tm, 4000, chain_settings(2000, 100, 0.1),
                       p0 = starts[[k]]$p0, V0 = starts[[k]]$V0)
    lab <- sprintf("[start %d]", k)
    expect_gt(ch$acceptance, 0.15)
    expect_lt(ch$acceptance, 0.5)
    k_p <- ks_chain(ch$p[, 1], Fp)
    k_v <- ks_chain(ch$v[, 1], Fv)
    expect(k_p < ks_null_max, sprintf("%s footpoint marginal: scaled KS %.2f", lab, k_p))
    expect(k_v < ks_null_max, sprintf("%s shooting marginal: scaled KS %.2f", lab, k_v))
    # two joint statistics: the fit at u = 1/2 and the log density itself
    Fmid <- weighted_cdf(G$p + G$v / 2, G$w)
    k_mid <- ks_chain(ch$p[, 1] + ch$v[, 1] / 2, Fmid)
    expect(k_mid < ks_null_max, sprintf("%s fit at u = 1/2: scaled KS %.2f", lab, k_mid))
    lf_chain <- kng_log_density_1d(ch$p[, 1], ch$v[, 1], u, y, tau, sigma, ctr, rad, tm)
    expect_equal(ch$trace, lf_chain, tolerance = 1e-10)  # the chain's target is the stated density
    # (the log density has atoms where every residual is clipped: ties are expected)
    k_lf <- ks_chain(lf_chain, weighted_cdf(G$log_f, G$w))
    expect(k_lf < ks_null_max, sprintf("%s log density: scaled KS %.2f", lab, k_lf))
    draws <- rbind(draws, cbind(ch$p[, 1], ch$v[, 1]))
  }
  # the comparison has power: a density with sigma 1.5 times larger is rejected
  G2 <- kng_grid_1d(u, y, tau, 1.5 * sigma, ctr, rad, tm)
  expect_gt(ks_chain(draws[, 2], grid_marginal_cdf(G2$v, G2$w, G2$h_v)), ks_reject)
})

test_that("on S^2 the chain agrees with importance-weighted uniform draws on the domain", {
  set.seed(2)
  n <- 10
  u <- runif(n)
  truth <- riem_geodesic(S2, north, c(0.3, 0.2, 0), u)
  Y <- riem_project(S2, truth + matrix(rnorm(3 * n, sd = 0.1), n))
  tau <- 0.1
  sigma <- 0.01
  rho <- 0.6
  tm <- 1.2
  # independent method: uniform draws on the domain, weights exp(-|grad| / sigma)
  set.seed(3)
  b <- uniform_sphere_bundle(1e5, rho, tm)
  g <- sphere_huber_gradient(b$P, b$V, u, Y, tau)
  lw <- -sqrt(rowSums(g$gp^2) + rowSums(g$gv^2)) / sigma
  w <- exp(lw - max(lw))
  expect_gt(sum(w)^2 / sum(w^2), 500)  # importance sampling with enough effective draws (weighted_ks uses them)
  stat_is <- cbind(dist = acos(pmin(1, b$P[, 3])), p1 = b$P[, 1], p2 = b$P[, 2], v_norm = rnorm2(b$V),
                   fit_at_1 = sphere_exp_rows(b$P, b$V)[, 1])
  set.seed(4)
  ch <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 150, 0.05))
  stat_ch <- cbind(dist = acos(pmin(1, ch$p[, 3])), p1 = ch$p[, 1], p2 = ch$p[, 2], v_norm = rnorm2(ch$v),
                   fit_at_1 = sphere_exp_rows(ch$p, ch$v)[, 1])
  ks <- vapply(colnames(stat_is), function(j) weighted_ks(stat_ch[, j], stat_is[, j], w), numeric(1))
  expect(all(ks < ks_null_max), paste("chain vs importance sampling, scaled KS:", paste(sprintf("%s %.2f", names(ks), ks), collapse = ", ")))
  # power: a chain at three times the sigma is told apart
  set.seed(5)
  ch2 <- bundle_chain(S2, Y, u, 3 * sigma, tau, north, rho, tm, 3000, chain_settings(2000, 150, 0.05))
  stat_ch2 <- cbind(dist = acos(pmin(1, ch2$p[, 3])), p1 = ch2$p[, 1], p2 = ch2$p[, 2], v_norm = rnorm2(ch2$v),
                    fit_at_1 = sphere_exp_rows(ch2$p, ch2$v)[, 1])
  ks2 <- vapply(colnames(stat_is), function(j) weighted_ks(stat_ch2[, j], stat_is[, j], w), numeric(1))
  expect_gt(max(ks2), ks_reject)
})

test_that("on S^2 a long chain's marginals are stable across seeds and public starting points", {
  set.seed(6)
  n <- 10
  u <- runif(n)
  truth <- riem_geodesic(S2, north, c(0.3, 0.2, 0), u)
  Y <- riem_project(S2, truth + matrix(rnorm(3 * n, sd = 0.05), n))
  tau <- 0.1
  sigma <- 0.003  # small enough for the law not to be the domain's: the comparison has power
  rho <- 0.5
  tm <- 1
  p_far <- riem_exp(S2, north, c(-0.45, 0, 0))  # near the ball's edge, away from the data
  v_far <- c(0, -0.9, 0)                        # tangent at p_far, |v| = 0.9, against the data's direction
  set.seed(7)
  a <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 150, 0.05))
  set.seed(8)
  b <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 150, 0.05), p0 = p_far,
                    V0 = matrix(v_far))
  stats_of <- function(ch) cbind(p1 = ch$p[, 1], p2 = ch$p[, 2], p3 = ch$p[, 3], v1 = ch$v[, 1], v2 = ch$v[, 2],
                                 v_norm = rnorm2(ch$v))
  sa <- stats_of(a)
  sb <- stats_of(b)
  ks <- vapply(colnames(sa), function(j) ks_chain(sa[, j], sb[, j]), numeric(1))
  expect(all(ks < ks_null_max), paste("two chains disagree, scaled KS:", paste(sprintf("%s %.2f", names(ks), ks), collapse = ", ")))
  # the comparison has power: a chain at twice the sigma is told apart
  set.seed(9)
  c3 <- stats_of(bundle_chain(S2, Y, u, 2 * sigma, tau, north, rho, tm, 3000, chain_settings(2000, 150, 0.05)))
  expect_gt(max(vapply(colnames(sa), function(j) ks_chain(sa[, j], c3[, j]), numeric(1))), ks_reject)
})

# ---- 2. the proposal is symmetric ------------------------------------------------

# With a flat target (sigma huge: the log density is ~1e-12 everywhere) the
# chain's stationary law is the base measure vol x Lebesgue restricted to the
# domain, if and only if the proposal is symmetric for it (Metropolis
# acceptance min(1, f'/f) = 1 inside the domain). So the footpoint is uniform
# on the ball B_rho(c) (dist(c, p) has the ball's area law) and each shooting
# vector is uniform on the disc |v| <= tau_m of its tangent plane
# (|v|^2 / tau_m^2 ~ U(0, 1), and its angle to the radial direction is uniform).
flat_chain <- function(M, center, rho, tm, n, thin, A, seed) {
  Y <- stack_points(M, rep(list(center), 3))
  set.seed(seed)
  bundle_chain(M, Y, c(0, 0.5, 1), 1e12, 1, center, rho, tm, n, chain_settings(3000, thin, rho / 4), A = A)
}

test_that("flat target on R^1 and R^2: the chain is uniform on the box / product of discs", {
  for (A in list(diag(2), riemdp:::proposal_mixing(1))) {
    ch <- flat_chain(E1, 0.5, 1, 2, 3000, 100, A, seed = 21)
    expect_lt(ks_chain(ch$p[, 1], "punif", -0.5, 1.5), ks_null_max)
    expect_lt(ks_chain(ch$v[, 1], "punif", -2, 2), ks_null_max)
    expect_lt(ks_chain(ch$p[, 1] + ch$v[, 1], ch$p[, 1] - ch$v[, 1]), ks_null_max)  # no tilt of the joint law
  }
  E2 <- manifold_euclidean(2)
  ch <- flat_chain(E2, c(1, -1), 1, 2, 3000, 300, riemdp:::proposal_mixing(1), seed = 22)
  dp <- sweep(ch$p, 2, c(1, -1))
  expect_lt(ks_chain(rowSums(dp^2), "punif", 0, 1), ks_null_max)
  expect_lt(ks_chain(atan2(dp[, 2], dp[, 1]), "punif", -pi, pi), ks_null_max)
  expect_lt(ks_chain(rowSums(ch$v^2) / 4, "punif", 0, 1), ks_null_max)
  expect_lt(ks_chain(atan2(ch$v[, 2], ch$v[, 1]), "punif", -pi, pi), ks_null_max)
  # power: the disc's area law is not the law of the radius itself
  expect_gt(ks_chain(sqrt(rowSums(dp^2)), "punif", 0, 1), ks_reject)
})

# Cap CDFs of dist(c, p) for p uniform on B_rho(c) (methods article, "Samplers": A(r) = sin r,
# sinh r, sin r cos r on sphere(2), hyperbolic(2), kendall(3)).
cap_cdf <- function(type, rho) {
  switch(type,
    sphere = function(r) (1 - cos(pmin(r, rho))) / (1 - cos(rho)),
    hyperbolic = function(r) (cosh(pmin(r, rho)) - 1) / (cosh(rho) - 1),
    kendall = function(r) sin(pmin(r, rho))^2 / sin(rho)^2)
}

test_that("flat target on curved spaces: the footpoint has the cap's area law, v is uniform on its disc", {
  K3 <- manifold_kendall(3)
  k_center <- ref_preshape(cbind(c(0, 1, 0.5), c(0, 0, 1)))
  # The release's mixing matrix on the sphere; the isotropic proposal (A = I,
  # which mixes faster on a flat target) elsewhere: the symmetry argument is
  # the same for any public A.
  mixing <- riemdp:::proposal_mixing(1)
  cases <- list(
    list(M = S2, center = north, rho = 2.5, A = mixing, thin = 300, name = "sphere(2), rho = 2.5"),
    list(M = S2, center = north, rho = pi, A = diag(2), thin = 100, name = "sphere(2), the whole sphere"),
    list(M = manifold_hyperbolic(2), center = c(1, 0, 0), rho = 1.5, A = diag(2), thin = 100, name = "hyperbolic(2), rho = 1.5"),
    list(M = K3, center = k_center, rho = 1.2, A = diag(2), thin = 100, name = "kendall(3), rho = 1.2"))
  for (k in seq_along(cases)) {
    cs <- cases[[k]]
    M <- cs$M
    ch <- flat_chain(M, cs$center, cs$rho, 1, 2000, cs$thin, cs$A, seed = 30 + k)
    pts <- lapply(seq_len(nrow(ch$p)), function(i) if (is.null(M$point_shape)) ch$p[i, ] else matrix(ch$p[i, ], M$point_shape))
    r <- vapply(pts, function(p) ref_dist(M, cs$center, p), numeric(1))
    expect(max(r) <= cs$rho + 1e-9, sprintf("%s: a footpoint outside the ball", cs$name))
    k_r <- ks_chain(r, cap_cdf(M$type, cs$rho))
    expect(k_r < ks_null_max, sprintf("%s: dist(c, p) against the cap law, scaled KS %.2f", cs$name, k_r))
    vs <- lapply(seq_len(nrow(ch$v)), function(i) if (is.null(M$point_shape)) ch$v[i, ] else matrix(ch$v[i, ], M$point_shape))
    vn <- mapply(function(p, v) ref_norm(M, p, v), pts, vs)
    expect(all(vn <= 1 + 1e-9), sprintf("%s: a shooting vector longer than tau_m", cs$name))
    k_v <- ks_chain(vn^2, "punif", 0, 1)
    expect(k_v < ks_null_max, sprintf("%s: |v|^2 / tau_m^2 against U(0, 1), scaled KS %.2f", cs$name, k_v))
    # the angle between v and the direction away from the centre is uniform:
    # its cosine has the arcsine law P(cos <= t) = 1 - acos(t)/pi
    if (cs$rho < pi) {
      cosang <- mapply(function(p, v) {
        out <- -to_tangent(M, p, if (M$type == "kendall") ref_align(p, cs$center) else cs$center)
        if (M$type == "hyperbolic") out <- -out  # the hyperboloid's projection flips: take the outward direction
        ref_inner(M, p, v, out) / (ref_norm(M, p, v) * ref_norm(M, p, out))
      }, pts, vs)
      cosang <- pmin(1, pmax(-1, cosang[is.finite(cosang)]))
      k_a <- ks_chain(cosang, function(t) 1 - acos(t) / pi)
      expect(k_a < ks_null_max, sprintf("%s: angle of v to the radial direction, scaled KS %.2f", cs$name, k_a))
    }
    # power: the flat disc law r^2 / rho^2 is rejected at these radii
    if (M$type == "sphere") expect_gt(ks_chain(r, function(t) pmin(t, cs$rho)^2 / cs$rho^2), ks_reject)
  }
})

# ---- 4. privacy audit ---------------------------------------------------------------

# A 1-parameter euclidean case: on R^1 with every covariate at the top of
# x_range (u_i = 1), grad_p E = grad_v E = -mean psi_tau(y_i - s), s = p + v
# the fit at u = 1, so the release's law depends on the data only through s:
# f(p, v) ~ exp(-sqrt(2) |mean psi(y_i - s)| / sigma) on the box
# |p| <= 1, |v| <= 1, and s has density ~ that factor times 2 - |s| (the
# length of the box's section). Adjacent datasets D, D': four points at 0 and
# one at -3 or +3; that point's residual is clipped to -tau or +tau over the
# whole domain, so the gradient moves by exactly Delta_joint = sqrt(2) 2 tau / n
# at every (p, v) (the worst case). Releases are states of independent
# chains after burn_in + n_iter, called exactly as dp_geodesic_regression
# calls the core (the test further down checks that it does, draw for draw);
# we count the fitted value s on bins of width 0.1 and require
#     |log(p_hat(bin) / p_hat'(bin))| <= epsilon + 4 se
# on every bin with >= 50 releases under both datasets (audit_cells,
# helper-privacy.R). The exact law gives 0.5 = epsilon / 2 at most here (the
# normalisers agree by symmetry); sigma ten times too small gives 5.
audit_n <- 5
audit_tau <- 0.5
audit_u <- rep(1, audit_n)
audit_data <- list(D = c(0, 0, 0, 0, -3), D2 = c(0, 0, 0, 0, 3))
# (burn_in 300 + n_iter 200 is not enough here: KS p-values against the
# exact law of 10^4 releases were systematically low, 0.005-0.06; 1000 + 500
# gives uniform-looking p-values)
audit_control <- mcmc_control(burn_in = 1000, n_iter = 500)

# The exact law of s on [-2, 2] (trapezoid rule on a fine grid).
audit_s_law <- function(y, sigma, n_grid = 40001) {
  s <- seq(-2, 2, length.out = n_grid)
  g <- huber_gradient_1d(s, 0 * s, audit_u, y, audit_tau)[, "p"]
  lf <- -sqrt(2) * abs(g) / sigma + log(2 - abs(s))
  w <- exp(lf - max(lf))
  cw <- cumsum(c(0, (w[-1] + w[-n_grid]) / 2 * diff(s)))
  stats::approxfun(s, cw / cw[n_grid], yleft = 0, yright = 1)
}

# N releases of s for dataset y: independent chains of the release's sampler
# (R/kng-chain.R) from the public (0, 0).
audit_releases <- function(y, sigma, N, control = audit_control) {
  S <- riemdp:::as_points(E1, matrix(y), "Y")
  ctl <- riemdp:::kng_chain_control(control, 2L, length(y), NULL)
  ctl$verbose <- FALSE
  u <- matrix(audit_u)
  vapply(seq_len(N), function(i) {
    r <- riemdp:::kng_chain_draw(E1, S, u, sigma, audit_tau, 0, 1, 1, ctl, FALSE, NULL)
    r$p + r$V[1, 1]
  }, numeric(1))
}

audit_bins <- seq(-2, 2, by = 0.1)
audit_cell <- function(s) findInterval(s, audit_bins, rightmost.closed = TRUE, all.inside = TRUE)

regression_audit_message <- function(tab, eps) {
  excess <- abs(tab$log_ratio) - eps - 4 * tab$se
  w <- which.max(excess)
  sprintf("%d bins audited; worst bin %d: counts %d / %d, log ratio %.3f, se %.3f (epsilon %.3g + 4 se = %.3f)",
          nrow(tab), tab$cell[w], tab$n1[w], tab$n2[w], tab$log_ratio[w], tab$se[w], eps, eps + 4 * tab$se[w])
}

test_that("privacy audit (R^1, 1 parameter): release frequencies of adjacent datasets are within epsilon", {
  eps <- 1
  Delta <- sqrt(2) * 2 * audit_tau / audit_n
  sigma <- 2 * Delta / eps
  # the exact law: its largest log ratio over the bins is within epsilon (= epsilon / 2 here)
  F1 <- audit_s_law(audit_data$D, sigma)
  F2 <- audit_s_law(audit_data$D2, sigma)
  exact <- log(diff(F1(audit_bins)) / diff(F2(audit_bins)))
  expect_lte(max(abs(exact)), eps)
  expect_gt(max(abs(exact)), 0.45)
  set.seed(701)
  s1 <- audit_releases(audit_data$D, sigma, 5000)
  s2 <- audit_releases(audit_data$D2, sigma, 5000)
  # burn_in 1000 + n_iter 500 reach the exact law (the chain mixes)
  expect(ks_p(s1, F1) > 0.001, sprintf("releases under D do not follow the exact law: KS p %.3g", ks_p(s1, F1)))
  expect(ks_p(s2, F2) > 0.001, sprintf("releases under D' do not follow the exact law: KS p %.3g", ks_p(s2, F2)))
  tab <- audit_cells(audit_cell(s1), audit_cell(s2), length(audit_bins) - 1L)
  expect_gt(nrow(tab), 20)
  expect(all(abs(tab$log_ratio) <= eps + 4 * tab$se), paste("regression audit failed:", regression_audit_message(tab, eps)))
  # the audit sees the privacy loss
  expect_gt(max(abs(tab$log_ratio)), 0.3)
})

test_that("privacy audit (R^1, 1 parameter) detects a sigma ten times too small", {
  eps <- 1
  Delta <- sqrt(2) * 2 * audit_tau / audit_n
  sigma <- 2 * Delta / eps / 10
  set.seed(702)
  # (a narrower target: a longer burn-in, so that the chains reach their
  # wrong-sigma law and the audit fails because of sigma, not the sampler)
  s1 <- audit_releases(audit_data$D, sigma, 2000)
  s2 <- audit_releases(audit_data$D2, sigma, 2000)
  # the chains reach their (wrong-sigma) law: the audit fails because of sigma, not the sampler
  expect_gt(ks_p(s1, audit_s_law(audit_data$D, sigma)), 0.001)
  expect_gt(ks_p(s2, audit_s_law(audit_data$D2, sigma)), 0.001)
  tab <- audit_cells(audit_cell(s1), audit_cell(s2), length(audit_bins) - 1L)
  expect_gte(nrow(tab), 2)  # the two laws barely overlap: few bins hold 50 releases of both
  expect(any(abs(tab$log_ratio) - 4 * tab$se > eps),
         paste("the audit did not detect sigma = Delta/(10 epsilon):", regression_audit_message(tab, eps)))
})

# ---- 3. releases ---------------------------------------------------------------------

# Huber regression on the real line by iteratively reweighted least squares
# (weights min(1, tau / |r|)): the fit the clipped KNG concentrates on.
huber_line <- function(x, y, tau) {
  b <- coef(lm(y ~ x))
  for (i in 1:500) {
    r <- y - b[1] - b[2] * x
    b_new <- coef(lm(y ~ x, weights = pmin(1, tau / pmax(abs(r), 1e-12))))
    if (max(abs(b_new - b)) < 1e-12) break
    b <- b_new
  }
  unname(b)
}

test_that("euclidean releases concentrate on lm() (tau large) and on the Huber fit (tau small) as n grows", {
  err_at <- function(n, tau, outliers, reps) {
    set.seed(n)
    x <- runif(n, 0, 10)
    y <- 2 + 0.5 * x + rnorm(n, sd = 0.3)
    if (outliers) y[seq_len(n) %% 10 == 0] <- y[seq_len(n) %% 10 == 0] + 8
    ref <- if (outliers) huber_line(x, y, tau) else unname(coef(lm(y ~ x)))
    # The public centre is near the fit: from a centre 5 units away (the
    # public start is (centre, 0)) the default burn-in does not reach the mode
    # at n = 2000 (the draws sit on the domain's edge; see the report).
    err <- replicate(reps, {
      r <- dp_geodesic_regression(E1, x, matrix(y), epsilon = 1, tau = tau, tau_m = 10, x_range = c(0, 10),
                                  center = 3, radius = 3)
      c(r$footpoint, r$shooting) - ref
    })
    list(err = apply(abs(err), 1, median), lm = unname(coef(lm(y ~ x))), ref = ref)
  }
  # no clipping: the least-squares fit; the error shrinks like 1/n (sigma ~ 1/n)
  # (medians over releases: the K-norm law has heavy tails)
  e_small <- err_at(100, tau = 3, outliers = FALSE, reps = 15)
  e_large <- err_at(3000, tau = 3, outliers = FALSE, reps = 5)
  expect_lt(e_large$err[1], e_small$err[1] / 3)
  expect_lt(e_large$err[2], e_small$err[2] / 3)
  expect_lt(max(e_large$err / c(0.15, 0.03)), 1)  # sigma = 0.0057: the KNG spread is ~10 sigma in the intercept
  # 10% outliers at +8 and tau = 0.5: the Huber fit, not lm(), which the
  # outliers pull up by ~0.7
  e_huber <- err_at(1000, tau = 0.5, outliers = TRUE, reps = 5)
  expect_gt(abs(e_huber$lm[1] - e_huber$ref[1]), 0.5)
  expect_lt(e_huber$err[1], 0.1)
  expect_lt(e_huber$err[2], 0.02)
})

test_that("sphere releases concentrate on geodesic_regression() as n grows", {
  dist_to_fit <- function(n, reps) {
    set.seed(n)
    x <- runif(n)
    Y <- riem_project(S2, riem_geodesic(S2, north, c(0.3, 0.2, 0), x) + matrix(rnorm(3 * n, sd = 0.05), n))
    fit <- geodesic_regression(S2, x, Y)
    at <- c(0, 0.5, 1)
    replicate(reps, {
      r <- dp_geodesic_regression(S2, x, Y, epsilon = 1, tau = 0.15, tau_m = 1, x_range = c(0, 1), center = north,
                                  radius = 0.5)
      expect_on_manifold(S2, r$footpoint)
      expect_tangent(S2, as.vector(r$footpoint), as.vector(r$shooting))
      max(riem_dist(S2, predict(r, at), predict(fit, at)))
    })
  }
  d_small <- dist_to_fit(50, 5)
  d_large <- dist_to_fit(500, 5)
  expect_lt(median(d_large), median(d_small) / 4)
  expect_lt(max(d_large), 0.15)
})

test_that("a release is the chain's state from the public start, reproducible with set.seed() and nothing else", {
  set.seed(1)
  n <- 20
  x <- runif(n, 10, 20)
  Y <- riem_project(S2, riem_geodesic(S2, north, c(0.03, 0.02, 0), x - 10) + matrix(rnorm(3 * n, sd = 0.05), n))
  rel <- function(x, Y, ...) dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(10, 20),
                                                    center = north, radius = 0.5, ...)
  set.seed(42)
  a <- rel(x, Y)
  set.seed(42)
  b <- rel(x, Y)
  expect_identical(a, b)
  set.seed(43)
  expect_false(isTRUE(all.equal(coef(rel(x, Y)), coef(a))))
  # attributes of the inputs, unrelated computations in between, a non-private fit: no effect
  Y2 <- Y
  rownames(Y2) <- paste0("obs", seq_len(n))
  fit <- geodesic_regression(S2, x, Y)
  set.seed(42)
  invisible(geodesic_regression(S2, x, Y))  # deterministic: leaves the RNG and the release alone
  b2 <- rel(matrix(x, ncol = 1), Y2)
  expect_identical(coef(b2), coef(a))
  # the release is the draw of the core chain (as the audit calls it), after post-processing
  set.seed(42)
  ctl <- riemdp:::kng_chain_control(NULL, 4L, n, NULL)  # the releases' default for D = 4 and n points
  ctl$verbose <- FALSE
  sens <- sensitivity_geodesic_regression(S2, n, 0.2, 1)
  ch <- riemdp:::kng_chain_draw(S2, riemdp:::as_points(S2, Y, "Y"), matrix((x - 10) / 10), 2 * sens[["joint"]] / 2, 0.2,
                                north, 0.5, 1, ctl, FALSE, NULL)
  ch$v <- matrix(as.double(ch$V), 1L)
  ch$p <- matrix(ch$p, 1L)
  expect_equal(as.vector(a$footpoint_range), as.vector(ch$p), tolerance = 1e-14)
  expect_equal(as.vector(a$shooting_range), as.vector(ch$v), tolerance = 1e-14)
  expect_equal(a$sigma, 2 * sens[["joint"]] / 2)
  # post-processing: the same geodesic in the user's units (fit at x = 10 is the sampled footpoint)
  expect_equal(as.vector(predict(a, 10)), as.vector(ch$p), tolerance = 1e-12)
  expect_equal(as.vector(predict(a, 20)), sphere_exp_rows(ch$p, ch$v)[1, ], tolerance = 1e-12)
  expect_equal(as.vector(predict(a, 0)), as.vector(coef(a)$footpoint), tolerance = 1e-12)
  # the release is a draw, not the non-private fit
  expect_false(isTRUE(all.equal(as.vector(coef(fit)$footpoint), as.vector(a$footpoint))))
})

test_that("the audit's sampler is the release's: dp_geodesic_regression draws the audited s, draw for draw", {
  eps <- 1
  for (k in 1:3) {
    set.seed(800 + k)
    r <- dp_geodesic_regression(E1, audit_u, matrix(audit_data$D), epsilon = eps, tau = audit_tau, tau_m = 1,
                                x_range = c(0, 1), center = 0, radius = 1, control = audit_control)
    set.seed(800 + k)
    s <- audit_releases(audit_data$D, 2 * sqrt(2) * 2 * audit_tau / audit_n / eps, 1)
    expect_equal(as.vector(predict(r, 1)), s, tolerance = 1e-14)
    expect_equal(r$sigma, 2 * sqrt(2) * 2 * audit_tau / audit_n / eps, tolerance = 1e-14)
  }
})

test_that("the release holds no data, no fit, and states its guarantee (joint: epsilon-DP; paper: not DP)", {
  set.seed(2)
  n <- 15
  x <- runif(n)
  Y <- riem_project(S2, riem_geodesic(S2, north, c(0.3, 0.2, 0), x) + matrix(rnorm(3 * n, sd = 0.05), n))
  r <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = north,
                              radius = 0.5, control = mcmc_control(n_iter = 300, burn_in = 300))
  expect_s3_class(r, c("riemdp_regression_release", "riemdp_release"), exact = TRUE)
  expect_identical(r$guarantee, "epsilon-DP")
  expect_null(r$diagnostics)
  leaves <- unlist(lapply(r[setdiff(names(r), c("manifold", "call"))], function(e) if (is.numeric(e)) as.vector(e)))
  expect_lt(length(leaves), 40)  # parameters and public settings only
  expect_false(any(leaves %in% c(x, as.vector(Y))))
  expect_identical(r$call[["x"]], as.name("x"))
  expect_identical(r$call[["Y"]], as.name("Y"))
  r_do <- do.call(dp_geodesic_regression, list(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                                               center = north, radius = 0.5, control = mcmc_control(n_iter = 10, burn_in = 10)))
  held <- vapply(as.list(r_do$call)[-1], function(a) is.numeric(a) && length(a) >= n, logical(1))
  expect_false(any(held))
  out <- gsub("\\s+", " ", paste(capture.output(print(r)), collapse = " "))
  expect_match(out, "2-DP (pure epsilon-DP)", fixed = TRUE)
  expect_match(out, "sigma = 2*Delta/epsilon", fixed = TRUE)
  expect_false(grepl("NOT", out))
  sm <- gsub("\\s+", " ", paste(capture.output(print(summary(r))), collapse = " "))
  expect_match(sm, "pure epsilon-DP", fixed = TRUE)
  expect_match(sm, "bound = \"jacobi\": the tight Jacobi-field bound at geodesic length tau_m, the same value as the other bound at curvature >= 0", fixed = TRUE)
  # the paper's scheme says plainly that it is not differentially private
  p <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = north,
                              radius = 0.5, scheme = "paper", split = 0.5, control = mcmc_control(n_iter = 300, burn_in = 300))
  expect_match(p$guarantee, "^none")
  expect_equal(unname(p$sigma), unname(c(p$sensitivity[["footpoint"]], p$sensitivity[["shooting"]]) / (0.5 * 2)))
  for (txt in list(capture.output(print(p)), capture.output(print(summary(p))))) {
    txt <- gsub("\\s+", " ", paste(txt, collapse = " "))
    expect_match(txt, "NOT a differential-privacy guarantee", fixed = TRUE)
    expect_false(grepl("pure epsilon-DP", txt, fixed = TRUE))
  }
  # diagnostics only on request, marked as outside the guarantee
  rd <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = north,
                               radius = 0.5, control = mcmc_control(n_iter = 300, burn_in = 300), diagnostics = TRUE)
  expect_true(is.numeric(rd$diagnostics$acceptance_local))
  expect_match(paste(capture.output(print(rd)), collapse = " "), "outside the guarantee", fixed = TRUE)
})

test_that("on hyperbolic space and spd the default bound is the tight Jacobi bound, and the print says which was used", {
  for (M in list(manifold_hyperbolic(2), manifold_spd(2))) {
    set.seed(33)
    n <- 30
    u <- runif(n)
    p0 <- if (M$type == "spd") diag(2) else c(1, 0, 0)
    v0 <- riem_log(M, p0, riem_rgaussian(M, 1L, p0, 0.3))
    Y <- riem_geodesic(M, p0, v0, u)
    args <- list(M, u, Y, epsilon = 1, tau = 0.5, tau_m = 1.5, x_range = c(0, 1), center = p0, radius = 0.5,
                 control = mcmc_control(n_iter = 20, burn_in = 20))
    r <- do.call(dp_geodesic_regression, args)
    rp <- do.call(dp_geodesic_regression, c(args, bound = "poster"))
    expect_identical(r$bound, "jacobi")
    expect_identical(rp$bound, "poster")
    expect_equal(r$sensitivity, sensitivity_geodesic_regression(M, n, 0.5, 1.5, bound = "jacobi"))
    expect_equal(rp$sensitivity, sensitivity_geodesic_regression(M, n, 0.5, 1.5, bound = "poster"))
    expect_lt(r$sigma, rp$sigma / 2)   # L = 2 (tau_m + tau) = 4 against tau_m = 1.5
    out <- gsub("\\s+", " ", paste(capture.output(print(r)), collapse = " "))
    outp <- gsub("\\s+", " ", paste(capture.output(print(rp)), collapse = " "))
    expect_match(out, "bound = \"jacobi\": the tight Jacobi-field bound at geodesic length tau_m", fixed = TRUE)
    expect_match(outp, "bound = \"poster\": Kulkarni & Soto, poster (2026), Table 1, geodesic length 2 (tau_m + tau)",
                 fixed = TRUE)
    expect_false(grepl("same value", out))
  }
})

test_that("release errors name the argument and hold no data values", {
  set.seed(3)
  n <- 12
  x <- runif(n, 0, 10)
  Y <- riem_project(S2, riem_geodesic(S2, north, c(0.03, 0.02, 0), x) + matrix(rnorm(3 * n, sd = 0.05), n))
  args <- list(M = S2, x = x, Y = Y, epsilon = 1, tau = 0.2, tau_m = 1, x_range = c(0, 10), center = north, radius = 0.5)
  call_with <- function(...) {
    a <- utils::modifyList(args, list(...))
    a <- a[!vapply(a, is.null, logical(1))]
    tryCatch(do.call(dp_geodesic_regression, a), error = function(e) e)
  }
  no_data <- function(e, label) {
    expect_s3_class(e, "riemdp_error")
    held <- vapply(as.list(conditionCall(e))[-1], function(a) is.numeric(a) && length(a) >= n, logical(1))
    expect(!any(held), sprintf("%s: the error's call holds the data", label))
  }
  # x outside x_range: the message names `x` and the public range, not the value
  xo <- x
  xo[5] <- 12.345678
  e <- call_with(x = xo)
  expect_match(conditionMessage(e), "`x`.*`x_range`")
  expect_false(grepl("12.3|point 5|5th", conditionMessage(e)))
  no_data(e, "x outside")
  xo[5] <- -0.0098765
  expect_false(grepl("0.0098|-0.01", conditionMessage(call_with(x = xo))))
  # points off the manifold: no index, no norm
  Yo <- Y
  Yo[7, ] <- Yo[7, ] * 1.234567
  e <- call_with(Y = Yo)
  expect_match(conditionMessage(e), "`Y`")
  expect_match(conditionMessage(e), "riem_check", fixed = TRUE)
  expect_false(grepl("1\\.23|point 7|row 7", conditionMessage(e)))
  no_data(e, "Y off the manifold")
  Yo[7, 1] <- NaN
  expect_false(grepl("point 7|NaN", conditionMessage(call_with(Y = Yo))))
  # public parameters
  for (bad in list(list(tau = 0, arg = "`tau`"), list(tau = -1, arg = "`tau`"), list(epsilon = 0, arg = "`epsilon`"),
                   list(epsilon = -2, arg = "`epsilon`"), list(tau_m = 0, arg = "`tau_m`"),
                   list(radius = 4, arg = "`radius`"), list(radius = -1, arg = "`radius`"),
                   list(x_range = c(10, 0), arg = "`x_range`"), list(x_range = 5, arg = "`x_range`"),
                   list(center = c(0, 0, 2), arg = "`center`"), list(scheme = "both", arg = "`scheme`"),
                   list(split = 1.5, scheme = "paper", arg = "`split`"), list(split = 0, scheme = "paper", arg = "`split`"),
                   list(bound = "tight", arg = "`bound`"))) {
    arg <- bad$arg
    bad$arg <- NULL
    e <- do.call(call_with, bad)
    expect(inherits(e, "error") && grepl(arg, conditionMessage(e), fixed = TRUE),
           sprintf("%s = %s: expected an error naming %s, got: %s", names(bad)[1], format(bad[[1]]), arg,
                   if (inherits(e, "error")) conditionMessage(e) else "no error"))
  }
  expect_match(conditionMessage(call_with(radius = 4)), "injectivity")
  for (req in c("tau_m", "x_range", "center", "radius", "tau", "epsilon")) {
    a <- args
    a[[req]] <- NULL
    e <- tryCatch(do.call(dp_geodesic_regression, a), error = function(e) e)
    expect(inherits(e, "error") && grepl(sprintf("`%s` is required", req), conditionMessage(e), fixed = TRUE),
           sprintf("missing %s: %s", req, if (inherits(e, "error")) conditionMessage(e) else "no error"))
  }
  # Kendall's injectivity radius is pi/2
  K3 <- manifold_kendall(3)
  set.seed(4)
  YK <- riem_rgaussian(K3, 6, ref_preshape(cbind(c(0, 1, 0.5), c(0, 0, 1))), 0.05)
  e <- tryCatch(dp_geodesic_regression(K3, runif(6), YK, epsilon = 1, tau = 0.2, tau_m = 1, x_range = c(0, 1),
                                       center = ref_preshape(cbind(c(0, 1, 0.5), c(0, 0, 1))), radius = 2),
                error = function(e) e)
  expect_match(conditionMessage(e), "`radius`.*injectivity")
})

# ---- 5. dp_linear_regression ----------------------------------------------------------

test_that("dp_linear_regression with one predictor is dp_geodesic_regression on R^1, in lm() form", {
  set.seed(1)
  n <- 40
  d <- data.frame(x = runif(n, 2, 8))
  d$y <- 1 + 0.3 * d$x + rnorm(n)
  set.seed(5)
  a <- dp_linear_regression(y ~ x, d, epsilon = 1, tau = 2, x_range = c(0, 10), beta_max = 20)
  set.seed(5)
  b <- dp_geodesic_regression(E1, d$x, matrix(d$y), epsilon = 1, tau = 2, tau_m = 20, x_range = c(0, 10),
                              center = 0, radius = 20)
  expect_equal(unname(coef(a)), c(b$footpoint, b$shooting), tolerance = 1e-12)
  expect_named(coef(a), c("(Intercept)", "x"))
  expect_equal(a$sigma, 2 * 2 * 2 * sqrt(2) / n, tolerance = 1e-14)  # 2 Delta / epsilon, Delta = 2 tau sqrt(1 + m) / n
  expect_equal(a$sensitivity, 2 * 2 * sqrt(2) / n, tolerance = 1e-14)
  expect_s3_class(a, c("riemdp_linear_release", "riemdp_release"), exact = TRUE)
})

test_that("dp_linear_regression: several predictors, lm() form, predict() is the post-processed coefficients", {
  set.seed(2)
  n <- 1000
  d <- data.frame(a = runif(n, 0, 5), b = runif(n, -10, 10), c = runif(n, 100, 200))
  d$y <- 0.5 + 0.4 * d$a - 0.1 * d$b + 0.02 * (d$c - 150) + rnorm(n, sd = 0.5)
  rng <- cbind(a = c(0, 5), b = c(-10, 10), c = c(100, 200))
  # (a response near 0: from the public start 0 the residuals are mostly
  # unclipped, so the default burn-in reaches the mode; see the report for
  # responses far from 0)
  set.seed(10)
  r <- dp_linear_regression(y ~ a + b + c, d, epsilon = 10, tau = 3, x_range = rng, beta_max = 5)
  ols <- coef(lm(y ~ a + b + c, d))
  expect_named(coef(r), names(ols))
  expect_equal(r$m, 3L)
  expect_equal(r$sigma, 2 * 2 * 3 * sqrt(1 + 3) / n / 10, tolerance = 1e-14)
  # concentrates on lm(): the fitted values over the public box agree closely
  corners <- expand.grid(a = c(0, 5), b = c(-10, 10), c = c(100, 200))
  expect_lt(max(abs(predict(r, corners) - predict(lm(y ~ a + b + c, d), corners))), 0.3)
  # predict() is the model matrix times the released coefficients
  nd <- data.frame(a = c(1, 2.5), b = c(0, -3), c = c(150, 120))
  expect_equal(unname(predict(r, nd)), unname(drop(cbind(1, as.matrix(nd)) %*% coef(r))), tolerance = 1e-12)
  # the coefficients are the post-processed draw theta_u in the public box:
  # the fit at the lower corner and the change across each range, each within beta_max
  low <- as.data.frame(t(rng[1, ]))
  theta0 <- predict(r, low)
  expect_lte(abs(theta0), 5)
  for (j in colnames(rng)) {
    up <- low
    up[[j]] <- rng[2, j]
    expect_lte(abs(predict(r, up) - theta0), 5)
    expect_equal(unname(predict(r, up) - theta0), unname(coef(r)[[j]] * diff(rng[, j])), tolerance = 1e-10)
  }
  # x_range as a matrix in another column order, without names, or as a named list: the same release
  forms <- list(rng[, c("c", "a", "b")], unname(rng), list(b = c(-10, 10), c = c(100, 200), a = c(0, 5)))
  for (k in seq_along(forms)) {
    set.seed(10)
    r2 <- dp_linear_regression(y ~ a + b + c, d, epsilon = 10, tau = 3, x_range = forms[[k]], beta_max = 5)
    expect_identical(coef(r2), coef(r), label = sprintf("x_range form %d", k))
    expect_identical(r2$x_range, r$x_range)
  }
  out <- gsub("\\s+", " ", paste(capture.output(print(r), print(summary(r))), collapse = " "))
  expect_match(out, "10-DP (pure epsilon-DP)", fixed = TRUE)
  expect_match(out, "Delta = 2*tau*sqrt(1 + m)/n", fixed = TRUE)
  expect_false(grepl("NOT", out))
  # no data in the release
  expect_identical(r$call[["data"]], as.name("d"))
  leaves <- unlist(lapply(r[setdiff(names(r), c("terms", "call"))], function(e) if (is.numeric(e)) as.vector(e)))
  expect_lt(length(leaves), 40)
  expect_false(any(leaves %in% c(d$y, d$a)))
})

test_that("dp_linear_regression errors name the argument or predictor and hold no data values", {
  set.seed(3)
  n <- 30
  d <- data.frame(x1 = runif(n, 0, 1), x2 = runif(n, 5, 6), g = factor(sample(c("u", "w"), n, TRUE)))
  d$y <- d$x1 + d$x2 + rnorm(n)
  rng <- cbind(x1 = c(0, 1), x2 = c(5, 6))
  fit <- function(...) {
    a <- utils::modifyList(list(formula = y ~ x1 + x2, data = d, epsilon = 1, tau = 1, x_range = rng, beta_max = 10),
                           list(...))
    a <- a[!vapply(a, is.null, logical(1))]
    tryCatch(do.call(dp_linear_regression, a), error = function(e) e)
  }
  msg <- function(e) if (inherits(e, "error")) conditionMessage(e) else "no error"
  d_out <- d
  d_out$x2[4] <- 6.54321
  e <- fit(data = d_out)
  expect_match(msg(e), "predictor `x2`.*outside its public range")
  expect_false(grepl("6.54|row 4|4th", msg(e)))
  expect_s3_class(e, "riemdp_error")
  held <- vapply(as.list(conditionCall(e))[-1], function(a) is.data.frame(a) || is.numeric(a) && length(a) >= n, logical(1))
  expect_false(any(held))
  for (bad in list(list(tau = 0, arg = "`tau`"), list(epsilon = -1, arg = "`epsilon`"), list(beta_max = 0, arg = "`beta_max`"),
                   list(x_range = c(0, 1), arg = "`x_range`"), list(x_range = rng[, 1, drop = FALSE], arg = "`x_range`"),
                   list(x_range = rng[2:1, ], arg = "`x_range`"), list(x_range = list(x1 = c(0, 1)), arg = "`x_range`"),
                   list(x_range = list(x1 = c(0, 1), x3 = c(5, 6)), arg = "`x_range`"),
                   list(formula = y ~ x1 + x2 - 1, arg = "intercept"), list(formula = y ~ x1 + g, arg = "`x_range`"),
                   list(formula = y ~ 1, x_range = c(0, 1), arg = "at least one predictor"),
                   list(formula = "y ~ x1", arg = "`formula`"), list(data = as.matrix(d[, 1:2]), arg = "`data`"),
                   list(formula = y ~ x1 + z, arg = "`data`"))) {
    arg <- bad$arg
    bad$arg <- NULL
    e <- do.call(fit, bad)
    expect(grepl(arg, msg(e), fixed = TRUE), sprintf("%s: expected an error naming %s, got: %s", names(bad)[1], arg, msg(e)))
  }
  for (req in c("epsilon", "tau", "x_range", "beta_max")) {
    a <- list(formula = y ~ x1 + x2, data = d, epsilon = 1, tau = 1, x_range = rng, beta_max = 10)
    a[[req]] <- NULL
    e <- tryCatch(do.call(dp_linear_regression, a), error = function(e) e)
    expect(grepl(sprintf("`%s` is required", req), msg(e), fixed = TRUE), sprintf("missing %s: %s", req, msg(e)))
  }
  d_na <- d
  d_na$y[3] <- NA
  expect_match(msg(fit(data = d_na)), "missing values")
})

# ---- convergence from the public start (once a known problem) ---------------------------------

test_that("default-control releases reach the KNG's mode from the public start (response far from 0)", {
  # Was a known problem with the old default (step started at sigma, burn-in
  # 1000: 10 of 40 releases on the domain's edge); the releases now start
  # their step at a public scale and run 5000 + 5000 iterations.
  # On the plateau |grad E_tau| is at its largest, so the exact law there is
  # exp(-(|grad|max - 0)/sigma) ~ exp(-100) below the mode (sigma = 0.0028).
  set.seed(1)
  n <- 200
  d <- data.frame(x = runif(n))
  d$y <- 10 + 2 * d$x + rnorm(n, sd = 0.5)
  set.seed(1)
  slopes <- replicate(40, coef(dp_linear_regression(y ~ x, d, epsilon = 10, tau = 1, x_range = c(0, 1), beta_max = 20))[[2]])
  expect_equal(sum(abs(slopes - coef(lm(y ~ x, d))[[2]]) > 1), 0)  # burn_in = 20000: 0 of 40; default: 10 of 40
})

test_that("diagnostics = TRUE runs the same chain (same draw) and adds acceptance, step and effective sample size", {
  S2 <- manifold_sphere(2)
  set.seed(11)
  n <- 30
  x <- runif(n)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(3 * n, sd = 0.02), n))
  ctl <- mcmc_control(n_iter = 400, burn_in = 400)
  for (scheme in c("joint", "paper")) {
    set.seed(5)
    a <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                                radius = 0.5, scheme = scheme, control = ctl)
    set.seed(5)
    b <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                                radius = 0.5, scheme = scheme, control = ctl, diagnostics = TRUE)
    expect_identical(coef(a), coef(b))
    expect_null(a$diagnostics)
    # the joint chain, or the App. A scheme's two blocks, each by the KNG chain
    blocks <- if (scheme == "joint") list(b$diagnostics) else b$diagnostics
    if (scheme == "paper") expect_named(blocks, c("footpoint", "shooting"))
    for (d in blocks) {
      expect_identical(d$sampler, "kng-chain")
      for (acc in c(d$acceptance_local, d$acceptance_independence)) {
        expect_gt(acc, 0)
        expect_lte(acc, 1)
      }
      expect_gt(d$ess, 0)
      expect_lte(d$ess, 4 * 400 + 1e-9)  # four chains
      expect_identical(d$iterations, 400L)
      expect_identical(d$dimension, if (scheme == "joint") 4L else 2L)
    }
    expect_output(print(b), "effective sample size")
  }
  set.seed(2)
  l1 <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200, control = ctl)
  set.seed(2)
  l2 <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200, control = ctl,
                             diagnostics = TRUE)
  expect_identical(coef(l1), coef(l2))
  expect_output(print(l2), "outside the guarantee")
})

test_that("scales whose squares overflow, and ranges of infinite width, are errors naming the argument", {
  ctl <- mcmc_control(n_iter = 50, burn_in = 50)
  expect_error_mentions(dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(-1e308, 1e308),
                                             beta_max = 200, control = ctl), "`x_range`")
  expect_error_mentions(dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30),
                                             beta_max = 1e300, control = ctl), "`beta_max`")
  # responses beyond 1e150 are clipped to it (a public rule; issue 33): a release, not an error
  big <- transform(cars, dist = dist * 1e300)
  expect_s3_class(dp_linear_regression(dist ~ speed, big, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                       control = ctl), "riemdp_linear_release")
  E2 <- manifold_euclidean(2)
  set.seed(3)
  x <- runif(10)
  expect_error_mentions(dp_geodesic_regression(E2, x, cbind(x, x), epsilon = 1, tau = 1, tau_m = 1,
                                               x_range = c(-1e308, 1e308), center = c(0, 0), radius = 1, control = ctl),
                        "`x_range`")
  expect_s3_class(dp_geodesic_regression(E2, x, cbind(x, x) * 1e200, epsilon = 1, tau = 1, tau_m = 1,
                                         x_range = c(0, 1), center = c(0, 0), radius = 1, control = ctl),
                  "riemdp_regression_release")
  expect_error_mentions(dp_geodesic_regression(E2, x, cbind(x, x), epsilon = 1, tau = 1e200, tau_m = 1,
                                               x_range = c(0, 1), center = c(0, 0), radius = 1, control = ctl), "`tau`")
})

test_that("dp_linear_regression: no data-dependent transformations, and the release keeps no environment holding data", {
  set.seed(4)
  n <- 40
  d <- data.frame(x1 = runif(n), y = rnorm(n))
  rng <- cbind(x1 = c(0, 1))
  for (f in list(y ~ poly(x1, 1), y ~ scale(x1))) {
    e <- tryCatch(dp_linear_regression(f, d, epsilon = 1, tau = 1, x_range = rng, beta_max = 10), error = identity)
    expect_s3_class(e, "riemdp_error")
    expect_match(conditionMessage(e), "is not allowed", fixed = TRUE)
  }
  # made inside a function whose frame holds a large data set: the release
  # (its terms) must not carry that frame
  make <- function() {
    big <- data.frame(x1 = runif(1e5), y = rnorm(1e5))
    dp_linear_regression(y ~ x1, big[1:n, ], epsilon = 1, tau = 1, x_range = rng, beta_max = 10,
                         control = mcmc_control(n_iter = 200L, burn_in = 200L, verbose = FALSE))
  }
  rel <- make()
  expect_identical(environment(rel$terms), baseenv())
  expect_lt(length(serialize(rel, NULL)), 2e4)
  expect_length(predict(rel, data.frame(x1 = c(0.2, 0.8))), 2L)
})

test_that("a release with diagnostics says its guarantee covers the private values only, and is not accounted", {
  ctl <- mcmc_control(n_iter = 200, burn_in = 200)
  set.seed(3)
  rel <- dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                              control = ctl, diagnostics = TRUE)
  out <- paste(capture.output(print(rel)), collapse = " ")
  expect_match(out, "for the private values only", fixed = TRUE)
  expect_match(paste(capture.output(print(summary(rel))), collapse = " "), "for the private values only", fixed = TRUE)
  b <- dp_budget(total = c(epsilon = 5))
  expect_error(dp_spend(b, rel), "holds chain diagnostics.*diagnostics <- NULL")
  expect_error(dp_budget(rel), "holds chain diagnostics")
  rel$diagnostics <- NULL
  expect_no_match(paste(capture.output(print(rel)), collapse = " "), "private values only", fixed = TRUE)
  expect_equal(dp_spend(b, rel)$entries$epsilon, 1)
  S2 <- manifold_sphere(2)
  x <- runif(30)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(90, sd = 0.02), 30))
  g <- dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1), center = c(0, 0, 1),
                              radius = 0.5, control = ctl, diagnostics = TRUE)
  expect_match(paste(capture.output(print(g)), collapse = " "), "for the private values only", fixed = TRUE)
  expect_error(dp_spend(b, g), "holds chain diagnostics")
})

test_that("mcmc_control(resume =) is refused by every KNG release, naming `resume`", {
  S2 <- manifold_sphere(2)
  set.seed(4)
  draws <- riem_rlaplace(S2, 5, c(0, 0, 1), 0.1, method = "mh", control = mcmc_control(n_iter = 5, burn_in = 5))
  ctl <- mcmc_control(resume = draws)
  x <- runif(30)
  Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(90, sd = 0.02), 30))
  expect_error(dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                      center = c(0, 0, 1), radius = 0.5, control = ctl), "`resume`")
  expect_error(dp_linear_regression(dist ~ speed, cars, epsilon = 1, tau = 30, x_range = c(0, 30), beta_max = 200,
                                    control = ctl), "`resume`")
  expect_error(dp_frechet_mean(S2, Y, epsilon = 1, center = c(0, 0, 1), radius = 0.5, mechanism = "kng",
                               control = ctl), "`resume`")
})

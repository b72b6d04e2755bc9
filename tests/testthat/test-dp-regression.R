# Private geodesic and linear regression (issue 8, "Must hold" except the
# empirical sensitivities, which test-sensitivity-regression covers):
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
# rho_tau(y_i - p - u_i v); DESIGN §5), at many parameters (P[k], V[k]):
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
# Gamma_{P -> Q}(U) = U - <Q, U>/(1 + <P, Q>) (P + Q)   (DESIGN §1)
sphere_transport_rows <- function(P, Q, U) U - rdot(Q, U) / (1 + rdot(P, Q)) * (P + Q)

# Clipped regression gradient on S^2 (DESIGN §2 with K = 1; residuals
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

# KS p-value; chain draws can repeat a state (a chain stuck in a corner of
# the domain for a whole thinning interval), which ks.test warns about.
ks_p <- function(...) suppressWarnings(ks.test(...)$p.value)

# Two-sample KS statistic of a sample x against a weighted sample (values,
# w), scaled by the effective sizes: sqrt(n m / (n + m)) D with m = (sum w)^2
# / sum w^2. Under the null it follows the Kolmogorov law (P(> 1.95) ~ 0.001).
weighted_ks <- function(x, values, w) {
  Fw <- weighted_cdf(values, w)
  Fx <- stats::ecdf(x)
  grid <- sort(c(x, values))
  D <- max(abs(Fx(grid) - Fw(grid)))
  m <- sum(w)^2 / sum(w^2)
  n <- length(x)
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
    p_p <- ks_p(ch$p[, 1], Fp)
    p_v <- ks_p(ch$v[, 1], Fv)
    expect(p_p > 0.001, sprintf("%s footpoint marginal: KS p %.3g", lab, p_p))
    expect(p_v > 0.001, sprintf("%s shooting marginal: KS p %.3g", lab, p_v))
    # two joint statistics: the fit at u = 1/2 and the log density itself
    Fmid <- weighted_cdf(G$p + G$v / 2, G$w)
    p_mid <- ks_p(ch$p[, 1] + ch$v[, 1] / 2, Fmid)
    expect(p_mid > 0.001, sprintf("%s fit at u = 1/2: KS p %.3g", lab, p_mid))
    lf_chain <- kng_log_density_1d(ch$p[, 1], ch$v[, 1], u, y, tau, sigma, ctr, rad, tm)
    expect_equal(ch$trace, lf_chain, tolerance = 1e-10)  # the chain's target is the stated density
    # (the log density has atoms where every residual is clipped: ties are expected, ks_p silences them)
    p_lf <- ks_p(lf_chain, weighted_cdf(G$log_f, G$w))
    expect(p_lf > 0.001, sprintf("%s log density: KS p %.3g", lab, p_lf))
    draws <- rbind(draws, cbind(ch$p[, 1], ch$v[, 1]))
  }
  # the comparison has power: a density with sigma 25% larger is rejected
  G2 <- kng_grid_1d(u, y, tau, 1.25 * sigma, ctr, rad, tm)
  expect_lt(ks_p(draws[, 2], grid_marginal_cdf(G2$v, G2$w, G2$h_v)), 1e-4)
})

test_that("on S^2 the chain agrees with importance-weighted uniform draws on the domain", {
  set.seed(2)
  n <- 10
  u <- runif(n)
  truth <- riem_geodesic(S2, north, c(0.3, 0.2, 0), u)
  Y <- riem_project(S2, truth + matrix(rnorm(3 * n, sd = 0.1), n))
  tau <- 0.1
  sigma <- 0.02
  rho <- 0.6
  tm <- 1.2
  # independent method: uniform draws on the domain, weights exp(-|grad| / sigma)
  set.seed(3)
  b <- uniform_sphere_bundle(40000, rho, tm)
  g <- sphere_huber_gradient(b$P, b$V, u, Y, tau)
  lw <- -sqrt(rowSums(g$gp^2) + rowSums(g$gv^2)) / sigma
  w <- exp(lw - max(lw))
  expect_gt(sum(w)^2 / sum(w^2), 4000)  # importance sampling with enough effective draws
  stat_is <- cbind(dist = acos(pmin(1, b$P[, 3])), p1 = b$P[, 1], p2 = b$P[, 2], v_norm = rnorm2(b$V),
                   fit_at_1 = sphere_exp_rows(b$P, b$V)[, 1])
  set.seed(4)
  ch <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 50, 0.05))
  stat_ch <- cbind(dist = acos(pmin(1, ch$p[, 3])), p1 = ch$p[, 1], p2 = ch$p[, 2], v_norm = rnorm2(ch$v),
                   fit_at_1 = sphere_exp_rows(ch$p, ch$v)[, 1])
  ks <- vapply(colnames(stat_is), function(j) weighted_ks(stat_ch[, j], stat_is[, j], w), numeric(1))
  expect(all(ks < 1.95), paste("chain vs importance sampling, scaled KS:", paste(sprintf("%s %.2f", names(ks), ks), collapse = ", ")))
  # power: a chain at twice the sigma is told apart
  set.seed(5)
  ch2 <- bundle_chain(S2, Y, u, 2 * sigma, tau, north, rho, tm, 3000, chain_settings(2000, 50, 0.05))
  stat_ch2 <- cbind(dist = acos(pmin(1, ch2$p[, 3])), p1 = ch2$p[, 1], p2 = ch2$p[, 2], v_norm = rnorm2(ch2$v),
                    fit_at_1 = sphere_exp_rows(ch2$p, ch2$v)[, 1])
  ks2 <- vapply(colnames(stat_is), function(j) weighted_ks(stat_ch2[, j], stat_is[, j], w), numeric(1))
  expect_gt(max(ks2), 3)
})

test_that("on S^2 a long chain's marginals are stable across seeds and public starting points", {
  set.seed(6)
  n <- 10
  u <- runif(n)
  truth <- riem_geodesic(S2, north, c(0.3, 0.2, 0), u)
  Y <- riem_project(S2, truth + matrix(rnorm(3 * n, sd = 0.05), n))
  tau <- 0.1
  sigma <- 0.01
  rho <- 0.5
  tm <- 1
  p_far <- riem_exp(S2, north, c(-0.45, 0, 0))  # near the ball's edge, away from the data
  v_far <- c(0, -0.9, 0)                        # tangent at p_far, |v| = 0.9, against the data's direction
  set.seed(7)
  a <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 50, 0.05))
  set.seed(8)
  b <- bundle_chain(S2, Y, u, sigma, tau, north, rho, tm, 3000, chain_settings(2000, 50, 0.05), p0 = p_far,
                    V0 = matrix(v_far))
  stats_of <- function(ch) cbind(p1 = ch$p[, 1], p2 = ch$p[, 2], p3 = ch$p[, 3], v1 = ch$v[, 1], v2 = ch$v[, 2],
                                 v_norm = rnorm2(ch$v))
  sa <- stats_of(a)
  sb <- stats_of(b)
  pv <- vapply(colnames(sa), function(j) ks_p(sa[, j], sb[, j]), numeric(1))
  expect(all(pv > 0.001), paste("two chains disagree, KS p:", paste(sprintf("%s %.3g", names(pv), pv), collapse = ", ")))
  # the comparison has power: a chain at 1.5 sigma is told apart
  set.seed(9)
  c3 <- stats_of(bundle_chain(S2, Y, u, 1.5 * sigma, tau, north, rho, tm, 3000, chain_settings(2000, 50, 0.05)))
  expect_lt(ks_p(sa[, "v_norm"], c3[, "v_norm"]), 1e-4)
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
    expect_gt(ks_p(ch$p[, 1], "punif", -0.5, 1.5), 0.001)
    expect_gt(ks_p(ch$v[, 1], "punif", -2, 2), 0.001)
    expect_gt(ks_p(ch$p[, 1] + ch$v[, 1], ch$p[, 1] - ch$v[, 1]), 0.001)  # no tilt of the joint law
  }
  E2 <- manifold_euclidean(2)
  ch <- flat_chain(E2, c(1, -1), 1, 2, 3000, 300, riemdp:::proposal_mixing(1), seed = 22)
  dp <- sweep(ch$p, 2, c(1, -1))
  expect_gt(ks_p(rowSums(dp^2), "punif", 0, 1), 0.001)
  expect_gt(ks_p(atan2(dp[, 2], dp[, 1]), "punif", -pi, pi), 0.001)
  expect_gt(ks_p(rowSums(ch$v^2) / 4, "punif", 0, 1), 0.001)
  expect_gt(ks_p(atan2(ch$v[, 2], ch$v[, 1]), "punif", -pi, pi), 0.001)
  # power: the disc's area law is not the law of the radius itself
  expect_lt(ks_p(sqrt(rowSums(dp^2)), "punif", 0, 1), 1e-6)
})

# Cap CDFs of dist(c, p) for p uniform on B_rho(c) (DESIGN §3: A(r) = sin r,
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
    p_r <- ks_p(r, cap_cdf(M$type, cs$rho))
    expect(p_r > 0.001, sprintf("%s: dist(c, p) against the cap law, KS p %.3g", cs$name, p_r))
    vs <- lapply(seq_len(nrow(ch$v)), function(i) if (is.null(M$point_shape)) ch$v[i, ] else matrix(ch$v[i, ], M$point_shape))
    vn <- mapply(function(p, v) ref_norm(M, p, v), pts, vs)
    expect(all(vn <= 1 + 1e-9), sprintf("%s: a shooting vector longer than tau_m", cs$name))
    p_v <- ks_p(vn^2, "punif", 0, 1)
    expect(p_v > 0.001, sprintf("%s: |v|^2 / tau_m^2 against U(0, 1), KS p %.3g", cs$name, p_v))
    # the angle between v and the direction away from the centre is uniform:
    # its cosine has the arcsine law P(cos <= t) = 1 - acos(t)/pi
    if (cs$rho < pi) {
      cosang <- mapply(function(p, v) {
        out <- -to_tangent(M, p, if (M$type == "kendall") ref_align(p, cs$center) else cs$center)
        if (M$type == "hyperbolic") out <- -out  # the hyperboloid's projection flips: take the outward direction
        ref_inner(M, p, v, out) / (ref_norm(M, p, v) * ref_norm(M, p, out))
      }, pts, vs)
      cosang <- pmin(1, pmax(-1, cosang[is.finite(cosang)]))
      p_a <- ks_p(cosang, function(t) 1 - acos(t) / pi)
      expect(p_a > 0.001, sprintf("%s: angle of v to the radial direction, KS p %.3g", cs$name, p_a))
    }
    # power: the flat disc law r^2 / rho^2 is rejected at these radii
    if (M$type == "sphere") expect_lt(ks_p(r, function(t) pmin(t, cs$rho)^2 / cs$rho^2), 1e-6)
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
audit_control <- mcmc_control(burn_in = 300, n_iter = 200)

# The exact law of s on [-2, 2] (trapezoid rule on a fine grid).
audit_s_law <- function(y, sigma, n_grid = 40001) {
  s <- seq(-2, 2, length.out = n_grid)
  g <- huber_gradient_1d(s, 0 * s, audit_u, y, audit_tau)[, "p"]
  lf <- -sqrt(2) * abs(g) / sigma + log(2 - abs(s))
  w <- exp(lf - max(lf))
  cw <- cumsum(c(0, (w[-1] + w[-n_grid]) / 2 * diff(s)))
  stats::approxfun(s, cw / cw[n_grid], yleft = 0, yright = 1)
}

# N releases of s for dataset y: independent chains from the public (0, 0).
audit_releases <- function(y, sigma, N) {
  S <- riemdp:::as_points(E1, matrix(y), "Y")
  ctl <- audit_control
  ctl$thin <- ctl$n_iter
  ctl$step <- min(sigma, 1 / 4, 1 / 8)  # the release's default step (radius 1, tau_m 1)
  st <- riemdp:::mcmc_settings(ctl)
  A <- riemdp:::proposal_mixing(1)
  u <- matrix(audit_u)
  vapply(seq_len(N), function(i) {
    r <- riemdp:::samp_mh_regression(E1, S, u, sigma, audit_tau, 0, 1, 1, "joint", A, 0, matrix(0), NULL, NULL, 1L, st)
    r$footpoints + r$shooting
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
  s1 <- audit_releases(audit_data$D, sigma, 10000)
  s2 <- audit_releases(audit_data$D2, sigma, 10000)
  # burn_in 300 + n_iter 200 reach the exact law (the chain mixes)
  expect(ks_p(s1, F1) > 0.001, sprintf("releases under D do not follow the exact law: KS p %.3g", ks_p(s1, F1)))
  expect(ks_p(s2, F2) > 0.001, sprintf("releases under D' do not follow the exact law: KS p %.3g", ks_p(s2, F2)))
  tab <- audit_cells(audit_cell(s1), audit_cell(s2), length(audit_bins) - 1L)
  expect_gt(nrow(tab), 25)
  expect(all(abs(tab$log_ratio) <= eps + 4 * tab$se), paste("regression audit failed:", regression_audit_message(tab, eps)))
  # the audit sees the privacy loss
  expect_gt(max(abs(tab$log_ratio)), 0.3)
})

test_that("privacy audit (R^1, 1 parameter) detects a sigma ten times too small", {
  eps <- 1
  Delta <- sqrt(2) * 2 * audit_tau / audit_n
  sigma <- 2 * Delta / eps / 10
  set.seed(702)
  s1 <- audit_releases(audit_data$D, sigma, 2000)
  s2 <- audit_releases(audit_data$D2, sigma, 2000)
  # the chains still reach their (wrong-sigma) law: the audit fails because of sigma, not the sampler
  expect_gt(ks_p(s1, audit_s_law(audit_data$D, sigma)), 0.001)
  expect_gt(ks_p(s2, audit_s_law(audit_data$D2, sigma)), 0.001)
  tab <- audit_cells(audit_cell(s1), audit_cell(s2), length(audit_bins) - 1L)
  expect_gte(nrow(tab), 2)  # the two laws barely overlap: few bins hold 50 releases of both
  expect(any(abs(tab$log_ratio) - 4 * tab$se > eps),
         paste("the audit did not detect sigma = Delta/(10 epsilon):", regression_audit_message(tab, eps)))
})

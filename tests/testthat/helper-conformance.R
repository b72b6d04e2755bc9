# Conformance of chain-drawn KNG releases with their law (methods article, "Chain-drawn releases", "level
# test"), shared by test-mcmc-conformance.R and bench/mcmc-conformance.R
# (which sources this file). The KNG density is f(z) ∝ exp(-|grad E(z)|/sigma)
# (Reimherr & Awan 2019), so the level L = |grad E(z)|/sigma = -log f(z) + const
# of a release z has a law we can check: near a concentrated mode
# grad E(z) ≈ H (z - zhat), u = grad E/sigma is a K-norm variable and
# L ~ Gamma(D, 1), D = dim z. A chain stuck away from the mode sits where the
# density is LOW: L far ABOVE that law.

# ---- the level of a release ---------------------------------------------------

# Norm of a tangent vector g (ambient values) at the point p (ambient values)
# in the metric of M (Minkowski on the hyperboloid, affine-invariant on spd).
conf_norm_at <- function(M, p, g) {
  P <- list(x = as.double(p), n = 1L, by_row = TRUE)
  G <- list(x = as.double(g), n = 1L, by_row = TRUE)
  sqrt(max(0, riemdp:::geom_inner(M, P, G, G)))
}

# dp_geodesic_regression(): L at the released (p, v) on the mapped covariate
# u = (x - a)/(b - a) in [0, 1]; Huber loss = the chain's clipped gradient.
conf_level_geodesic <- function(rel, x, Y) {
  M <- rel$manifold
  S <- riemdp:::as_points(M, Y, "Y")
  U <- matrix((as.double(x) - rel$x_range[1]) / diff(rel$x_range), ncol = 1L)
  p <- riemdp:::as_points(M, rel$footpoint_range, "footpoint")$x
  V <- matrix(as.double(rel$shooting_range), M$ambient, 1L)
  g <- riemdp:::stat_regression_energy(M, S, U, as.double(p), V, rel$tau, "huber")
  gp <- conf_norm_at(M, p, g$grad_p)
  gv <- vapply(seq_len(ncol(g$grad_V)), function(j) conf_norm_at(M, p, g$grad_V[, j]), 0)
  sqrt(gp^2 + sum(gv^2)) / rel$sigma
}

# dp_linear_regression(): theta^u = (fit at the lower corner, change across
# each range) from the lm()-form coefficients; the Huber gradient is
# -(1/n) sum psi_tau(r_i) (1, u_i). U is the n x m matrix of mapped predictors.
conf_theta_u <- function(rel) {
  b <- rel$coefficients
  R <- rel$x_range
  c(b[[1L]] + sum(b[-1L] * R[1L, ]), b[-1L] * (R[2L, ] - R[1L, ]))
}
conf_level_linear_theta <- function(theta, U, y, tau, sigma) {
  X1 <- cbind(1, U)
  r <- y - drop(X1 %*% theta)
  psi <- pmax(-tau, pmin(tau, r))
  sqrt(sum((crossprod(X1, psi) / length(y))^2)) / sigma
}
conf_level_linear <- function(rel, U, y) conf_level_linear_theta(conf_theta_u(rel), U, y, rel$tau, rel$sigma)

# dp_frechet_mean(mechanism = "kng"): grad = -(1/n) sum Log_x(x_i).
conf_level_frechet <- function(rel, X) {
  M <- rel$manifold
  S <- riemdp:::as_points(M, X, "X")
  P <- riemdp:::as_points(M, rel$estimate, "estimate")
  G <- riemdp:::geom_log(M, P, S, TRUE)          # n x ambient
  g <- -colMeans(matrix(G, S$n))
  conf_norm_at(M, P$x, g) / rel$sigma
}

# ---- the exact law on R (dp_linear_regression) ----------------------------------

# Where no residual is clipped the gradient is affine, H (theta - thetahat),
# H = X1'X1/n, and theta = thetahat + H^-1 w, |w| ~ sigma Gamma(D), direction
# uniform (the K-norm mechanism); on the public box |theta_j| <= beta_max by
# rejection. Returns draws of theta (K x D), their levels, the acceptance of
# the box and the share of draws with a residual beyond tau (where the law is
# no longer this one: the reference is then invalid).
conf_exact_linear <- function(U, y, tau, sigma, beta_max, K, chunk = 2000L, max_tries = 50L * K) {
  X1 <- cbind(1, U)
  n <- nrow(X1)
  D <- ncol(X1)
  H <- crossprod(X1) / n
  that <- drop(solve(crossprod(X1), crossprod(X1, y)))
  e <- y - drop(X1 %*% that)
  theta <- matrix(0, 0, D)
  Ls <- numeric(0)
  tries <- 0L
  clipped <- 0L
  while (nrow(theta) < K && tries < max_tries) {
    k <- chunk
    tries <- tries + k
    dir <- matrix(stats::rnorm(k * D), k)
    dir <- dir / sqrt(rowSums(dir^2))
    rad <- stats::rgamma(k, D)
    W <- dir * (sigma * rad)
    Th <- sweep(t(solve(H, t(W))), 2L, that, "+")
    ok <- apply(abs(Th) <= beta_max, 1L, all)
    if (!any(ok)) next
    Th <- Th[ok, , drop = FALSE]
    # residuals at each draw: e - X1 (theta - thetahat)
    Rm <- e - X1 %*% t(sweep(Th, 2L, that))
    clipped <- clipped + sum(apply(abs(Rm) > tau, 2L, any))
    theta <- rbind(theta, Th)
    Ls <- c(Ls, rad[ok])
  }
  keep <- seq_len(min(K, nrow(theta)))
  list(theta = theta[keep, , drop = FALSE], L = Ls[keep], accept = nrow(theta) / tries,
       clipped = if (nrow(theta)) clipped / nrow(theta) else NA_real_, thetahat = that)
}

# The exact law on the public box wherever residuals are clipped: f is
# exp(-L) times the box's indicator and L >= 0, so a uniform draw on the box
# accepted with probability exp(-L) is an exact draw. Useful where the law
# is diffuse (acceptance E exp(-L) not tiny); returns the draws theta and
# their levels L (K of them, fewer if max_tries uniform draws do not give
# them) and the acceptance. The work is capped at about 4e9 / n draws.
conf_exact_linear_box <- function(U, y, tau, sigma, beta_max, K, max_tries = 2e6) {
  X1 <- cbind(1, U)
  D <- ncol(X1)
  n <- nrow(X1)
  chunk <- max(100L, as.integer(2e6 / n))
  max_tries <- min(max_tries, 4e9 / n)
  th <- matrix(0, 0, D)
  out <- numeric(0)
  tries <- 0
  while (length(out) < K && tries < max_tries) {
    Th <- matrix(stats::runif(chunk * D, -beta_max, beta_max), chunk)
    tries <- tries + chunk
    psi <- pmin(pmax(y - X1 %*% t(Th), -tau), tau)        # n x chunk
    L <- sqrt(colSums((crossprod(X1, psi) / n)^2)) / sigma
    a <- stats::runif(chunk) < exp(-L)
    out <- c(out, L[a])
    th <- rbind(th, Th[a, , drop = FALSE])
  }
  keep <- seq_len(min(K, length(out)))
  list(theta = th[keep, , drop = FALSE], L = out[keep], accept = length(out) / tries)
}

# ---- simulated data ------------------------------------------------------------------

# Linear: predictors uniform inside quakes-like public ranges (depth 0-700 km,
# magnitude 4-7, stations 0-150), theta^u = (frac beta_max, 1, -1, 1, ...),
# Gaussian noise of sd `noise`. Returns the data frame, the mapped U, the
# public ranges and beta_max (= factor * max |slope change|).
conf_linear_data <- function(n, m, frac, tau_factor, noise = 0.1) {
  ranges <- list(depth = c(0, 700), mag = c(4, 7), stations = c(0, 150))[seq_len(m)]
  inner <- list(depth = c(40, 680), mag = c(4, 6.4), stations = c(10, 132))[seq_len(m)]
  X <- vapply(names(inner), function(v) stats::runif(n, inner[[v]][1], inner[[v]][2]), numeric(n))
  X <- matrix(X, n, dimnames = list(NULL, names(inner)))
  R <- matrix(unlist(ranges), 2L, dimnames = list(c("lower", "upper"), names(ranges)))
  U <- sweep(sweep(X, 2L, R[1L, ]), 2L, R[2L, ] - R[1L, ], "/")
  slopes <- rep_len(c(1, -1), m)
  beta_max <- tau_factor * max(abs(slopes))
  theta <- c(frac * beta_max, slopes)
  y <- drop(cbind(1, U) %*% theta) + stats::rnorm(n, sd = noise)
  list(data = data.frame(y = y, X), U = U, y = y, x_range = R, beta_max = beta_max, theta = theta,
       formula = stats::as.formula(paste("y ~", paste(names(ranges), collapse = " + "))))
}

# Manifolds: the fit (p0, v0) (v0 across the whole public x range) is fixed;
# the public centre is put at distance frac * radius from p0, so that the fit
# sits at that fraction of the radius from the centre. Noise: ambient Gaussian
# of sd `noise`, then riem_project(). Kendall(8) uses the geodesic fitted to the
# rat skulls of the shapes package (Bookstein 1991) where it is installed.
conf_rats_fit <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    K8 <- manifold_kendall(8)
    if (requireNamespace("shapes", quietly = TRUE)) {
      options(rgl.useNULL = TRUE)
      env <- new.env()
      utils::data("rats", package = "shapes", envir = env)
      fit <- geodesic_regression(K8, env$rats$time, env$rats$x)
      # the fit at 7 days and the change across 7-150 days
      p0 <- predict(fit, 7)
      v0 <- riem_log(K8, p0, predict(fit, 150))
    } else {
      # a regular octagon bending into an irregular one (no shapes package)
      a <- -2 * pi * (0:7) / 8
      p0 <- riem_project(K8, cbind(cos(a), sin(a)))
      q <- riem_project(K8, cbind(cos(a) * (1 + 0.2 * sin(2 * a)), sin(a)))
      v0 <- riem_log(K8, p0, q)
    }
    cache <<- list(p0 = p0, v0 = v0)
    cache
  }
})

conf_manifold_setup <- function(key) {
  switch(key,
    "sphere(2)" = list(M = manifold_sphere(2), p0 = c(0, 0, 1), radius = 0.5, speed = 0.3, x_range = c(0, 700)),
    "hyperbolic(2)" = list(M = manifold_hyperbolic(2), p0 = c(1, 0, 0), radius = 0.5, speed = 0.3,
                           x_range = c(0, 150)),
    "spd(2)" = list(M = manifold_spd(2), p0 = diag(2), radius = 0.5, speed = 0.3, x_range = c(0, 150)),
    # the three-dimensional rows (issue 33): the same public settings
    "sphere(3)" = list(M = manifold_sphere(3), p0 = c(0, 0, 0, 1), radius = 0.5, speed = 0.3, x_range = c(0, 700)),
    "hyperbolic(3)" = list(M = manifold_hyperbolic(3), p0 = c(1, 0, 0, 0), radius = 0.5, speed = 0.3,
                           x_range = c(0, 150)),
    "spd(3)" = list(M = manifold_spd(3), p0 = diag(3), radius = 0.5, speed = 0.3, x_range = c(0, 150)),
    "kendall(8)" = {
      rf <- conf_rats_fit()
      list(M = manifold_kendall(8), p0 = rf$p0, v0 = rf$v0, radius = pi / 8, x_range = c(7, 150))
    },
    stop("unknown manifold ", key))
}

# A unit tangent vector at p: Log_p of a fixed nearby point (horizontal on
# Kendall's space), normalised.
conf_direction <- function(M, p, seed) {
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  q <- riem_rgaussian(M, 1L, p, 0.3)
  w <- riem_log(M, p, q)
  w / riem_norm(M, p, w)
}

conf_geodesic_data <- function(key, n, frac, tau_factor, noise = 0.01, tau = 0.1) {
  st <- conf_manifold_setup(key)
  M <- st$M
  p0 <- st$p0
  v0 <- if (is.null(st$v0)) st$speed * conf_direction(M, p0, 11L) else st$v0
  speed <- riem_norm(M, p0, v0)
  w <- conf_direction(M, p0, 12L)
  center <- if (frac > 0) riem_exp(M, p0, frac * st$radius * w) else p0
  u <- stats::runif(n)
  x <- st$x_range[1] + u * diff(st$x_range)
  fit <- riem_geodesic(M, p0, v0, u)
  Y <- riem_project(M, fit + array(stats::rnorm(length(fit), sd = noise), dim(fit)))
  list(M = M, x = x, u = u, Y = Y, p0 = p0, v0 = v0, speed = speed, center = center, radius = st$radius,
       tau = tau, tau_m = tau_factor * speed, x_range = st$x_range)
}

# Frechet KNG data: points at a Riemannian Gaussian of sd `spread` about p0,
# kept inside the public ball; the centre at frac * radius from p0.
conf_frechet_data <- function(key, n, frac, spread = 0.05) {
  st <- conf_manifold_setup(key)
  M <- st$M
  p0 <- st$p0
  # the mean's ball must lie below r* (pi/8 on Kendall's space itself)
  st$radius <- min(st$radius, 0.9 * sensitivity_radius_max(M))
  w <- conf_direction(M, p0, 12L)
  center <- if (frac > 0) riem_exp(M, p0, frac * st$radius * w) else p0
  X <- NULL
  got <- 0L
  while (got < n) {
    Z <- riem_rgaussian(M, 2L * n, p0, spread)
    ok <- riem_dist(M, center, Z) < st$radius
    Z <- if (is.null(M$point_shape)) Z[ok, , drop = FALSE] else Z[, , ok, drop = FALSE]
    X <- if (is.null(X)) Z else if (is.null(M$point_shape)) rbind(X, Z) else array(c(X, Z), c(M$point_shape, got + sum(ok)))
    got <- got + sum(ok)
  }
  X <- if (is.null(M$point_shape)) X[seq_len(n), , drop = FALSE] else X[, , seq_len(n), drop = FALSE]
  list(M = M, X = X, p0 = p0, center = center, radius = st$radius, w = w)
}

# ---- comparisons -------------------------------------------------------------------------

# Shares of releases beyond the reference's 0.1% and 99.9% quantiles, and the
# KS p-value (one-sample against a cdf, or two-sample against draws).
conf_compare <- function(L, ref) {
  # Levels agree to about 1e-12 whichever code computes them (R here, C++ in
  # a chain's trace); where all residuals are clipped the level is constant,
  # an atom of the law at its maximum, and such last-bit differences would
  # split it: compare at 10 significant digits.
  L <- signif(L, 10)
  if (!is.function(ref)) ref <- signif(ref, 10)
  if (is.function(ref)) {
    qhi <- ref(0.999, q = TRUE)
    qlo <- ref(0.001, q = TRUE)
    ks <- suppressWarnings(stats::ks.test(L, function(t) ref(t)))$p.value
  } else {
    qhi <- stats::quantile(ref, 0.999, names = FALSE)
    qlo <- stats::quantile(ref, 0.001, names = FALSE)
    if (length(ref) < 2000L) {
      # Fewer than 2000 draws put the empirical 0.1% tails at about the
      # sample's extremes; use the tails of the Gamma law with the
      # reference's mean and variance instead (L is Gamma(D, 1) where the
      # law is concentrated), and the wider of the two.
      shape <- mean(ref)^2 / stats::var(ref)
      rate <- mean(ref) / stats::var(ref)
      qhi <- max(qhi, stats::qgamma(0.999, shape, rate))
      qlo <- min(qlo, stats::qgamma(0.001, shape, rate))
    }
    ks <- suppressWarnings(stats::ks.test(L, ref))
    # the asymptotic two-sample p-value is NaN at statistic 1 (disjoint samples)
    ks <- if (is.finite(ks$p.value)) ks$p.value else if (ks$statistic > 0.5) 0 else NA_real_
  }
  c(above_999 = mean(L > qhi), below_001 = mean(L < qlo), ks_p = ks)
}

# Gamma(D, 1) as a reference: cdf, or quantile with q = TRUE.
conf_gamma_ref <- function(D) function(t, q = FALSE) if (q) stats::qgamma(t, D) else stats::pgamma(t, D)

# ---- pooled long-chain reference -------------------------------------------------

# Draws of the level from the diagnostics of releases run with long chains
# (diagnostics = TRUE: four chains from public starts, the level at every kept
# step): each chain's trace thinned to about its effective sample size, pooled.
conf_pooled_levels <- function(diagnostics) {
  unlist(lapply(diagnostics, function(d) {
    lapply(seq_len(ncol(d$trace)), function(c) {
      tr <- d$trace[, c]
      thin <- max(1L, ceiling(length(tr) / riemdp:::effective_size(tr)))
      tr[seq(length(tr), 1L, by = -thin)]
    })
  }))
}

# ---- coordinate check for near-flat laws (issue 33) --------------------------------

# Where the law of a geodesic regression is diffuse (a mode, and a plateau of
# states whose residuals are all clipped, where |grad E_tau| and so the level
# are nearly constant), the level test is blind to how the releases spread
# over the plateau, and weakly sensitive to the share of mass in the mode.
# The coordinates of a release: the level L, the shooting vector's norm |v|
# (across the public x range), the footpoint's distance to the public centre
# d(c, p), and the number of residuals d(Y_i, gamma(u_i)) below tau. A state
# is "in the mode" when at least one residual is below tau (unclipped); on
# the plateau all n are clipped.
conf_geodesic_coords <- function(rel, d) {
  M <- rel$manifold
  p <- rel$footpoint_range
  v <- rel$shooting_range
  fit <- riem_geodesic(M, p, v, d$u)
  c(L = conf_level_geodesic(rel, d$x, d$Y), v_norm = riem_norm(M, p, v),
    d_center = riem_dist(M, d$center, p), unclipped = sum(riem_dist(M, fit, d$Y) < d$tau))
}

# Releases' coordinates (a matrix with the columns of conf_geodesic_coords)
# against a reference's (long-chain ends, or exact draws): two-sample KS
# p-values of |v| and d(c, p), and the mode shares (at least one unclipped
# residual) with their binomial standard errors and the two-proportion test's
# p-value (stats::prop.test, no continuity correction) and z score.
conf_coordinate_check <- function(rel, ref) {
  ks <- function(a, b) suppressWarnings(stats::ks.test(a, b)$p.value)
  m1 <- sum(rel[, "unclipped"] > 0)
  m2 <- sum(ref[, "unclipped"] > 0)
  n1 <- nrow(rel)
  n2 <- nrow(ref)
  p1 <- m1 / n1
  p2 <- m2 / n2
  se1 <- sqrt(p1 * (1 - p1) / n1)
  se2 <- sqrt(p2 * (1 - p2) / n2)
  c(ks_v = ks(rel[, "v_norm"], ref[, "v_norm"]), ks_dc = ks(rel[, "d_center"], ref[, "d_center"]),
    ks_L = ks(rel[, "L"], ref[, "L"]),
    mode_rel = p1, se_rel = se1, mode_ref = p2, se_ref = se2, z = (p1 - p2) / sqrt(se1^2 + se2^2),
    prop_p = suppressWarnings(stats::prop.test(c(m1, m2), c(n1, n2), correct = FALSE)$p.value))
}

# The share of kept chain steps whose level is below `cut` (a level version
# of the mode share, computable from diagnostics traces of long chains), with
# its standard error from the effective sample size of the indicator, chain
# by chain (riemdp's effective_size()). `traces`: a list of trace matrices
# (steps x chains).
conf_level_share <- function(traces, cut) {
  cols <- unlist(lapply(traces, function(tr) lapply(seq_len(ncol(tr)), function(j) tr[, j])), recursive = FALSE)
  ind <- lapply(cols, function(t) as.double(t < cut))
  n <- vapply(ind, length, 0)
  p <- sum(vapply(ind, sum, 0)) / sum(n)
  ess <- sum(vapply(ind, function(z) if (stats::var(z) > 0) riemdp:::effective_size(z) else length(z), 0))
  c(share = p, se = sqrt(p * (1 - p) / ess), ess = ess, steps = sum(n))
}

# KS of the releases' distances ds from the centre against a polar-grid law
# (weights w at midpoints s x phi, s in (0, r)), and chi-square of
# (distance, angle ph) on 4 rings x 6 sectors: the exactness checks of the
# rejection sampler on S^2 and H^2.
expect_polar_grid_law <- function(ds, ph, grid, w, s, r) {
  ns <- length(s)
  K <- length(ds)
  ws <- tapply(w, grid$s, sum)
  cdf_s <- stats::approxfun(c(0, s + r / (2 * ns)), c(0, cumsum(ws)), yleft = 0, yright = 1)
  expect_gt(suppressWarnings(stats::ks.test(ds, cdf_s))$p.value, 0.001)
  ring <- pmin(4L, floor(grid$s / (r / 4)) + 1L)
  sector <- floor(grid$phi / (2 * pi / 6)) + 1L
  expected <- tapply(w, list(ring, sector), sum)
  observed <- table(factor(pmin(4L, floor(ds / (r / 4)) + 1L), 1:4), factor(floor(ph / (2 * pi / 6)) + 1L, 1:6))
  stat <- sum((observed - K * expected)^2 / (K * expected))
  expect_gt(stats::pchisq(stat, 23, lower.tail = FALSE), 0.001)
}

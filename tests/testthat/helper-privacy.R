# Plain-R references for the privacy tests: radial laws integrated
# numerically, orthonormal tangent coordinates, rotations, adjacent datasets,
# and a histogram audit of two laws. Nothing here calls the package's
# samplers.

# log sinh(r) for r > 0, without overflow for large r.
log_sinh <- function(r) r + log1p(-exp(-2 * r)) - log(2)

# Unnormalised log density of r = dist(eta, x) under the Laplace / Gaussian
# law on M (methods article, "Samplers"): log k(r) + log A(r), and the support [0, upper]
# (upper = Inf for unbounded support).
radial_log_density <- function(M, kernel, sigma) {
  d <- M$dim
  logk <- switch(kernel,
    laplace = function(r) -r / sigma,
    gaussian = function(r) -r^2 / (2 * sigma^2)
  )
  pw <- function(p, x) if (p == 0) 0 * x else p * log(x)
  switch(M$type,
    euclidean = list(f = function(r) logk(r) + pw(d - 1, r), upper = Inf),
    sphere = list(f = function(r) logk(r) + pw(d - 1, sin(r)), upper = pi),
    hyperbolic = list(f = function(r) logk(r) + (if (d == 1) 0 else (d - 1) * log_sinh(r)), upper = Inf),
    kendall = {
      m <- M$k - 2
      list(f = function(r) logk(r) + pw(2 * m - 1, sin(r)) + log(cos(r)), upper = pi / 2)
    },
    stop("no radial law for ", M$type)
  )
}

# A cutoff far in the tail of an unbounded log density lf: the log density
# there is 60 below its maximum (probability beyond it ~ e^-60 relative).
tail_cutoff <- function(lf, drop = 60, n_search = 4000) {
  R <- 1
  repeat {
    g <- seq(0, R, length.out = n_search + 1)[-1]
    v <- lf(g)
    if (v[length(v)] < max(v) - drop && which.max(v) < length(v) / 2) return(R)
    R <- 2 * R
    if (R > 1e6) stop("tail_cutoff: no cutoff found")
  }
}

# A CDF on [0, upper] from an unnormalised log density, by the trapezoid rule
# on a fine grid (the log density is shifted by its maximum before exp, so
# log sinh never overflows). Returns a function usable by ks.test.
cdf_from_log_density <- function(lf, upper, n_grid = 40001, n_search = 4000) {
  if (!is.finite(upper)) upper <- tail_cutoff(lf, n_search = n_search)
  g <- seq(0, upper, length.out = n_grid)
  v <- lf(g)
  v[!is.finite(v)] <- -Inf
  w <- exp(v - max(v))
  cum <- c(0, cumsum((w[-1] + w[-n_grid]) / 2 * diff(g)))
  total <- cum[n_grid]
  cdf <- stats::approxfun(g, cum / total, yleft = 0, yright = 1, ties = "ordered")
  attr(cdf, "total") <- total
  attr(cdf, "shift") <- max(v)
  attr(cdf, "upper") <- upper
  cdf
}

radial_cdf <- function(M, kernel, sigma) {
  rl <- radial_log_density(M, kernel, sigma)
  cdf_from_log_density(rl$f, rl$upper)
}

# The same normaliser by stats::integrate (a check of the grid itself).
radial_total_integrate <- function(M, kernel, sigma, shift, upper) {
  rl <- radial_log_density(M, kernel, sigma)
  stats::integrate(function(r) exp(rl$f(r) - shift), 0, upper, rel.tol = 1e-10, subdivisions = 2000L)$value
}

# SPD(2), affine-invariant metric: log-eigenvalues r = (r1, r2) have density
# k(|r|) sinh(|r1 - r2|/2) and dist(eta, x) = |r|. In polar coordinates
# (rho, phi), |r1 - r2| = sqrt(2) rho |cos(phi + pi/4)|, so rho has density
# rho k(rho) * 4 int_0^{pi/2} sinh(rho cos(phi) / sqrt(2)) dphi.
spd2_radial_cdf <- function(kernel, sigma) {
  logk <- switch(kernel,
    laplace = function(r) -r / sigma,
    gaussian = function(r) -r^2 / (2 * sigma^2)
  )
  phi <- seq(0, pi / 2, length.out = 401)
  wphi <- c(0.5, rep(1, length(phi) - 2), 0.5) * diff(phi)[1]
  lf <- function(rho) {
    A <- outer(rho, cos(phi)) / sqrt(2)
    L <- ifelse(A > 0, log_sinh(pmax(A, 1e-300)), -Inf)
    mx <- apply(L, 1, max)
    mx[!is.finite(mx)] <- 0
    s <- as.vector(exp(L - mx) %*% wphi)
    ifelse(rho > 0, log(rho) + logk(rho) + mx + log(s), -Inf)
  }
  cdf_from_log_density(lf, Inf, n_grid = 4001, n_search = 400)
}

# ---- tangent coordinates -----------------------------------------------------

# Orthonormal basis of T_p M (plain R Gram-Schmidt with ref_inner), as a list
# of single tangent vectors.
ortho_basis <- function(M, p) {
  d <- M$dim
  B <- list()
  while (length(B) < d) {
    v <- rand_tangent(M, p)
    for (b in B) v <- v - ref_inner(M, p, v, b) * b
    nv <- ref_norm(M, p, v)
    if (nv > 1e-6) B[[length(B) + 1]] <- v / nv
  }
  B
}

# Coordinates (n x d) of many tangent vectors V (many-point layout, at p) in
# an orthonormal basis of T_p M.
tangent_coords <- function(M, p, V, B = ortho_basis(M, p)) {
  n <- n_points(M, V)
  Vm <- if (is.null(M$point_shape)) t(matrix(V, n)) else matrix(V, M$ambient, n)  # columns = vectors
  # dual vectors: <u, b> = sum(u * w(b))
  W <- sapply(B, function(b) {
    switch(M$type,
      hyperbolic = c(-b[1], b[-1]),
      spd = {
        pinv <- solve(p)
        as.numeric(pinv %*% b %*% pinv)
      },
      as.numeric(b)
    )
  })
  crossprod(Vm, W)
}

# Random rotation of R^m (Haar, plain R).
rand_rotation <- function(m) {
  Q <- qr.Q(qr(matrix(rnorm(m * m), m, m)))
  if (det(Q) < 0) Q[, 1] <- -Q[, 1]
  Q
}

# ---- adjacent datasets in a ball ---------------------------------------------

# Point at distance r from c in the direction of the tangent vector u.
point_at <- function(M, c, u, r) ref_exp(M, c, u * (r / ref_norm(M, c, u)))

# n points in B_radius(c): a fraction on the boundary, the rest spread inside.
rand_ball_points <- function(M, c, n, radius, boundary = 0.5) {
  pts <- lapply(seq_len(n), function(i) {
    r <- if (runif(1) < boundary) radius else radius * runif(1)^(1 / M$dim)
    point_at(M, c, rand_tangent(M, c), r)
  })
  pts
}

# ---- histogram audit ---------------------------------------------------------

# Compare the laws of two samples on a fixed partition: cells are the
# integer labels in c1, c2 (same labelling). Returns a data frame of cells
# with at least min_count draws in both samples, with the log ratio of the
# cell frequencies and its standard error (binomial, delta method:
# var log p_hat = (1 - p) / (N p)).
audit_cells <- function(c1, c2, n_cells, min_count = 50) {
  N1 <- length(c1)
  N2 <- length(c2)
  k1 <- tabulate(c1, n_cells)
  k2 <- tabulate(c2, n_cells)
  keep <- which(k1 >= min_count & k2 >= min_count)
  p1 <- k1[keep] / N1
  p2 <- k2[keep] / N2
  se <- sqrt((1 - p1) / (N1 * p1) + (1 - p2) / (N2 * p2))
  data.frame(cell = keep, n1 = k1[keep], n2 = k2[keep], log_ratio = log(p1 / p2), se = se)
}

# ---- audits of selection mechanisms (private bounds) ----

# Frequencies of the outcomes 1..K of `draw()` over `n_draws` calls.
draw_freq <- function(draw, K, n_draws) tabulate(vapply(seq_len(n_draws), function(i) draw(), 1L), K)

# The audit statistic: for each outcome seen on both datasets, the absolute
# log-ratio of the empirical frequencies minus z standard errors (delta
# method); its maximum must stay below epsilon for an epsilon-DP stage.
audit_excess <- function(f1, f2, z = 4) {
  ok <- f1 > 0 & f2 > 0
  lr <- abs(log(f1[ok] / f2[ok]))
  se <- sqrt(1 / f1[ok] + 1 / f2[ok] - 1 / sum(f1) - 1 / sum(f2))
  list(max_log_ratio = max(lr), lower = max(lr - z * se), se = se[which.max(lr)])
}

# Exact selection probabilities of the exponential mechanism (plain R).
em_probs <- function(u, eps) {
  w <- exp(eps * u / 2 - max(eps * u / 2))
  w / sum(w)
}

# The audit of a location stage over three candidates on adjacent datasets
# S1, S2 with counts u1, u2 (checked first): the log-ratio of the selection
# frequencies stays within eps plus 4 se and matches the exact one; at
# eps_factor = 10 the same audit fails. With `worst` = list(S3, S4, u3, u4),
# near the worst case (exact log-ratio above 0.9 eps) it still holds.
expect_location_audit <- function(M, plan, S1, S2, u1, u2, eps, seed, worst = NULL, n_draws = 20000) {
  r <- plan$count_radius
  testthat::expect_equal(riemdp:::bounds_location_counts(M, S1, plan$candidates, r), u1)
  testthat::expect_equal(riemdp:::bounds_location_counts(M, S2, plan$candidates, r), u2)
  set.seed(seed)
  f <- function(S, k = 1) draw_freq(function() riemdp:::bounds_location_stage(M, S, plan, eps_factor = k), 3, n_draws)
  a <- audit_excess(f(S1), f(S2))
  testthat::expect_lt(a$lower, eps)
  exact <- max(abs(log(em_probs(u1, eps) / em_probs(u2, eps))))
  testthat::expect_lt(abs(a$max_log_ratio - exact), 4 * a$se)
  testthat::expect_gt(audit_excess(f(S1, 10), f(S2, 10))$lower, eps)
  if (!is.null(worst)) {
    exact <- max(abs(log(em_probs(worst$u3, eps) / em_probs(worst$u4, eps))))
    testthat::expect_gt(exact, 0.9 * eps)
    a <- audit_excess(f(worst$S3), f(worst$S4))
    testthat::expect_lt(a$lower, eps)
    testthat::expect_lt(abs(a$max_log_ratio - exact), 4 * a$se)
  }
}

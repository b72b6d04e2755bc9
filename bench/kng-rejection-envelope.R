# Numerical check of the public envelope behind the exact K-norm gradient
# release of a Frechet mean by rejection (R/kng-rejection.R), on S^d, in
# plain R (sphere geometry, gradient and the Laplace proposal are coded here
# from their formulas, independently of the package's C++):
#   (1) mu d(z, z*) <= |G(z)| <= d(z, z*) on Omega = B_R(c), z* the exact
#       minimiser, over adversarial layouts;
#   (2) the inexact-fit envelope |G(z)| >= mu d(z, zhat) - |G(zhat)|, i.e.
#       log(f / (M q)) = (mu d(z, zhat) - |G(zhat)| - |G(z)|) / sigma <= 0,
#       for the package's fit zhat AND for random zhat in Omega;
#   (3) the fit: K unit gradient steps from c stay in B_r(c) and end with
#       |G(z_K)| <= g_K = r (1 - mu)^(K/2);
#   (4) the acceptance rate against the public a_min (Clopper-Pearson
#       bounds at 99.9%);
#   (5) the worst case of the acceptance integral is the minimiser on the
#       boundary: int_{B_R(c)} exp(-d(z, z*)/sigma) decreases in d(c, z*).
# Grid: d in {2, 3, 5}, n in {50, 500, 5000}, epsilon in {0.5, 2, 20}, five
# layouts, r = R in {pi/8, 0.7}; 4000 proposals per cell (1.08e6 in all).
# Output: bench/kng-rejection-envelope.csv (one row per cell) and a summary
# on stdout (stored in bench/kng-rejection-envelope.txt).
#
# Run from the package root:
#   Rscript bench/kng-rejection-envelope.R > bench/kng-rejection-envelope.txt
# (about 5 minutes on a shared two-core machine).

lib <- Sys.getenv("RIEMDP_LIB", "/tmp/lib_35")
suppressMessages(library(riemdp, lib.loc = c(lib, .libPaths())))
ns <- asNamespace("riemdp")
env <- new.env(parent = ns)
sys.source("R/kng-rejection.R", envir = env)  # the plan as in the working tree
plan_of <- get("kng_rejection_plan", env)

## plain-R sphere geometry (rows are points) -------------------------------
sdist <- function(p, X) {
  X <- matrix(X, ncol = length(p))
  ip <- drop(X %*% p)
  w <- X - outer(ip, p)
  atan2(sqrt(rowSums(w^2)), ip)
}
sexp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  x <- cos(nv) * p + sin(nv) * v / nv
  x / sqrt(sum(x^2))
}
slog1 <- function(p, q) {
  ip <- sum(p * q)
  w <- q - ip * p
  nw <- sqrt(sum(w^2))
  if (nw == 0) return(0 * p)
  atan2(nw, ip) * w / nw
}
# G(z) = -(1/n) sum_i Log_z(x_i), for the rows z of Z at once; returns |G|
# per row and (for one z) the vector.
grad_norms <- function(Z, X) {
  Z <- matrix(Z, ncol = ncol(X))
  if (nrow(Z) > 400L) {  # in chunks: n x P matrices
    idx <- split(seq_len(nrow(Z)), ceiling(seq_len(nrow(Z)) / 400L))
    return(unlist(lapply(idx, function(i) grad_norms(Z[i, , drop = FALSE], X)), use.names = FALSE))
  }
  IP <- X %*% t(Z)                     # n x P
  W2 <- 0
  for (k in seq_len(ncol(X))) W2 <- W2 + (X[, k] - IP * rep(Z[, k], each = nrow(X)))^2
  W <- sqrt(W2)
  C <- ifelse(W > 0, atan2(W, IP) / W, 0)
  S <- colSums(C * IP)
  G <- (t(X) %*% C - t(Z) * rep(S, each = ncol(X))) / nrow(X)  # D x P: the mean Log (= -G)
  sqrt(colSums(G^2))
}
grad_vec <- function(z, X) {
  ip <- drop(X %*% z)
  W <- X - outer(ip, z)
  nw <- sqrt(rowSums(W^2))
  C <- ifelse(nw > 0, atan2(nw, ip) / nw, 0)
  -colSums(W * C) / nrow(X)
}
unit_tangent <- function(p) {
  u <- rnorm(length(p))
  u <- u - sum(u * p) * p
  u / sqrt(sum(u^2))
}
at <- function(p, s, u) sexp(p, s * u)
clip_ball <- function(c, r, z) {
  s <- sdist(c, z)
  if (s <= r) return(z)
  v <- slog1(c, z)
  sexp(c, r * v / sqrt(sum(v^2)))
}
# uniform on B_r(c) in S^d: radius with density propto sin^{d-1}
runif_ball <- function(k, c, r, d) {
  grid <- seq(0, r, length.out = 2001)
  cdf <- cumsum(c(0, diff(grid) * sin(grid[-1])^(d - 1)))
  s <- approx(cdf / max(cdf), grid, runif(k))$y
  t(vapply(s, function(si) at(c, si, unit_tangent(c)), numeric(length(c))))
}
# Exact Riemannian Laplace on S^d at p with scale b: s with density propto
# exp(-s/b) sin^{d-1}(s) on [0, pi], by rejection from Gamma(d, scale b)
# with acceptance (sin s / s)^{d-1}.
rlaplace_sphere <- function(k, p, b, d) {
  out <- matrix(0, k, length(p))
  for (i in seq_len(k)) {
    repeat {
      s <- rgamma(1, d, scale = b)
      if (s < pi && runif(1) <= (sin(s) / s)^(d - 1)) break
    }
    out[i, ] <- at(p, s, unit_tangent(p))
  }
  out
}

## layouts -----------------------------------------------------------------
layout_points <- function(kind, n, c, r, d) {
  u <- unit_tangent(c)
  switch(kind,
    spread = runif_ball(n, c, r, d),
    boundary = t(replicate(n, at(c, r, unit_tangent(c)))),
    opposite = t(vapply(seq_len(n), function(i) at(c, r, if (i %% 2) u else -u), numeric(length(c)))),
    cluster_edge = t(replicate(n, {  # all within 1e-3 of one boundary point (inside the ball)
      q <- at(c, r, u)
      clip_ball(c, r, at(q, 1e-3 * runif(1), unit_tangent(q)))
    })),
    cluster_centre = t(replicate(n, at(c, 1e-3 * runif(1), unit_tangent(c)))))
}

fit_steps <- function(X, c, r, K) {
  z <- c
  max_out <- -Inf
  for (k in seq_len(K)) {
    z <- sexp(z, -grad_vec(z, X))
    max_out <- max(max_out, sdist(c, z) - r)
    z <- clip_ball(c, r, z)
  }
  list(z = z, max_out = max_out)
}
exact_min <- function(X, c) {
  z <- c
  for (k in 1:400) z <- sexp(z, -grad_vec(z, X))
  z
}
cp_bounds <- function(x, n, level = 0.999) {
  a <- (1 - level)
  c(lower = if (x == 0) 0 else qbeta(a, x, n - x + 1), upper = if (x == n) 1 else qbeta(1 - a, x + 1, n - x))
}

set.seed(20260135)
P <- as.integer(Sys.getenv("KNG_BENCH_P", "4000"))
rows <- list()
t0 <- proc.time()[["elapsed"]]
for (r in c(pi / 8, 0.7)) for (d in c(2L, 3L, 5L)) for (n in c(50L, 500L, 5000L)) for (eps in c(0.5, 2, 20))
  for (kind in c("spread", "boundary", "opposite", "cluster_edge", "cluster_centre")) {
    M <- manifold_sphere(d)
    c0 <- c(rep(0, d), 1)
    pl <- plan_of(M, n, eps, r)
    mu <- pl$mu
    sigma <- pl$sigma
    X <- layout_points(kind, n, c0, r, d)
    stopifnot(max(sdist(c0, X)) <= r + 1e-12)
    zs <- exact_min(X, c0)
    fit <- fit_steps(X, c0, r, pl$fit_iter)
    zhat <- fit$z
    g0 <- grad_norms(zhat, X)
    # proposals (the release's law) and uniform points of Omega (the envelope everywhere)
    Zp <- rlaplace_sphere(P, zhat, sigma / mu, d)
    Zu <- runif_ball(500L, c0, r, d)
    inside <- sdist(c0, Zp) <= r
    Gp <- grad_norms(Zp, X)
    Gu <- grad_norms(Zu, X)
    dp <- sdist(zhat, Zp)
    du <- sdist(zhat, Zu)
    # (2) log(f/(Mq)) over the proposals in Omega and the uniform points
    lr <- c((mu * dp - g0 - Gp)[inside], mu * du - g0 - Gu) / sigma
    # (2') for random zhat in Omega (not the fit)
    zr <- runif_ball(20L, c0, r, d)
    gr <- grad_norms(zr, X)
    lr_rand <- max(vapply(seq_len(nrow(zr)), function(j) max(mu * sdist(zr[j, ], Zu) - gr[j] - Gu), 0)) / sigma
    # (1) the two-sided bound against the exact minimiser
    Z1 <- rbind(Zp[inside, , drop = FALSE], Zu)
    G1 <- c(Gp[inside], Gu)
    ds <- sdist(zs, Z1)
    lower_gap <- max(mu * ds - G1)   # <= 0 expected
    upper_gap <- max(G1 - ds)        # <= 0 expected
    # (4) acceptance
    lalpha <- -(Gp - mu * dp + g0) / sigma
    acc <- inside & (log(runif(P)) <= lalpha)
    cp <- cp_bounds(sum(acc), P)
    rows[[length(rows) + 1L]] <- data.frame(
      r = r, d = d, n = n, epsilon = eps, layout = kind, mu = mu, sigma = sigma, fit_iter = pl$fit_iter,
      fit_bound = pl$fit_bound, fit_grad = g0, fit_max_out = fit$max_out, dist_c_zstar = sdist(c0, zs),
      max_log_ratio = max(lr), max_log_ratio_random_zhat = lr_rand, rounding_floor = 64 * .Machine$double.eps * r / sigma,
      lower_gap = lower_gap, upper_gap = upper_gap, accepted = sum(acc), proposals = P, acceptance = mean(acc),
      cp_lower = cp[["lower"]], cp_upper = cp[["upper"]], a0 = pl$a0, a_min = pl$a_min, N = pl$N,
      delta_f = pl$delta_f, passes = pl$passes)
  }
res <- do.call(rbind, rows)
elapsed <- proc.time()[["elapsed"]] - t0
utils::write.csv(res, "bench/kng-rejection-envelope.csv", row.names = FALSE)

## (5) the acceptance integral decreases as the minimiser moves out --------
acc_at <- get("kng_rejection_acceptance", env)
mono <- do.call(rbind, lapply(c(2L, 3L, 5L), function(d) do.call(rbind, lapply(c(0.01, 0.05, 0.3), function(sigma) {
  r <- pi / 8
  a <- seq(0, r, length.out = 41)
  # kng_rejection_acceptance() puts z* at distance r from c; move it by
  # shrinking r and keeping R (the integral depends on a = d(c, z*) and R only)
  v <- vapply(a, function(ai) acc_at(d, 1, sigma, 1, ai, r), 0)
  data.frame(d = d, sigma = sigma, max_increase = max(diff(v)), at_centre = v[1], at_boundary = v[length(v)])
}))))
# Monte Carlo of the same integral (uniform points of the whole sphere) at a
# few sigma: the quadrature's lower bound must sit below the estimate.
mc <- do.call(rbind, lapply(c(2L, 3L), function(d) do.call(rbind, lapply(c(0.1, 0.3), function(sigma) {
  r <- pi / 8
  c0 <- c(rep(0, d), 1)
  zs <- at(c0, r, unit_tangent(c0))
  m <- 4e5
  U <- matrix(rnorm(m * (d + 1)), m)
  U <- U / sqrt(rowSums(U^2))
  inb <- sdist(c0, U) <= r
  num <- exp(-sdist(zs, U) / sigma) * inb
  den <- exp(-sdist(zs, U) / sigma)   # Z_q at mu = 1
  est <- mean(num) / mean(den)
  se <- sd(num / mean(den)) / sqrt(m)
  data.frame(d = d, sigma = sigma, quadrature_lower = acc_at(d, 1, sigma, 1, r, r), monte_carlo = est, mc_se = se)
}))))

cat(sprintf("kng-rejection-envelope: %d cells, %s proposals, %.0f s\n", nrow(res),
            format(sum(res$proposals), big.mark = ","), elapsed))
cat("\n(1) mu d(z, z*) <= |G(z)| <= d(z, z*): max(mu d - |G|) =", format(max(res$lower_gap), digits = 3),
    "; max(|G| - d) =", format(max(res$upper_gap), digits = 3), "\n")
cat("(2) max log(f/(Mq)) at the fit:", format(max(res$max_log_ratio), digits = 3),
    "; at random zhat in Omega:", format(max(res$max_log_ratio_random_zhat), digits = 3),
    "; cells above 1e-12:", sum(res$max_log_ratio > 1e-12),
    "; above max(1e-12, 64 eps r / sigma):", sum(res$max_log_ratio > pmax(1e-12, res$rounding_floor)), "\n")
cat("(3) fit: max excess of an iterate over B_r(c):", format(max(res$fit_max_out), digits = 3),
    "; max |G(zhat)| / g_K:", format(max(res$fit_grad / res$fit_bound), digits = 3), "\n")
cat("(4) acceptance: cells with 99.9% upper bound < a_min:", sum(res$cp_upper < res$a_min),
    "; with 99.9% lower bound < a_min:", sum(res$cp_lower < res$a_min),
    "; min acceptance / a_min:", format(min(res$acceptance / res$a_min), digits = 3), "\n")
cat("\nAcceptance by layout (S^2, r = pi/8):\n")
s2 <- res[res$d == 2 & abs(res$r - pi / 8) < 1e-9, ]
print(aggregate(acceptance ~ layout, s2, range))
cat("\nAcceptance against a_min at the tight layout (minimiser on the boundary):\n")
print(res[res$layout == "cluster_edge" & res$n == 500, c("r", "d", "epsilon", "acceptance", "cp_lower", "cp_upper", "a0", "a_min", "N", "passes")],
      row.names = FALSE, digits = 4)
cat("\n(5) the acceptance integral against d(c, z*) (must not increase):\n")
print(mono, row.names = FALSE, digits = 4)
cat("\nQuadrature lower bound against Monte Carlo (minimiser on the boundary, mu = 1):\n")
print(mc, row.names = FALSE, digits = 4)

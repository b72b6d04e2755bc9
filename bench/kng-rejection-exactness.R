# Exactness of the K-norm gradient release by rejection (issue 35, item 3a):
# releases of riemdp:::samp_kng_rejection() against an independent plain-R
# quadrature of the target f(z) propto exp(-|G(z)| / sigma) on B_r(c),
# G(z) = -(1/n) sum_i Log_z(x_i), over a grid of cells:
#   manifold S^1, S^2 x n in {12, 200} x epsilon in {0.5, 2, 20}
#   x layout in rej_layouts (tests/testthat/test-kng-rejection.R),
# K releases per cell (RIEMDP_EXACT_K, default 1e5), r = pi/8, seed per cell.
# Tests per cell:
#   level: KS of L = |G(z)| / sigma against the quadrature law of L;
#   chisq: chi-square on bins of equal quadrature probability (S^1: 50 angle
#          bins; S^2: 10 sectors of the angle about the minimiser z* x 10
#          rings of t = (d(z*, z) / s_b)^(1/3), s_b the distance from z* to
#          the ball's boundary in that direction);
#   angle (S^1): KS of the angle; dist (S^2): KS of d(c, z).
# On S^1, G(z) = theta_z - mean(theta_i) exactly (all angles within pi), so
# its law is closed form. On S^2 the quadrature is a polar grid about z*,
# each ray cut at the ball's boundary (exact truncation), midpoint rule in
# (t, phi) with s = s_b t^3; a coarse grid (half in each direction) gives
# an error estimate. Then the p-values of the grid are tested for
# uniformity (KS against U(0, 1), count below 0.01).
# Run from the package root:
#   R_LIBS=<lib> Rscript bench/kng-rejection-exactness.R > bench/kng-rejection-exactness.txt
suppressMessages(library(riemdp))
K <- as.numeric(Sys.getenv("RIEMDP_EXACT_K", "1e5"))
base_seed <- 35300L
out_csv <- Sys.getenv("RIEMDP_EXACT_CSV", "bench/kng-rejection-exactness.csv")
t_start <- proc.time()

cat("Command: R_LIBS=<lib> Rscript bench/kng-rejection-exactness.R > bench/kng-rejection-exactness.txt\n")
cat("Date:", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z"), "\n")
cat(sprintf("riemdp %s; K = %g releases per cell; base seed %d\n\n", packageVersion("riemdp"), K, base_seed))

# the plain-R helpers of the test file (rej_grad_norms, rej_layout, ...)
ex <- parse("tests/testthat/test-kng-rejection.R")
for (e in ex) if (is.call(e) && identical(e[[1]], as.name("<-")) && grepl("^rej_", deparse(e[[2]])))
  eval(e, globalenv())

# |G| in chunks (rej_grad_norms builds n x m matrices)
grad_norms <- function(Z, X, chunk = 4000L) {
  Z <- matrix(Z, ncol = ncol(X))
  out <- numeric(nrow(Z))
  for (i in seq(1L, nrow(Z), by = chunk)) {
    j <- i:min(nrow(Z), i + chunk - 1L)
    out[j] <- rej_grad_norms(Z[j, , drop = FALSE], X)
  }
  out
}
mean_log <- function(z, X) {
  ip <- drop(X %*% z)
  W <- X - outer(ip, z)
  w <- sqrt(rowSums(W^2))
  colMeans(W * ifelse(w > 0, atan2(w, ip) / w, 0))
}
# a weighted node set as a continuous CDF (linear between nodes; values
# equal to 12 digits are one node, so that a ring of nodes is not a step)
wcdf <- function(v, w) {
  v <- signif(v, 12)
  o <- order(v)
  v <- v[o]
  w <- w[o] / sum(w)
  stats::approxfun(v, cumsum(w) - w / 2, yleft = 0, yright = 1, ties = mean)
}
# the same, each grid cell's weight spread evenly over [lo, hi], the range
# of the value at its corners (m points), not put at its centre
cell_cdf <- function(lo, hi, w, m = 8L) {
  f <- (seq_len(m) - 0.5) / m
  wcdf(as.vector(outer(lo, 1 - f) + outer(hi, f)), rep(w, m))
}
ks_p <- function(x, cdf) suppressWarnings(stats::ks.test(x, cdf, exact = FALSE))$p.value

draw_cell <- function(M, X, c0, r, pl, K) {
  S <- riemdp:::as_set(M, X, "X")
  C <- riemdp:::as_set(M, c0, "c")
  D <- matrix(NA_real_, K, ncol(X))
  acc <- 0
  nf <- 0L
  passes <- numeric(K)
  t0 <- proc.time()
  for (i in seq_len(K)) {
    res <- riemdp:::samp_kng_rejection(M, S, C, r, pl$sigma, pl$mu, pl$fit_iter, pl$N)
    D[i, ] <- res$draw
    acc <- acc + res$accepted
    nf <- nf + (!res$found)
    passes[i] <- res$gradient_passes
  }
  tm <- proc.time() - t0
  list(D = D, acc = acc / (K * pl$N), not_found = nf, passes_ok = all(passes == pl$passes),
       cpu = tm[["user.self"]] + tm[["sys.self"]])
}

# S^1: angles from c0 = (0, 1), theta = atan2(z1, z2); law exp(-|t - m| / sigma) on [-r, r]
s1_tests <- function(X, D, r, sigma) {
  th <- atan2(X[, 1], X[, 2])
  m <- mean(th)
  tz <- atan2(D[, 1], D[, 2])
  el <- exp(-(r + m) / sigma)
  er <- exp(-(r - m) / sigma)
  Z <- sigma * (2 - el - er)
  cdf <- function(t) ifelse(t <= m, sigma * (exp((pmax(t, -r) - m) / sigma) - el),
                            sigma * (1 - el) + sigma * (1 - exp(-(pmin(t, r) - m) / sigma))) / Z
  Fm <- sigma * (1 - el) / Z
  qf <- function(p) ifelse(p <= Fm, m + sigma * log(p * Z / sigma + el),
                           m - sigma * log(1 - (p * Z / sigma - (1 - el))))
  lev_cdf <- function(l) sigma * ((1 - exp(-pmin(l, (r + m) / sigma))) + (1 - exp(-pmin(l, (r - m) / sigma)))) / Z
  # checks of the closed form against the package-free |G| and of the quantiles
  chk <- max(abs(grad_norms(D[1:200, ], X) - abs(tz[1:200] - m)))
  pp <- (1:49) / 50
  qchk <- max(abs(cdf(qf(pp)) - pp))
  L <- abs(tz - m) / sigma
  counts <- tabulate(findInterval(tz, qf(pp)) + 1L, 50L)
  list(p_level = ks_p(L, lev_cdf), p_chisq = stats::chisq.test(counts)$p.value, p_angle = ks_p(tz, cdf),
       p_dist = NA_real_, boundary_level = min(r - m, r + m) / sigma, quad_err = max(chk, qchk),
       min_expected = length(tz) / 50)
}

# S^2: quadrature on a polar grid about the minimiser z*
s2_quad <- function(X, c0, r, sigma, nt, nphi) {
  zs <- c0
  for (k in 1:2000) zs <- rej_sexp(zs, mean_log(zs, X))
  a <- rej_dist(c0, zs)
  e1 <- if (a > 1e-12) {
    v <- c0 - sum(c0 * zs) * zs
    v / sqrt(sum(v^2))
  } else {
    v <- c(1, 0, 0) - zs[1] * zs
    v / sqrt(sum(v^2))
  }
  e2 <- c(zs[2] * e1[3] - zs[3] * e1[2], zs[3] * e1[1] - zs[1] * e1[3], zs[1] * e1[2] - zs[2] * e1[1])
  # distance from z* to the boundary of B_r(c) along phi (e1 points to c):
  # cos d(c, y) = cos s cos a + sin s sin a cos(phi)
  s_b <- function(phi) {
    A <- cos(a)
    B <- sin(a) * cos(phi)
    atan2(B, A) + acos(pmin(1, cos(r) / sqrt(A^2 + B^2)))
  }
  tt <- (seq_len(nt) - 0.5) / nt
  ph <- (seq_len(nphi) - 0.5) * 2 * pi / nphi
  sb <- s_b(ph)
  S <- outer(tt^3, sb)                   # nt x nphi
  P <- matrix(ph, nt, nphi, byrow = TRUE)
  U1 <- cos(P)
  U2 <- sin(P)
  Y <- cbind(as.vector(cos(S)) * zs[1] + as.vector(sin(S)) * (as.vector(U1) * e1[1] + as.vector(U2) * e2[1]),
             as.vector(cos(S)) * zs[2] + as.vector(sin(S)) * (as.vector(U1) * e1[2] + as.vector(U2) * e2[2]),
             as.vector(cos(S)) * zs[3] + as.vector(sin(S)) * (as.vector(U1) * e1[3] + as.vector(U2) * e2[3]))
  L <- grad_norms(Y, X) / sigma
  W <- matrix(exp(-(L - min(L))) * as.vector(sin(S)) * 3 * as.vector(outer(tt^2, sb)), nt, nphi)
  # the level and d(c, .) at the cell corners (t and phi edges)
  te <- (0:nt) / nt
  phe <- (0:nphi) * 2 * pi / nphi
  Se <- outer(te^3, s_b(phe))
  Pe <- matrix(phe, nt + 1L, nphi + 1L, byrow = TRUE)
  Ye <- cbind(as.vector(cos(Se)) * zs[1] + as.vector(sin(Se)) * (as.vector(cos(Pe)) * e1[1] + as.vector(sin(Pe)) * e2[1]),
              as.vector(cos(Se)) * zs[2] + as.vector(sin(Se)) * (as.vector(cos(Pe)) * e1[2] + as.vector(sin(Pe)) * e2[2]),
              as.vector(cos(Se)) * zs[3] + as.vector(sin(Se)) * (as.vector(cos(Pe)) * e1[3] + as.vector(sin(Pe)) * e2[3]))
  corners <- function(v) {
    v <- matrix(v, nt + 1L, nphi + 1L)
    a1 <- v[-1, -1]; a2 <- v[-(nt + 1L), -1]; a3 <- v[-1, -(nphi + 1L)]; a4 <- v[-(nt + 1L), -(nphi + 1L)]
    list(lo = as.vector(pmin(a1, a2, a3, a4)), hi = as.vector(pmax(a1, a2, a3, a4)))
  }
  cl <- corners(grad_norms(Ye, X) / sigma)
  cd <- corners(rej_dist(c0, Ye))
  Ybd <- cbind(cos(sb) * zs[1] + sin(sb) * (cos(ph) * e1[1] + sin(ph) * e2[1]),
               cos(sb) * zs[2] + sin(sb) * (cos(ph) * e1[2] + sin(ph) * e2[2]),
               cos(sb) * zs[3] + sin(sb) * (cos(ph) * e1[3] + sin(ph) * e2[3]))
  list(zs = zs, a = a, e1 = e1, e2 = e2, s_b = s_b, L = L, W = W, dist = rej_dist(c0, Y), nt = nt, nphi = nphi,
       lev_cdf = cell_cdf(pmin(cl$lo, L), pmax(cl$hi, L), as.vector(W)),
       dist_cdf = cell_cdf(pmin(cd$lo, rej_dist(c0, Y)), pmax(cd$hi, rej_dist(c0, Y)), as.vector(W)),
       boundary_level = min(grad_norms(Ybd, X)) / sigma)
}
# equal-probability bins: sectors of phi, then rings of t within each sector
s2_bins <- function(q, ns = 10L, nr = 10L) {
  mphi <- colSums(q$W)
  pe <- seq(0, 2 * pi, length.out = q$nphi + 1L)
  cphi <- c(0, cumsum(mphi)) / sum(mphi)
  sec <- stats::approx(cphi, pe, (0:ns) / ns, ties = "ordered")$y
  sec[1] <- 0
  sec[ns + 1] <- 2 * pi
  te <- (0:q$nt) / q$nt
  CT <- rbind(0, apply(q$W, 2, cumsum))   # (nt + 1) x nphi, at the t edges
  rings <- vector("list", ns)
  for (k in seq_len(ns)) {
    # share of each phi cell inside sector k
    f <- pmax(0, pmin(pe[-1], sec[k + 1]) - pmax(pe[-(q$nphi + 1)], sec[k])) / (2 * pi / q$nphi)
    ct <- drop(CT %*% f)
    ct <- ct / ct[length(ct)]
    rg <- stats::approx(ct, te, (0:nr) / nr, ties = "ordered")$y
    rg[1] <- 0
    rg[nr + 1] <- 1
    rings[[k]] <- rg
  }
  list(sec = sec, rings = rings, ns = ns, nr = nr)
}
s2_bin_of <- function(q, b, D) {
  s <- rej_dist(q$zs, D)
  V <- D - outer(drop(D %*% q$zs), q$zs)
  phi <- atan2(drop(V %*% q$e2), drop(V %*% q$e1)) %% (2 * pi)
  t <- pmin(1, (s / q$s_b(phi))^(1 / 3))
  k <- pmin(b$ns, findInterval(phi, b$sec, rightmost.closed = TRUE))
  j <- integer(length(t))
  for (kk in seq_len(b$ns)) {
    sel <- k == kk
    j[sel] <- pmin(b$nr, findInterval(t[sel], b$rings[[kk]], rightmost.closed = TRUE))
  }
  (k - 1L) * b$nr + j
}
s2_tests <- function(X, D, c0, r, sigma) {
  q <- s2_quad(X, c0, r, sigma, 400L, 360L)
  qc <- s2_quad(X, c0, r, sigma, 200L, 180L)
  lev_cdf <- q$lev_cdf
  dist_cdf <- q$dist_cdf
  b <- s2_bins(q)
  # quadrature error estimate: the coarse grid's CDFs and bin masses
  lev_c <- qc$lev_cdf
  dist_c <- qc$dist_cdf
  xl <- stats::quantile(q$L, seq(0.001, 0.999, length.out = 400), names = FALSE)
  xd <- seq(0, r, length.out = 400)
  err <- max(abs(lev_cdf(xl) - lev_c(xl)), abs(dist_cdf(xd) - dist_c(xd)))
  L <- grad_norms(D, X) / sigma
  counts <- tabulate(s2_bin_of(q, b, D), b$ns * b$nr)
  # bins of the coarse grid: the largest relative change of a bin's count
  counts_c <- tabulate(s2_bin_of(qc, s2_bins(qc), D), b$ns * b$nr)
  list(p_level = ks_p(L, lev_cdf), p_chisq = stats::chisq.test(counts)$p.value, p_angle = NA_real_,
       p_dist = ks_p(rej_dist(c0, D), dist_cdf), boundary_level = q$boundary_level,
       quad_err = err, bin_err = max(abs(counts - counts_c)) / (nrow(D) / (b$ns * b$nr)), min_expected = nrow(D) / (b$ns * b$nr))
}

run_cell <- function(d, n, eps, kind, seed, K) {
  M <- manifold_sphere(d)
  c0 <- c(rep(0, d), 1)
  r <- pi / 8
  pl <- riemdp:::kng_rejection_plan(M, n, eps, r)
  set.seed(seed)
  X <- rej_layout(kind, n, c0, r)
  dr <- draw_cell(M, X, c0, r, pl, K)
  t0 <- proc.time()
  tst <- if (d == 1L) s1_tests(X, dr$D, r, pl$sigma) else s2_tests(X, dr$D, c0, r, pl$sigma)
  tq <- proc.time() - t0
  data.frame(manifold = paste0("S^", d), n = n, epsilon = eps, layout = kind, seed = seed, K = K,
             sigma = pl$sigma, r_over_sigma = r / pl$sigma, boundary_level = tst$boundary_level,
             truncated = tst$boundary_level < 10, p_level = tst$p_level, p_chisq = tst$p_chisq,
             p_angle = tst$p_angle, p_dist = tst$p_dist, min_expected = tst$min_expected,
             quad_err = tst$quad_err, bin_err = if (is.null(tst$bin_err)) NA_real_ else tst$bin_err,
             accept_obs = dr$acc, a_min = pl$a_min, N = pl$N, passes = pl$passes,
             passes_ok = dr$passes_ok, not_found = dr$not_found,
             seconds_draws = dr$cpu, seconds_quad = tq[["user.self"]] + tq[["sys.self"]])
}

grid <- expand.grid(layout = rej_layouts, epsilon = c(0.5, 2, 20), n = c(12L, 200L), d = 1:2,
                    stringsAsFactors = FALSE)
rows <- vector("list", nrow(grid))
for (i in seq_len(nrow(grid))) {
  g <- grid[i, ]
  rows[[i]] <- run_cell(g$d, g$n, g$epsilon, g$layout, base_seed + i, K)
  rows[[i]]$run <- "grid"
  message(sprintf("[%2d/%d] S^%d n=%d eps=%g %-8s p: level %.3f chisq %.3f %s %.3f  (%.0f s)", i, nrow(grid), g$d,
                  g$n, g$epsilon, g$layout, rows[[i]]$p_level, rows[[i]]$p_chisq, if (g$d == 1) "angle" else "dist",
                  if (g$d == 1) rows[[i]]$p_angle else rows[[i]]$p_dist, rows[[i]]$seconds_draws))
}
res <- do.call(rbind, rows)

# cells with a p-value below 0.001 are re-run once with another seed; both reported
pcols <- c("p_level", "p_chisq", "p_angle", "p_dist")
low <- which(apply(res[, pcols], 1, function(p) min(p, na.rm = TRUE)) < 0.001)
reruns <- lapply(low, function(i) {
  g <- grid[i, ]
  x <- run_cell(g$d, g$n, g$epsilon, g$layout, base_seed + 1000L + i, K)
  x$run <- "rerun"
  x
})
all_rows <- if (length(reruns)) rbind(res, do.call(rbind, reruns)) else res
utils::write.csv(all_rows, out_csv, row.names = FALSE)

show <- res
show$p_3 <- ifelse(is.na(show$p_angle), show$p_dist, show$p_angle)
fmt <- data.frame(manifold = show$manifold, n = show$n, eps = show$epsilon, layout = show$layout,
                  r_sig = signif(show$r_over_sigma, 3), bd_lev = signif(show$boundary_level, 3),
                  trunc = show$truncated, p_level = round(show$p_level, 4), p_chisq = round(show$p_chisq, 4),
                  p_ang_dist = round(show$p_3, 4), acc = round(show$accept_obs, 4), a_min = round(show$a_min, 4),
                  quad_err = signif(show$quad_err, 2), secs = round(show$seconds_draws, 1))
cat("Per cell (p_ang_dist: KS of the angle on S^1, of d(c, z) on S^2; bd_lev: smallest |G|/sigma on the\n")
cat("ball's boundary; trunc = bd_lev < 10, the ball truncates the law and the tests are of its shape):\n")
print(fmt, row.names = FALSE)
cat(sprintf("\nTruncated cells: %d of %d (the others: the law is numerically inside the ball)\n",
            sum(res$truncated), nrow(res)))
cat(sprintf("Largest quadrature error estimate (fine vs coarse CDF, S^1: closed-form checks): %.2g; S^2 bins vs the coarse grid's, max relative change of a bin's count: %.2g\n",
            max(res$quad_err), max(res$bin_err, na.rm = TRUE)))
cat(sprintf("Acceptance: min observed / a_min = %.3f; failures (no proposal accepted): %d; gradient passes = plan$passes in all cells: %s\n",
            min(res$accept_obs / res$a_min), sum(res$not_found), all(res$passes_ok)))
cat(sprintf("Smallest expected count in a chi-square bin: %g\n", min(res$min_expected)))

p <- unlist(lapply(pcols, function(k) res[[k]]))
p <- p[!is.na(p)]
cat(sprintf("\nUniformity of the grid's %d p-values (%d cells x 3 tests; the 3 tests of a cell are dependent):\n",
            length(p), nrow(res)))
cat(sprintf("  KS against U(0,1): D = %.4f, p = %.4f\n", stats::ks.test(p, "punif")$statistic,
            stats::ks.test(p, "punif")$p.value))
cat(sprintf("  below 0.01: %d (expected %.2f; P(X >= %d) = %.3f for Binomial(%d, 0.01))\n", sum(p < 0.01),
            0.01 * length(p), sum(p < 0.01), stats::pbinom(sum(p < 0.01) - 1, length(p), 0.01, lower.tail = FALSE),
            length(p)))
cat(sprintf("  below 0.05: %d (expected %.2f)\n", sum(p < 0.05), 0.05 * length(p)))
for (k in pcols) {
  pk <- res[[k]][!is.na(res[[k]])]
  if (length(pk)) cat(sprintf("  %-8s %2d values: KS p = %.4f, min = %.4f\n", k, length(pk),
                              stats::ks.test(pk, "punif")$p.value, min(pk)))
}
cat("  deciles of all p-values:", format(round(stats::quantile(p, (1:9) / 10), 3)), "\n")
w <- which.min(apply(res[, pcols], 1, function(x) min(x, na.rm = TRUE)))
cat(sprintf("  worst cell: %s n = %d epsilon = %g %s (seed %d): p_level %.4f, p_chisq %.4f, p_%s %.4f\n",
            res$manifold[w], res$n[w], res$epsilon[w], res$layout[w], res$seed[w], res$p_level[w], res$p_chisq[w],
            if (res$manifold[w] == "S^1") "angle" else "dist",
            if (res$manifold[w] == "S^1") res$p_angle[w] else res$p_dist[w]))
if (length(reruns)) {
  cat("\nRe-runs of the cells with a p-value below 0.001 (another seed):\n")
  rr <- do.call(rbind, reruns)
  print(rr[, c("manifold", "n", "epsilon", "layout", "seed", "p_level", "p_chisq", "p_angle", "p_dist")], row.names = FALSE)
} else cat("\nNo cell had a p-value below 0.001; no re-runs.\n")
tt <- proc.time() - t_start
cat(sprintf("\nTotal: %d cells, %g releases, CPU %.0f s (draws %.0f s)\n", nrow(res), sum(res$K),
            tt[["user.self"]] + tt[["sys.self"]], sum(res$seconds_draws)))

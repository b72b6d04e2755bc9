## Benchmark: riemdp's samplers (methods article, "Samplers") against plain R.
##
## Run from the package root with the package installed:
##     Rscript bench/sampling.R
## Uses only base R (system.time / proc.time); everything is fixed by
## set.seed(). Every time is the median of several repetitions (elapsed).
## Total runtime: about 30-60 seconds.
##
## (a) exact draws on manifold_sphere(2): riem_rlaplace / riem_rgaussian,
##     10^6 draws per call, draws per second;
## (b) the same laws drawn by plain R, (i) vectorised: radial rejection from
##     the flat proposal (sigma * Gamma(2) for Laplace, sigma * chi_2 for
##     Gaussian) accepted with probability sin(r)/r, uniform azimuth; and
##     (ii) one draw at a time in an R loop (timed on 2 * 10^4 draws, scaled);
##     a two-sample Kolmogorov-Smirnov test checks that riemdp and plain R
##     draw the same law (radius r = dist(eta, x) and the first coordinate);
## (c) Metropolis-Hastings steps per second for the K-norm gradient (KNG)
##     target of dp_frechet_mean() with n = 20 and n = 100 points in
##     B_{pi/8}(north pole), against a plain-R MH loop for the same target;
## (d) high dimension: Metropolis-Hastings steps per second for the Gaussian
##     law on manifold_sphere(300) (the proposal draws an isotropic tangent
##     Gaussian without a basis: O(d) per step, was O(d^2)) against a plain-R
##     loop, and the time and peak memory of one exact draw on
##     manifold_sphere(30000) in a child R process (Linux: VmHWM).

suppressPackageStartupMessages(library(riemdp))
options(width = 160)
t_start <- proc.time()[["elapsed"]]
set.seed(20240501)

## ---------------------------------------------------------------------------
## Timing helper: median over `reps` measurements of one call of f(), seconds.
## ---------------------------------------------------------------------------
time_median <- function(f, reps = 5L) {
  f()                                         # warm up
  ts <- numeric(reps)
  for (r in seq_len(reps)) {
    invisible(gc(verbose = FALSE))
    ts[r] <- system.time(f(), gcFirst = FALSE)[["elapsed"]]
  }
  stats::median(ts)
}

S2 <- manifold_sphere(2)
north <- c(0, 0, 1)
sigma <- 0.3        # rate of the laws in (a)-(b)
n_draw <- 1e6L

## ---------------------------------------------------------------------------
## Plain-R samplers on S^2 with footprint the north pole
## ---------------------------------------------------------------------------
## radial law: density of r = dist(eta, x) on [0, pi] is
##   Laplace:  exp(-r/sigma) sin r,   Gaussian: exp(-r^2/(2 sigma^2)) sin r.
## Proposal with density prop. to r * k(r) on [0, Inf): sigma * Gamma(2) or
## sigma * chi_2; accept with probability sin(r)/r (<= 1), r < pi.
pr_radial_proposal <- function(m, kernel, sigma) {
  if (kernel == "laplace") sigma * stats::rgamma(m, shape = 2)
  else sigma * sqrt(stats::rchisq(m, df = 2))
}
pr_radial <- function(n, kernel, sigma) {
  out <- numeric(0)
  while (length(out) < n) {
    m <- ceiling(1.2 * (n - length(out))) + 100L
    r <- pr_radial_proposal(m, kernel, sigma)
    keep <- r < pi & stats::runif(m) * r < sin(r)
    out <- c(out, r[keep])
  }
  out[seq_len(n)]
}
## points Exp_north(r u), u uniform on the unit circle of T_north S^2
pr_sphere_points <- function(r, phi) {
  s <- sin(r)
  cbind(s * cos(phi), s * sin(phi), cos(r))
}
pr_sample_vec <- function(n, kernel, sigma) {
  r <- pr_radial(n, kernel, sigma)
  pr_sphere_points(r, stats::runif(n, 0, 2 * pi))
}
## one draw at a time (an R loop over draws)
pr_sample_loop <- function(n, kernel, sigma) {
  out <- matrix(0, n, 3)
  for (i in seq_len(n)) {
    repeat {
      r <- if (kernel == "laplace") sigma * stats::rgamma(1L, shape = 2)
           else sigma * sqrt(stats::rchisq(1L, df = 2))
      if (r < pi && stats::runif(1L) * r < sin(r)) break
    }
    phi <- stats::runif(1L, 0, 2 * pi)
    s <- sin(r)
    out[i, ] <- c(s * cos(phi), s * sin(phi), cos(r))
  }
  out
}
pr_dist_north <- function(X) atan2(sqrt(X[, 1]^2 + X[, 2]^2), X[, 3])

## ---------------------------------------------------------------------------
## (a) + (b): exact draws
## ---------------------------------------------------------------------------
n_loop <- 2e4L
draw_rows <- list()
ks_rows <- list()
for (kernel in c("laplace", "gaussian")) {
  rfun <- if (kernel == "laplace") riem_rlaplace else riem_rgaussian
  cat(sprintf("(a-b) %s law on S^2, sigma = %g, %g draws per call\n", kernel, sigma, n_draw))
  x_pkg <- rfun(S2, n_draw, north, sigma)
  stopifnot(identical(attr(x_pkg, "method"), "exact"))
  x_pr <- pr_sample_vec(n_draw, kernel, sigma)
  ks_r <- suppressWarnings(stats::ks.test(riem_dist(S2, north, x_pkg), pr_dist_north(x_pr)))
  ks_x <- suppressWarnings(stats::ks.test(x_pkg[, 1], x_pr[, 1]))
  ks_rows[[kernel]] <- data.frame(law = kernel, draws_each = n_draw,
                                  ks_D_radius = signif(ks_r$statistic, 3), p_radius = signif(ks_r$p.value, 3),
                                  ks_D_x1 = signif(ks_x$statistic, 3), p_x1 = signif(ks_x$p.value, 3))
  rm(x_pkg, x_pr)
  t_pkg <- time_median(function() rfun(S2, n_draw, north, sigma), reps = 7L)
  t_vec <- time_median(function() pr_sample_vec(n_draw, kernel, sigma), reps = 5L)
  t_loop <- time_median(function() pr_sample_loop(n_loop, kernel, sigma), reps = 3L) * (n_draw / n_loop)
  fn <- if (kernel == "laplace") "riem_rlaplace" else "riem_rgaussian"
  draw_rows[[length(draw_rows) + 1L]] <- list(
    task = sprintf("(a) %s S^2 exact, draws/s [vs R loop, 1 draw at a time]", fn),
    pkg = n_draw / t_pkg, pr = n_draw / t_loop, target = ">= 5e6/s; >= 50x",
    met = c(n_draw / t_pkg >= 5e6, t_loop / t_pkg >= 50))
  draw_rows[[length(draw_rows) + 1L]] <- list(
    task = sprintf("(a) %s S^2 exact, draws/s [vs vectorised R rejection]", fn),
    pkg = n_draw / t_pkg, pr = n_draw / t_vec, target = ">= 5e6/s; >= 50x",
    met = c(n_draw / t_pkg >= 5e6, t_vec / t_pkg >= 50))
}

## ---------------------------------------------------------------------------
## (c) KNG Metropolis-Hastings steps per second
## ---------------------------------------------------------------------------
## data as in Reimherr et al. (2021), suppl. A.3.1: polar angle uniform on
## [0, pi/8] around the north pole, azimuth uniform
radius <- pi / 8
sim_cap <- function(n) pr_sphere_points(stats::runif(n, 0, radius), stats::runif(n, 0, 2 * pi))

## plain-R KNG chain: target exp(-|mean_i Log_x(x_i)| / s) on B_radius(north),
## proposal Exp_x(v), v ~ N(0, step^2 I) in T_x S^2, fixed step
pr_log <- function(p, Q) {                   # Log_p(q) for the rows q of Q
  ip <- drop(Q %*% p)
  W <- Q - outer(ip, p)
  nw <- sqrt(rowSums(W^2))
  W * ifelse(nw > 0, atan2(nw, ip) / nw, 0)
}
pr_exp <- function(p, v) {
  nv <- sqrt(sum(v^2))
  if (nv == 0) return(p)
  x <- cos(nv) * p + (sin(nv) / nv) * v
  x / sqrt(sum(x^2))
}
pr_kng_chain <- function(X, s, n_iter, step) {
  x <- north
  lp <- -sqrt(sum(colMeans(pr_log(x, X))^2)) / s
  for (it in seq_len(n_iter)) {
    z <- stats::rnorm(3, sd = step)
    v <- z - sum(z * x) * x                  # N(0, step^2 I) on the tangent plane
    y <- pr_exp(x, v)
    if (atan2(sqrt(y[1]^2 + y[2]^2), y[3]) >= radius) next
    lq <- -sqrt(sum(colMeans(pr_log(y, X))^2)) / s
    if (log(stats::runif(1L)) < lq - lp) { x <- y; lp <- lq }
  }
  x
}

n_iter_kng <- 1e6L
burn_kng <- 1000L
n_iter_pr <- 2e4L
kng_rows <- list()
for (n in c(20L, 100L)) {
  X <- sim_cap(n)
  ctl <- mcmc_control(n_iter = n_iter_kng, burn_in = burn_kng)
  rel <- dp_frechet_mean(S2, X, epsilon = 1, radius = radius, center = north,
                         mechanism = "kng", control = ctl)
  s_kng <- rel$sigma
  t_pkg <- time_median(function()
    dp_frechet_mean(S2, X, epsilon = 1, radius = radius, center = north,
                    mechanism = "kng", control = ctl), reps = 3L)
  t_pr <- time_median(function() pr_kng_chain(X, s_kng, n_iter_pr, step = s_kng), reps = 3L)
  steps_pkg <- (n_iter_kng + burn_kng) / t_pkg
  steps_pr <- n_iter_pr / t_pr
  kng_rows[[length(kng_rows) + 1L]] <- list(
    task = sprintf("(c) KNG dp_frechet_mean S^2, n = %d, MH steps/s [vs R loop]", n),
    pkg = steps_pkg, pr = steps_pr,
    target = if (n == 20L) ">= 1e6/s" else "(none)",
    met = if (n == 20L) steps_pkg >= 1e6 else NA)
}

## ---------------------------------------------------------------------------
## (d) High dimension: MH steps per second on S^300, one exact draw on S^30000
## ---------------------------------------------------------------------------
d_hi <- 300L
S_hi <- manifold_sphere(d_hi)
eta_hi <- c(1, numeric(d_hi))
sigma_hi <- 0.1
step_hi <- 0.006                           # ~ sigma / sqrt(d): acceptance ~0.7
n_mh_hi <- 2e5L
## plain-R chain for the same target exp(-d(eta, x)^2 / (2 sigma^2)),
## proposal Exp_x(v), v the tangent projection of N(0, step^2 I)
pr_mh_sphere <- function(n_iter, step) {
  x <- eta_hi
  lx <- 0
  for (it in seq_len(n_iter)) {
    z <- stats::rnorm(d_hi + 1L, sd = step)
    v <- z - sum(z * x) * x
    nv <- sqrt(sum(v^2))
    y <- cos(nv) * x + (sin(nv) / nv) * v
    y <- y / sqrt(sum(y^2))
    r <- 2 * atan2(sqrt(sum((y - eta_hi)^2)), sqrt(sum((y + eta_hi)^2)))
    ly <- -r^2 / (2 * sigma_hi^2)
    if (log(stats::runif(1L)) < ly - lx) { x <- y; lx <- ly }
  }
  x
}
ctl_hi <- mcmc_control(burn_in = 0L, thin = n_mh_hi, step = step_hi, adapt = FALSE)
t_mh_hi <- time_median(function() riem_rgaussian(S_hi, 1L, eta_hi, sigma_hi, method = "mh", control = ctl_hi), reps = 3L)
acc_hi <- attr(riem_rgaussian(S_hi, 1L, eta_hi, sigma_hi, method = "mh", control = ctl_hi), "acceptance")
n_pr_hi <- 2e4L
t_pr_hi <- time_median(function() pr_mh_sphere(n_pr_hi, step_hi), reps = 3L)
hi_rows <- list(list(
  task = sprintf("(d) MH riem_rgaussian S^%d, steps/s (acceptance %.2f) [vs R loop]", d_hi, acc_hi),
  pkg = n_mh_hi / t_mh_hi, pr = n_pr_hi / t_pr_hi, target = "(none)", met = NA))

## one exact draw on S^30000 in a child process: elapsed time and peak RSS
d_huge <- 30000L
child <- sprintf(paste(
  "suppressPackageStartupMessages(library(riemdp, lib.loc = %s)); set.seed(1);",
  "t <- system.time(x <- riem_rgaussian(manifold_sphere(%d), 1, c(1, numeric(%d)), 0.1))[['elapsed']];",
  "hwm <- if (file.exists('/proc/self/status')) sub('^VmHWM:\\\\s*', '', grep('^VmHWM', readLines('/proc/self/status'), value = TRUE)) else 'NA';",
  "cat(t, hwm, '\\n')"), deparse(dirname(system.file(package = "riemdp"))), d_huge, d_huge)
huge <- tryCatch(system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(child)), stdout = TRUE),
                 error = function(e) NA_character_)
huge <- strsplit(trimws(huge[length(huge)]), " +")[[1]]

## ---------------------------------------------------------------------------
## Tables
## ---------------------------------------------------------------------------
rows <- c(draw_rows, kng_rows, hi_rows)
fmt_rate <- function(x) formatC(x, format = "e", digits = 2)
tab <- data.frame(
  task = vapply(rows, `[[`, "", "task"),
  riemdp = vapply(rows, function(r) fmt_rate(r$pkg), ""),
  plain_R = vapply(rows, function(r) fmt_rate(r$pr), ""),
  ratio = vapply(rows, function(r) sprintf("%.1fx", r$pkg / r$pr), ""),
  target = vapply(rows, `[[`, "", "target"),
  met = vapply(rows, function(r)
    if (all(is.na(r$met))) "-" else paste(ifelse(r$met, "met", "MISSED"), collapse = "; "), ""),
  stringsAsFactors = FALSE
)
cat("\nSame law? Two-sample Kolmogorov-Smirnov tests, riemdp against plain R (vectorised),\n")
cat("on the radius r = dist(north, x) and on the first coordinate x_1:\n")
print(do.call(rbind, ks_rows), row.names = FALSE)
cat("\nRates (higher is better); ratio = riemdp / plain R:\n")
print(tab, right = FALSE, row.names = FALSE)
cat(sprintf("\nsigma = %g in (a)-(b); KNG: epsilon = 1, radius pi/8, %d + %d burn-in iterations per call (riemdp), %d (plain R).\n",
            sigma, n_iter_kng, burn_kng, n_iter_pr))
cat(sprintf("(d) one exact draw on manifold_sphere(%d): %s s elapsed, peak resident memory of the R process %s %s.\n",
            d_huge, huge[1], if (length(huge) >= 2) huge[2] else "NA", if (length(huge) >= 3) huge[3] else ""))
cat(sprintf("riemdp %s, %s, %s; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")), R.version.string,
            Sys.info()[["machine"]]))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))

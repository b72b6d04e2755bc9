## Benchmark: Gaussian differential privacy accounting (Jiang, Chang, Liu,
## Ding, Kong and Jiang 2023) -- issue 9, "Vignette and speed".
##
## Run from the package root with the package installed:
##     Rscript bench/gdp.R
## Uses only base R (system.time / proc.time); everything is fixed by
## set.seed(). Times are medians of repeated runs (elapsed), measured
## interleaved (f1, f2, ..., f1, f2, ...) so that a change in the machine's
## load affects every contender alike. Total runtime: under a minute.
##
## Timed:
## (a) gdp_mu(S^2, sigma = 0.5, Delta = 1) by method "algorithm2" (the paper's
##     estimator as published) and "monte_carlo" (the change-of-measure
##     estimator, methods article, "Gaussian DP accounting"), both with n = 1000, m = 100, n_epsilon = 1000,
##     against a plain-R Algorithm 2 written below from the paper's
##     pseudo-code (Algorithm 2, steps 1-10; the pair eta, eta' of its
##     Appendix A.6), in three versions:
##       "exact + sort": Riemannian Gaussian draws by an exact vectorised
##         rejection sampler (r from the Rayleigh law, i.e. sigma * chi_2, the
##         flat-space radial law, accepted with probability sin(r)/r on
##         [0, pi]; direction uniform on the circle of T_eta S^2); the m
##         replicates in an R loop of whole-vector operations; the 1000
##         indicator sums per replicate from one sort() and findInterval();
##         mu_eps for all eps by one vectorised bisection. This is the careful
##         user's version (reported, not the target's reference).
##       "exact + outer": the same, with the indicator sums written literally
##         as colSums(outer(d, 2 sigma^2 eps, ">=")) (n x n_eps per replicate),
##         as the pseudo-code states them. The speed target (>= 100x) is
##         measured against this version.
##       "MH + sort": the draws by the Metropolis-Hastings chain of Jiang et
##         al. (2023), Sec. 4.1 (exponentially wrapped Gaussian proposal with sd sigma,
##         one chain of 1000 burn-in + n steps per replicate and footprint, an
##         R loop over steps). This is what a user following the paper's
##         Sec. 4.1 writes; timed once (it is slow).
##     Before timing, the plain-R "exact + sort" estimate is checked against
##     riemdp's algorithm2 (same estimator, same grid): 20 replicates of each,
##     means within 3.5 standard errors of the difference; and the plain-R
##     samplers' radial laws by Kolmogorov-Smirnov tests against the
##     numerically integrated radial CDF.
## (b) gdp_mu(..., method = "quadrature") per sigma, sigma = k/4, k = 1..16,
##     Delta = 1, on sphere(2) and hyperbolic(2).
## (c) gdp_sigma(M, mu = 1, sensitivity = 1) on sphere(2) and hyperbolic(2).
## Targets (issue 9): algorithm2 >= 100x faster than the plain-R pseudo-code
## version ("exact + outer") and
## < 0.5 s; quadrature < 20 ms per sigma; gdp_sigma < 0.2 s. The checks use
## elapsed time; CPU time (user + system) is printed beside it, since the
## machine is shared (the load average is printed too). (For scale, not
## measured here: the authors' published R code is said to take about 200 s
## for one Algorithm 2 call at sigma = 0.5 on S^2 on this machine.)

suppressPackageStartupMessages(library(riemdp))
options(width = 160)
t_start <- proc.time()[["elapsed"]]
set.seed(20240901)

## ---------------------------------------------------------------------------
## Timing helpers: medians of `reps` measurements, seconds.
## ---------------------------------------------------------------------------
## `inner` calls per measurement (divided out) for calls of a few ms, where
## system.time()'s 1 ms resolution would dominate.
## Returns the median elapsed times; attribute "cpu" holds the medians of the
## CPU time (user + system) of the same runs, which a loaded machine inflates
## less for single-threaded code.
time_interleaved <- function(fs, reps = 5L, inner = 1L) {
  for (f in fs) f()                           # warm up
  ts <- cs <- matrix(0, reps, length(fs))
  for (r in seq_len(reps))
    for (k in seq_along(fs)) {
      invisible(gc(verbose = FALSE))
      st <- system.time(for (i in seq_len(inner)) fs[[k]](), gcFirst = FALSE)
      ts[r, k] <- st[["elapsed"]] / inner
      cs[r, k] <- (st[["user.self"]] + st[["sys.self"]]) / inner
    }
  structure(stats::setNames(apply(ts, 2L, stats::median), names(fs)),
            cpu = stats::setNames(apply(cs, 2L, stats::median), names(fs)))
}
## One-minute load average (Linux), printed with the results: the machine is
## shared, and a load above its core count slows every contender alike.
load_avg <- function() {
  if (!file.exists("/proc/loadavg")) return(NA_real_)
  as.numeric(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1])
}
load_start <- load_avg()
time_once <- function(f) {
  invisible(gc(verbose = FALSE))
  st <- system.time(f(), gcFirst = FALSE)
  structure(st[["elapsed"]], cpu = st[["user.self"]] + st[["sys.self"]])
}

## ---------------------------------------------------------------------------
## Plain-R Algorithm 2 on S^2 (no riemdp inside)
## ---------------------------------------------------------------------------
pr_delta <- function(eps, mu)
  stats::pnorm(-eps / mu + mu / 2) - exp(eps + stats::pnorm(-eps / mu - mu / 2, log.p = TRUE))

## delta_mu(eps) increases in mu from 0 (mu -> 0) to 1 (mu -> Inf): bisect on
## [0, 64] for every eps together; l <= 0 gives mu_eps = 0. The upper end of
## the bracket is returned (mu rounded up).
pr_mu_eps <- function(l, eps, iter = 60L) {
  lo <- numeric(length(l))
  hi <- rep(64, length(l))
  for (it in seq_len(iter)) {
    mid <- (lo + hi) / 2
    up <- pr_delta(eps, mid) >= l
    hi[up] <- mid[up]
    lo[!up] <- mid[!up]
  }
  ifelse(l <= 0, 0, hi)
}

## Orthonormal basis (e1, e2) of the tangent plane at the unit vector eta.
pr_tangent_basis <- function(eta) {
  a <- if (abs(eta[1]) < 0.9) c(1, 0, 0) else c(0, 1, 0)
  e1 <- a - sum(a * eta) * eta
  e1 <- e1 / sqrt(sum(e1^2))
  e2 <- c(eta[2] * e1[3] - eta[3] * e1[2], eta[3] * e1[1] - eta[1] * e1[3],
          eta[1] * e1[2] - eta[2] * e1[1])
  list(e1 = e1, e2 = e2)
}

## Exact sampler: r = d(eta, y) has density prop. to exp(-r^2/(2 sigma^2)) sin r
## on [0, pi]. Propose r from the Rayleigh law (density prop. to
## r exp(-r^2/(2 sigma^2)), r = sigma sqrt(-2 log U)) and accept with
## probability sin(r)/r on [0, pi] (0 beyond): exact, vectorised, topped up
## until n draws are accepted. The direction is uniform on the unit circle of
## T_eta S^2, y = cos(r) eta + sin(r) u. Returns an n x 3 matrix.
pr_rgauss_s2 <- function(n, eta, sigma) {
  r <- numeric(0)
  while (length(r) < n) {
    k <- ceiling(1.2 * (n - length(r))) + 10L
    prop <- sigma * sqrt(-2 * log(stats::runif(k)))
    keep <- prop < pi & stats::runif(k) * prop <= sin(prop)
    r <- c(r, prop[keep])
  }
  r <- r[seq_len(n)]
  th <- stats::runif(n, 0, 2 * pi)
  B <- pr_tangent_basis(eta)
  u <- outer(cos(th), B$e1) + outer(sin(th), B$e2)
  cos(r) * matrix(eta, n, 3L, byrow = TRUE) + sin(r) * u
}

## Jiang et al. (2023), Sec. 4.1: random-walk Metropolis-Hastings with the exponentially
## wrapped Gaussian proposal y = Exp_x(v), v ~ N(0, s^2 I) on T_x S^2 (an
## ambient N(0, s^2 I) vector projected onto T_x), rejected if |v| >= pi;
## accept with probability min(1, p(y)/p(x)) (the proposal is symmetric).
## One chain of burn_in + n steps started at eta, every state kept after
## burn-in. The loop over steps is an R loop (a chain is sequential); the
## uniforms and normals are drawn in bulk beforehand.
pr_rgauss_s2_mh <- function(n, eta, sigma, s = sigma, burn_in = 1000L) {
  N <- burn_in + n
  G <- matrix(stats::rnorm(3L * N, sd = s), N, 3L)
  U <- log(stats::runif(N))
  out <- matrix(0, n, 3L)
  x <- eta
  lp <- 0                                    # -d(eta, x)^2 / (2 sigma^2)
  for (t in seq_len(N)) {
    v <- G[t, ] - sum(G[t, ] * x) * x
    nv <- sqrt(sum(v^2))
    if (nv > 0 && nv < pi) {
      y <- cos(nv) * x + (sin(nv) / nv) * v
      y <- y / sqrt(sum(y^2))
      lq <- -acos(min(1, max(-1, sum(y * eta))))^2 / (2 * sigma^2)
      if (U[t] < lq - lp) {
        x <- y
        lp <- lq
      }
    }
    if (t > burn_in) out[t - burn_in, ] <- x
  }
  out
}

pr_dist_s2 <- function(p, Y) acos(pmin(1, pmax(-1, drop(Y %*% p))))

## Algorithm 2 (Jiang et al. 2023), steps 1-10, on S^2: eta = (1, 0, 0),
## eta' = (cos Delta, sin Delta, 0) (the pair of its Appendix A.6); for each
## j = 1..m, n draws about eta and n about eta', d_ij = d(eta', y)^2 -
## d(eta, y)^2, and on the grid eps = k, 2k, ..., n_eps k (k = eps_max/n_eps)
##     l_eps^(j) = #{d_ij >= 2 sigma^2 eps}/n - e^eps #{d'_ij >= 2 sigma^2 eps}/n;
## l_eps = mean_j l_eps^(j), mu_eps from delta_mu(eps) = l_eps, mu = max.
## The counts #{d >= t} for all 1000 thresholds t: `count = "sort"` sorts
## d_.j once and reads every threshold with findInterval() (the careful
## version: O(n log n + n_eps log n) per j); `count = "outer"` is the
## literal colSums(outer(d, t, ">=")) (O(n n_eps) per j).
## `sampler`: "exact" (pr_rgauss_s2) or "mh" (pr_rgauss_s2_mh, one chain
## per j and footprint, as a user following Sec. 4.1 would run it).
pr_algorithm2_s2 <- function(sigma, Delta, n = 1000L, m = 100L, n_eps = 1000L, eps_max,
                             sampler = c("exact", "mh"), count = c("sort", "outer")) {
  sampler <- match.arg(sampler)
  count <- match.arg(count)
  draw <- if (sampler == "exact") pr_rgauss_s2 else pr_rgauss_s2_mh
  eta <- c(1, 0, 0)
  eta2 <- c(cos(Delta), sin(Delta), 0)
  eps <- (eps_max / n_eps) * seq_len(n_eps)
  thr <- 2 * sigma^2 * eps
  n_ge <- if (count == "sort") {
    function(d) n - findInterval(thr, sort(d), left.open = TRUE)
  } else {
    function(d) colSums(outer(d, thr, ">="))
  }
  l <- numeric(n_eps)
  for (j in seq_len(m)) {
    Y1 <- draw(n, eta, sigma)
    Y2 <- draw(n, eta2, sigma)
    d1 <- pr_dist_s2(eta2, Y1)^2 - pr_dist_s2(eta, Y1)^2
    d2 <- pr_dist_s2(eta2, Y2)^2 - pr_dist_s2(eta, Y2)^2
    l <- l + (n_ge(d1) / n - exp(eps) * n_ge(d2) / n)
  }
  l <- l / m
  mu_eps <- pr_mu_eps(l, eps)
  list(mu = max(mu_eps), epsilon_sup = eps[which.max(mu_eps)], l = l, epsilon = eps)
}

## ---------------------------------------------------------------------------
## Settings
## ---------------------------------------------------------------------------
S2 <- manifold_sphere(2)
H2 <- manifold_hyperbolic(2)
sigma <- 0.5
Delta <- 1
n_mc <- 1000L
m_mc <- 100L
n_eps <- 1000L
ctl <- gdp_control(n = n_mc, m = m_mc, n_epsilon = n_eps)
## riemdp's eps_max for this case (its default), used by the plain-R version too
eps_max <- gdp_mu(S2, sigma, Delta, method = "algorithm2", control = ctl)$epsilon_max
pkg_alg2 <- function() gdp_mu(S2, sigma, Delta, method = "algorithm2", control = ctl)
pkg_mc <- function() gdp_mu(S2, sigma, Delta, method = "monte_carlo", control = ctl)
pr_sort <- function() pr_algorithm2_s2(sigma, Delta, n_mc, m_mc, n_eps, eps_max, "exact", "sort")
pr_outer <- function() pr_algorithm2_s2(sigma, Delta, n_mc, m_mc, n_eps, eps_max, "exact", "outer")
pr_mh <- function() pr_algorithm2_s2(sigma, Delta, n_mc, m_mc, n_eps, eps_max, "mh", "sort")

## ---------------------------------------------------------------------------
## Checks before timing
## ---------------------------------------------------------------------------
## Radial laws of the plain-R samplers: KS of d(eta, y) against the CDF of
## exp(-r^2/(2 sigma^2)) sin r on [0, pi] (integrated numerically).
rad <- function(r) exp(-r^2 / (2 * sigma^2)) * sin(r)
Z_rad <- stats::integrate(rad, 0, pi, rel.tol = 1e-10)$value
F_rad <- function(x) vapply(x, function(t) stats::integrate(rad, 0, min(t, pi), rel.tol = 1e-10)$value / Z_rad, 0)
eta0 <- c(0, 0, 1)
ks_exact <- stats::ks.test(pr_dist_s2(eta0, pr_rgauss_s2(2000L, eta0, sigma)), F_rad)$p.value
ks_mh <- stats::ks.test(pr_dist_s2(eta0, pr_rgauss_s2_mh(20000L, eta0, sigma))[seq(1L, 20000L, by = 20L)],
                        F_rad)$p.value
## The same estimator in plain R and in riemdp: 20 replicates each.
n_agree <- 20L
mu_pr <- vapply(seq_len(n_agree), function(i) pr_sort()$mu, 0)
mu_pkg <- vapply(seq_len(n_agree), function(i) as.numeric(pkg_alg2()), 0)
se_diff <- sqrt(stats::var(mu_pr) / n_agree + stats::var(mu_pkg) / n_agree)
z_agree <- (mean(mu_pr) - mean(mu_pkg)) / se_diff
ref_mc <- pkg_mc()
ref_quad <- gdp_mu(S2, sigma, Delta, method = "quadrature")

## ---------------------------------------------------------------------------
## (a) Algorithm 2 at n = 1000, m = 100, n_eps = 1000 on S^2
## ---------------------------------------------------------------------------
t_a <- time_interleaved(list(algorithm2 = pkg_alg2, monte_carlo = pkg_mc, pr_sort = pr_sort), reps = 7L)
t_outer <- time_interleaved(list(pr_outer = pr_outer), reps = 3L)
t_mh <- time_once(pr_mh)

## ---------------------------------------------------------------------------
## (b) Quadrature per sigma; (c) gdp_sigma
## ---------------------------------------------------------------------------
sigmas <- (1:16) / 4
quad_rows <- list()
quad_t <- list()
for (Mn in c("S2", "H2")) {
  M <- get(Mn)
  fs <- lapply(sigmas, function(s) { force(s); function() gdp_mu(M, s, Delta, method = "quadrature") })
  quad_t[[Mn]] <- time_interleaved(fs, reps = 5L, inner = 5L)
  quad_rows[[Mn]] <- vapply(sigmas, function(s) as.numeric(gdp_mu(M, s, Delta, method = "quadrature")), 0)
}
t_sig <- time_interleaved(list(S2 = function() gdp_sigma(S2, mu = 1, sensitivity = Delta),
                               H2 = function() gdp_sigma(H2, mu = 1, sensitivity = Delta)), reps = 5L)
sig_val <- list(S2 = gdp_sigma(S2, mu = 1, sensitivity = Delta), H2 = gdp_sigma(H2, mu = 1, sensitivity = Delta))

## ---------------------------------------------------------------------------
## Report
## ---------------------------------------------------------------------------
fmt_t <- function(x) if (x < 0.1) sprintf("%.1f ms", 1000 * x) else sprintf("%.3f s", x)
cat(sprintf("Plain-R samplers against the radial law (KS p-values): exact %.3f, MH (every 20th state) %.3f\n",
            ks_exact, ks_mh))
cat(sprintf(paste("Same estimate? Algorithm 2, S^2, sigma = %g, Delta = %g, n = %d, m = %d, n_eps = %d,",
                  "eps_max = %.4g, %d replicates each:\n"), sigma, Delta, n_mc, m_mc, n_eps, eps_max, n_agree))
cat(sprintf("  plain R: mean %.4f (range %.4f-%.4f); riemdp algorithm2: mean %.4f (range %.4f-%.4f); z = %.2f\n",
            mean(mu_pr), min(mu_pr), max(mu_pr), mean(mu_pkg), min(mu_pkg), max(mu_pkg), z_agree))
cat(sprintf("  for reference: monte_carlo %.4f (se %.4f), quadrature %.6f (the truth; algorithm2 is biased upward)\n",
            ref_mc$mu, ref_mc$se, ref_quad$mu))

cpu <- function(x, k = 1L) attr(x, "cpu")[[k]]
el_a <- c(t_a[["algorithm2"]], t_a[["monte_carlo"]], t_a[["pr_sort"]], t_outer[["pr_outer"]], t_mh)
cpu_a <- c(cpu(t_a, 1L), cpu(t_a, 2L), cpu(t_a, 3L), cpu(t_outer), cpu(t_mh))
tab_a <- data.frame(
  task = c("riemdp algorithm2", "riemdp monte_carlo", "plain R, exact + sort", "plain R, exact + outer",
           "plain R, MH + sort (1 run)"),
  elapsed = vapply(el_a, fmt_t, ""),
  "x algorithm2" = sprintf("%.1fx", el_a / el_a[1]),
  cpu = vapply(cpu_a, fmt_t, ""),
  "x algorithm2 (cpu)" = sprintf("%.1fx", cpu_a / cpu_a[1]),
  target = c("< 0.5 s; plain R (exact + outer) >= 100x", "", "", "", ""),
  check.names = FALSE, stringsAsFactors = FALSE)
cat(sprintf("\n(a) gdp_mu on sphere(2), sigma = %g, Delta = %g, n = %d, m = %d, n_epsilon = %d (medians of",
            sigma, Delta, n_mc, m_mc, n_eps), "elapsed and CPU time; \"x algorithm2\": time relative to riemdp's algorithm2):\n")
print(tab_a, right = FALSE, row.names = FALSE)

tab_b <- data.frame(sigma = sigmas,
                    "mu S^2" = sprintf("%.6f", quad_rows$S2), "elapsed S^2" = vapply(quad_t$S2, fmt_t, ""),
                    "cpu S^2" = vapply(attr(quad_t$S2, "cpu"), fmt_t, ""),
                    "mu H^2" = sprintf("%.6f", quad_rows$H2), "elapsed H^2" = vapply(quad_t$H2, fmt_t, ""),
                    "cpu H^2" = vapply(attr(quad_t$H2, "cpu"), fmt_t, ""),
                    check.names = FALSE)
cat("\n(b) gdp_mu(M, sigma, 1, method = \"quadrature\"), medians per sigma of 5 x 5 calls (target < 20 ms per sigma):\n")
print(tab_b, row.names = FALSE)

tab_c <- data.frame(manifold = c("sphere(2)", "hyperbolic(2)"),
                    sigma = sprintf("%.7f", c(sig_val$S2, sig_val$H2)),
                    "achieved mu" = sprintf("%.7f", c(as.numeric(gdp_mu(S2, as.numeric(sig_val$S2), Delta)),
                                                      as.numeric(gdp_mu(H2, as.numeric(sig_val$H2), Delta)))),
                    elapsed = c(fmt_t(t_sig[["S2"]]), fmt_t(t_sig[["H2"]])),
                    cpu = c(fmt_t(cpu(t_sig, 1L)), fmt_t(cpu(t_sig, 2L))),
                    target = "< 0.2 s", check.names = FALSE)
cat("\n(c) gdp_sigma(M, mu = 1, sensitivity = 1), medians:\n")
print(tab_c, right = FALSE, row.names = FALSE)

checks <- list()
checks[["plain-R samplers pass KS (p > 0.001)"]] <- ks_exact > 1e-3 && ks_mh > 1e-3
checks[["plain R and riemdp algorithm2 agree (|z| < 3.5)"]] <- abs(z_agree) < 3.5
checks[["(a) algorithm2 < 0.5 s"]] <- t_a[["algorithm2"]] < 0.5
checks[["(a) algorithm2 >= 100x plain R (exact + outer: the target)"]] <- t_outer[["pr_outer"]] / t_a[["algorithm2"]] >= 100
checks[["(a) algorithm2 >= 100x plain R (exact + sort: not the target)"]] <- t_a[["pr_sort"]] / t_a[["algorithm2"]] >= 100
checks[["(a) algorithm2 >= 100x plain R (MH + sort)"]] <- t_mh / t_a[["algorithm2"]] >= 100
checks[["(b) quadrature < 20 ms per sigma (every sigma, S^2 and H^2)"]] <- max(c(quad_t$S2, quad_t$H2)) < 0.02
checks[["(b) the same in CPU time"]] <- max(c(attr(quad_t$S2, "cpu"), attr(quad_t$H2, "cpu"))) < 0.02
checks[["(c) gdp_sigma < 0.2 s"]] <- max(t_sig) < 0.2
cat("\nChecks:\n")
for (nm in names(checks)) cat(sprintf("  %-62s %s\n", nm, if (checks[[nm]]) "met" else "MISSED"))
cat(sprintf("\nriemdp %s, %s, %s, %d cores; times are medians of repeated runs (elapsed).\n",
            as.character(utils::packageVersion("riemdp")), R.version.string, Sys.info()[["machine"]],
            parallel::detectCores()))
cat(sprintf("One-minute load average at start / end: %.2f / %.2f.\n", load_start, load_avg()))
cat(sprintf("Total bench runtime: %.1f s\n", proc.time()[["elapsed"]] - t_start))

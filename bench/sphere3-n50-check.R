## Issue 33, item 20: the conformance configuration sphere(3), n = 50,
## epsilon = 1 (geodesic regression, the fit at the centre, tight tau_m =
## 1.1 |v0|; data of conf_geodesic_data() in tests/testthat/helper-conformance.R,
## whose "sphere(3)" setting mirrors sphere(2)'s: radius 0.5, |v0| = 0.3,
## tau = 0.1, noise sd 0.01). Its law is diffuse: a mode, where the fit runs
## through the data, and a plateau of states whose 50 residuals are all
## clipped (level L near its largest value, about 10). The level test is
## nearly blind there, so this script compares coordinates:
##   * K releases at the default chain (dp_geodesic_regression(), bound =
##     "poster" as in bench/mcmc-conformance.R, so the stored configurations
##     are reproduced; the default is now "jacobi");
##   * the ends of chains FACTOR (20) times the default length, as many as fit
##     in BUDGET_ENDS seconds (same public start (c, 0));
##   * the level traces of such chains (diagnostics = TRUE: four chains per
##     call from public starts, every step after the burn-in kept), as many
##     calls as fit in BUDGET_TRACES seconds.
## Compared: |v| and d(centre, footpoint) (two-sample KS, releases against
## chain ends), the mode share (at least one residual below tau; binomial
## standard errors, two-proportion test), and the level share P(L < CUT)
## (releases against the pooled traces, the traces' standard error from the
## effective sample size of the indicator).
## Run from the package root (one core):
##   nice -n 10 Rscript bench/sphere3-n50-check.R [K BUDGET_ENDS BUDGET_TRACES FACTOR SEED CUT]
## Writes bench/sphere3-n50-check.csv (one row per draw: kind, coordinates)
## and bench/sphere3-n50-summary.csv.
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1, width = 200)
source(file.path("tests", "testthat", "helper-conformance.R"))
a <- commandArgs(trailingOnly = TRUE)
arg <- function(i, default) if (length(a) >= i) as.numeric(a[i]) else default
K <- arg(1, 2000)
budget_ends <- arg(2, 900)
budget_traces <- arg(3, 600)
factor <- arg(4, 20)
seed <- arg(5, 20261201)
cut <- arg(6, 7)
out_csv <- file.path("bench", "sphere3-n50-check.csv")
sum_csv <- file.path("bench", "sphere3-n50-summary.csv")

set.seed(seed)
d <- conf_geodesic_data("sphere(3)", 50L, 0, 1.1)
M <- d$M
D <- M$dim * 2L
len <- riemdp:::kng_chain_length(D, 50)
long_ctl <- mcmc_control(burn_in = as.integer(factor * len$burn_in), n_iter = as.integer(factor * len$n_iter),
                         verbose = FALSE)
release <- function(control = NULL, diagnostics = FALSE) {
  args <- list(M, d$x, d$Y, epsilon = 1, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range, center = d$center,
               radius = d$radius, bound = "poster", diagnostics = diagnostics)
  if (!is.null(control)) args$control <- control
  do.call(dp_geodesic_regression, args)
}
el <- function() proc.time()[["elapsed"]]
cat(sprintf("riemdp %s; sphere(3), n = 50, epsilon = 1, frac 0, tau_m %.3f, tau %.2f, radius %.2f; default chain %d + %d steps, reference %dx\n",
            utils::packageVersion("riemdp"), d$tau_m, d$tau, d$radius, len$burn_in, len$n_iter, factor))

# first: one release and one long chain
set.seed(seed + 1)
t0 <- el(); r1 <- release(); t_rel <- el() - t0
t0 <- el(); r2 <- release(long_ctl); t_long <- el() - t0
cat(sprintf("one release %.3f s, one %dx chain %.3f s; sigma %.4g\n", t_rel, factor, t_long, r1$sigma))

set.seed(seed + 2)
t0 <- el()
rel <- t(vapply(seq_len(K), function(i) conf_geodesic_coords(release(), d), numeric(4)))
s_rel <- (el() - t0) / K
cat(sprintf("%d releases: %.4f s each\n", K, s_rel))

set.seed(seed + 3)
t0 <- el()
ends <- list()
repeat {
  ends[[length(ends) + 1L]] <- conf_geodesic_coords(release(long_ctl), d)
  k <- length(ends)
  if ((el() - t0) * (k + 1) / k > budget_ends) break
}
ends <- do.call(rbind, ends)
s_end <- (el() - t0) / nrow(ends)
cat(sprintf("%d ends of %dx chains: %.3f s each\n", nrow(ends), factor, s_end))

set.seed(seed + 4)
t0 <- el()
traces <- list()
rhat <- 0
repeat {
  dg <- release(long_ctl, diagnostics = TRUE)$diagnostics
  traces[[length(traces) + 1L]] <- dg$trace
  rhat <- max(rhat, dg$rhat)
  k <- length(traces)
  if (k >= 2L && (el() - t0) * (k + 1) / k > budget_traces) break
}
s_call <- (el() - t0) / length(traces)
tr_share <- conf_level_share(traces, cut)
cat(sprintf("%d calls of four %dx chains (%.1f s each; largest split R-hat %.3f): P(L < %g) = %.4f (se %.4f, ESS %.0f of %d steps)\n",
            length(traces), factor, s_call, rhat, cut, tr_share[["share"]], tr_share[["se"]], tr_share[["ess"]],
            as.integer(tr_share[["steps"]])))

chk <- conf_coordinate_check(rel, ends)
p_rel_L <- mean(rel[, "L"] < cut)
se_rel_L <- sqrt(p_rel_L * (1 - p_rel_L) / K)
z_L <- (p_rel_L - tr_share[["share"]]) / sqrt(se_rel_L^2 + tr_share[["se"]]^2)
# the pooled traces thinned to about their effective sample size (KS of L)
pooled <- conf_pooled_levels(lapply(traces, function(tr) list(trace = tr)))
ks_L_traces <- suppressWarnings(stats::ks.test(signif(rel[, "L"], 10), signif(pooled, 10))$p.value)
cat(sprintf("mode share (>= 1 residual below tau): releases %.4f (se %.4f), %dx chain ends %.4f (se %.4f); z = %.2f, two-proportion p = %.3g\n",
            chk[["mode_rel"]], chk[["se_rel"]], factor, chk[["mode_ref"]], chk[["se_ref"]], chk[["z"]], chk[["prop_p"]]))
cat(sprintf("KS p, releases against chain ends: |v| %.3g, d(c, p) %.3g, L %.3g\n", chk[["ks_v"]], chk[["ks_dc"]], chk[["ks_L"]]))
cat(sprintf("level share P(L < %g): releases %.4f (se %.4f), pooled traces %.4f (se %.4f); z = %.2f; KS p of L against the thinned traces (%d draws) %.3g\n",
            cut, p_rel_L, se_rel_L, tr_share[["share"]], tr_share[["se"]], z_L, length(pooled), ks_L_traces))
cat(sprintf("quantiles (10, 50, 90%%) |v|: releases %s, ends %s; d(c, p): releases %s, ends %s\n",
            paste(round(stats::quantile(rel[, "v_norm"], c(.1, .5, .9)), 3), collapse = " "),
            paste(round(stats::quantile(ends[, "v_norm"], c(.1, .5, .9)), 3), collapse = " "),
            paste(round(stats::quantile(rel[, "d_center"], c(.1, .5, .9)), 3), collapse = " "),
            paste(round(stats::quantile(ends[, "d_center"], c(.1, .5, .9)), 3), collapse = " ")))

raw <- rbind(data.frame(kind = "release", rel), data.frame(kind = sprintf("chain%dx_end", factor), ends))
utils::write.csv(raw, out_csv, row.names = FALSE)
summ <- data.frame(manifold = "sphere(3)", n = 50, epsilon = 1, frac = 0, tau_m = "tight", bound = "poster",
                   seed = seed, K = K, K_ends = nrow(ends), trace_calls = length(traces), factor = factor,
                   s_release = signif(s_rel, 3), s_end = signif(s_end, 3), s_trace_call = signif(s_call, 3),
                   mode_rel = chk[["mode_rel"]], se_rel = signif(chk[["se_rel"]], 3), mode_ends = chk[["mode_ref"]],
                   se_ends = signif(chk[["se_ref"]], 3), z_mode = signif(chk[["z"]], 3), p_mode = signif(chk[["prop_p"]], 3),
                   ks_v = signif(chk[["ks_v"]], 3), ks_dc = signif(chk[["ks_dc"]], 3), ks_L_ends = signif(chk[["ks_L"]], 3),
                   cut = cut, level_share_rel = p_rel_L, se_level_rel = signif(se_rel_L, 3),
                   level_share_traces = signif(tr_share[["share"]], 5), se_level_traces = signif(tr_share[["se"]], 3),
                   ess_traces = round(tr_share[["ess"]]), z_level = signif(z_L, 3), ks_L_traces = signif(ks_L_traces, 3),
                   rhat = signif(rhat, 4), run = paste(c("Rscript bench/sphere3-n50-check.R", a), collapse = " "))
utils::write.csv(summ, sum_csv, row.names = FALSE)
cat("written", out_csv, "and", sum_csv, "\n")

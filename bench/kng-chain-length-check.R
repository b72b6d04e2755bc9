## Does the default chain of dp_geodesic_regression() reach its law where the
## conformance matrix flags a configuration? Releases of one configuration of
## bench/mcmc-conformance.R (its data re-made from the run's seed and the
## configuration's index) with the default chain and with chains 4, 10 and
## 40 times longer; the levels L = |grad E|/sigma are compared with the 99.9%
## quantile of that configuration's pooled long-chain reference (column
## ref_q999 of the run). Releases at the law put 1 in 1000 beyond it; a
## chain that has not reached the law puts more, and fewer as it grows.
## Run from the package root with the package installed:
##     Rscript bench/kng-chain-length-check.R [KEY N EPS FRAC TAU_FACTOR SEED Q999]
## Default: the kendall(8), n = 20, epsilon = 20, frac 0, tight row of the
## n = 20 run with --seed 20261127 (configuration 39; ref_q999 32.16).
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1)
source("tests/testthat/helper-conformance.R")
a <- commandArgs(trailingOnly = TRUE)
if (length(a) == 0L) a <- c("kendall(8)", "20", "20", "0", "1.1", as.character(20261127 + 39), "32.16")
key <- a[1]; n <- as.integer(a[2]); eps <- as.numeric(a[3]); frac <- as.numeric(a[4])
tau_factor <- as.numeric(a[5]); seed <- as.integer(a[6]); q999 <- as.numeric(a[7])
set.seed(seed)
d <- conf_geodesic_data(key, n, frac, tau_factor)
len <- riemdp:::kng_chain_length(d$M$dim * 2L)
rel_L <- function(control) {
  args <- list(d$M, d$x, d$Y, epsilon = eps, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
               center = d$center, radius = d$radius)
  if (!is.null(control)) args$control <- control
  conf_level_geodesic(do.call(dp_geodesic_regression, args), d$x, d$Y)
}
set.seed(5)
for (f in c(1L, 4L, 10L, 40L)) {
  ctl <- if (f == 1L) NULL else mcmc_control(burn_in = f * len$burn_in, n_iter = f * len$n_iter, verbose = FALSE)
  K <- if (f == 40L) 200L else 400L
  t0 <- proc.time()[["elapsed"]]
  L <- replicate(K, rel_L(ctl))
  cat(sprintf("chain x%-3d %d releases: level median %.2f, 99%% %.2f, max %.2f; beyond %.2f: %d; %.3f s per release\n",
              f, K, stats::median(L), stats::quantile(L, 0.99), max(L), q999, sum(L > q999),
              (proc.time()[["elapsed"]] - t0) / K))
}

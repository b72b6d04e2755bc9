## Does the default chain of dp_geodesic_regression() reach its law where the
## conformance matrix flags a configuration? Releases of one configuration of
## bench/mcmc-conformance.R (its data re-made from the run's seed and the
## configuration's index) with the default chain and with chains of 1, 4 and
## 10 times the base length 250 + 25 D (the default is the base length times
## min(20, ceiling(200 / n)): 10x at n = 20); the levels L = |grad E|/sigma
## are compared with the 99.9% quantile of that configuration's pooled
## long-chain reference (column ref_q999 of the run). Releases at the law
## put 1 in 1000 beyond it; a chain that has not reached the law puts more,
## and fewer as it grows.
## Run from the package root with the package installed:
##     Rscript bench/kng-chain-length-check.R [KEY N EPS FRAC TAU_FACTOR SEED Q999 [FACTORS]]
## Default: the kendall(8), n = 20, epsilon = 20, frac 0, tight row of the
## n = 20 run with --seed 20261127 (configuration 39; ref_q999 32.16), and
## FACTORS "1,4,10" (comma-separated multiples of the base length).
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1)
source("tests/testthat/helper-conformance.R")
a <- commandArgs(trailingOnly = TRUE)
if (length(a) == 0L) a <- c("kendall(8)", "20", "20", "0", "1.1", as.character(20261127 + 39), "32.16")
factors <- if (length(a) >= 8L) as.integer(strsplit(a[8], ",")[[1]]) else c(1L, 4L, 10L)
key <- a[1]; n <- as.integer(a[2]); eps <- as.numeric(a[3]); frac <- as.numeric(a[4])
tau_factor <- as.numeric(a[5]); seed <- as.integer(a[6]); q999 <- as.numeric(a[7])
set.seed(seed)
d <- conf_geodesic_data(key, n, frac, tau_factor)
len <- riemdp:::kng_chain_length(d$M$dim * 2L, Inf)  # the base length, 250 + 25 D
rel_L <- function(control) {
  # bound = "poster", as in bench/mcmc-conformance.R (the benchmarks article's runs)
  args <- list(d$M, d$x, d$Y, epsilon = eps, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
               center = d$center, radius = d$radius, bound = "poster")
  if (!is.null(control)) args$control <- control
  conf_level_geodesic(do.call(dp_geodesic_regression, args), d$x, d$Y)
}
set.seed(5)
default_factor <- riemdp:::kng_chain_factor(n)
for (f in c(0L, factors)) {
  ctl <- if (f == 0L) NULL else mcmc_control(burn_in = f * len$burn_in, n_iter = f * len$n_iter, verbose = FALSE)
  K <- if (f >= 40L) 200L else 400L
  t0 <- proc.time()[["elapsed"]]
  L <- replicate(K, rel_L(ctl))
  cat(sprintf("%-22s %d releases: level median %.2f, 99%% %.2f, max %.2f; beyond %.2f: %d; %.3f s per release\n",
              if (f == 0L) sprintf("default (%dx base)", default_factor) else sprintf("chain %dx base", f),
              K, stats::median(L), stats::quantile(L, 0.99), max(L), q999, sum(L > q999),
              (proc.time()[["elapsed"]] - t0) / K))
}

## A direct check of the KNG chain against a much longer chain, where the
## conformance bench's long-chain reference is small (bench/mcmc-conformance.R
## row kendall(8), n = 500, epsilon = 20, fit at 0.9 of the radius, tight
## tau_m: 12 reference releases). Four chains of 20x the default length and
## four of the default length, from the release's public starts, on the same
## data: the levels |grad E|/sigma they keep, against Gamma(24, 1).
## Run from the package root: Rscript bench/kng-long-chain-check.R
suppressPackageStartupMessages(library(riemdp))
options(rgl.useNULL = TRUE)
set.seed(20300201 + 3)
d <- conf_geodesic_data("kendall(8)", 500L, 0.9, 1.1)
M <- d$M
cat("tau_m", d$tau_m, "speed", d$speed, "\n")
S <- riemdp:::as_points(M, d$Y, "Y")
U <- matrix(d$u, ncol = 1L)
sens <- riemdp:::regression_sensitivity(M, 500, d$tau, d$tau_m, "poster", m = 1L)
sigma <- 2 * sens[["joint"]] / 20
C <- riemdp:::as_points(M, d$center, "center")
run <- function(burn, iter, keep, chains = 4L) {
  ctl <- list(burn_in = as.integer(burn), n_iter = as.integer(iter), adapt = TRUE, target_accept = 0.3, verbose = FALSE)
  st <- riemdp:::kng_chain_starts(M, C$x, d$radius, d$tau_m, 1L, chains)
  t0 <- proc.time()[[3]]
  res <- riemdp:::samp_kng_chain(M, S, U, sigma, d$tau, C$x, d$radius, d$tau_m, st$p, as.double(st$V), as.integer(keep), ctl, "joint", NULL, NULL)
  cat(sprintf("burn %d iter %d: %.1f s; level medians per chain: %s; split Rhat %.3f; acc local %s ind %s\n", burn, iter, proc.time()[[3]] - t0,
      paste(round(apply(res$trace, 2, median), 2), collapse = " "), riemdp:::split_rhat(res$trace),
      paste(round(res$acceptance_local, 2), collapse=" "), paste(round(res$acceptance_independence, 3), collapse=" ")))
  res$trace
}
tr_long <- run(17000, 17000, 170)
tr_def <- run(850, 850, 85)
cat("long-chain kept levels: median", median(tr_long), " quantiles", round(quantile(tr_long, c(.1,.5,.9)), 2), "\n")
cat("default-chain kept levels (second half): median", median(tr_def), round(quantile(tr_def, c(.1,.5,.9)), 2), "\n")
cat("Gamma(24) quantiles", round(qgamma(c(.1,.5,.9), 24), 2), "\n")

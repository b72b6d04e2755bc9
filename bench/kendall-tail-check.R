## Is the kendall(8), n = 500, epsilon = 2, frac 0.5, loose tau_m row of
## bench/mcmc-conformance.R (a few of 400 releases beyond the reference's
## 99.9% quantile) stuck releases or the shape of the law's upper tail?
## Prints the top levels of 400 default releases beside those of 50
## releases with a 20x longer chain: stuck releases would sit far above
## every reference (tens of nats), a heavier tail would not.
## Run from the package root with the package installed:
##     Rscript bench/kendall-tail-check.R     (about 7 minutes on 2 cores)
suppressPackageStartupMessages(library(riemdp))
source("tests/testthat/helper-conformance.R")
set.seed(20250101 + 1)
d <- conf_geodesic_data("kendall(8)", 500L, 0.5, 4)
rel_L <- function(control = NULL) {
  args <- list(d$M, d$x, d$Y, epsilon = 2, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range, center = d$center, radius = d$radius)
  if (!is.null(control)) args$control <- control
  conf_level_geodesic(do.call(dp_geodesic_regression, args), d$x, d$Y)
}
len <- riemdp:::kng_chain_length(24, 500)
long <- mcmc_control(burn_in = as.integer(20 * len$burn_in), n_iter = as.integer(20 * len$n_iter), verbose = FALSE)
set.seed(9); L <- replicate(400, rel_L())
set.seed(10); R <- replicate(50, rel_L(long))
sh <- mean(R)^2 / var(R); rt <- mean(R) / var(R)
cat("default: top 8 levels", round(sort(L, TRUE)[1:8], 2), "\n")
cat("reference (50): top 5", round(sort(R, TRUE)[1:5], 2), " median", round(median(R), 2), " gamma-fit q999", round(qgamma(0.999, sh, rt), 2), "\n")
cat("default median", round(median(L), 2), "; beyond q999:", sum(L > qgamma(0.999, sh, rt)), "of 400; beyond max ref:", sum(L > max(R)), "\n")

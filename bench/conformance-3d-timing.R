## Issue 33, item 20: time of one release (and one chain 20x the default) of
## the geodesic regression and the Frechet KNG on sphere(3), hyperbolic(3)
## and spd(3) at n = 50 and 2000 (the data of bench/mcmc-conformance.R: fit at
## the centre, tight tau_m, epsilon = 2, bound = "poster"), to plan their rows
## of the conformance matrix. One core:
##   nice -n 10 Rscript bench/conformance-3d-timing.R
suppressPackageStartupMessages(library(riemdp))
options(riemdp.threads = 1)
source(file.path("tests", "testthat", "helper-conformance.R"))
el <- function() proc.time()[["elapsed"]]
out <- NULL
for (key in c("sphere(3)", "hyperbolic(3)", "spd(3)")) for (n in c(50L, 2000L)) {
  set.seed(1)
  d <- conf_geodesic_data(key, n, 0, 1.1)
  D <- d$M$dim * 2L
  len <- riemdp:::kng_chain_length(D, n)
  g <- function(control = NULL) {
    args <- list(d$M, d$x, d$Y, epsilon = 2, tau = d$tau, tau_m = d$tau_m, x_range = d$x_range,
                 center = d$center, radius = d$radius, bound = "poster")
    if (!is.null(control)) args$control <- control
    do.call(dp_geodesic_regression, args)
  }
  g()   # warm-up
  t0 <- el(); g(); t_g <- el() - t0
  t0 <- el(); g(mcmc_control(burn_in = 20L * len$burn_in, n_iter = 20L * len$n_iter, verbose = FALSE)); t_g20 <- el() - t0
  set.seed(1)
  f <- conf_frechet_data(key, n, 0)
  dp_frechet_mean(f$M, f$X, epsilon = 2, radius = f$radius, center = f$center, mechanism = "kng")
  t0 <- el(); dp_frechet_mean(f$M, f$X, epsilon = 2, radius = f$radius, center = f$center, mechanism = "kng")
  t_f <- el() - t0
  row <- data.frame(manifold = key, n = n, geodesic_s = signif(t_g, 3), geodesic_20x_s = signif(t_g20, 3),
                    frechet_s = signif(t_f, 3))
  print(row, row.names = FALSE)
  out <- rbind(out, row)
}
print(out, row.names = FALSE)

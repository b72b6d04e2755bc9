## The K-norm gradient releases at their default chains, against their targets
## (utility, time, convergence), in one run:
##   1. quakes, mag ~ stations + depth (n = 1000), epsilon 0.5, 1, 2, 5: median
##      in-sample MSE / lm()'s over R releases, against DPpack::LinearRegressionDP
##      at the same epsilon; ms per release.
##   2. rat skulls (manifold_kendall(8)) at the demo's public parameters: the
##      releases' level |grad E|/sigma against Gamma(24, 1); s per release.
##   3. sphere(2), n = 500, epsilon = 2, public ball of radius 0.5 whose centre
##      is 0.3 from the data's fit: releases beyond qgamma(0.999, 4) ("stuck").
##   4. KNG Frechet mean of 10^6 points on S^2: s per release.
## Run from the package root with riemdp installed:
##     Rscript bench/kng-targets.R [releases]    (default 200)
suppressPackageStartupMessages(library(riemdp))
source("bench/ensure-package.R")
source("tests/testthat/helper-conformance.R")
args <- commandArgs(TRUE)
R <- if (length(args)) as.integer(args[1]) else 200L
t_all <- proc.time()[["elapsed"]]
timed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  v <- force(expr)
  list(v = v, secs = proc.time()[["elapsed"]] - t0)
}

## ---- 1. quakes ------------------------------------------------------------------
cat("== 1. quakes, mag ~ stations + depth (n = 1000), tau = 0.5, stations in [0, 150], depth in [0, 700], beta_max = 6\n")
has_dppack <- ensure_package("DPpack", "  ")
X <- as.matrix(quakes[, c("stations", "depth")])
y <- quakes$mag
fit <- stats::lm(mag ~ stations + depth, quakes)
mse_lm <- mean(stats::resid(fit)^2)
mse <- function(b) mean((y - cbind(1, X) %*% b)^2) / mse_lm
release <- function(eps) coef(dp_linear_regression(mag ~ stations + depth, quakes, epsilon = eps, tau = 0.5,
                                                   x_range = list(stations = c(0, 150), depth = c(0, 700)),
                                                   beta_max = 6))
## DPpack: pure epsilon-DP, l2 regularisation gamma = 1 (its help page), the
## same public ranges, magnitudes in [4, 6.5] (the catalogue's range: Richter
## 4.0 and up, none above 6.5 in the region).
dppack <- function(eps) {
  lr <- DPpack::LinearRegressionDP$new("l2", eps, 0, 1, function(coeff) coeff)
  lr$fit(data.frame(X), y, c(150, 700, 6.5), c(0, 0, 4), add.bias = TRUE)
  as.double(lr$coeff)
}
set.seed(1)
for (eps in c(0.5, 1, 2, 5)) {
  rr <- timed(vapply(seq_len(R), function(i) mse(release(eps)), numeric(1)))
  dp <- if (has_dppack) vapply(seq_len(R), function(i) mse(dppack(eps)), numeric(1)) else NA_real_
  cat(sprintf("  epsilon %-4s riemdp median MSE/lm %.3f (10%%-90%%: %.3f-%.3f), %.1f ms per release; DPpack median %s\n",
              format(eps), stats::median(rr$v), stats::quantile(rr$v, 0.1), stats::quantile(rr$v, 0.9),
              1000 * rr$secs / R, if (has_dppack) sprintf("%.3f", stats::median(dp)) else "not available"))
}

## ---- 2. rats ----------------------------------------------------------------------
cat("\n== 2. rat skulls, manifold_kendall(8), epsilon = 20, the demo's public parameters\n")
if (requireNamespace("shapes", quietly = TRUE)) {
  K <- manifold_kendall(8)
  rats <- NULL
  utils::data("rats", package = "shapes", envir = environment())
  age <- rats$time
  Yr <- rats$x
  oct <- cbind(cos(-2 * pi * (0:7) / 8), sin(-2 * pi * (0:7) / 8))
  rel_r <- function() dp_geodesic_regression(K, age, Yr, epsilon = 20, tau = 0.1, tau_m = 0.5, x_range = c(7, 150),
                                             center = oct, radius = pi / 4)
  Rr <- min(R, 40L)
  set.seed(2)
  rr <- timed(vapply(seq_len(Rr), function(i) conf_level_geodesic(rel_r(), age, Yr), numeric(1)))
  cat(sprintf("  %d releases: level median %.1f (Gamma(24, 1): %.1f), max %.1f (99.9%% quantile %.1f); %.2f s per release\n",
              Rr, stats::median(rr$v), stats::qgamma(0.5, 24), max(rr$v), stats::qgamma(0.999, 24), rr$secs / Rr))
} else cat("  shapes is not installed: skipped\n")

## ---- 3. sphere, fit 0.3 from the centre ---------------------------------------------
cat("\n== 3. sphere(2), n = 500, epsilon = 2, radius 0.5, centre 0.3 from the fit, tau = 0.1, tau_m = 1\n")
S2 <- manifold_sphere(2)
set.seed(3)
xs <- runif(500)
Ys <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), xs) + matrix(rnorm(1500, sd = 0.02), 500))
cs <- riem_exp(S2, c(0, 0, 1), c(0.3, 0, 0))
Rs <- 2L * R
rr <- timed(vapply(seq_len(Rs), function(i) {
  conf_level_geodesic(dp_geodesic_regression(S2, xs, Ys, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                             center = cs, radius = 0.5), xs, Ys)
}, numeric(1)))
cat(sprintf("  %d releases: %d beyond qgamma(0.999, 4) = %.1f (level max %.1f, median %.2f); %.1f ms per release\n",
            Rs, sum(rr$v > stats::qgamma(0.999, 4)), stats::qgamma(0.999, 4), max(rr$v), stats::median(rr$v),
            1000 * rr$secs / Rs))

## ---- 4. Frechet KNG at n = 10^6 ------------------------------------------------------
cat("\n== 4. KNG Frechet mean of 10^6 points on S^2, epsilon = 1, radius pi/8\n")
set.seed(4)
th <- runif(1e6, 0, pi / 8)
ph <- runif(1e6, 0, 2 * pi)
Xf <- cbind(sin(th) * cos(ph), sin(th) * sin(ph), cos(th))
rf <- timed(dp_frechet_mean(S2, Xf, epsilon = 1, radius = pi / 8, center = c(0, 0, 1), mechanism = "kng"))
cat(sprintf("  one release: %.2f s (%d chain steps)\n", rf$secs, rf$v$control$burn_in + rf$v$control$n_iter))
cat(sprintf("\ntotal %.0f s\n", proc.time()[["elapsed"]] - t_all))

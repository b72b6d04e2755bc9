## Size and power of the test of no effect of a private geodesic regression
## (summary(release, moments = ), the parametric bootstrap under the null;
## issue 34).
##
##   Rscript bench/geodesic-test-size.R [--manifold sphere|hyperbolic]
##       [--n 50,500] [--epsilon 0.5,2,10] [--slope 0] [--trials 400]
##       [--B 200] [--share 0.25] [--seed 1] [--csv PATH]
##
## Data: x uniform on [0, 1] (public range), points on the geodesic from the
## north pole (S^2; the origin of H^2) moving `slope` over the range, with
## isotropic Gaussian tangent noise of root mean square 0.05. Release:
## epsilon, tau = 0.2, tau_m = 1, ball of radius 0.5 about the pole; the
## moments are a dp_regression_moments() release at `share` times epsilon.
## Reports the rejection rate at 5% and 1% (the size when slope = 0, the
## power otherwise) and the median p-value.
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
arg_value <- function(name, default) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}
man <- arg_value("--manifold", "sphere")
n_set <- as.integer(strsplit(arg_value("--n", "50,500"), ",")[[1]])
eps_set <- as.numeric(strsplit(arg_value("--epsilon", "0.5,2,10"), ",")[[1]])
slope_set <- as.numeric(strsplit(arg_value("--slope", "0"), ",")[[1]])
trials <- as.integer(arg_value("--trials", "400"))
B <- as.integer(arg_value("--B", "200"))
share <- as.numeric(arg_value("--share", "0.25"))
seed <- as.integer(arg_value("--seed", "1"))
csv <- arg_value("--csv", "geodesic-test-size.csv")
M <- if (man == "sphere") manifold_sphere(2) else manifold_hyperbolic(2)
o <- if (man == "sphere") c(0, 0, 1) else c(1, 0, 0)
dir <- c(0, 1, 0)
rows <- list()
for (slope in slope_set) for (n in n_set) for (eps in eps_set) {
  set.seed(seed + 1000 * n + round(100 * eps) + round(1e4 * slope))
  t0 <- proc.time()[["elapsed"]]
  p <- numeric(trials)
  for (t in seq_len(trials)) {
    x <- runif(n)
    G <- riem_geodesic(M, o, slope * dir, x)
    Y <- riem_exp(M, G, t(vapply(seq_len(n), function(i) {
      B2 <- riemdp:::geom_tangent_basis(M, riemdp:::acc_set(G[i, ]))
      drop(B2 %*% rnorm(2, sd = 0.05 / sqrt(2)))
    }, numeric(3))))
    rel <- dp_geodesic_regression(M, x, Y, epsilon = eps, tau = 0.2, tau_m = 1, x_range = c(0, 1), center = o, radius = 0.5)
    mom <- dp_regression_moments(rel, x = x, Y = Y, epsilon = share * eps)
    p[t] <- summary(rel, moments = mom, B = B, seed = seed + t)$no_effect_test$p.value
  }
  row <- data.frame(manifold = manifold_label_short <- if (man == "sphere") "sphere(2)" else "hyperbolic(2)",
                    n = n, epsilon = eps, slope = slope, share = share, trials = trials, B = B,
                    reject_05 = mean(p <= 0.05), reject_01 = mean(p <= 0.01), median_p = median(p),
                    secs = round(proc.time()[["elapsed"]] - t0), seed = seed, stringsAsFactors = FALSE)
  print(row)
  rows[[length(rows) + 1L]] <- row
  utils::write.csv(do.call(rbind, rows), csv, row.names = FALSE)
}

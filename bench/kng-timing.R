## Run time of a K-norm gradient release against its data: for each problem, a
## dataset, an adjacent one (one record replaced by an extreme one) and a
## far-apart one of the same size, released in turn (interleaved, so that the
## machine's load affects all three alike). The time must not depend on the
## data beyond n: the medians should agree within 10%.
## Run from the package root with riemdp installed:
##     Rscript bench/kng-timing.R [rounds]    (default 60)
suppressPackageStartupMessages(library(riemdp))
args <- commandArgs(TRUE)
rounds <- if (length(args)) as.integer(args[1]) else 60L
time_of <- function(f) {
  t0 <- proc.time()[["elapsed"]]
  f()
  proc.time()[["elapsed"]] - t0
}
compare <- function(label, releases) {
  set.seed(1)
  t <- matrix(NA_real_, rounds, length(releases), dimnames = list(NULL, names(releases)))
  for (r in seq_len(rounds)) for (k in seq_along(releases)) t[r, k] <- time_of(releases[[k]])
  med <- apply(t, 2, stats::median)
  cat(sprintf("%-44s %s; largest ratio %.3f\n", label,
              paste(sprintf("%s %.2f ms", names(med), 1000 * med), collapse = ", "), max(med) / min(med)))
}

## 1. quakes, mag ~ stations + depth (n = 1000)
q_adj <- quakes
q_adj$mag[1] <- 6.4
q_adj$stations[1] <- 150
q_far <- quakes
set.seed(7)
q_far$mag <- 4 + 2.4 * runif(1000)
q_far$stations <- round(150 * runif(1000))
q_far$depth <- 700 * runif(1000)
lin <- function(d) function() dp_linear_regression(mag ~ stations + depth, d, epsilon = 1, tau = 0.5,
                                                   x_range = list(stations = c(0, 150), depth = c(0, 700)),
                                                   beta_max = 6)
compare("linear, quakes (n = 1000)", list(data = lin(quakes), adjacent = lin(q_adj), far = lin(q_far)))

## 2. sphere(2), n = 500: fit at the centre; one point moved to the ball's edge;
## the fit 0.45 from the centre with a steeper geodesic
S2 <- manifold_sphere(2)
set.seed(3)
x <- runif(500)
Y <- riem_project(S2, riem_geodesic(S2, c(0, 0, 1), c(0.3, 0.2, 0), x) + matrix(rnorm(1500, sd = 0.02), 500))
Y_adj <- Y
Y_adj[1, ] <- c(sin(0.5), 0, cos(0.5))
Y_far <- riem_project(S2, riem_geodesic(S2, c(sin(0.45), 0, cos(0.45)), c(0, 0.8, 0), x) +
                        matrix(rnorm(1500, sd = 0.05), 500))
geo <- function(Y) function() dp_geodesic_regression(S2, x, Y, epsilon = 2, tau = 0.1, tau_m = 1, x_range = c(0, 1),
                                                     center = c(0, 0, 1), radius = 0.5)
compare("geodesic, sphere(2) (n = 500)", list(data = geo(Y), adjacent = geo(Y_adj), far = geo(Y_far)))
